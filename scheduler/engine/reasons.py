"""Why a wanted occurrence was not placed: the reason of each, computed from the rules.

For each allowed first day the occurrence is added to the plan and the independent check says
which rules it would break (against the placements already made); days no occurrence may
take at all are put down to the rules that excluded them (``ModelContext.rejected``). The
check of the placements already made is read once; each day then costs only the groups the
occurrence joins (its tournament, operators, days, months: each rule's
:attr:`~constraints.base.Rule.added`), not a check of the whole plan.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from constraints.base import Audit, Occurrence, Rule, Violation
from constraints.catalogue import COST_RULES, cite
from constraints.catalogue import RULES as CATALOGUE
from constraints.modelling import ModelContext, Placement
from constraints.registry import RULES, check
from constraints.requests import MONTH, WEEK, Period, PeriodKind, first_days, periods
from scheduler.core.fields import WEEKDAY_NAMES, WEEKDAYS
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.extract import placed_of
from scheduler.result.plan import Plan, Unscheduled

__all__ = ["overasked", "unscheduled"]

_STOPPED = ("not placed when the search was stopped (interrupted); solve again without "
            "interrupting for the reason")


def unscheduled(ctx: ModelContext, plan: Plan, *, reasons: bool = True,
                placed: list[Occurrence] | None = None) -> list[Unscheduled]:
    """Every wanted occurrence not placed, with the reason computed from the rules.

    For each allowed first day, the occurrence is added to the plan and the checker says which
    rules it would break (against the placements already made); days no occurrence may take at
    all are attributed to the rules that excluded them. Without ``reasons`` (a search that
    was stopped) the reason says so and no rule is named. ``placed``: the plan's occurrences
    as the checker reads them (:func:`scheduler.engine.extract.placed_of`), when the audit
    read them already.
    """
    sc = plan.scenario
    if placed is None:
        placed = placed_of(plan)
    # A candidate day passed every rule's domain filter, and a rule the model does not
    # encode across occurrences cannot be broken by adding one more: only those that link
    # occurrences (limits, gaps, concurrency) can block a candidate day.
    sched_rules = [r for r in RULES if r.check is not None and r.encode is not None
                   and r.id not in (*COST_RULES, "COUNT", "FIXED-DATES")]
    by_t: dict[str, list[Occurrence]] = defaultdict(list)
    # the placed occurrences (their indices) at each operator, and of super cribbage (ME's
    # statewide limit): those of one operator of a tournament, or of super cribbage for one
    # of super cribbage, are the ones one more occurrence of it is checked against
    at_operator: dict[str, list[int]] = defaultdict(list)
    cribbage: set[int] = set()
    for i, p in enumerate(placed):
        by_t[p.tid].append(p)
        for o in p.tournament.operators:
            at_operator[o].append(i)
        if p.tournament.type == "super-cribbage":
            cribbage.add(i)
    out: list[Unscheduled] = []
    # the placements one more occurrence is checked against, as an Audit, one per set of
    # them: tournaments of the same operators share it and what its rules read once
    # (``Audit.memo``: an operator's sessions swept, its permit years' tallies, ...)
    bases: dict[tuple[int, ...], Audit] = {}
    for t in sc.tournaments:
        have = by_t.get(t.id, [])
        cands = ctx.candidates[t.id]
        wanted = len(cands) if t.count == "all" else t.count
        starts = {p.first_day for p in have}
        missing_fixed = [d for d in t.fixed_dates if d not in starts]
        short = _short_periods(sc, t, have) if reasons else []
        if len(have) >= wanted and not missing_fixed and not short:
            continue
        mine = tuple(sorted({i for o in t.operators for i in at_operator[o]}
                            | (cribbage if t.type == "super-cribbage" else set())))
        related = bases.get(mine)
        if related is None:
            related = bases[mine] = Audit(sc, [placed[i] for i in mine], [])

        n = len(have)
        if not reasons:
            out.extend(Unscheduled(t.id, k, t.operators, _STOPPED, (), k <= t.must_place)
                       for k in range(n + 1, max(wanted, n + len(missing_fixed)) + 1))
            continue
        for d in missing_fixed:
            n += 1
            rej = ctx.rejected[t.id].get(d)
            if rej:
                rules = rej
                reason = f"its fixed date {d} is not allowed: " + _why_not(sc, t, n, d, rej)
            else:
                tally, example = _blocked(t, related, starts,
                                          [c for c in cands if c.first_day == d], sched_rules, n)
                rules = tuple(sorted(tally))
                reason = (f"its fixed date {d} is taken: " +
                          "; ".join(f"{example[r]} ({cite(r)})" for r in rules)) if rules else \
                    f"its fixed date {d} competes with other required occurrences"
            out.append(Unscheduled(t.id, n, t.operators, reason, tuple(rules), True))
        rest = wanted - n
        mins = [row for kind, per, lack in short
                for row in [_minimum_row(sc, t, ctx, kind, per, lack, related, starts,
                                         sched_rules, n + 1)] * lack]
        # a minimum's shortfall is the missing occurrences' reason (PER-MONTH-MIN: the 12th
        # of a monthly 12 is June's, whatever the next free day would break); beyond the
        # count (the count reached in other periods) it is one more required row each
        for reason, rules in mins:
            n += 1
            out.append(Unscheduled(t.id, n, t.operators, reason, rules, True))
        rest -= len(mins)
        if rest <= 0:
            continue
        per_day: list[set[str]] = []
        reason, rules = _explain(
            t, ctx, *_blocked(t, related, starts, cands, sched_rules, n + 1, per_day),
            len(cands), per_day)
        need = max(0, t.must_place - n)
        for k in range(rest):
            n += 1
            out.append(Unscheduled(t.id, n, t.operators, reason, rules, k < need))
    return out


def _short_periods(sc: Scenario, t: Tournament, have: Sequence[Occurrence]
                   ) -> list[tuple[PeriodKind, Period, int]]:
    """The months (ISO weeks) of ``t``'s window holding fewer first days than its
    ``per_month.min`` (``per_week.min``) asks (PER-MONTH-MIN, PER-WEEK-MIN): (kind, period,
    how many are missing), months first, in calendar order."""
    out: list[tuple[PeriodKind, Period, int]] = []
    for kind in (MONTH, WEEK):
        pp = kind.of(t)
        if pp is None or not pp.min:
            continue
        n = Counter(kind.key(p.first_day) for p in have)
        out.extend((kind, per, pp.min - n[per]) for per in periods(sc, t, kind.key)
                   if n[per] < pp.min)
    return out


def _minimum_row(sc: Scenario, t: Tournament, ctx: ModelContext, kind: PeriodKind, per: Period,
                 lack: int, related: Audit, starts: set[dt.date],
                 rules: list[Rule], occurrence: int) -> tuple[str, tuple[str, ...]]:
    """The reason and rule IDs of a per-period minimum not met: the period, its rule
    (PER-MONTH-MIN / PER-WEEK-MIN) and what kept each of its days from being a first day
    (the rules that exclude a day, ``ctx.rejected``, or that one more occurrence would
    break on it), e.g. ``per_month.min asks at least 1 first day in 2027-06
    (PER-MONTH-MIN), 1 missing: none of its 30 days can be a first day: excluded by
    BLACKOUT (4 days), WEEKDAYS (26 days)``."""
    first, last = (max(d, lim) if i == 0 else min(d, lim) for i, (d, lim) in
                   enumerate(zip(kind.span(per), first_days(sc, t), strict=True)))
    total = (last - first).days + 1
    pp = kind.of(t)
    head = (f"{kind.field}.min asks at least {pp.min if pp else 1} first day(s) in "
            f"{kind.label(per)} ({kind.min_rule}), {lack} missing")
    cands = [c for c in ctx.candidates[t.id] if kind.key(c.first_day) == per]
    rej = {d: rs for d, rs in ctx.rejected[t.id].items() if kind.key(d) == per}
    parts: list[str] = []
    if rej:
        excl = _first_of(list(rej.values()), Counter(r for rs in rej.values() for r in rs))
        parts.append(f"{_days(len(rej))} excluded by " + ", ".join(
            f"{cite(r)} ({_days(k)})" for r, k in sorted(excl.items(),
                                                       key=lambda x: (-x[1], x[0]))))
    tally: Counter[str] = Counter()
    if cands:
        per_day: list[set[str]] = []
        tally, example = _blocked(t, related, starts, cands, rules, occurrence, per_day)
        blocked = _first_of(per_day, tally)
        if blocked:
            top = tally.most_common(1)[0][0]
            parts.append(f"on {_days(sum(blocked.values()))} one more occurrence would break "
                         + ", ".join(f"{cite(r)} ({_days(k)})" for r, k in
                                     sorted(blocked.items(), key=lambda x: (-x[1], x[0])))
                         + f" (for example: {example[top]})")
        free = sum(1 for rs in per_day if not rs)
        if free:
            parts.append(f"on {_days(free)} no single rule is broken (the rules together "
                         "kept it off them)")
    where = (f"none of its {_days(total)} can be a first day" if not cands
             else f"{len(cands)} of its {_days(total)} could be a first day")
    ids = (kind.min_rule, *(r for r, _ in tally.most_common()),
           *sorted({r for rs in rej.values() for r in rs} - set(tally)))
    return f"{head}: {where}" + (": " + "; ".join(parts) if parts else ""), ids


def overasked(ctx: ModelContext, plan: Plan) -> list[str]:
    """When more is wanted than the law allows: one line per counting argument, e.g. ``26
    wanted games of Post 212 (14 + 12), at most 2 a month (ME-MONTHLY-LIMIT, month_rule:
    touch), 12 month(s) in the horizon (2027-01..2027-12): at least 2 cannot be placed;
    17 M.R.S. § 1836(4).``; empty when every wanted occurrence was placed.

    The rules' own certificates (``Rule.certificate``: MT-LARGE-LIMIT, MT-SMALL-DAILY,
    ME-MONTHLY-LIMIT, the arguments ``scheduler.engine.explain`` gives for ``required``
    occurrences) read with every tournament's wanted ``count`` as its demand (a ``count:
    all`` asks for no number), over ``ctx``'s first days; an argument is kept only when a
    tournament it counts has an occurrence not placed. Registry order.
    """
    missing = {u.tournament_id for u in plan.unscheduled_list}
    if not missing:
        return []
    sc = ctx.scenario
    wanted = tuple(t.model_copy(update={"required": t.count}) if isinstance(t.count, int)
                   else t.model_copy(update={"required": 0}) for t in sc.tournaments)
    asked = copy.copy(ctx)  # the same first days, the wanted counts as the demand
    asked.scenario = sc.model_copy(update={"tournaments": wanted})
    asked.whole_demand = True  # every tournament competing for the limit, not the fewest
    tids = frozenset(t.id for t in wanted if t.required)
    out: list[str] = []
    for rule in RULES:
        if rule.certificate is None:
            continue
        for cert in rule.certificate(asked, tids):
            if not missing & set(cert.tournaments):
                continue
            text = re.sub(r"^(\d+) required\b", r"\1 wanted", cert.text)
            out.append(f"{text}; {CATALOGUE[cert.rule].citation}.")
    return list(dict.fromkeys(out))


def _why_not(sc: Scenario, t: Tournament, occurrence: int, day: dt.date,
             rule_ids: Sequence[str]) -> str:
    """The checker's own sentences for the rules that exclude ``day`` as a first day."""
    tm = timing(t, tournament_tz(sc, t), day)
    if tm is None:
        return (f"{t.start_time:%H:%M} does not exist on {day} in {tournament_tz(sc, t).key}: "
                "the clocks spring forward (CLOCK-CHANGE)")
    found = check(
        Audit(sc, [Occurrence(t, occurrence, tm)], []),
        rules=[r for r in RULES if r.id in rule_ids])
    if not found:
        return "; ".join(cite(r) for r in rule_ids)
    return "; ".join(f"{v.message} ({cite(v.rule)})" for v in found)


