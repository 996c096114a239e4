"""Montana: MCA 23-5-317 (card-game tournaments) and ARM 23.16.1101 (play hours).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import partial

from ortools.sat.python import cp_model

from constraints.base import (
    Actuals,
    Audit,
    Certificate,
    License,
    Occurrence,
    Rule,
    Usage,
    Violation,
    counted_sum,
    day_span,
    day_text,
    duty,
    licence_row_violation,
    usd,
)
from constraints.catalogue import cite
from constraints.modelling import LicenseOption, ModelContext, covers_period, overfull, sum_by
from constraints.requests import DEALERS, over_capacity
from scheduler.problems import TermProblem
from scheduler.scenario import MT_TYPES, HeldBefore, Operator, Scenario, Tournament
from scheduler.timing import MT_NOTICE_DAYS, Timing, notice_due, notice_ok

LARGE_LIMIT = 16
"""MT-LARGE-LIMIT, MCA 23-5-317(1)(a): large-stakes tournaments per permit year."""
CHARITY_LIMIT = 3
"""MT-CHARITY-LIMIT, MCA 23-5-317(1)(f): charitable large-stakes tournaments per operator per
permit year that are *not counted* toward the 16 of MT-LARGE-LIMIT (the first three of the permit
year, held ones first). Not a cap: a 4th and later charitable one is allowed and counted."""
MAX_DAYS = 5
"""MT-DURATION, MCA 23-5-317(1)(c): consecutive calendar days."""
ENTRY_CAP = Decimal(1875)
"""MT-ENTRY-CAP, MCA 23-5-317(1)(g): USD one participant may pay in all."""
SMALL_ENTRY_CAP = Decimal(80)
"""MT-SMALL-ENTRY, MCA 23-5-317(2)(c): USD one participant may pay in all."""
CHARITY_SHARE = Decimal("0.5")
"""MT-CHARITY-SHARE, MCA 23-5-317(8)."""
LARGE_PERMIT_FEE = 120
"""MT-PERMIT-FEES, MCA 23-5-317(1)(b): USD per permit year, not prorated."""
SMALL_PERMIT_FEE = 500
"""MT-PERMIT-FEES, MCA 23-5-317(2)(b): USD per permit year, not prorated."""
NO_PLAY_FROM = 2 * 60
NO_PLAY_UNTIL = 8 * 60
"""MT-PLAY-HOURS, ARM 23.16.1101: no play 02:00-08:00 (minutes after midnight)."""


def _mt(sc: Scenario) -> Iterator[tuple[int, Tournament]]:
    for i, t in enumerate(sc.tournaments):
        if t.type in MT_TYPES:
            yield i, t


def _mins(t: Tournament) -> tuple[int, int]:
    """(start, end) of one play day in minutes after the start day's midnight."""
    s = t.start_time.hour * 60 + t.start_time.minute
    return s, s + int(round(float(t.hours) * 60))


def calendar_days(t: Tournament) -> int:
    """MT-DURATION: calendar days used: the play days, plus every further day the last
    session runs into (play past midnight uses the next day too; ending at 24:00 does not).
    With ``sessions``: from the first session's day to the day the last one ends, the empty
    days between flights counted (5 consecutive calendar days from the first flight)."""
    if t.sessions:
        return (t.sessions[-1].minutes()[1] - 1) // (24 * 60) + 1
    _, end = _mins(t)
    return t.days - 1 + (end - 1) // (24 * 60) + 1


def most_paid(t: Tournament, reentries_count: bool) -> Decimal:
    """MT-ENTRY-CAP: the most one participant can pay (USD)."""
    entries = 1 + (t.reentries if reentries_count else 0)
    return t.entry_fee * entries + t.rebuy_fee * t.max_rebuys + t.addon_fee


# ------------------------------------------------------------------ input rules
def _held_from_year_start(sc: Scenario, op: Operator) -> str | None:
    """Why ``held_in_current_permit_year`` must be 0 when ``horizon.start`` is the first day
    of its permit year (the history counts what was held before it in that permit year);
    None when the horizon starts later in the permit year."""
    start = sc.horizon.start
    if op.permit_year_of(start) != start:
        return None
    return (f"counts what was held before horizon.start ({start}) in the permit year "
            f"that contains it; that permit year begins on {start} (permit_year_start "
            f"{op.permit_year_start}), so nothing can have been held in it yet: it must "
            "be 0 (tournaments of the previous permit year do not count)")


def _validate_held(sc: Scenario) -> Iterator[TermProblem]:
    """MT-LARGE-LIMIT, MCA 23-5-317(1)(a): the history ``held_in_current_permit_year`` must
    be possible. It counts what was held before ``horizon.start`` in the permit year that
    contains it, so ``large_stakes`` is 0 when ``horizon.start`` is that permit year's first
    day; and the counted ones (``large_stakes`` plus the charitable ones beyond the first 3)
    cannot exceed 16."""
    for i, op in enumerate(sc.operators):
        if op.jurisdiction != "MT":
            continue
        h = op.held_in_current_permit_year
        loc = ("operators", i, "held_in_current_permit_year")
        why = _held_from_year_start(sc, op)
        if why is not None:
            if h.large_stakes:
                yield TermProblem((*loc, "large_stakes"), "MT-LARGE-LIMIT", why)
            continue
        beyond = max(0, h.charitable - CHARITY_LIMIT)
        if h.large_stakes > LARGE_LIMIT:
            yield TermProblem((*loc, "large_stakes"), "MT-LARGE-LIMIT",
                              f"at most {LARGE_LIMIT} counted large-stakes tournaments can have "
                              "been held in a permit year")
        elif h.large_stakes + beyond > LARGE_LIMIT:
            yield TermProblem((*loc, "charitable"), "MT-LARGE-LIMIT",
                              f"the first {CHARITY_LIMIT} charitable ones are not counted "
                              f"(MT-CHARITY-LIMIT, MCA 23-5-317(1)(f)); the other {beyond} "
                              f"count toward the {LARGE_LIMIT} with the {h.large_stakes} of "
                              f"large_stakes: {h.large_stakes} + {beyond} = "
                              f"{h.large_stakes + beyond} counted, more than {LARGE_LIMIT} can "
                              "have been held in a permit year")


