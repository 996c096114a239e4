"""Solve a scenario: lexicographic CP-SAT solves, then a Plan audited by the checker.

Objective, lexicographic (each stage fixes the previous stage's value and starts from its
solution as a hint):

1. most priority-weighted occurrences placed, required occurrences first (a unit of required
   shortfall outweighs every optional placement);
2. least total licence and permit fees (USD), dates chosen jointly with the licences;
3. most occurrences on preferred weekdays.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from constraints.base import Audit, License, Placed, Rule
from constraints.catalogue import cite
from scheduler.model import Candidate, ModelContext, build_model
from scheduler.plan import Plan, Row, Unscheduled
from scheduler.scenario import Scenario, Tournament
from scheduler.timing import notice_due

if TYPE_CHECKING:
    from scheduler.replan import Announced, Cancelled, Identity

STAGES = ("placed", "fees_usd", "preferred")


class SolverError(RuntimeError):
    """The solver returned no usable answer (MODEL_INVALID, or UNKNOWN at the time limit)."""


class Interrupted(RuntimeError):
    """The user pressed Ctrl-C during a solve; the search was stopped."""


class AuditError(RuntimeError):
    """The solver's own plan fails the independent check: a bug, never a user error."""

    def __init__(self, violations: list) -> None:
        self.violations = violations
        lines = "\n".join("  " + v.render() for v in violations)
        super().__init__(f"the plan fails its own audit (a bug in tourney):\n{lines}")


@dataclass
class _Stage:
    status: str
    value: int
    bound: float


def _params(time_limit: float, seed: int, workers: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.max_time_in_seconds = time_limit
    p.random_seed = seed
    p.num_workers = workers
    p.linearization_level = 2  # the fee stage needs the LP of the licence-covering clauses
    if workers > 1:
        p.interleave_search = True  # deterministic multi-worker search
    return solver


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> int:
    """``solver.solve(model)`` in a worker thread, so that Ctrl-C in the main thread stops
    the search (``stop_search``) and raises :class:`Interrupted`."""
    import threading

    solver.parameters.catch_sigint_signal = False
    box: dict[str, int | BaseException] = {}

    def work() -> None:
        try:
            box["status"] = int(solver.solve(model))
        except BaseException as exc:  # pragma: no cover - re-raised below
            box["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        solver.stop_search()
        worker.join()
        raise Interrupted("interrupted") from None
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return int(box["status"])  # type: ignore[arg-type]


def _run(ctx: ModelContext, solver: cp_model.CpSolver, name: str) -> _Stage:
    status = solve_interruptibly(solver, ctx.model)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"stage {name}: the model is invalid: {ctx.model.validate()}")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(f"stage {name}: no solution within the time limit "
                          f"({cp_model.CpSolverStatus(status).name})")
    return _Stage(cp_model.CpSolverStatus(status).name, round(solver.objective_value),
                  solver.best_objective_bound)


def _weighted(terms: Sequence[tuple[cp_model.LinearExprT, int]]) -> cp_model.LinearExpr:
    return cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [w for _, w in terms])


def _hint(ctx: ModelContext, solver: cp_model.CpSolver) -> None:
    """The previous stage's solution as a complete hint for the next stage (every variable,
    so CP-SAT starts from a feasible solution)."""
    m = ctx.model
    m.clear_hints()
    for i in range(len(m.proto.variables)):
        var = m.get_int_var_from_proto_index(i)
        m.add_hint(var, solver.value(var))


