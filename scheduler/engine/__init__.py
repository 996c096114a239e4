"""The engine: the CP-SAT model, its lexicographic stages, the parts and the reasons.

Builds the model from the rules (``constraints``), solves it and extracts a
:class:`~scheduler.result.plan.Plan` (see docs/architecture.md).
"""
