"""The terminal summary of a plan: per operator, placed/wanted, usage of each limit, fees."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from constraints.base import STATEWIDE, Usage
from constraints.maine import tier_index
from constraints.registry import RULES
from scheduler.core.jurisdiction import codes, jurisdiction
from scheduler.core.memo import LastOf
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import filing_from, made_day
from scheduler.export.checklist import readings
from scheduler.inputs.replan.cancel import departure_lines
from scheduler.result.plan import Plan, Unscheduled
from scheduler.result.usage import limit_usage as usage

LIMIT_RULES: dict[str, Callable[[Tournament], bool]] = {
    r.id: r.counts for r in RULES if r.counts is not None}
"""The limits two tournaments compete for, each with its ``counts`` (registry order; today
MT-LARGE-LIMIT, MT-SMALL-DAILY, ME-MONTHLY-LIMIT, ME-SUPER-CRIBBAGE): a tournament left out
under one of them may have given way to another tournament counted under the same limit
(:func:`displaced`)."""


_CITED_STATE = re.compile(r"\((MT|ME)-[A-Z0-9-]+, ")
"""The state of the rule a reading line cites (``(ME-MONTHLY-LIMIT, 17 M.R.S. § 1836)``)."""

_READ_SETTINGS = frozenset({
    "reentry_counts_toward_cap", "permit_year_count", "progressive_count",  # Montana's
    "month_rule", "tier_coverage", "surcharge_cap", "super_cribbage_licenses_issued",
    "closed_days",  # Maine's
})
"""The settings the readings name: shown only where :func:`scheduler.export.checklist.readings`
of the plan's states names them (a setting not listed is always shown)."""

def _statute(code: str) -> str:
    """The statute summary.txt names for a state (``words["statute_short"]``, else its
    ``statute``)."""
    j = jurisdiction(code)
    return j.words.get("statute_short", j.statute)


def _agency(code: str) -> str:
    """The agency summary.txt names for a state (``words["agency_short"]``, else its
    ``agency``)."""
    j = jurisdiction(code)
    return j.words.get("agency_short", j.agency)


def plan_states(scenario: Scenario) -> list[str]:
    """The states of ``scenario``'s operators (``MT``, ``ME``), in registry order."""
    have = {op.jurisdiction for op in scenario.operators}
    return [s for s in codes() if s in have]


def state_readings(scenario: Scenario, states: Sequence[str]
                   ) -> tuple[list[str], list[tuple[str, Any]]]:
    """The readings of ``states``' rules a plan of ``scenario`` was made under.

    Parameters
    ----------
    scenario
        Whose ``settings`` were read.
    states
        The plan's states (:func:`plan_states`).

    Returns
    -------
    (list of str, list of (str, value))
        The lines of :func:`scheduler.export.checklist.readings` but those citing only
        another state's rule; and the settings as ``(name, value)`` (scenario order), each
        state's only where those lines name it (a Maine-only plan shows no
        ``permit_year_count``, a Montana-only plan no ``month_rule``), a fact such as
        ``closed_days`` only when given, a setting not known here always.
    """
    items = [line for line in readings(scenario)
             if (m := _CITED_STATE.search(line)) is None or m.group(1) in states]
    said = " ".join(items)
    settings = [(k, v) for k, v in scenario.settings.model_dump().items()
                if v != () and v != {} and (k not in _READ_SETTINGS or f"({k}" in said)]
    return items, settings


def usage_lines(records: list[Usage]) -> list[str]:
    """The summary's lines of one operator's limit usage (no indent): each counted limit's
    own lines (:attr:`constraints.base.Rule.usage_text`; default one ``RULE period:
    used/limit`` line per record), by period start, then registry order.

    Parameters
    ----------
    records : list of constraints.base.Usage
        The :func:`scheduler.result.usage.limit_usage` records of one operator.

    Returns
    -------
    list of str
        E.g. ``MT-LARGE-LIMIT permit year 2027-01-01: 16/16 counted``.
    """
    keyed: list[tuple[dt.date, str]] = []
    for rule in RULES:
        mine = [u for u in records if u.rule == rule.id]
        if not mine:
            continue
        text = rule.usage_text
        keyed.extend(text.summary(mine) if text is not None and text.summary is not None
                     else ((u.period_start, f"{u.rule} {u.period}: {u.used}/{u.limit}"
                            + u.held_split) for u in mine))
    return [line for _, line in sorted(keyed, key=lambda k: k[0])]  # stable: registry order


def _fee_key(t: Tournament) -> tuple[str, int]:
    """What an occurrence of ``t`` pays for: its type and, for a Maine licensed game other
    than super cribbage, its ME-FEES tier (17 M.R.S. § 1836(3-A)); two tournaments of one
    key cost the same (one permit, MT-PERMIT-FEES; one tier's licence; $75 a super
    cribbage licence), so neither is left out for being dearer."""
    tier = (tier_index(min(t.players or 1, 300))
            if t.is_me_licensed_game and t.type != "super-cribbage" else -1)
    return t.type, tier


