"""The scenario's filters of first days: an occurrence within the horizon (``HORIZON``), starting
within its tournament's window (``WINDOW``) on one of its weekdays (``WEEKDAYS``), and on no
blackout day of its operators (``BLACKOUT``). Each rule: ``allows`` (and ``allows_day`` /
``allows_days`` where a first day alone decides) and its independent ``check``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

from constraints.base import Audit, Rule, Violation
from constraints.common.violations import _v
from scheduler.scenario import WEEKDAYS, Scenario, Tournament
from scheduler.timing import Timing


def _weekday(day: dt.date) -> str:
    return WEEKDAYS[day.weekday()]


# ------------------------------------------------------------------ HORIZON
def _in_horizon(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return sc.horizon.start <= tm.first_day and tm.last_day <= sc.horizon.end


def _check_horizon(a: Audit) -> Iterator[Violation]:
    h = a.scenario.horizon
    for p in a.placed:
        if min(p.timing.days) < h.start or max(p.timing.days) > h.end:
            yield _v("HORIZON", p, f"{p.ref} runs {p.first_day}..{p.timing.last_day}, outside "
                     f"the horizon {a.scenario.horizon.start}..{a.scenario.horizon.end}")


HORIZON = Rule("HORIZON", allows=_in_horizon, check=_check_horizon)


# ------------------------------------------------------------------ WINDOW
def _in_window(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.window is None or tm.first_day in t.window


def _check_window(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        w = p.tournament.window
        if w is not None and p.first_day not in w:
            yield _v("WINDOW", p, f"{p.ref} starts on {p.first_day}, outside its window "
                     f"{w.start}..{w.end}")


def _day_in_window(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.window is None or day in t.window


def _days_in_window(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`_day_in_window` of each of ``days`` (WINDOW), in one pass."""
    w = t.window
    if w is None:
        return [True] * len(days)
    start, end = w.start, w.end
    return [start <= d <= end for d in days]


WINDOW = Rule("WINDOW", allows=_in_window, check=_check_window, allows_day=_day_in_window,
              allows_days=_days_in_window)


# ------------------------------------------------------------------ WEEKDAYS
def _on_weekday(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.weekdays is None or _weekday(tm.first_day) in t.weekdays


def _check_weekdays(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        wd = p.tournament.weekdays
        if wd is not None and _weekday(p.first_day) not in wd:
            yield _v("WEEKDAYS", p, f"{p.ref} starts on a {_weekday(p.first_day)} "
                     f"({p.first_day}); allowed: {', '.join(wd)}")


def _day_on_weekday(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.weekdays is None or _weekday(day) in t.weekdays


def _days_on_weekday(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`_day_on_weekday` of each of ``days`` (WEEKDAYS), in one pass: each weekday
    (0 = Monday) judged once."""
    if t.weekdays is None:
        return [True] * len(days)
    ok = [WEEKDAYS[k] in t.weekdays for k in range(7)]
    return [ok[d.weekday()] for d in days]


WEEKDAY_RULE = Rule("WEEKDAYS", allows=_on_weekday, check=_check_weekdays,
                    allows_day=_day_on_weekday, allows_days=_days_on_weekday)


# ------------------------------------------------------------------ BLACKOUT
def _blacked_out(sc: Scenario, t: Tournament, tm: Timing) -> list[tuple[str, dt.date]]:
    out: list[tuple[str, dt.date]] = []
    for oid in t.operators:
        bl = sc.operator(oid).blackout  # a Days: `in` in constant time
        out.extend((oid, d) for d in tm.days if d in bl)
    return out


def _no_blackout(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return not _blacked_out(sc, t, tm)


def _check_blackout(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        for oid in p.tournament.operators:
            bl = a.scenario.operator(oid).blackout  # a Days: `in` in constant time
            for d in sorted({d for d in p.timing.days if d in bl}):
                yield Violation("BLACKOUT", oid, (p.ref,), d.isoformat(),
                            f"{p.ref} is conducted on {d}, a blackout day of "
                            f"{a.scenario.operator(oid).name}")


BLACKOUT = Rule("BLACKOUT", allows=_no_blackout, check=_check_blackout)