def solve(
    scenario: Scenario, *, time_limit: float = 30.0, seed: int = 0, workers: int = 1,
    previous: list[Announced] | None = None,
) -> Plan:
    """Place the scenario's tournaments and choose the licences.

    ``time_limit`` is seconds per lexicographic stage; ``seed`` fixes CP-SAT's random seed;
    ``workers`` CP-SAT search workers (more than one uses the deterministic interleaved search).
    Same scenario, seed and workers give the same Plan.

    ``previous`` (from :func:`scheduler.replan.read_previous`) re-plans: announced
    occurrences keep their UID, those past their filing deadline or ``locked`` are pinned, and
    after the three objectives the fewest occurrences move, then the fewest days.

    Returns a :class:`Plan` whose ``status`` is OPTIMAL when every stage was proven optimal.
    Raises :class:`SolverError` when no solution is found in time, :class:`AuditError` when the
    independent checker finds a violation in the solver's plan (a bug).
    """
    if previous is not None:
        from scheduler.replan import with_pins

        scenario = with_pins(scenario, previous)
    ctx = build_model(scenario)
    m = ctx.model
    solver = _params(time_limit, seed, workers)

    placed = _weighted(ctx.placed_terms)
    short = _weighted(ctx.required_terms)
    big = sum(w for _, w in ctx.placed_terms) + 1
    stage1 = placed - big * short
    m.maximize(stage1)
    s1 = _run(ctx, solver, "placed")
    placed_val = int(solver.value(placed)) if ctx.placed_terms else 0
    shortfall = int(solver.value(short)) if ctx.required_terms else 0
    m.add(stage1 >= s1.value)
    _hint(ctx, solver)

    fees = _weighted(ctx.fee_terms)
    m.minimize(fees)
    s2 = _run(ctx, solver, "fees_usd")
    m.add(fees <= s2.value)
    _hint(ctx, solver)

    prefs = _weighted(ctx.preference_terms)
    if previous is None:
        # Preferred weekdays first, then earlier first days as the tie-break (so equal plans
        # are not chosen arbitrarily): a preferred day outweighs any total of day offsets.
        offsets = [((v, (day - scenario.horizon.start).days)) for (_, day), v in ctx.z.items()]
        weight = sum(w for _, w in offsets) + 1
        m.maximize(prefs * weight - _weighted(offsets))
        s3 = _run(ctx, solver, "preferred")
        stages = [s1, s2, s3]
    else:
        weight = 1
        m.maximize(prefs)
        s3 = _run(ctx, solver, "preferred")
        m.add(prefs >= s3.value)
        _hint(ctx, solver)
        # Re-plan: fewest announced occurrences moved; then, with the kept ones fixed, fewest
        # days moved: each new first day costs its distance to the nearest announced day of
        # its tournament that was not kept (the days those occurrences move from).
        kept, _ = _kept(ctx, previous)
        m.maximize(cp_model.LinearExpr.sum([v for _, v in kept]))
        s4 = _run(ctx, solver, "moved")
        for _, v in kept:
            m.add(v == solver.value(v))
        _hint(ctx, solver)
        left = [a for a, v in kept if not solver.value(v)] + _unplaceable(ctx, previous)
        # then earlier first days, as in a first plan (new occurrences have no old day)
        offsets = [((v, (day - scenario.horizon.start).days)) for (_, day), v in ctx.z.items()]
        weight = sum(w for _, w in offsets) + 1
        m.minimize(_weighted(_distance(ctx, left)) * weight + _weighted(offsets))
        s5 = _run(ctx, solver, "days_moved")
        stages = [s1, s2, s3, s4, s5]
    status = "OPTIMAL" if all(s.status == "OPTIMAL" for s in stages) else "FEASIBLE"
    plan = _extract(ctx, solver, status, seed, previous)
    plan.objective = {"placed": placed_val, "fees_usd": s2.value,
                      "preferred": int(solver.value(prefs))}
    # "+ 0.0" turns CP-SAT's -0.0 into 0.0
    plan.bound = {"placed": s1.bound + 0.0, "fees_usd": s2.bound + 0.0,
                  "preferred": (s3.bound + weight - 1) // weight + 0.0}
    from constraints.registry import RULES, check

    # A fixed date that cannot be honoured is reported as an unplaced required occurrence
    # (exit 1), not as a violation of the plan.
    violations = check(_audit(plan), rules=[r for r in RULES
                                            if r.id not in ("FIXED-DATES", "REQUIRED")])
    if violations:
        raise AuditError(violations)
    plan.unscheduled_list = unscheduled(ctx, plan)
    if shortfall:
        from scheduler.explain import minimal_conflicts

        plan.conflicts = minimal_conflicts(scenario, time_limit=time_limit, seed=seed)
    return plan


# ---------------------------------------------------------------------------- extraction
def _active(ctx: ModelContext, previous: list[Announced]) -> list[Announced]:
    return [a for a in previous if not a.cancelled and a.first_day in ctx.scenario.horizon
            and a.tournament_id in ctx.candidates]


def _kept(ctx: ModelContext, previous: list[Announced]
          ) -> tuple[list[tuple[Announced, cp_model.IntVar]], int]:
    """(announced occurrences that can stay on their day, with their ``z``; how many were
    announced)."""
    active = _active(ctx, previous)
    return ([(a, ctx.z[(a.tournament_id, a.first_day)]) for a in active
             if (a.tournament_id, a.first_day) in ctx.z], len(active))


def _unplaceable(ctx: ModelContext, previous: list[Announced]) -> list[Announced]:
    """Announced occurrences whose day is no longer allowed at all (they must move)."""
    return [a for a in _active(ctx, previous) if (a.tournament_id, a.first_day) not in ctx.z]


def _distance(ctx: ModelContext, moving: list[Announced]) -> list[tuple[cp_model.IntVar, int]]:
    """[(z, days from the nearest day an announced occurrence of its tournament moves from)]."""
    by_t: dict[str, list[dt.date]] = defaultdict(list)
    for a in moving:
        by_t[a.tournament_id].append(a.first_day)
    out = [(v, min(abs((day - p).days) for p in by_t[tid]))
           for (tid, day), v in ctx.z.items() if by_t.get(tid)]
    return [(v, w) for v, w in out if w]


def _uid(t: Tournament, occurrence: int) -> str:
    return f"{t.id}-{occurrence}@{t.operators[0]}.tourney"


def _license_id(kind: str, operator_id: str, valid_from: dt.date, extra: str = "") -> str:
    short = kind.removeprefix("mt-").removeprefix("me-")
    return f"{operator_id}/{short}/{valid_from.isoformat()}" + (f"/{extra}" if extra else "")


def _extract(ctx: ModelContext, solver: cp_model.CpSolver, status: str, seed: int,
             previous: list[Announced] | None = None) -> Plan:
    sc = ctx.scenario
    placed: list[tuple[Tournament, int, Candidate]] = []
    for t in sc.tournaments:
        chosen = [c for c in ctx.candidates[t.id] if solver.value(ctx.z[(t.id, c.first_day)])]
        placed.extend((t, k, c) for k, c in enumerate(chosen, start=1))
    identity: dict[tuple[str, dt.date], Identity] = {}
    cancelled: list[Cancelled] = []
    if previous is not None:
        from scheduler.replan import assign

        days: dict[str, list[dt.date]] = defaultdict(list)
        spans = {}
        for t, _, c in placed:
            days[t.id].append(c.first_day)
            spans[(t.id, c.first_day)] = f"{c.timing.start.isoformat()}|{c.timing.end.isoformat()}"
        identity, cancelled = assign(sc, previous, days, spans)

    bought = sorted((o for o in ctx.licenses if solver.value(o.var)),
                    key=lambda o: (o.operator_id, o.rank, o.valid_from, o.kind, o.tier))
    covers: dict[int, list[str]] = defaultdict(list)
    license_of: dict[tuple[str, str], str] = {}
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            for i, o in enumerate(bought):
                if o.operator_id == oid and o.covers(t, c.timing):
                    covers[i].append(ref)
                    license_of.setdefault((ref, oid), str(i))
                    if o.jurisdiction == "ME":
                        break
    licenses: list[License] = []
    ids: dict[str, str] = {}
    for i, o in enumerate(bought):
        refs = covers.get(i, [])
        if not refs:
            continue
        if o.kind in ("me-per-tournament", "me-super-cribbage"):
            # the tournament id (the date is in the id): stable while the game stays put,
            # whatever number it has (deadline UIDs are made from licence ids)
            extra = refs[0].split("#")[0]
        elif o.jurisdiction == "ME":
            extra = o.tier
        else:
            extra = ""
        lid = _license_id(o.kind, o.operator_id, o.valid_from, extra)
        ids[str(i)] = lid
        licenses.append(License(lid, o.operator_id, o.jurisdiction, o.kind, o.tier,
                                o.valid_from, o.valid_to, o.fee_usd, tuple(refs)))

    rows: list[Row] = []
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            op = sc.operator(oid)
            mt = op.jurisdiction == "MT"
            counted = (t.is_large and not t.charitable) or t.is_me_licensed_game
            rows.append(Row(
                tournament_id=t.id, occurrence=k, operator_id=oid,
                jurisdiction=op.jurisdiction, type=t.type, charitable=t.charitable,
                title=t.title, start=c.timing.start, end=c.timing.end,
                first_day=c.first_day, last_day=c.timing.last_day,
                notice_due=notice_due(c.first_day) if t.is_large else None,
                permit_year=op.permit_year_of(c.first_day) if mt else None,
                counted=counted, players=t.players,
                license_id=ids.get(license_of.get((ref, oid), ""), ""),
                uid=identity[(t.id, c.first_day)].uid if identity else _uid(t, k),
                sequence=identity[(t.id, c.first_day)].sequence if identity else 0))
    rows.sort(key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id))
    return Plan(sc, rows, licenses, [], status, seed=seed, cancelled=cancelled)