def displaced(plan: Plan, use: Sequence[Usage] | None = None) -> list[str]:
    """The optional tournaments that gave way, at equal ``priority``, to others competing for
    the same limit: the plan then takes the cheaper set (the objective's fee stage,
    ``scheduler.engine.objective``), so a tournament with a dearer licence (a $75 super cribbage
    licence against one more game under an annual licence already bought) is left out only
    because it costs more. One line per such tournament (scenario order): the rule, the
    tournaments placed instead, and the ``priority`` that would keep it (its priority + 1);
    "cheaper" only when every rival pays for another licence or tier (:func:`_fee_key`),
    else the line says which the plan kept, without a cost claim.

    Detected on the plan alone: an unplaced optional occurrence whose reason names a limit of
    :data:`LIMIT_RULES`, and a tournament of the same priority counted under that limit at
    one of its operators (ME-SUPER-CRIBBAGE: statewide) with more occurrences placed than
    must be (``fixed_dates``, ``required``: those are placed first whatever the priority).
    ``use``: :func:`scheduler.result.usage.limit_usage` of ``plan`` when the caller has it
    (else computed here when needed).
    """
    sc = plan.scenario
    # a rival gives way only with an optional occurrence placed: one that must be placed
    # (fixed_dates, required) is placed first whatever the priorities
    n_placed = Counter(tid for tid, _ in dict.fromkeys(
        (r.tournament_id, r.occurrence) for r in plan.rows))
    optional = {o.id for o in sc.tournaments if n_placed[o.id] > o.must_place}
    # the placed tournaments counted under each limit, by (rule, priority) and by (rule,
    # priority, operator), in scenario order: each tournament's rivals without a pass over
    # every tournament for every occurrence not placed (statewide: thousands of each)
    order = {o.id: k for k, o in enumerate(sc.tournaments)}
    by_priority: dict[tuple[str, int], list[Tournament]] = {}
    by_operator: dict[tuple[str, int, str], list[Tournament]] = {}
    for rule in LIMIT_RULES:
        for o in sc.tournaments:
            if o.id in optional and LIMIT_RULES[rule](o):
                by_priority.setdefault((rule, o.priority), []).append(o)
                for op in dict.fromkeys(o.operators):
                    by_operator.setdefault((rule, o.priority, op), []).append(o)
    statewide: set[str] | None = None  # the limits counted statewide, read when needed
    not_placed = Counter(v.tournament_id for v in plan.unscheduled_list)
    known: dict[tuple[str, str], list[str]] = {}
    out: list[str] = []
    seen: set[str] = set()
    for u in plan.unscheduled_list:
        if u.required or u.tournament_id in seen:
            continue
        t = sc.tournament(u.tournament_id)
        for rule in (r for r in u.rule_ids if r in LIMIT_RULES):
            rivals = known.get((t.id, rule))
            if rivals is None:
                if statewide is None:
                    statewide = {r.rule for r in (usage(plan) if use is None else use)
                                 if r.operator_id == STATEWIDE}
                if rule in statewide:  # ME-SUPER-CRIBBAGE
                    near = by_priority.get((rule, t.priority), [])
                else:  # at one of its operators
                    near = sorted({o.id: o for op in t.operators for o in by_operator.get(
                        (rule, t.priority, op), [])}.values(), key=lambda o: order[o.id])
                rivals = known[(t.id, rule)] = [o.id for o in near if o.id != t.id]
            if not rivals:
                continue
            seen.add(t.id)
            n = not_placed[t.id]
            key = _fee_key(t)
            if all(_fee_key(sc.tournament(o)) != key for o in rivals):
                out.append(f"{t.id} ({n} not placed) gave way to {', '.join(rivals)} under "
                           f"{rule} at equal priority {t.priority}: the plan takes the "
                           f"cheaper set; give {t.id} priority {t.priority + 1} to keep it.")
            else:  # the same licence or permit: no fee tells them apart
                out.append(f"{t.id} ({n} not placed): under {rule} at equal priority "
                           f"{t.priority} the plan kept {', '.join(rivals)}; give {t.id} "
                           f"priority {t.priority + 1} to keep it.")
            break
    return out