def _validate_prereq(sc: Scenario) -> Iterator[TermProblem]:
    used = {o for _, t in _mt(sc) for o in t.operators}
    for i, op in enumerate(sc.operators):
        if op.jurisdiction == "MT" and op.id in used and (op.live_tables or 0) < 1:
            yield TermProblem(("operators", i, "live_tables"), "MT-PERMIT-PREREQ",
                              "a tournament permit needs at least one permitted live card game "
                              "table (live_tables >= 1)")


def _validate_progressive(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        if len(t.operators) > 1 and not t.is_large:
            yield TermProblem(("tournaments", i, "operators"), "MT-PROGRESSIVE",
                              "only a large-stakes tournament may be held by several operators")
    for i, t in enumerate(sc.tournaments):
        if len(t.operators) > 1 and t.type not in MT_TYPES:
            yield TermProblem(("tournaments", i, "operators"), "MT-PROGRESSIVE",
                              "only a Montana large-stakes tournament may have several operators")
    yield from _validate_progressive_tours(sc)


def _validate_progressive_tours(sc: Scenario) -> Iterator[TermProblem]:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(e): a tour marked ``progressive`` is one progressive
    large-stakes tournament whose rounds are its stops: every stop is a large-stakes
    tournament (its operators hold the large-stakes permit), the rounds are held by at least
    two permitholders together ("with other ... permitholders"), and it names its ``final``
    round, where the ultimate prize is awarded (held last: TOUR-ORDER)."""
    types = {t.id: t for t in sc.tournaments}
    for j, tour in enumerate(sc.tours):
        if not tour.progressive:
            continue
        hosts: set[str] = set()
        for k, sid in enumerate(tour.stops):
            t = types.get(sid)
            if t is None:
                continue  # an unknown stop: TOUR-ORDER names it
            hosts.update(t.operators)
            if not t.is_large:
                yield TermProblem(("tours", j, "stops", k), "MT-PROGRESSIVE",
                                  f"every round of a progressive is a large-stakes tournament; "
                                  f"{sid} is {t.type}")
        if len(hosts) < 2:
            yield TermProblem(("tours", j, "stops"), "MT-PROGRESSIVE",
                              "a progressive is conducted with other large-stakes "
                              "permitholders: its rounds need at least two operators")
        if tour.final is None:
            yield TermProblem(("tours", j, "final"), "MT-PROGRESSIVE",
                              "a progressive names its final round (final: a stop id), where "
                              "the ultimate prize is awarded")


def _validate_entry(sc: Scenario) -> Iterator[TermProblem]:
    counts = sc.settings.reentry_counts_toward_cap
    for i, t in _mt(sc):
        loc = ("tournaments", i)
        if t.is_large:
            paid = most_paid(t, counts)
            if paid > ENTRY_CAP:
                yield TermProblem((*loc, "entry_fee"), "MT-ENTRY-CAP",
                                  f"a participant could pay {usd(paid)} in all (entry "
                                  f"{usd(t.entry_fee)} x {1 + (t.reentries if counts else 0)}"
                                  f" + rebuys {usd(t.rebuy_fee)} x {t.max_rebuys} + add-on "
                                  f"{usd(t.addon_fee)}); the cap is {usd(ENTRY_CAP)}")


def _validate_small_entry(sc: Scenario) -> Iterator[TermProblem]:
    """MT-SMALL-ENTRY, MCA 23-5-317(2)(c): a small-stakes entry is at most $80 in all, with no
    rebuy, add-on or re-entry."""
    for i, t in _mt(sc):
        if t.is_large:
            continue
        loc = ("tournaments", i)
        if t.entry_fee > SMALL_ENTRY_CAP:
            yield TermProblem((*loc, "entry_fee"), "MT-SMALL-ENTRY",
                              f"a small-stakes entry may not exceed {usd(SMALL_ENTRY_CAP)}")
        for f in ("reentries", "max_rebuys"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "MT-SMALL-ENTRY",
                                  "small-stakes: no rebuy, add-on or re-entry")
        for f in ("rebuy_fee", "addon_fee"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "MT-SMALL-ENTRY",
                                  "small-stakes: no rebuy, add-on or re-entry")


def _validate_satellite(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        s = t.satellite
        if s is not None and s.seat_value != s.expected_top_prize:
            yield TermProblem(("tournaments", i, "satellite", "seat_value"), "MT-SATELLITE",
                              f"a seat prize must equal the expected top prize "
                              f"({usd(s.expected_top_prize)})")


def _validate_charity(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        if t.charitable and (t.charity_share is None or t.charity_share < CHARITY_SHARE):
            yield TermProblem(("tournaments", i, "charity_share"), "MT-CHARITY-SHARE",
                              "a charitable tournament pays at least 50% of entry fees to a "
                              "charitable, educational or recreational nonprofit "
                              "(charity_share >= 0.5)")


def _validate_rake(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        if t.rake:
            yield TermProblem(("tournaments", i, "rake"), "MT-NO-RAKE",
                              "a rake-off may not be taken during a tournament")


def _validate_duration(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        loc = ("tournaments", i)
        if t.is_large and t.sessions and calendar_days(t) > MAX_DAYS:
            last = t.sessions[-1]
            yield TermProblem((*loc, "sessions"), "MT-DURATION",
                              f"the sessions run from day 1 to day {calendar_days(t)} (the "
                              f"last, {last.label}, on day {last.day} from {last.start:%H:%M} "
                              f"for {last.hours} h); a tournament lasts at most {MAX_DAYS} "
                              "consecutive calendar days from its first session, empty days "
                              "between flights counted")
        elif t.is_large and calendar_days(t) > MAX_DAYS:
            yield TermProblem((*loc, "days"), "MT-DURATION",
                              f"{t.days} play days use {calendar_days(t)} calendar days (play "
                              f"past midnight uses the next day too); at most {MAX_DAYS}")


def _validate_play_hours(sc: Scenario) -> Iterator[TermProblem]:
    known = {x.id for x in sc.operators}
    for i, t in _mt(sc):
        if all(sc.operator(o).late_hours_ordinance for o in t.operators if o in known):
            continue
        if t.sessions:
            for k, x in enumerate(t.sessions):
                s, e = (m - (x.day - 1) * 24 * 60 for m in x.minutes())
                if e - s > 18 * 60 or not (s >= NO_PLAY_UNTIL and e <= 24 * 60 + NO_PLAY_FROM):
                    yield TermProblem(("tournaments", i, "sessions", k, "hours"),
                                      "MT-PLAY-HOURS",
                                      f"{x.label}: play from {x.start:%H:%M} for {x.hours} h "
                                      "falls between 2 a.m. and 8 a.m.; start at 08:00 or "
                                      "later and stop by 02:00")
            continue
        s, e = _mins(t)
        if e - s > 18 * 60 or not (s >= NO_PLAY_UNTIL and e <= 24 * 60 + NO_PLAY_FROM):
            yield TermProblem(("tournaments", i, "hours"), "MT-PLAY-HOURS",
                              f"play from {t.start_time:%H:%M} for {t.hours} h falls between "
                              f"2 a.m. and 8 a.m.; start at 08:00 or later and stop by 02:00")


# ------------------------------------------------------------------ MT-NOTICE
def _notice_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """MT-NOTICE: the notice for a large-stakes start is due 5 days before, not before
    ``notice_from``."""
    return (not t.is_large or tm.first_day in t.filed_dates
            or notice_ok(tm.first_day, sc.notice_from))


def _check_notice(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        if p.tournament.is_large and p.first_day not in p.tournament.filed_dates:
            due = notice_due(p.first_day)
            if not notice_ok(p.first_day, a.scenario.notice_from):
                for oid in p.tournament.operators:
                    yield Violation("MT-NOTICE", oid, (p.ref,), p.first_day.isoformat(),
                                    f"{p.ref} starts {p.first_day}; its notice was due {due}, "
                                    f"before the earliest filing day {a.scenario.notice_from}")


def _held_notice(a: Actuals) -> Iterator[Violation]:
    """MT-NOTICE on what was held: every Montana large-stakes occurrence held needs its notice
    filed at least 5 days before its actual first day (filed on or before
    ``notice_due(first_day)``; day -5 is on time, day -4 late)."""
    for x in a.held:
        if x.jurisdiction != "MT" or x.type != "large-stakes":
            continue
        due = notice_due(x.first_day)
        if x.notice_filed_on is None:
            yield Violation("MT-NOTICE", x.operator_id, (x.ref,), x.first_day.isoformat(),
                            f"{x.ref} was held from {x.first_day} at {x.operator_id} and no "
                            f"notice of it is recorded; it was due by {due}")
        elif x.notice_filed_on > due:
            late = (x.notice_filed_on - due).days
            yield Violation("MT-NOTICE", x.operator_id, (x.ref,), x.first_day.isoformat(),
                            f"{x.ref} was held from {x.first_day} at {x.operator_id}; its "
                            f"notice was filed {x.notice_filed_on}, {late} day(s) after it was "
                            f"due ({due}, {MT_NOTICE_DAYS} days before the first day)")


MT_NOTICE = Rule("MT-NOTICE", allows=_notice_ok, check=_check_notice, actuals=_held_notice)


def notice_text(who: str, title: str, first_day: dt.date, due: dt.date) -> str:
    """MT-NOTICE, MCA 23-5-317(1)(d), as a deadline: the sentence saying the notice of a
    large-stakes tournament ``title`` starting ``first_day`` is due on ``due``
    (:func:`scheduler.timing.notice_due`: ``MT_NOTICE_DAYS`` = 5 days before ``first_day``,
    as :func:`scheduler.deadlines.list_deadlines` lists it), for operator ``who`` (a name)."""
    return (f"{who} must notify the Montana Gambling Control Division of {title} by "
            f"{day_text(due)}, at least {MT_NOTICE_DAYS} days before its first day "
            f"{day_text(first_day)} ({cite('MT-NOTICE')}). Each operator of a tournament "
            f"held on several premises files its own notice.")


def notice_note(due: dt.date) -> str:
    """MT-NOTICE in one venue line of an event: ``notice ... due <day> (MT-NOTICE, MCA
    23-5-317(1)(d))``, ``due`` the notice day (:func:`notice_text`)."""
    return f"notice to the Gambling Control Division due {day_text(due)} ({cite('MT-NOTICE')})"


# ------------------------------------------------------------------ MT-DURATION
def _duration_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """MT-DURATION: first to last calendar day of play (empty days between flights
    counted) at most ``MAX_DAYS``."""
    return not t.is_large or (tm.last_day - tm.first_day).days + 1 <= MAX_DAYS


def _check_duration(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        n = (p.timing.last_day - p.first_day).days + 1
        if p.tournament.is_large and n > MAX_DAYS:
            yield Violation("MT-DURATION", p.tournament.operators[0], (p.ref,),
                            f"{p.first_day}..{p.timing.last_day}",
                            f"{p.ref} is conducted on {n} calendar days; at most {MAX_DAYS}")


MT_DURATION = Rule("MT-DURATION", validate=_validate_duration, allows=_duration_ok,
                   check=_check_duration)


# ------------------------------------------------------------------ MT-PLAY-HOURS
def _check_play_hours(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        t = p.tournament
        if t.type not in MT_TYPES or all(
                a.scenario.operator(o).late_hours_ordinance for o in t.operators):
            continue
        # the schedule's own times: play starts at the start's wall-clock time each day and the
        # last session may not run past 02:00 the next morning (compared as instants, so the
        # night clocks spring forward 02:00 is the moment they jump)
        if any(_played_early(start, end)
               for start, end in p.timing.sessions or ((p.timing.start, p.timing.end),)):
            yield Violation("MT-PLAY-HOURS", t.operators[0], (p.ref,), p.first_day.isoformat(),
                            f"{p.ref} is played between 2 a.m. and 8 a.m.")


def _played_early(start: dt.datetime, end: dt.datetime) -> bool:
    """MT-PLAY-HOURS: whether play from ``start`` to ``end`` (aware, local) starts before
    08:00 or its last session runs past 02:00 the next morning."""
    tz = start.tzinfo
    after_midnight = end.time() < start.time() or (end.time() == start.time()
                                                  and end.date() > start.date())
    session_day = end.date() - dt.timedelta(days=1) if after_midnight else end.date()
    two_am = dt.datetime.combine(session_day + dt.timedelta(days=1),
                                 dt.time(NO_PLAY_FROM // 60), tzinfo=tz)
    late = end.astimezone(dt.UTC) > two_am.astimezone(dt.UTC)
    return start.hour * 60 + start.minute < NO_PLAY_UNTIL or late


MT_PLAY_HOURS = Rule("MT-PLAY-HOURS", validate=_validate_play_hours, check=_check_play_hours)


# ------------------------------------------------------------------ MT-LARGE-LIMIT / CHARITY
def _held(op: Operator, sc: Scenario, py: dt.date, charitable: bool) -> int:
    """Tournaments held before the horizon in the permit year ``py`` (only the current one)."""
    if py != op.permit_year_of(sc.horizon.start):
        return 0
    h = op.held_in_current_permit_year
    return h.charitable if charitable else h.large_stakes


@dataclass(frozen=True)
class LargeTally:
    """One operator's large-stakes tournaments in one permit year, as MT-LARGE-LIMIT and
    MT-CHARITY-LIMIT count them (MCA 23-5-317(1)(a), (1)(f)).

    The first ``CHARITY_LIMIT`` (3) charitable ones of the permit year, those held before the
    plan first and then the placed ones by first day, are *free*: not counted toward the 16.
    Every later charitable one is *counted* like a non-charitable one. Refs are
    ``tournament_id#occurrence`` in first-day order (ties by tournament id, occurrence).
    """

    permit_year: dt.date
    """First day of the permit year (MT-PERMIT-YEAR)."""
    held_large: int
    """Non-charitable large-stakes held before the plan in this permit year."""
    held_charitable: int
    """Charitable large-stakes held before the plan in this permit year."""
    noncharitable: tuple[str, ...]
    """Placed non-charitable occurrences (all counted)."""
    free: tuple[str, ...]
    """Placed charitable occurrences not counted (within the first 3 of the permit year)."""
    counted_charitable: tuple[str, ...]
    """Placed charitable occurrences counted toward the 16 (the 4th charitable and later)."""
    counted_order: tuple[str, ...]
    """Every placed counted occurrence (non-charitable and counted charitable), by date."""

    @property
    def held_free(self) -> int:
        """Held charitable ones that are not counted: at most 3."""
        return min(self.held_charitable, CHARITY_LIMIT)

    @property
    def held_counted(self) -> int:
        """Held ones counted toward the 16: non-charitable + charitable beyond the first 3."""
        return self.held_large + max(0, self.held_charitable - CHARITY_LIMIT)

    @property
    def counted(self) -> int:
        """MT-LARGE-LIMIT used: counted held + counted placed (limit 16)."""
        return self.held_counted + len(self.counted_order)

    @property
    def free_used(self) -> int:
        """MT-CHARITY-LIMIT used: charitable ones not counted, held + placed (at most 3)."""
        return self.held_free + len(self.free)

    @property
    def charitable_counted(self) -> int:
        """Charitable ones counted toward the 16, held + placed."""
        return max(0, self.held_charitable - CHARITY_LIMIT) + len(self.counted_charitable)


def large_tally(sc: Scenario, op: Operator,
                occurrences: Iterable[tuple[dt.date, str, int, bool]],
                years: Iterable[dt.date] = ()) -> dict[dt.date, LargeTally]:
    """MT-LARGE-LIMIT / MT-CHARITY-LIMIT (MCA 23-5-317(1)(a), (1)(f)): per permit year (first
    day, ascending) the free and counted large-stakes tournaments of Montana operator ``op``.

    ``occurrences``: ``(first_day, tournament_id, occurrence, charitable)`` of every
    large-stakes occurrence ``op`` holds (alone or shared; a permit year is that of the first
    day). ``held_in_current_permit_year`` is counted in the permit year containing
    ``horizon.start``, which is always in the result, as is every permit year (first day) in
    ``years``. The one reading of which charitable
    tournaments count: the model's ``counted`` column, the checker, the summary, ``Plan.usage``
    and the usage chart all use it.
    """
    per_py: dict[dt.date, list[tuple[dt.date, str, int, bool]]] = defaultdict(list)
    for py in (op.permit_year_of(sc.horizon.start), *years):
        per_py[py] = []
    for item in occurrences:
        per_py[op.permit_year_of(item[0])].append(item)
    out: dict[dt.date, LargeTally] = {}
    for py in sorted(per_py):
        hl, hc = _held(op, sc, py, False), _held(op, sc, py, True)
        free_left = max(0, CHARITY_LIMIT - hc)
        non: list[str] = []
        free: list[str] = []
        counted_ch: list[str] = []
        order: list[str] = []
        for _, tid, k, charitable in sorted(per_py[py]):
            ref = f"{tid}#{k}"
            if not charitable:
                non.append(ref)
                order.append(ref)
            elif free_left:
                free_left -= 1
                free.append(ref)
            else:
                counted_ch.append(ref)
                order.append(ref)
        out[py] = LargeTally(py, hl, hc, tuple(non), tuple(free), tuple(counted_ch),
                             tuple(order))
    return out


def _tallies(a: Audit) -> Iterator[tuple[Operator, LargeTally]]:
    """Every Montana operator's :func:`large_tally` of a schedule, in scenario and permit-year
    order: the permit years of the horizon's start and of every occurrence it holds (of any
    type), ``held_in_current_permit_year`` counted."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = a.of_operator(op)
        items = [(p.first_day, p.tid, p.occurrence, p.tournament.charitable)
                 for p in mine if p.tournament.is_large]
        years = {op.permit_year_of(p.first_day) for p in mine}
        for tally in large_tally(sc, op, items, years).values():
            yield op, tally


