"""Inputs: a scenario read from YAML or a workbook and checked, and a previous plan to re-plan.

Above the rules (``constraints``), which check the scenario's terms; below the result and the
engine (see docs/architecture.md).
"""