def summary_text(plan: Plan, use: Sequence[Usage] | None = None) -> str:
    """A plain-text summary of ``plan``: what ``tourney solve`` prints and summary.txt holds.

    Parameters
    ----------
    plan
        The solved plan.
    use
        :func:`scheduler.result.usage.limit_usage` of ``plan`` when the caller has it, else
        computed here.

    Returns
    -------
    str
        Lines, the last ending in a newline. First the reader's own: with several operators
        planned together, one line per operator (scenario order) with its name, the plan's
        status, its occurrences placed and not placed and its own fees (USD: the licences
        and permits it buys), then the whole scenario's line (``NAME (N operators
        together): ...``, every fee); with one operator the scenario's line alone. Then the
        gap when the search was interrupted or not proven optimal; per operator (with one
        operator, its occurrences placed of wanted and its fees) its limits used
        (``MT-LARGE-LIMIT``, ``MT-CHARITY-LIMIT`` per permit year, ``ME-MONTHLY-LIMIT``
        months full: :func:`scheduler.result.usage.limit_usage`); what is wanted beyond the
        law; the required occurrences that cannot be placed, with their reasons and
        conflicts, else the tournaments with occurrences not placed; the optional
        tournaments that gave way at equal priority (:func:`displaced`); the readings of the
        plan's own states (:func:`state_readings`); the not-legal-advice line naming the
        statutes of those states (MCA 23-5-317, 17 M.R.S. § 1836). The same plan asked
        again (summary.txt, then the report) gets the text made the first time.
    """
    return _SUMMARIES.get(plan, lambda: _summary_text(plan, use))


_SUMMARIES: LastOf[str] = LastOf()
"""The last plan's summary text (issue #27: summary.txt and report.html both read it)."""


def _summary_text(plan: Plan, use: Sequence[Usage] | None) -> str:
    sc = plan.scenario
    placed = len({(r.tournament_id, r.occurrence) for r in plan.rows})
    together = len(sc.operators) > 1
    fees_of: dict[str, int | Decimal] = {}
    for lic in plan.license_list:
        fees_of[lic.operator_id] = fees_of.get(lic.operator_id, 0) + lic.fee_usd
    lines = []
    if together:  # each reader's own line first, the whole scenario's after
        for op in sc.operators:
            mine = {(r.tournament_id, r.occurrence) for r in plan.rows_of(op.id)}
            n_missing = sum(op.id in u.operators for u in plan.unscheduled_list)
            lines.append(f"{op.name}: {plan.status} plan, {_count(len(mine), 'occurrence')} "
                         f"placed, {n_missing} not placed, fees ${fees_of.get(op.id, 0):,}")
    lines.append(f"{sc.name}{f' ({len(sc.operators)} operators together)' if together else ''}"
                 f": {plan.status} plan, {_count(placed, 'occurrence')} placed, "
                 f"{len(plan.unscheduled_list)} not placed, fees ${plan.total_fees_usd:,}")
    gap = plan.gap
    gaps = f"placed {gap.get('placed', 0):.1%}, fees {gap.get('fees_usd', 0):.1%}"
    if plan.interrupted:
        lines.append(f"  Interrupted: the best plan found before the search was stopped (gap: "
                     f"{gaps}); solve again for a proven plan.")
    elif plan.status != "OPTIMAL":
        lines.append(f"  Not proven optimal: a time limit was reached (gap to the proven bound: "
                     f"{gaps}); a longer --deterministic-time or --time-limit may do better.")
    lines.extend(as_of_lines(plan))
    if use is None:
        use = usage(plan)
    use_of: dict[str, list[Usage]] = {}
    for row in use:
        use_of.setdefault(row.operator_id, []).append(row)
    for op in sc.operators:
        rows = plan.rows_of(op.id)
        missing = [u for u in plan.unscheduled_list if op.id in u.operators]
        used = usage_lines(use_of.get(op.id, []))
        if together:  # its placed and fees are its line at the top
            if used:
                lines.append(f"  {op.name} ({op.id}, {op.jurisdiction}), limits used:")
        else:
            lines.append(f"  {op.name} ({op.id}, {op.jurisdiction}): {len(rows)} placed of "
                         f"{len(rows) + len(missing)} wanted; fees ${fees_of.get(op.id, 0):,}")
        lines.extend(f"    {line}" for line in used)
    if plan.overasked:  # up front, before the per-occurrence reasons
        lines.extend(f"More is wanted than the law allows: {line}" for line in plan.overasked)
    required = [u for u in plan.unscheduled_list if u.required]
    if required:
        lines.append("Required occurrences that cannot be placed:")
        # a run of one tournament's occurrences with the same reason is one line
        runs: list[list[Unscheduled]] = []
        for u in required:
            last = runs[-1][-1] if runs else None
            if (last is not None and (last.tournament_id, last.reason, last.occurrence + 1)
                    == (u.tournament_id, u.reason, u.occurrence)):
                runs[-1].append(u)
            else:
                runs.append([u])
        for run in runs:
            u = run[0]
            lines.append(f"  {u.tournament_id}#{u.occurrence}: {u.reason}" if len(run) == 1
                         else f"  {u.tournament_id}#{u.occurrence}..#{run[-1].occurrence} "
                              f"({len(run)} occurrences): {u.reason}")
        for k, conflict in enumerate(plan.conflicts, start=1):
            lines.append(f"Conflict {k}: these cannot all hold " + (
                "(a minimal set: drop any one and the rest fit):"
                if getattr(conflict, "minimal", True) else
                "(not proven minimal: the explanation's search budget ran out, so the set "
                "may hold more than is needed):"))
            certificate = getattr(conflict, "certificate", None)
            if certificate:
                lines.append(f"  because {certificate}")
            lines.extend(f"  - {m.render()}" for m in conflict)
    elif plan.unscheduled_list:
        by_t = Counter(u.tournament_id for u in plan.unscheduled_list)
        lines.append("Not placed (see unscheduled.csv for the reasons): " +
                     ", ".join(f"{t} x{n}" for t, n in sorted(by_t.items())))
    lines.extend(f"  {line}" for line in displaced(plan, use))
    # venues that left the scenario or a shared tournament: their calendars cancel it
    lines.extend(departure_lines(sc, plan.previous_events, plan.departed_events,
                                 plan.departed, made_day(sc)))
    # the reading switches, and a fact such as super_cribbage_licenses_issued or closed_days
    # only when given (days as [YYYY-MM-DD, ...])
    # of the plan's own states only (a Maine-only plan reads no Montana setting)
    states = plan_states(sc) or list(codes())
    lines.append("Readings: " + ", ".join(
        f"{k}=[{', '.join(map(str, v))}]" if isinstance(v, tuple) else f"{k}={v}"
        for k, v in state_readings(sc, states)[1]))
    lines.append(f"Not legal advice: read {' and '.join(_statute(s) for s in states)} (and "
                 f"ask the {' / '.join(_agency(s) for s in states)}) before filing.")
    return "\n".join(lines) + "\n"


