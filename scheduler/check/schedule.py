"""What ``tourney check`` reads a schedule into (:class:`ReadSchedule`), the error it raises when
a schedule file cannot be read (:class:`ScheduleError`, exit 2), and how a cell or an event's
text is shown in its messages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from constraints.base import License, Occurrence
from scheduler.core.errors import TourneyError


class ScheduleError(TourneyError, ValueError):
    """The schedule file cannot be read (exit 2): names the file, the row or event, the field."""


@dataclass
class ReadSchedule:
    """What was read: occurrences matched to tournaments, and events that matched none."""

    placed: list[Occurrence]
    unmatched: list[str] = field(default_factory=list)
    licenses: list[License] | None = None
    operators: frozenset[str] | None = None
    not_checked: list[str] = field(default_factory=list)
    """Events read but not checked, each with the reason (a deadline, a cancelled event, a
    recurring event cut at its instance limit)."""
    settled: dict[str, set[dt.date]] = field(default_factory=dict)
    """Tournament id -> first days of rows whose ``status`` is ``held`` or ``filed``
    (schedule.csv): history, judged on what happened; their notice or application is not
    judged again from the scenario's ``notice_from`` (MT-NOTICE, ME-APPLICATION-WINDOW)."""
    held: list[tuple[str, str, dt.date]] = field(default_factory=list)
    """The rows whose ``status`` is ``held``: (where, as a message names it, ``tournament_id#k``,
    its first day); :func:`scheduler.check.read.read_schedule` refuses one whose first day is
    after the as-of day (nothing is held before it is played)."""
    permits_held: dict[str, set[str]] = field(default_factory=dict)
    """Operator id -> permit kinds (``large-stakes``, ``small-stakes``) a schedule.csv says
    were held before the plan: a Montana row with a ``permit_year`` and no ``license_id``,
    which ``tourney solve`` writes for a permit it did not buy because it was held
    (``held_in_current_permit_year.permits``, or the ledger's permits with ``--ledger``;
    MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b))."""


def cut_value(value: object) -> str:
    """A cell as shown in a message: ``repr``, cut to 80 characters."""
    text = str(value)
    return repr(text) if len(text) <= 80 else f"{text[:80]!r}... ({len(text):,} characters)"


def short(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters, control characters escaped (a calendar's text
    reaches the terminal)."""
    shown = text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"
    return shown.encode("unicode_escape").decode("ascii") if not shown.isprintable() else shown

