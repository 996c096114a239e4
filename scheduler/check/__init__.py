"""Audit a schedule against the law without trusting any solver.

``tourney check SCENARIO SCHEDULE`` reads a ``schedule.csv`` written by the product, or an
``.ics`` file (the product's own, or one edited in a calendar application), matches its events
to the scenario's tournaments, and runs every rule's independent ``check`` (plain Python over
the placed occurrences; see ``constraints/``). Cost rules (MT-PERMIT-FEES, ME-FEES) are checked
only when a ``licenses.csv`` lies beside the schedule.

The package, one module per responsibility (docs/architecture.md), each importing only those
below it:

- :mod:`scheduler.check.read`: :func:`read_schedule` (a schedule.csv or a calendar, the
  licenses.csv beside it) and :func:`calendar_operator` (whose calendar it is);
- :mod:`scheduler.check.auditing`: :func:`audit` (every rule's ``check``) and the violations
  as a table (:func:`violation_table`, :func:`check_table`) and as JSON records
  (:func:`check_records`);
- :mod:`scheduler.check.ics`: a calendar read back (expanded, kinds sorted out, games matched
  and numbered);
- :mod:`scheduler.check.schedule_csv`: a schedule.csv and a licenses.csv read back;
- :mod:`scheduler.check.events`: one event read as a game (its tournament, session, timing);
- :mod:`scheduler.check.kinds`: what an event is (:func:`event_kind`), the properties it may
  hold once (:data:`SINGLE_PROPERTIES`), forged kinds;
- :mod:`scheduler.check.schedule`: :class:`ReadSchedule`, :class:`ScheduleError` and how a
  message shows a cell or an event's text.
"""
