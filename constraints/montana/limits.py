"""Montana, the large-stakes limit: MT-LARGE-LIMIT (MCA 23-5-317(1)(a): 16 counted a
permit year; the first 3 charitable ones not counted, MT-CHARITY-LIMIT,
:mod:`constraints.montana.charity`), counted by :func:`constraints.montana.tally.large_tally`.

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import ChainMap, defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence

from ortools.sat.python import cp_model

from constraints.base import (
    Actuals,
    Audit,
    Certificate,
    Occurrence,
    Rule,
    Usage,
    UsageText,
    Violation,
    counted_sum,
)
from constraints.modelling import NO_MIN, ModelContext
from constraints.montana.tally import (
    LargeItem,
    LargeTally,
    audit_tallies,
    counted_because,
    counted_once,
    counted_years,
    held_count,
    held_from_year_start,
    large_tally,
    once_charitable,
    placed_item,
)
from constraints.montana.terms import CHARITY_LIMIT, LARGE_LIMIT
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import HeldBefore, Operator, Tournament
from scheduler.core.text import ordinal
from scheduler.core.timing import day_span

# ------------------------------------------------------------------ MT-LARGE-LIMIT / CHARITY


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
        why = held_from_year_start(sc, op)
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


def _large_usage(a: Audit) -> Iterator[Usage]:
    """MT-LARGE-LIMIT usage, MCA 23-5-317(1)(a),(d): per Montana operator and permit year
    (MT-PERMIT-YEAR), ``used`` = the counted large-stakes tournaments (non-charitable, plus
    charitable beyond the first 3: :attr:`LargeTally.counted`) of 16, ``charitable`` how many
    of them are charitable, ``held`` how many were held before the plan."""
    for op, tally in audit_tallies(a):
        py = tally.permit_year
        yield Usage("MT-LARGE-LIMIT", op.id, py.isoformat(), py, op.permit_year_end(py),
                    tally.counted, LARGE_LIMIT, tally.charitable_counted, tally.held_counted)


def _encode_large_limit(ctx: ModelContext) -> None:
    """Per operator and permit year, with N non-charitable and C charitable placed and hl, hc
    held before the plan: N + hl + max(0, C + hc - 3) <= 16, as two linear constraints
    N + hl + max(0, hc - 3) <= 16 and N + hl + C + hc - 3 <= 16. A tournament with several
    operators counts for each of them (MCA 23-5-317(1)(d)); the first 3 charitable ones are
    not counted (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f)). A candidate counts in every permit
    year of :func:`counted_years` (``permit_year_count``: each one its days of play fall
    in, or its first day's). Under ``progressive_count: once`` the rounds of a progressive
    an operator plays in one permit year count once there: a Boolean at least each round's
    placement there (MT-PROGRESSIVE)."""
    sc = ctx.scenario
    once = counted_once(sc)
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        per_py: dict[dt.date, tuple[list[cp_model.IntVar], list[cp_model.IntVar]]] = (
            defaultdict(lambda: ([], [])))
        rounds: dict[tuple[dt.date, str], list[cp_model.IntVar]] = defaultdict(list)
        for c, v in ctx.of_operator(op.id):
            t = c.tournament
            if not t.is_large:
                continue
            days = c.timing.days  # in order: one permit year when the first and last share it
            first = op.permit_year_of(days[0])
            one = first == op.permit_year_of(days[-1])
            for py in (first,) if one else counted_years(sc, op, days):
                if t.id in once:
                    rounds[(py, once[t.id].id)].append(v)
                else:
                    per_py[py][int(t.charitable)].append(v)
        for (py, tour_id), vs in sorted(rounds.items(), key=lambda x: x[0]):
            tour = next(x for x in sc.tours if x.id == tour_id)
            y = ctx.model.new_bool_var(f"MT-LARGE-LIMIT[{op.id},{tour_id},{py}]"
                                       if ctx.named else "")
            for v in vs:
                ctx.add_linear([(v.index, 1), (y.index, -1)], NO_MIN, 0,
                               f"MT-LARGE-LIMIT: the progressive {tour_id} counts once for "
                               f"{op.id} in the {py} permit year (progressive_count: once)"
                               if ctx.named else "")
            per_py[py][int(once_charitable(sc, tour))].append(y)
        for py in sorted(per_py):
            non, char = per_py[py]
            hl, hc = held_count(op, sc, py, False), held_count(op, sc, py, True)
            held_counted = hl + max(0, hc - CHARITY_LIMIT)
            beyond = held_counted - hl
            held = (f" ({held_counted} held before the plan" + (
                f", {beyond} of them charitable beyond the first {CHARITY_LIMIT}"
                if beyond else "") + ")") if held_counted else ""
            room = LARGE_LIMIT - held_counted
            if len(non) > room:
                ctx.add_sum(non, NO_MIN, max(room, 0),
                            f"MT-LARGE-LIMIT: {op.id} holds at most {LARGE_LIMIT} counted "
                            f"large-stakes tournaments in the {py} permit year{held}"
                            if ctx.named else "")
            room_all = LARGE_LIMIT + CHARITY_LIMIT - hl - hc
            if char and len(non) + len(char) > room_all:
                free = f" ({hc} held before the plan)" if hc else ""
                ctx.add_sum(non + char, NO_MIN, max(room_all, 0),
                            f"MT-LARGE-LIMIT: {op.id} holds at most {LARGE_LIMIT} counted "
                            f"large-stakes tournaments in the {py} permit year{held}; only "
                            f"the first {CHARITY_LIMIT} charitable ones{free} are not counted "
                            "(MT-CHARITY-LIMIT)" if ctx.named else "")


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
        yield from _over_large_limit(sc, op, _large_of(a, op))


def _large_of(a: Audit, op: Operator) -> dict[str, Occurrence]:
    """The large-stakes occurrences ``op`` holds, by ref, as placed."""
    return {p.ref: p for p in a.of_operator(op) if p.tournament.is_large}


def _added_large_limit(a: Audit, p: Occurrence) -> list[Violation]:
    """MT-LARGE-LIMIT with ``p`` added (:attr:`Rule.added`): the tallies of the permit years
    it counts in, at its Montana operators only."""
    if not p.tournament.is_large:
        return []
    sc = a.scenario
    out: list[Violation] = []
    for op in a.operators_of(p):
        if op.jurisdiction != "MT":
            continue
        mine, by_year, used = a.memo(f"MT-LARGE-LIMIT {op.id}",
                                     functools.partial(_by_year, a, op))
        years = counted_years(sc, op, p.timing.days)
        if all(used.get(y, 0) < LARGE_LIMIT for y in years):
            continue  # one more counts at most once more: none is the 17th
        items: dict[str, LargeItem] = {}
        for y in years:
            items.update(by_year.get(y, {}))
        items[p.ref] = placed_item(p)
        out.extend(_over_large_limit(sc, op, ChainMap({p.ref: p}, mine), list(items.values()),
                                     years))
    return out


def _by_year(a: Audit, op: Operator) -> tuple[dict[str, Occurrence],
                                              dict[dt.date, dict[str, LargeItem]],
                                              dict[dt.date, int]]:
    """The large-stakes occurrences ``op`` holds by ref; them as :func:`large_tally` counts
    them by the permit years they count in (:func:`counted_years`); and how many are
    counted in each permit year (:attr:`LargeTally.counted`)."""
    mine = _large_of(a, op)
    by_year: dict[dt.date, dict[str, LargeItem]] = defaultdict(dict)
    for ref, p in mine.items():
        item = placed_item(p)
        for y in counted_years(a.scenario, op, p.timing.days):
            by_year[y][ref] = item
    used = {py: tally.counted for py, tally in large_tally(
        a.scenario, op, [placed_item(p) for p in mine.values()]).items()}
    return mine, by_year, used


def _over_large_limit(sc: Scenario, op: Operator, mine: Mapping[str, Occurrence],
                      items: list[LargeItem] | None = None,
                      years: Collection[dt.date] | None = None) -> Iterator[Violation]:
    """MT-LARGE-LIMIT of Montana operator ``op`` holding the large-stakes occurrences
    ``mine`` (by ref, as placed; ``items``: them as :func:`large_tally` counts them, when
    known): the 17th and every later counted one of a permit year (of ``years`` only, when
    given)."""
    tallies = large_tally(sc, op, [placed_item(p) for p in mine.values()] if items is None
                          else items)
    for py, tally in tallies.items():
        if years is not None and py not in years:
            continue
        for n, ref in enumerate(tally.counted_order, start=tally.held_counted + 1):
            if n <= LARGE_LIMIT:
                continue
            p = mine[ref]
            free = _free_text(tally)
            span = counted_because(sc, op, p.timing.days, tally.counted_with(ref))
            if p.tournament.charitable:
                k = tally.held_charitable + len(tally.free) + \
                    tally.counted_charitable.index(ref) + 1
                why = (f"; it is its {ordinal(k)} charitable one, and only the first "
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
                f"{op.name} would hold its {ordinal(n)} counted large-stakes tournament "
                f"of the {py} permit year on {p.first_day} ({ref}){span}{why}; all "
                f"{LARGE_LIMIT} are used by {' and '.join(held)}")


def _held_large_limit(a: Actuals) -> Iterator[Violation]:
    """MT-LARGE-LIMIT on what was held: the 17th and every later counted large-stakes
    tournament an operator of the scenario actually held in one permit year (its permit
    year, MT-PERMIT-YEAR, from its ``permit_year_start``), counted by :func:`large_tally`,
    the first 3 charitable ones not counted (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f)). The
    held ones of the ledger are counted; for an operator whose permit year containing
    ``horizon.start`` the ledger does not record from its first day (not in
    ``Actuals.ledger_covers``: the ledger began later), the scenario's
    ``held_in_current_permit_year`` (held before the ledger began) is added to that permit
    year, as ``tourney solve --ledger`` does; else the ledger is the record and it is not."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = {x.ref: x for x in a.held if x.operator_id == op.id
                and x.jurisdiction == "MT" and x.type == "large-stakes"}
        counted = op if op.id not in a.ledger_covers else op.model_copy(
            update={"held_in_current_permit_year": HeldBefore()})
        tallies = large_tally(sc, counted, [
            LargeItem(x.first_day, x.tournament_id, x.occurrence, x.charitable,
                      day_span(x.first_day, max(x.first_day, x.last_day)))
            for x in mine.values()])
        for py, tally in tallies.items():
            for n, ref in enumerate(tally.counted_order, start=tally.held_counted + 1):
                if n <= LARGE_LIMIT:
                    continue
                x = mine[ref]
                free = _free_text(tally)
                why = (f"; not counted: the charitable {free} (MT-CHARITY-LIMIT)"
                       if free else "")
                before = (f"; {tally.held_counted} counted ones held before the ledger began "
                          f"(held_in_current_permit_year)" if tally.held_counted else "")
                span = counted_because(sc, op, day_span(x.first_day, max(x.first_day,
                                                                         x.last_day)),
                                       tally.counted_with(ref))
                yield Violation(
                    "MT-LARGE-LIMIT", op.id, (ref,), x.first_day.isoformat(),
                    f"{op.name} held its {ordinal(n)} counted large-stakes tournament of the "
                    f"{py} permit year on {x.first_day} ({ref}){span}{before}{why}; at most "
                    f"{LARGE_LIMIT}")