def _large_usage(a: Audit) -> Iterator[Usage]:
    """MT-LARGE-LIMIT usage, MCA 23-5-317(1)(a),(d): per Montana operator and permit year
    (MT-PERMIT-YEAR), ``used`` = the counted large-stakes tournaments (non-charitable, plus
    charitable beyond the first 3: :attr:`LargeTally.counted`) of 16, ``charitable`` how many
    of them are charitable, ``held`` how many were held before the plan."""
    for op, tally in _tallies(a):
        py = tally.permit_year
        yield Usage("MT-LARGE-LIMIT", op.id, py.isoformat(), py, op.permit_year_end(py),
                    tally.counted, LARGE_LIMIT, tally.charitable_counted, tally.held_counted)


def _charity_usage(a: Audit) -> Iterator[Usage]:
    """MT-CHARITY-LIMIT usage, MCA 23-5-317(1)(f): per Montana operator and permit year, the
    charitable large-stakes tournaments not counted toward the 16 (:attr:`LargeTally.free_used`,
    at most 3), all of them ``charitable``; ``held`` those held before the plan."""
    for op, tally in _tallies(a):
        py = tally.permit_year
        yield Usage("MT-CHARITY-LIMIT", op.id, py.isoformat(), py, op.permit_year_end(py),
                    tally.free_used, CHARITY_LIMIT, tally.free_used, tally.held_free)


