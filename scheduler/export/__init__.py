"""Outputs of a solved :class:`scheduler.result.plan.Plan`, the layer above it
(docs/architecture.md).

Renderers are pure functions of the plan that return text or bytes and write nothing:
``tables`` (the CSVs), ``deadlines`` (deadlines.csv: what to file by when), ``ical`` (the
iCalendar feeds, with ``ical_text``, ``ical_describe``, ``ical_events`` and
``ical_series``), ``summary`` (the text summary), ``figures`` (matplotlib pictures),
``report`` (report.html), ``xlsx`` (plan.xlsx, the plan as a workbook), ``checklist`` (the
*list*-kind obligations each rule owns, and the plain-language readings printed with every
event). File I/O lives in ``write`` (a plan folder, atomically) and ``caldav`` (``tourney
publish`` to a CalDAV server).
"""