def _certify_large_limit(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per operator and permit year: the counted large-stakes occurrences required of the
    tournaments ``tids`` that count in that permit year wherever they start (every usable
    candidate counts there, :func:`counted_years`), against 16 less the counted
    ones held before the plan (N + hl + max(0, C + hc - 3) > 16, as the encoding counts; the
    first 3 charitable ones are not counted, MT-CHARITY-LIMIT, MCA 23-5-317(1)(f))."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        # a progressive counted once (progressive_count: once) is left out: its rounds count
        # fewer than their required occurrences, so the arithmetic would claim too much
        once = counted_once(sc)
        req = [t for t in sc.tournaments if t.id in tids and op.id in t.operators
               and t.is_large and t.required and t.id not in once]
        # outside explain mode a candidate day is never a rejected one (build_domain keeps
        # only the days no rule rejects): the rejections need not be computed at all
        rejected = {t.id: ctx.rejected[t.id] if ctx.explain else {} for t in req}
        # a tournament surely counts in a permit year every usable candidate counts in (the
        # permit years of each, permit_year_count), none once two have no year in common
        usable: dict[str, set[dt.date]] = {}
        for t in req:
            common: set[dt.date] | None = None
            for c in ctx.candidates.get(t.id, []):
                if c.first_day in rejected[t.id]:
                    continue
                years = counted_years(sc, op, c.timing.days)
                common = set(years) if common is None else common.intersection(years)
                if not common:
                    break
            usable[t.id] = common or set()
        for py in sorted(set().union(*usable.values())):
            hl, hc = held_count(op, sc, py, False), held_count(op, sc, py, True)
            allowed = LARGE_LIMIT - (hl + max(0, hc - CHARITY_LIMIT))
            free_left = max(0, CHARITY_LIMIT - hc)

            def counted(group: list[Tournament], free_left: int = free_left) -> int:
                non = sum(t.required for t in group if not t.charitable)
                return non + max(0, sum(t.required for t in group if t.charitable) - free_left)

            group = [t for t in req if py in usable[t.id]]
            if counted(group) <= allowed:
                continue
            for t in list(group):
                if len(group) > 1 and counted([u for u in group if u is not t]) > allowed:
                    group = [u for u in group if u is not t]
            excluded = sorted({(t.id, rid) for t in group for c in ctx.candidates.get(t.id, [])
                               for rid in rejected[t.id].get(c.first_day, ())
                               if py not in counted_years(sc, op, c.timing.days)})
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


def _large_lines(records: Sequence[Usage]) -> Iterator[tuple[dt.date, str]]:
    """MT-LARGE-LIMIT's summary lines: one per permit year, the counted ones of 16 and, when
    some are charitable beyond the first 3 (MT-CHARITY-LIMIT), how they are made up."""
    for u in records:
        char = u.charitable
        yield u.period_start, (f"MT-LARGE-LIMIT permit year {u.period}: {u.used}/{u.limit} "
                               f"counted" + (f" ({u.used - char} non-charitable + {char} "
                                             f"charitable beyond the first {CHARITY_LIMIT})"
                                             if char else "") + u.held_split)


MT_LARGE_LIMIT = Rule("MT-LARGE-LIMIT", validate=_validate_held, encode=_encode_large_limit,
                      check=_check_large_limit, added=_added_large_limit, actuals=_held_large_limit,
                      certificate=_certify_large_limit, usage=_large_usage,
                      usage_text=UsageText(
                          f"MT-LARGE-LIMIT: counted large-stakes per permit year "
                          f"(limit {LARGE_LIMIT})", _large_lines, "permit year from {}",
                          f"hatched: charitable\nbeyond the first {CHARITY_LIMIT}"),
                      counts=lambda t: t.is_large)