def _encode_large_limit(ctx: ModelContext) -> None:
    """Per operator and permit year, with N non-charitable and C charitable placed and hl, hc
    held before the plan: N + hl + max(0, C + hc - 3) <= 16, as two linear constraints
    N + hl + max(0, hc - 3) <= 16 and N + hl + C + hc - 3 <= 16. A tournament with several
    operators counts for each of them (MCA 23-5-317(1)(d)); the first 3 charitable ones are
    not counted (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f))."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        per_py: dict[dt.date, tuple[list[cp_model.IntVar], list[cp_model.IntVar]]] = (
            defaultdict(lambda: ([], [])))
        for c, v in ctx.of_operator(op.id):
            t = c.tournament
            if t.is_large:
                per_py[op.permit_year_of(c.first_day)][int(t.charitable)].append(v)
        for py in sorted(per_py):
            non, char = per_py[py]
            hl, hc = _held(op, sc, py, False), _held(op, sc, py, True)
            held_counted = hl + max(0, hc - CHARITY_LIMIT)
            beyond = held_counted - hl
            held = (f" ({held_counted} held before the plan" + (
                f", {beyond} of them charitable beyond the first {CHARITY_LIMIT}"
                if beyond else "") + ")") if held_counted else ""
            room = LARGE_LIMIT - held_counted
            if len(non) > room:
                ctx.model.add(sum(non) <= max(room, 0)).with_name(
                    f"MT-LARGE-LIMIT: {op.id} holds at most {LARGE_LIMIT} counted large-stakes "
                    f"tournaments in the {py} permit year{held}")
            room_all = LARGE_LIMIT + CHARITY_LIMIT - hl - hc
            if char and len(non) + len(char) > room_all:
                free = f" ({hc} held before the plan)" if hc else ""
                ctx.model.add(sum(non) + sum(char) <= max(room_all, 0)).with_name(
                    f"MT-LARGE-LIMIT: {op.id} holds at most {LARGE_LIMIT} counted large-stakes "
                    f"tournaments in the {py} permit year{held}; only the first "
                    f"{CHARITY_LIMIT} charitable ones{free} are not counted (MT-CHARITY-LIMIT)")


def _free_text(tally: LargeTally) -> str:
    """The charitable ones not counted: '1 held before the plan, c#1 and c#2'."""
    parts = [f"{tally.held_free} held before the plan"] if tally.held_free else []
    parts += tally.free
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] \
        if parts else ""


def _check_large_limit(a: Audit) -> Iterator[Violation]:
    """The 17th and every later counted large-stakes occurrence of an operator's permit year,
    counted by :func:`large_tally`: the message names it, why it is counted, the free
    charitable ones and what uses the 16."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = {p.ref: p for p in a.of_operator(op) if p.tournament.is_large}
        tallies = large_tally(sc, op, [(p.first_day, p.tid, p.occurrence,
                                        p.tournament.charitable) for p in mine.values()])
        for py, tally in tallies.items():
            for n, ref in enumerate(tally.counted_order, start=tally.held_counted + 1):
                if n <= LARGE_LIMIT:
                    continue
                p = mine[ref]
                free = _free_text(tally)
                if p.tournament.charitable:
                    k = tally.held_charitable + len(tally.free) + \
                        tally.counted_charitable.index(ref) + 1
                    why = (f"; it is its {_ordinal(k)} charitable one, and only the first "
                           f"{CHARITY_LIMIT} ({free}) are not counted (MT-CHARITY-LIMIT, "
                           "MCA 23-5-317(1)(f))")
                elif free:
                    why = f"; not counted: the charitable {free} (MT-CHARITY-LIMIT)"
                else:
                    why = ""
                held = []
                if tally.held_counted:
                    beyond = tally.held_counted - tally.held_large
                    held.append(f"{tally.held_counted} held before the plan" + (
                        f" ({beyond} of them charitable beyond the first {CHARITY_LIMIT})"
                        if beyond else ""))
                before = tally.counted_order[:max(0, LARGE_LIMIT - tally.held_counted)]
                if before:
                    held.append(", ".join(before))
                yield Violation(
                    "MT-LARGE-LIMIT", op.id, (ref,), p.first_day.isoformat(),
                    f"{op.name} would hold its {_ordinal(n)} counted large-stakes tournament "
                    f"of the {py} permit year on {p.first_day} ({ref}){why}; all "
                    f"{LARGE_LIMIT} are used by {' and '.join(held)}")


