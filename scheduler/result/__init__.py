"""The result: a finished :class:`~scheduler.result.plan.Plan` and what it is made of.

Occurrences, licences, limit usage, deadlines, conflicts and the publishing state. The engine
fills a Plan; the outputs read it (see docs/architecture.md).
"""
