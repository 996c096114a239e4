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

from scheduler.inputs.replan.assign import (
    Identity,
    assign,
    deadline_passed,
    licence_deadline_uids,
    pinned,
    series_history,
    series_tournament,
    series_uids,
    with_pins,
)
from scheduler.inputs.replan.cancel import (
    DEADLINE_KIND,
    Cancellation,
    Carried,
    carried_deadlines,
    content_sequence,
    departure_lines,
    dropped,
    dropped_series,
    is_past,
    left,
    replaced_sequence,
    sequence_floor,
    series_sequence,
    session_sequence,
    vanished,
)
from scheduler.inputs.replan.previous import (
    Cancelled,
    PreviousError,
    PreviousEvent,
    PreviousSeries,
    PublishedOccurrence,
    fingerprint,
    previous_dtstamp,
    previous_events,
    previous_operators,
    previous_series,
)
from scheduler.inputs.replan.read import Previous, holds_plan, own_previous, read_previous

__all__ = [
    "DEADLINE_KIND", "Cancellation", "Cancelled", "Carried", "Identity", "Previous",
    "PreviousError", "PreviousEvent", "PreviousSeries", "PublishedOccurrence", "assign",
    "carried_deadlines", "content_sequence", "deadline_passed", "departure_lines",
    "dropped", "dropped_series", "fingerprint", "holds_plan", "is_past", "left",
    "licence_deadline_uids", "own_previous", "pinned", "previous_dtstamp", "previous_events",
    "previous_operators", "previous_series", "read_previous", "replaced_sequence",
    "sequence_floor", "series_history", "series_sequence", "series_tournament",
    "series_uids", "session_sequence", "vanished", "with_pins",
]