def _held_large_limit(a: Actuals) -> Iterator[Violation]:
    """MT-LARGE-LIMIT on what was held: the 17th and every later counted large-stakes
    tournament an operator of the scenario actually held in one permit year (its permit
    year, MT-PERMIT-YEAR, from its ``permit_year_start``), counted by :func:`large_tally`
    over the held ones alone (the ledger is the record: the scenario's
    ``held_in_current_permit_year`` is not added), the first 3 charitable ones not counted
    (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f))."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = {x.ref: x for x in a.held if x.operator_id == op.id
                and x.jurisdiction == "MT" and x.type == "large-stakes"}
        bare = op.model_copy(update={"held_in_current_permit_year": HeldBefore()})
        tallies = large_tally(sc, bare, [(x.first_day, x.tournament_id, x.occurrence,
                                          x.charitable) for x in mine.values()])
        for py, tally in tallies.items():
            for n, ref in enumerate(tally.counted_order, start=1):
                if n <= LARGE_LIMIT:
                    continue
                x = mine[ref]
                free = _free_text(tally)
                why = (f"; not counted: the charitable {free} (MT-CHARITY-LIMIT)"
                       if free else "")
                yield Violation(
                    "MT-LARGE-LIMIT", op.id, (ref,), x.first_day.isoformat(),
                    f"{op.name} held its {_ordinal(n)} counted large-stakes tournament of the "
                    f"{py} permit year on {x.first_day} ({ref}){why}; at most {LARGE_LIMIT}")


def _certify_large_limit(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per operator and permit year: the counted large-stakes occurrences required of the
    tournaments ``tids`` that can start only in that permit year, against 16 less the counted
    ones held before the plan (N + hl + max(0, C + hc - 3) > 16, as the encoding counts; the
    first 3 charitable ones are not counted, MT-CHARITY-LIMIT, MCA 23-5-317(1)(f))."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        req = [t for t in sc.tournaments
               if t.id in tids and op.id in t.operators and t.is_large and t.required]
        # outside explain mode a candidate day is never a rejected one (build_domain keeps
        # only the days no rule rejects): the rejections need not be computed at all
        rejected = {t.id: ctx.rejected[t.id] if ctx.explain else {} for t in req}
        years = {c.first_day: op.permit_year_of(c.first_day)
                 for t in req for c in ctx.candidates.get(t.id, [])}
        usable = {t.id: {years[c.first_day] for c in ctx.candidates.get(t.id, [])
                         if c.first_day not in rejected[t.id]} for t in req}
        for py in sorted(set().union(*usable.values())):
            hl, hc = _held(op, sc, py, False), _held(op, sc, py, True)
            allowed = LARGE_LIMIT - (hl + max(0, hc - CHARITY_LIMIT))
            free_left = max(0, CHARITY_LIMIT - hc)

            def counted(group: list[Tournament], free_left: int = free_left) -> int:
                non = sum(t.required for t in group if not t.charitable)
                return non + max(0, sum(t.required for t in group if t.charitable) - free_left)

            group = [t for t in req if usable[t.id] == {py}]
            if counted(group) <= allowed:
                continue
            for t in list(group):
                if len(group) > 1 and counted([u for u in group if u is not t]) > allowed:
                    group = [u for u in group if u is not t]
            excluded = sorted({(t.id, rid) for t in group for c in ctx.candidates.get(t.id, [])
                               if years[c.first_day] != py
                               for rid in rejected[t.id].get(c.first_day, ())})
            held = (f"; {LARGE_LIMIT - allowed} counted ones held before the plan"
                    if allowed < LARGE_LIMIT else "")
            free = (f"; the first {CHARITY_LIMIT} charitable ones are not counted "
                    f"(MT-CHARITY-LIMIT)" + (f", {hc} of them held before the plan" if hc
                                             else "")
                    if any(t.charitable for t in group) else "")
            yield Certificate(
                "MT-LARGE-LIMIT", op.id, tuple(sorted(t.id for t in group)), tuple(excluded),
                f"{counted(group)} required, {max(allowed, 0)} allowed: counted large-stakes "
                f"tournaments of {op.name} in the {py} permit year ("
                + (f"{counted_sum([t.required for t in sorted(group, key=lambda t: t.id)])}; "
                   if len(group) > 1 else "")
                + f"MT-LARGE-LIMIT: at most {LARGE_LIMIT} a permit year{held}{free})")


MT_LARGE_LIMIT = Rule("MT-LARGE-LIMIT", validate=_validate_held, encode=_encode_large_limit,
                      check=_check_large_limit, actuals=_held_large_limit,
                      certificate=_certify_large_limit, usage=_large_usage)


def _validate_held_charitable(sc: Scenario) -> Iterator[TermProblem]:
    """MT-CHARITY-LIMIT, MCA 23-5-317(1)(f): the charitable ones of
    ``held_in_current_permit_year`` are 0 when ``horizon.start`` is the first day of its
    permit year (nothing can have been held in it yet); those beyond the first 3 count toward
    MT-LARGE-LIMIT's 16 (:func:`_validate_held`)."""
    for i, op in enumerate(sc.operators):
        if op.jurisdiction != "MT":
            continue
        why = _held_from_year_start(sc, op)
        if why is not None and op.held_in_current_permit_year.charitable:
            yield TermProblem(("operators", i, "held_in_current_permit_year", "charitable"),
                              "MT-CHARITY-LIMIT", why)