def _blocked(t: Tournament, base: Audit, starts: set[dt.date],
             days: list[Placement], rules: list[Rule], occurrence: int = 0,
             per_day: list[set[str]] | None = None
             ) -> tuple[Counter[str], dict[str, str]]:
    """For each day, the rules one more occurrence of ``t`` starting then would break against
    the placements already made that it is checked against (``base``: those of its
    operators; what ``base`` breaks without it left out, e.g. another tour whose other stops
    are at other rooms): how many days each rule blocks, and the checker's sentence for its
    first such day; ``per_day`` (when given) gets each day's set of rules (empty: no rule
    broken), a day that already holds an occurrence of ``t`` left out."""
    tally: Counter[str] = Counter()
    example: dict[str, str] = {}
    # what the placements already made break on their own (a partial view: another tour's
    # stops at other rooms are not in ``base``) is not what one more occurrence breaks
    for c in days:
        if c.first_day in starts:
            continue
        found = _new(base, Occurrence(t, occurrence, c.timing), rules)
        # in the checker's (the registry's) order, not a set's: ties in most_common keep
        # the first counted, and a set of strings iterates by the process's hash seed
        broken = dict.fromkeys(v.rule for v in found)
        if per_day is not None:
            per_day.append(set(broken))
        tally.update(broken.keys())
        for v in found:
            example.setdefault(v.rule, v.message)
    return tally, example


