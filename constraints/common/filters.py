"""The scenario's filters of first days: an occurrence within the horizon (``HORIZON``), starting
within its tournament's window (``WINDOW``) on one of its weekdays (``WEEKDAYS``), on no
blackout day of its operators (``BLACKOUT``), and not on a day whose occurrence was recorded
cancelled (``CANCELLED``, unless ``reuse_cancelled_days``). Each rule: ``allows`` (and
``allows_day`` / ``allows_days`` where a first day alone decides) and its independent
``check``.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence

from constraints.base import Audit, Rule, Violation
from constraints.common.violations import violation
from scheduler.core.fields import WEEKDAYS
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import Timing


def _weekday(day: dt.date) -> str:
    return WEEKDAYS[day.weekday()]


# ------------------------------------------------------------------ HORIZON
def _in_horizon(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return sc.horizon.start <= tm.first_day and tm.last_day <= sc.horizon.end


def _check_horizon(a: Audit) -> Iterator[Violation]:
    h = a.scenario.horizon
    for p in a.placed:
        if min(p.timing.days) < h.start or max(p.timing.days) > h.end:
            yield violation("HORIZON", p, f"{p.ref} runs {p.first_day}..{p.timing.last_day}, "
                            f"outside the horizon {h.start}..{h.end}")


def _in_horizon_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_in_horizon` of each of ``tms`` (HORIZON), in one pass."""
    start, end = sc.horizon.start, sc.horizon.end
    return [start <= tm.days[0] and tm.days[-1] <= end for tm in tms]


HORIZON = Rule("HORIZON", allows=_in_horizon, check=_check_horizon,
               allows_many=_in_horizon_many)


# ------------------------------------------------------------------ WINDOW
def _in_window(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.window is None or tm.first_day in t.window


def _check_window(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        w = p.tournament.window
        if w is not None and p.first_day not in w:
            yield violation("WINDOW", p, f"{p.ref} starts on {p.first_day}, outside its window "
                            f"{w.start}..{w.end}")


def day_in_window(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.window is None or day in t.window


def days_in_window(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`day_in_window` of each of ``days`` (WINDOW), in one pass."""
    w = t.window
    if w is None:
        return [True] * len(days)
    start, end = w.start, w.end
    return [start <= d <= end for d in days]


def _in_window_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_in_window` of each of ``tms`` (WINDOW), in one pass."""
    return days_in_window(sc, t, [tm.days[0] for tm in tms])


WINDOW = Rule("WINDOW", allows=_in_window, check=_check_window, allows_day=day_in_window,
              allows_days=days_in_window, allows_many=_in_window_many)


# ------------------------------------------------------------------ WEEKDAYS
def _on_weekday(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.weekdays is None or _weekday(tm.first_day) in t.weekdays


def _check_weekdays(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        wd = p.tournament.weekdays
        if wd is not None and _weekday(p.first_day) not in wd:
            yield violation("WEEKDAYS", p, f"{p.ref} starts on a {_weekday(p.first_day)} "
                            f"({p.first_day}); allowed: {', '.join(wd)}")


def day_on_weekday(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.weekdays is None or _weekday(day) in t.weekdays


def days_on_weekday(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`day_on_weekday` of each of ``days`` (WEEKDAYS), in one pass: each weekday
    (0 = Monday) judged once."""
    if t.weekdays is None:
        return [True] * len(days)
    ok = [WEEKDAYS[k] in t.weekdays for k in range(7)]
    return [ok[d.weekday()] for d in days]


def _on_weekday_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_on_weekday` of each of ``tms`` (WEEKDAYS), in one pass."""
    return days_on_weekday(sc, t, [tm.days[0] for tm in tms])


WEEKDAY_RULE = Rule("WEEKDAYS", allows=_on_weekday, check=_check_weekdays,
                    allows_day=day_on_weekday, allows_days=days_on_weekday,
                    allows_many=_on_weekday_many)


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


def _no_blackout_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_no_blackout` of each of ``tms`` (BLACKOUT), in one pass: the blackout days of
    ``t``'s operators (each a sorted tuple) from the first day of ``tms`` to the last, as
    one set."""
    if not tms:
        return []
    first, last = min(tm.days[0] for tm in tms), max(tm.days[-1] for tm in tms)
    out: set[dt.date] = set()
    for oid in t.operators:
        bl = sc.operator(oid).blackout
        out.update(bl[bisect_left(bl, first):bisect_right(bl, last)])
    if not out:
        return [True] * len(tms)
    return [out.isdisjoint(tm.days) for tm in tms]


BLACKOUT = Rule("BLACKOUT", allows=_no_blackout, check=_check_blackout,
                allows_many=_no_blackout_many)


# ------------------------------------------------------------------ CANCELLED
def _not_cancelled_day(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    """CANCELLED: ``day`` is not a first day of ``t`` recorded as cancelled
    (``cancelled_dates``), or ``t`` may reuse such days (``reuse_cancelled_days``)."""
    return t.reuse_cancelled_days or day not in t.cancelled_dates


def _not_cancelled(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return _not_cancelled_day(sc, t, tm.first_day)


def _not_cancelled_days(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`_not_cancelled_day` of each of ``days`` (CANCELLED), in one pass."""
    if t.reuse_cancelled_days or not t.cancelled_dates:
        return [True] * len(days)
    gone = set(t.cancelled_dates)
    return [d not in gone for d in days]


def _check_cancelled(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        t = p.tournament
        if not t.reuse_cancelled_days and p.first_day in t.cancelled_dates:
            yield violation("CANCELLED", p, f"{p.ref} starts on {p.first_day}, a day its "
                            "occurrence was recorded cancelled (set reuse_cancelled_days: "
                            "true to place it there again)")


def _validate_cancelled(sc: Scenario) -> Iterable[TermProblem]:
    """A fixed date that is also a cancelled day (without ``reuse_cancelled_days``) asks for
    an occurrence where the record says none was held (CANCELLED)."""
    for i, t in enumerate(sc.tournaments):
        if t.reuse_cancelled_days:
            continue
        both = sorted(set(t.fixed_dates) & set(t.cancelled_dates))
        if both:
            yield TermProblem(("tournaments", i, "fixed_dates"), "CANCELLED",
                              f"{', '.join(map(str, both))} of {t.id} is fixed and recorded "
                              "cancelled (cancelled_dates): remove it from fixed_dates, or "
                              "set reuse_cancelled_days: true to hold it there again")


def _not_cancelled_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_not_cancelled` of each of ``tms`` (CANCELLED), in one pass."""
    return _not_cancelled_days(sc, t, [tm.days[0] for tm in tms])


CANCELLED = Rule("CANCELLED", validate=_validate_cancelled, allows=_not_cancelled,
                 check=_check_cancelled, allows_day=_not_cancelled_day,
                 allows_days=_not_cancelled_days, allows_many=_not_cancelled_many)