MT_CHARITY_LIMIT = Rule("MT-CHARITY-LIMIT", validate=_validate_held_charitable,
                        usage=_charity_usage)
"""MT-CHARITY-LIMIT sets no cap of its own: which charitable ones are not counted is
:func:`large_tally`, and MT-LARGE-LIMIT's encoding and check apply it; its usage is the
free ones of each permit year."""


def _ordinal(n: int) -> str:
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


# ------------------------------------------------------------------ MT-SMALL-DAILY
def _encode_small_daily(ctx: ModelContext) -> None:
    """At most one small-stakes tournament per operator per calendar day."""
    for op in ctx.scenario.operators:
        items = [(c, v) for c, v in ctx.of_operator(op.id) if c.tournament.is_small]
        for day, lits in sum_by(items, lambda c: [c.first_day]).items():
            if len(lits) > 1:
                ctx.model.add(sum(lits) <= 1).with_name(
                    f"MT-SMALL-DAILY: {op.id} holds at most one small-stakes tournament on {day}")


def _check_small_daily(a: Audit) -> Iterator[Violation]:
    for op in a.scenario.operators:
        per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
        for p in a.of_operator(op):
            if p.tournament.is_small:
                for d in p.timing.days:
                    per_day[d].append(p)
                if len(p.timing.days) > 1:
                    yield Violation("MT-SMALL-DAILY", op.id, (p.ref,), p.first_day.isoformat(),
                                    f"{p.ref} is not played within one calendar day")
        for d in sorted(per_day):
            if len(per_day[d]) > 1:
                refs = tuple(p.ref for p in per_day[d])
                yield Violation("MT-SMALL-DAILY", op.id, refs, d.isoformat(),
                                f"{op.name} would conduct {len(refs)} small-stakes tournaments "
                                f"on {d} ({', '.join(refs)}); at most one a day")


