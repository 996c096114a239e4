"""Writers of a solved :class:`scheduler.plan.Plan`: pure functions of the plan (no file I/O).

``ical.calendar_files`` renders the iCalendar feeds; ``checklist`` holds the *list*-kind
obligations of RULES.md and the plain-language readings printed with every event.
"""