def _new(base: Audit, one: Occurrence, rules: list[Rule]) -> list[Violation]:
    """What ``check(base.with_one(one), rules=rules)`` finds that ``check(base)`` does not
    (compared by rule and sentence), rule by rule in the checker's order. A rule with
    :attr:`~constraints.base.Rule.added` reads only the groups ``one`` joins (what else it
    finds, ``check(base)`` finds too); ``check(base)`` is read once per rule (``base.memo``),
    and only for a rule that finds something with ``one`` (each rule's check names only its
    own rule ID, so what one finds is compared with what it found before)."""
    trial: Audit | None = None
    out: list[Violation] = []
    for rule in rules:
        if rule.check is None:
            continue
        if rule.added is not None:
            found = list(rule.added(base, one))
        else:
            trial = trial or base.with_one(one)
            found = list(rule.check(trial))
        if found:
            before = base.memo(f"before {rule.id}", functools.partial(_pairs, rule, base))
            out.extend(v for v in found if (v.rule, v.message) not in before)
    return out


def _pairs(rule: Rule, a: Audit) -> set[tuple[str, str]]:
    """The (rule ID, sentence) of every violation ``rule`` finds in ``a`` (its own ID: no
    rule's check names another's)."""
    assert rule.check is not None
    return {(v.rule, v.message) for v in rule.check(a)}


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _allowed(t: Tournament, n: int) -> str:
    """``5 Wednesdays in its window``: ``n`` allowed first days of ``t`` in words."""
    names = {w: f"{name}s" for w, name in zip(WEEKDAYS, WEEKDAY_NAMES, strict=True)}
    days = (" or ".join(names[w] if n != 1 else names[w][:-1] for w in t.weekdays)
            if t.weekdays else "day" if n == 1 else "days")
    return f"{n} {days} in its {'window' if t.window is not None else 'horizon'}"