def _audit(plan: Plan) -> Audit:
    return Audit(plan.scenario, placed_of(plan), plan.license_list)


def placed_of(plan: Plan) -> list[Placed]:
    """The plan's occurrences (one per occurrence, not per operator) for the checker."""
    from scheduler.timing import Timing, _days_between

    seen: dict[tuple[str, int], Placed] = {}
    for r in plan.rows:
        if (r.tournament_id, r.occurrence) not in seen:
            seen[(r.tournament_id, r.occurrence)] = Placed(
                plan.scenario.tournament(r.tournament_id), r.occurrence,
                Timing(r.start, r.end, _days_between(r.start, r.end)))
    return list(seen.values())


# ---------------------------------------------------------------------------- reasons
def unscheduled(ctx: ModelContext, plan: Plan) -> list[Unscheduled]:
    """Every wanted occurrence not placed, with the reason computed from the rules.

    For each allowed first day, the occurrence is added to the plan and the checker says which
    rules it would break (against the placements already made); days no occurrence may take at
    all are attributed to the rules that excluded them.
    """
    from constraints.registry import RULES

    sc = plan.scenario
    placed = placed_of(plan)
    sched_rules = [r for r in RULES if r.check is not None and r.id not in
                   ("MT-PERMIT-FEES", "ME-FEES", "COUNT", "REQUIRED", "FIXED-DATES")]
    by_t: dict[str, list[Placed]] = defaultdict(list)
    for p in placed:
        by_t[p.tid].append(p)
    out: list[Unscheduled] = []
    for t in sc.tournaments:
        have = by_t.get(t.id, [])
        cands = ctx.candidates[t.id]
        wanted = len(cands) if t.count == "all" else t.count
        starts = {p.first_day for p in have}
        missing_fixed = [d for d in t.fixed_dates if d not in starts]
        if len(have) >= wanted and not missing_fixed:
            continue
        related = [p for p in placed if set(p.tournament.operators) & set(t.operators)
                   or (t.type == "super-cribbage" and p.tournament.type == "super-cribbage")]

        n = len(have)
        for d in missing_fixed:
            n += 1
            rej = ctx.rejected[t.id].get(d)
            if rej:
                rules = rej
                reason = f"its fixed date {d} is not allowed: " + _why_not(sc, t, n, d, rej)
            else:
                tally, example = _blocked(sc, t, related, starts,
                                          [c for c in cands if c.first_day == d], sched_rules, n)
                rules = tuple(sorted(tally))
                reason = (f"its fixed date {d} is taken: " +
                          "; ".join(f"{example[r]} ({cite(r)})" for r in rules)) if rules else \
                    f"its fixed date {d} competes with other required occurrences"
            out.append(Unscheduled(t.id, n, t.operators, reason, tuple(rules), True))
        rest = wanted - n
        if rest <= 0:
            continue
        reason, rules = _explain(
            t, ctx, *_blocked(sc, t, related, starts, cands, sched_rules, n + 1), len(cands))
        need = max(0, t.must_place - n)
        for k in range(rest):
            n += 1
            out.append(Unscheduled(t.id, n, t.operators, reason, rules, k < need))
    return out


