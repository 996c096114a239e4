"""The core: the scenario, its fields and dates, and safe file writing.

The bottom layer of ``scheduler``: the validated :class:`~scheduler.core.scenario.Scenario`,
its field types, time zones and business days (``timing``), event UIDs, and atomic writes.
It imports nothing of the layers above (see docs/architecture.md).
"""
