"""Re-planning without chaos: keep what was announced, move as little as possible.

``tourney solve SCENARIO --previous OLD`` (a plan directory or its ``calendar.ics``):

- an occurrence that was announced keeps its UID (RFC 5545 §3.8.4.7); when it moves, its
  SEQUENCE goes up by one (§3.8.7.4) and DTSTAMP is new;
- an occurrence whose filing deadline has passed (MT notice due, ME application due, or the
  first day itself for unlicensed events, before ``notice_from``) or whose tournament is
  ``locked`` is pinned to its day;
- the others move as little as possible: after the lexicographic objective of a plan
  (placed, fees, preferred weekdays), fewest moved occurrences, then fewest days moved;
- an announced occurrence that is no longer in the plan is published as STATUS:CANCELLED
  with its UID, so subscribers' calendars drop it.

The package, one module per responsibility (docs/architecture.md):

- :mod:`scheduler.inputs.replan.previous`: the previous plan's calendars read back (occurrences,
  series, every event); a calendar that cannot be read is an error naming the file;
- :mod:`scheduler.inputs.replan.read`: a previous plan folder, schedule.csv or calendar.ics read
  (:func:`read_previous`), of the scenario's operators only;
- :mod:`scheduler.inputs.replan.assign`: pins, UIDs and SEQUENCEs of the new occurrences and series,
  the announced occurrences dropped;
- :mod:`scheduler.inputs.replan.cancel`: the cancellation policy: what the new calendars publish as
  STATUS:CANCELLED, and the SEQUENCE every event gets (the calendar writer renders it, it does
  not decide).
"""


__all__ = [
]