def _count(n: int, noun: str) -> str:
    """``1 occurrence``, ``2 occurrences``: ``n`` (thousands separated) and ``noun``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def as_of_lines(plan: Plan) -> list[str]:
    """The summary's lines on the day ``plan`` was made as of (``Scenario.as_of``, recorded
    here so the folder says it): that day and the earliest filing day
    (:func:`scheduler.core.timing.filing_from`: nothing new is placed whose MT notice or ME
    application is due before it, MT-NOTICE, ME-APPLICATION-WINDOW); then the occurrences
    before it that no ledger records as held ("not recorded yet": kept on their day, never
    moved; ``tourney record held`` or ``cancelled``), one line each. Empty for a plan
    made without an as-of day (built by hand)."""
    sc = plan.scenario
    if sc.as_of is None:
        return []
    out = [f"  As of {sc.as_of}: notices and applications of new occurrences are filed from "
           f"{filing_from(sc)} on (notice_from {sc.notice_from})."]
    seen = set()
    for r in sorted(plan.rows, key=lambda r: (r.first_day, r.tournament_id, r.occurrence)):
        if r.first_day >= sc.as_of or r.status == "held" or r.ref in seen:
            continue
        seen.add(r.ref)
        out.append(f"  Not recorded yet: {r.ref} ({r.title}) on {r.first_day}, before "
                   f"{sc.as_of}, {r.status}: record it held or cancelled (tourney record); "
                   f"it stays on its day.")
    return out


def alternatives_text(best: Plan, others: list[Plan], wanted: int, min_difference: int) -> str:
    """The list of plans ``tourney solve --alternatives K`` prints after the summary.

    Parameters
    ----------
    best : Plan
        The best plan (rank 1).
    others : list of Plan
        The next-best plans found (ranks 2, ...), each written to ``alternative-<rank>/``.
    wanted : int
        K, how many plans were asked for.
    min_difference : int
        How many occurrence dates each plan differs from the others by, at least.

    Returns
    -------
    str
        One heading line and one line per plan (occurrences placed, fees in USD, preferred
        days), and a last line when fewer than ``wanted`` exist; no final newline.
    """
    lines = [f"Alternatives (each differs from the others in at least {min_difference} "
             f"date(s)):"]
    for p in [best, *others]:
        where = "" if p.rank == 1 else f" -> alternative-{p.rank}/"
        placed = len({(r.tournament_id, r.occurrence) for r in p.rows})
        lines.append(f"  {p.rank}. {placed:,} occurrences placed, fees ${p.total_fees_usd:,}, "
                     f"preferred {p.objective.get('preferred', 0)}{where}")
    if len(others) + 1 < wanted:
        lines.append(f"  Only {len(others) + 1} of the {wanted} asked for exist: no other "
                     "plan places as many occurrences and differs enough.")
    return "\n".join(lines)