def _why_not(sc: Scenario, t: Tournament, occurrence: int, day: dt.date,
             rule_ids: Sequence[str]) -> str:
    """The checker's own sentences for the rules that exclude ``day`` as a first day."""
    from constraints.registry import RULES, check
    from scheduler.timing import timing, tournament_tz

    tm = timing(t, tournament_tz(sc, t), day)
    if tm is None:
        return (f"{t.start_time:%H:%M} does not exist on {day} in {tournament_tz(sc, t).key}: "
                "the clocks spring forward (CLOCK-CHANGE)")
    found = check(
        Audit(sc, [Placed(t, occurrence, tm)], []),
        rules=[r for r in RULES if r.id in rule_ids])
    if not found:
        return "; ".join(cite(r) for r in rule_ids)
    return "; ".join(f"{v.message} ({cite(v.rule)})" for v in found)


def _blocked(sc: Scenario, t: Tournament, related: list[Placed], starts: set[dt.date],
             days: list[Candidate], rules: list[Rule], occurrence: int = 0
             ) -> tuple[Counter[str], dict[str, str]]:
    """For each day, the rules one more occurrence of ``t`` starting then would break:
    how many days each rule blocks, and the checker's sentence for its first such day."""
    from constraints.registry import check

    tally: Counter[str] = Counter()
    example: dict[str, str] = {}
    for c in days:
        if c.first_day in starts:
            continue
        trial = Audit(sc, [*related, Placed(t, occurrence, c.timing)], [])
        found = check(trial, rules=rules)
        tally.update({v.rule for v in found})
        for v in found:
            example.setdefault(v.rule, v.message)
    return tally, example


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _explain(t: Tournament, ctx: ModelContext, tally: Counter[str], example: dict[str, str],
             n_cands: int) -> tuple[str, tuple[str, ...]]:
    rej = Counter(r for rs in ctx.rejected[t.id].values() for r in rs)
    total = len(ctx.rejected[t.id]) + n_cands
    parts = []
    if n_cands == 0:
        parts.append(f"none of the {total} days of the horizon can be a first day")
    else:
        free = n_cands
        parts.append(f"{free} of the {total} days of the horizon could be a first day; on "
                     f"those days one more occurrence would break " +
                     ", ".join(f"{cite(r)} ({_days(k)})" for r, k in tally.most_common()))
        if tally:
            top = tally.most_common(1)[0][0]
            parts.append(f"for example: {example[top]}")
    if rej:
        parts.append("days excluded by: " +
                     ", ".join(f"{cite(r)} ({_days(k)})" for r, k in rej.most_common()))
    rules = tuple(r for r, _ in tally.most_common()) + tuple(
        r for r, _ in rej.most_common() if r not in tally)
    if not rules:
        rules = ("COUNT",)
    return "; ".join(parts), rules