def _certify_small_daily(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per operator: the small-stakes occurrences required of the tournaments ``tids``
    against the days they can start, at most one a day (MT-SMALL-DAILY,
    MCA 23-5-317(2)(a)): a count over days, the model's own limit summed."""
    sc = ctx.scenario
    for op in sc.operators:
        demand = {t.id: t.required for t in sc.tournaments
                  if t.id in tids and op.id in t.operators and t.is_small and t.required}
        found = overfull(ctx, demand, lambda c: [c.first_day], 1) if demand else None
        if found is None:
            continue
        n = len(found.slots)
        days = ("no day they can start" if not n  # every day taken away (e.g. the window)
                else f"{n} days in the horizon" if found.whole_horizon
                else f"{n} days they can start")
        if n:
            days += f" ({day_span(found.slots[0], found.slots[-1])})"
        yield Certificate(
            "MT-SMALL-DAILY", op.id, found.tournaments, found.excluded,
            f"{found.required} required small-stakes tournaments at {op.name}"
            + (f" ({counted_sum([demand[t] for t in found.tournaments])})"
               if len(found.tournaments) > 1 else "") + ", at most one a day "
            f"(MT-SMALL-DAILY), {days}: at "
            f"least {found.required - n} cannot be placed")


def _validate_small_daily(sc: Scenario) -> Iterator[TermProblem]:
    """MT-SMALL-DAILY, MCA 23-5-317(2)(a): a small-stakes tournament is played within one
    calendar day (``days: 1``, ending by midnight)."""
    for i, t in _mt(sc):
        loc = ("tournaments", i)
        if t.is_small and t.sessions and calendar_days(t) > 1:
            yield TermProblem((*loc, "sessions"), "MT-SMALL-DAILY",
                              "a small-stakes tournament is played within one day: its "
                              "sessions are all on day 1 and end by midnight")
            continue
        if t.is_small and t.days != 1:
            yield TermProblem((*loc, "days"), "MT-SMALL-DAILY",
                              "a small-stakes tournament is played within one day (days: 1)")
        if t.is_small and _mins(t)[1] > 24 * 60:
            yield TermProblem((*loc, "hours"), "MT-SMALL-DAILY",
                              "a small-stakes tournament must end by midnight of its day")


MT_SMALL_DAILY = Rule("MT-SMALL-DAILY", validate=_validate_small_daily,
                      encode=_encode_small_daily, check=_check_small_daily,
                      certificate=_certify_small_daily)


# ------------------------------------------------------------------ MT-PERMIT-FEES
def _permit_already_held(op: Operator, sc: Scenario, py: dt.date, large: bool) -> bool:
    """A permit for the current permit year is already held when the scenario says so
    (``held_in_current_permit_year.permits``) or, for large-stakes, when large-stakes
    tournaments were held in it before the plan."""
    if py != op.permit_year_of(sc.horizon.start):
        return False
    h = op.held_in_current_permit_year
    kind = "large-stakes" if large else "small-stakes"
    return kind in h.permits or (large and h.large_stakes + h.charitable > 0)


def permit_held_before(op: Operator, sc: Scenario, day: dt.date, large: bool) -> bool:
    """MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): whether ``op``'s permit of the kind
    (large-stakes when ``large``, else small-stakes) for the permit year (MT-PERMIT-YEAR) of
    ``day`` was bought before the plan, so the plan buys none: the current permit year's
    ``held_in_current_permit_year.permits`` (filled from the ledger's history by ``solve
    --ledger``), or large-stakes tournaments held in it. The reading the model and the check
    use (an event's description says "permit already held" instead of "none")."""
    return _permit_already_held(op, sc, op.permit_year_of(day), large)


PERMIT_KINDS = {"mt-large-stakes-permit": (True, LARGE_PERMIT_FEE, "(1)(b)"),
                "mt-small-stakes-permit": (False, SMALL_PERMIT_FEE, "(2)(b)")}
"""MT-PERMIT-FEES: licences.csv ``kind`` -> (large-stakes?, USD per permit year, clause)."""


def _permit_kinds() -> list[tuple[bool, str, int]]:
    return [(large, kind, fee) for kind, (large, fee, _) in PERMIT_KINDS.items()]


def _permit_label(kind: str) -> str:
    return kind.removeprefix("mt-").replace("-", " ")


def _encode_permits(ctx: ModelContext) -> None:
    """Buy a permit for each permit year in which the operator conducts a tournament of its
    kind on any day (``Timing.days``: play Jun 30 - Jul 2 needs the permits of both permit
    years); $120 (large-stakes) or $500 (small-stakes) per permit year, not prorated
    (MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b))."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        for large, kind, fee in _permit_kinds():
            per_py: dict[dt.date, list[cp_model.IntVar]] = defaultdict(list)
            for c, v in ctx.of_operator(op.id):
                if c.tournament.is_large == large:
                    for py in op.permit_years_of(c.timing.days):
                        per_py[py].append(v)
            for py in sorted(per_py):
                if _permit_already_held(op, sc, py, large):
                    continue
                permit = ctx.model.new_bool_var(f"{kind}[{op.id},{py}]")
                for v in per_py[py]:
                    ctx.model.add_implication(v, permit)
                end = op.permit_year_end(py)
                ctx.add_license(LicenseOption(
                    permit, op.id, "MT", kind, "", py, end, fee,
                    covers=covers_period(("large-stakes",) if large else ("small-stakes",),
                                         py, end, every_day=False)))




def _permit_rows(a: Audit) -> Iterator[License]:
    """The licences.csv rows Montana answers for (jurisdiction MT or an ``mt-`` kind), of the
    operators the schedule covers."""
    for lic in a.licenses:
        if (lic.jurisdiction == "MT" or lic.kind.startswith("mt-")) and (
                a.operators is None or lic.operator_id in a.operators):
            yield lic


def _effective_end(op: Operator, lic: License) -> dt.date:
    """The last day a permit row covers: its ``valid_to``, but never past the end of the one
    permit year it is issued for (a row valid longer covers no more)."""
    return min(lic.valid_to, op.permit_year_end(lic.valid_from))


def _check_permit_rows(a: Audit) -> Iterator[Violation]:
    """Each MT row of licenses.csv against MCA 23-5-317(1)(b), (2)(b): a known permit kind of
    a Montana operator; $120 (large-stakes) or $500 (small-stakes); valid for exactly one
    permit year; every occurrence it lists is of its kind and played in that permit year."""
    sc = a.scenario
    ops = {o.id: o for o in sc.operators}
    placed = {p.ref: p for p in a.placed}
    for lic in _permit_rows(a):
        oid, refs = lic.operator_id, lic.covers
        bad = partial(licence_row_violation, "MT-PERMIT-FEES", lic)

        op = ops.get(oid)
        if op is None or op.jurisdiction != "MT":
            yield bad(f"operator {oid!r} is not a Montana operator of the scenario; a "
                      "tournament permit is issued to a Montana licensed operator "
                      "(MCA 23-5-317(1)(b), (2)(b))")
            continue
        if lic.kind not in PERMIT_KINDS:
            yield bad(f"kind {lic.kind!r} is not a Montana tournament permit (mt-large-stakes-"
                      f"permit {usd(LARGE_PERMIT_FEE)} per permit year, MCA 23-5-317(1)(b); "
                      f"mt-small-stakes-permit {usd(SMALL_PERMIT_FEE)} per permit year, "
                      "(2)(b))")
            continue
        large, fee, clause = PERMIT_KINDS[lic.kind]
        label = _permit_label(lic.kind)
        if lic.jurisdiction != "MT" or lic.tier:
            yield bad(f"jurisdiction {lic.jurisdiction!r}, tier {lic.tier!r}: a {label} is a "
                      f"Montana permit (jurisdiction MT) with no player tier "
                      f"(MCA 23-5-317{clause})")
        if lic.fee_usd != fee:
            yield bad(f"a {label} costs {usd(fee)} per permit year, not prorated "
                      f"(MCA 23-5-317{clause}); it is listed at {usd(lic.fee_usd)}")
        py, end = op.permit_year_of(lic.valid_from), op.permit_year_end(lic.valid_from)
        if (lic.valid_from, lic.valid_to) != (py, end):
            yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; a {label} is valid for "
                      f"exactly one permit year, here {py}..{end}, at {usd(fee)} "
                      f"(MCA 23-5-317{clause})")
        for ref in refs:
            p = placed.get(ref)
            if p is None:
                continue  # a permit bought for an occurrence not held: not unlawful
            t = p.tournament
            if t.type not in MT_TYPES or t.is_large != large:
                yield bad(f"it lists {ref}, a {t.type} tournament; a {label} covers only "
                          f"{'large' if large else 'small'}-stakes tournaments "
                          f"(MCA 23-5-317{clause})", (ref,))
            elif not any(lic.valid_from <= d <= lic.valid_to for d in p.timing.days):
                yield bad(f"it lists {ref}, played {day_span(p.first_day, p.timing.last_day)}, "
                          f"but no day of play falls in its validity "
                          f"{day_span(lic.valid_from, lic.valid_to)}", (ref,))


def _check_permits(a: Audit) -> Iterator[Violation]:
    """Every day of play of every MT tournament lies in a permit of its kind held for that
    permit year (bought, listed in licenses.csv, or already held before the plan); then each
    licences.csv row itself (:func:`_check_permit_rows`)."""
    yield from _check_permit_rows(a)
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        for large, kind, fee in _permit_kinds():
            mine = [lic for lic in a.licenses if lic.operator_id == op.id and lic.kind == kind]
            for p in a.of_operator(op):
                if p.tournament.is_large != large:
                    continue
                for py in op.permit_years_of(p.timing.days):
                    if _permit_already_held(op, sc, py, large):
                        continue
                    days = [d for d in p.timing.days if op.permit_year_of(d) == py]
                    missing = [d for d in days if not any(
                        lic.valid_from <= d <= _effective_end(op, lic) for lic in mine)]
                    if missing:
                        yield Violation(
                            "MT-PERMIT-FEES", op.id, (p.ref,), day_span(missing[0], missing[-1]),
                            f"{op.name} holds {p.ref} on {day_span(p.first_day, p.timing.last_day)}"
                            f" without a {_permit_label(kind)} for the {py} permit year "
                            f"({usd(fee)}): play on {day_span(missing[0], missing[-1])} falls in "
                            "it, and a permit is needed for every permit year a day of play "
                            "falls in")


MT_PERMIT_FEES = Rule("MT-PERMIT-FEES", encode=_encode_permits, check=_check_permits)


# ------------------------------------------------------------------ checklist (list kind)
def _in_mt(sc: Scenario, t: Tournament) -> bool:
    return sc.jurisdiction_of(t) == "MT"


def _mt_small(sc: Scenario, t: Tournament) -> bool:
    return sc.jurisdiction_of(t) == "MT" and t.is_small


# obligations the scheduler cannot enforce, printed with every Montana event, in this order
def _validate_dealers(sc: Scenario) -> Iterator[TermProblem]:
    """MT-DEALER, MCA 23-5-317(6): no tournament needs more licensed dealers a day
    (``dealers_needed``) than an operator of it has (``dealers``); both fields are for
    Montana only."""
    yield from over_capacity(sc, "MT-DEALER", "dealers", "dealers_needed")
    for i, o in enumerate(sc.operators):
        if o.jurisdiction == "ME" and "dealers" in o.model_fields_set:
            yield TermProblem(("operators", i, "dealers"), "MT-DEALER",
                              "field applies only to MT operators (licensed dealers, "
                              "MCA 23-5-317(6))")
    for i, t in enumerate(sc.tournaments):
        if t.dealers_needed and any(o.jurisdiction == "ME" for o in sc.operators
                                    if o.id in t.operators):
            yield TermProblem(("tournaments", i, "dealers_needed"), "MT-DEALER",
                              "field applies only to MT tournaments (licensed dealers, "
                              "MCA 23-5-317(6))")


CHECKLIST = [
    Rule("MT-RULES-POSTED", checklist=duty(
        "MT-RULES-POSTED", "Give every participant a copy of the tournament rules before the "
        "start, and post a copy in plain view in each area where the tournament is played",
        _in_mt)),
    Rule("MT-SUPERVISOR", checklist=duty(
        "MT-SUPERVISOR", "Have a person on the premises throughout the tournament to oversee "
        "play and settle disputes between players (a licensed dealer may do this)", _in_mt)),
    # MCA 23-5-317(6): the sentence for every Montana tournament, and the room's licensed
    # dealers per day as an optional capacity (operators[].dealers, dealers_needed)
    Rule("MT-DEALER", validate=_validate_dealers, encode=DEALERS[0], check=DEALERS[1],
         checklist=duty(
             "MT-DEALER", "Only dealers licensed under MCA 23-5-308 may deal", _in_mt)),
    Rule("MT-CHIP-VALUE", checklist=duty(
        "MT-CHIP-VALUE", "The face value of the chips does not set the prize pool", _in_mt)),
    Rule("MT-SMALL-TABLE", checklist=duty(
        "MT-SMALL-TABLE", "One additional live card table may be placed for this tournament, "
        "and it may be used only for small-stakes tournaments", _mt_small)),
]

RULES = [
    Rule("MT-PERMIT-PREREQ", validate=_validate_prereq),
    Rule("MT-PROGRESSIVE", validate=_validate_progressive),
    Rule("MT-ENTRY-CAP", validate=_validate_entry),
    Rule("MT-SMALL-ENTRY", validate=_validate_small_entry),
    Rule("MT-SATELLITE", validate=_validate_satellite),
    Rule("MT-CHARITY-SHARE", validate=_validate_charity),
    Rule("MT-NO-RAKE", validate=_validate_rake),
    MT_DURATION,
    MT_PLAY_HOURS,
    MT_NOTICE,
    MT_LARGE_LIMIT,
    MT_CHARITY_LIMIT,
    MT_SMALL_DAILY,
    MT_PERMIT_FEES,
    *CHECKLIST,
]

__all__ = ["RULES", "LargeTally", "License", "calendar_days", "large_tally", "most_paid"]