def _first_of(sets: Sequence[Sequence[str] | set[str]], order: Counter[str]) -> Counter[str]:
    """Each day's rules counted once, under the first of them in ``order`` (most days
    first, ties by rule ID): counts that add up to the days counted."""
    rank = {r: i for i, (r, _) in enumerate(sorted(order.items(), key=lambda x: (-x[1], x[0])))}
    return Counter(next(iter(rs)) if len(rs) == 1 else min(rs, key=rank.__getitem__)
                   for rs in sets if rs)


def _explain(t: Tournament, ctx: ModelContext, tally: Counter[str], example: dict[str, str],
             n_cands: int, per_day: list[set[str]] | None = None
             ) -> tuple[str, tuple[str, ...]]:
    """The reason of an occurrence of ``t`` not placed, its day counts adding up: the
    ``total`` days of the horizon = ``n_cands`` that could be a first day + those the rules
    excluded (each day under one rule, the one excluding most days); the ``n_cands`` = days
    already holding an occurrence of ``t`` + days on which one more would break a rule (each
    under one rule, as above; a day may break more) + days that break no rule alone (taken
    by other occurrences the objective put first)."""
    rej = Counter(r for rs in ctx.rejected[t.id].values() for r in rs)
    total = len(ctx.rejected[t.id]) + n_cands
    parts = []
    if n_cands == 0:
        parts.append(f"none of the {total} days of the horizon can be a first day")
    else:
        days = per_day or []
        blocked = _first_of(days, tally)
        open_days = sum(1 for rs in days if not rs)
        taken = n_cands - len(days)
        split = []
        if taken:
            split.append(f"{_days(taken)} already hold{'s' if taken == 1 else ''} one of its "
                         "occurrences")
        if blocked:
            split.append(f"on {_days(sum(blocked.values()))} one more occurrence would break "
                         + ", ".join(f"{cite(r)} ({_days(k)})"
                                     for r, k in sorted(blocked.items(),
                                                        key=lambda x: (-x[1], x[0]))))
        if open_days:
            split.append(f"on {_days(open_days)} no single rule is broken (the rules "
                         "together, or a search not proven optimal, kept it off them)")
        if taken == n_cands:  # no day left at all: say so, not "could be" and a tally
            parts.append(f"every allowed first day is already used ({_allowed(t, n_cands)})")
        else:
            parts.append(f"{n_cands} of the {total} days of the horizon could be a first day"
                         + (": " + ", ".join(split) if split else ""))
        if tally:
            top = tally.most_common(1)[0][0]
            parts.append(f"for example: {example[top]}")
    if rej:
        excluded = _first_of(list(ctx.rejected[t.id].values()), rej)
        parts.append(f"{_days(len(ctx.rejected[t.id]))} excluded by: " +
                     ", ".join(f"{cite(r)} ({_days(k)})"
                               for r, k in sorted(excluded.items(),
                                                  key=lambda x: (-x[1], x[0]))))
    rules = tuple(r for r, _ in tally.most_common()) + tuple(
        r for r, _ in rej.most_common() if r not in tally)
    if not rules:
        rules = ("COUNT",)
    return "; ".join(parts), rules
