"""Outputs of a solved :class:`scheduler.plan.Plan`, the layer above it (docs/architecture.md).

Renderers are pure functions of the plan that return text or bytes and write nothing:
``tables`` (the CSVs), ``ical`` (the iCalendar feeds), ``summary`` (the text summary),
``figures`` (matplotlib pictures), ``report`` (report.html), ``checklist`` (the *list*-kind
obligations of RULES.md and the plain-language readings printed with every event). File I/O
lives in ``write`` (a plan folder, atomically) and ``caldav`` (``tourney publish`` to a
CalDAV server).
"""
