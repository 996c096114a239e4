"""Why required occurrences cannot all be placed: a minimal set of conflicting rules and
requests.

Every rule constraint of the model (each limit of each operator and period, each gap window,
...) and every rule's exclusion of days for a tournament is guarded by an enforcement literal;
every request (a tournament's ``required`` occurrences, each fixed date) likewise. With all
guards as CP-SAT assumptions the model is infeasible; CP-SAT returns a sufficient set of
assumptions (``sufficient_assumptions_for_infeasibility``), which is then shrunk by deletion
until dropping any one member makes the rest feasible: a minimal conflicting set.

Only members that are assumptions are kept (presolve may report literals outside them).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ortools.sat.python import cp_model

from constraints.catalogue import RULES as CATALOGUE
from constraints.catalogue import cite
from constraints.requests import minimums
from scheduler.cpsat import new_solver, solve_interruptibly
from scheduler.model import build_model
from scheduler.scenario import Scenario


@dataclass(frozen=True)
class Member:
    """One rule instance or request of a conflict."""

    rule: str
    """A rule ID, or ``REQUEST`` for a required occurrence / fixed date."""
    text: str

    def render(self) -> str:
        if self.rule == "REQUEST":
            return f"request: {self.text}"
        return f"{self.text} ({cite(self.rule)})"


@dataclass
class _Guarded:
    model: cp_model.CpModel
    members: dict[int, Member]  # literal index → what it guards
    unproven: bool = False  # a deletion step timed out


class Conflict(list[Member]):
    """A set of members that cannot all hold; ``minimal`` is False when a deletion step ran
    out of time, so a member might be dropped without making the rest fit."""

    minimal: bool = True


def _guarded_model(scenario: Scenario) -> _Guarded:
    ctx = build_model(scenario, explain=True)
    m = ctx.model
    members: dict[int, Member] = {}
    n_rule_constraints = len(m.proto.constraints)
    for i in range(n_rule_constraints):
        ct = m.proto.constraints[i]
        rid = ctx.rule_of_constraint[i]
        g = m.new_bool_var(f"guard[{i}]")
        ct.enforcement_literal.append(g.index)
        text = ct.name.split(": ", 1)[1] if ": " in ct.name else CATALOGUE[rid].summary
        members[g.index] = Member(rid, text)
    for (tid, rid), zs in sorted(ctx.excluded.items()):
        g = m.new_bool_var(f"exclude[{tid},{rid}]")
        for z in zs:
            m.add(z == 0).only_enforce_if(g)
        members[g.index] = Member(rid, _exclusion_text(scenario, tid, rid, [
            d for (t_id, d), z in ctx.z.items() if t_id == tid and z in zs]))
    for t in scenario.tournaments:
        lits = [v for c, v in ctx.starts(t)]
        if t.required:
            g = m.new_bool_var(f"required[{t.id}]")
            m.add(sum(lits) >= t.required).only_enforce_if(g)
            members[g.index] = Member("REQUEST", f"{t.id} needs {t.required} occurrence(s) "
                                                 f"placed (required: {t.required})")
        for d in t.fixed_dates:
            g = m.new_bool_var(f"fixed[{t.id},{d}]")
            pinned = ctx.z.get((t.id, d))
            if pinned is None:  # the start time does not exist that day
                m.add_bool_or([g.Not()])
            else:
                m.add(pinned == 1).only_enforce_if(g)
            members[g.index] = Member("REQUEST", f"{t.id} is pinned to start on {d} "
                                                 f"(fixed_dates)")
    for n, (starts, least, text) in enumerate(minimums(ctx)):
        g = m.new_bool_var(f"minimum[{n}]")  # PER-MONTH-MIN, PER-WEEK-MIN
        m.add(starts >= least).only_enforce_if(g)
        members[g.index] = Member("REQUEST", text)
    return _Guarded(m, members)


def _exclusion_text(scenario: Scenario, tid: str, rid: str, days: list[dt.date]) -> str:
    """What a rule's exclusion of first days says, in the scenario's own terms."""
    t = scenario.tournament(tid)
    days = sorted(days)
    shown = (", ".join(d.isoformat() for d in days) if len(days) <= 3
             else f"{len(days)} days ({days[0]}..{days[-1]})")
    if rid == "WINDOW" and t.window is not None:
        return f"{tid} may start only from {t.window.start} to {t.window.end} (its window)"
    if rid == "WEEKDAYS" and t.weekdays:
        return f"{tid} may start only on {', '.join(t.weekdays)} (its weekdays)"
    if rid == "BLACKOUT":
        whose = [scenario.operator(o).name for o in t.operators
                 if scenario.operator(o).blackout]
        return f"the blackout days of {' and '.join(whose)} rule out {shown} for {tid}"
    if rid == "CLOCK-CHANGE":
        return (f"{t.start_time:%H:%M} does not exist on {shown} (the clocks spring forward), "
                f"so {tid} cannot start then")
    return f"{CATALOGUE[rid].summary} rules out {shown} as a first day of {tid}"


def _solve_assuming(g: _Guarded, lits: list[int], deterministic_time: float | None,
                    seed: int, time_limit: float | None = None
                    ) -> tuple[bool, cp_model.CpSolver]:
    """(whether the guarded model is proven infeasible under the assumptions ``lits``,
    the solver, whose ``status`` tells a proven fit from a time-out). Limits per solve:
    ``deterministic_time`` (CP-SAT deterministic time, the same answer under any load) and
    ``time_limit`` (wall seconds, None: none)."""
    g.model.clear_assumptions()
    g.model.proto.assumptions.extend(lits)
    # one worker and CP-SAT's own presolve rounds; the LP of the guarded limits
    # (linearization level 2, as every solver of new_solver) proves pigeonhole conflicts
    # (17 required into 16 slots) at once, without it the search enumerates placements
    solver = new_solver(time_limit=time_limit, deterministic_time=deterministic_time,
                        seed=seed, workers=1, repeated_presolve=True)
    return solve_interruptibly(solver, g.model) == cp_model.INFEASIBLE, solver


def _infeasible(g: _Guarded, lits: list[int], deterministic_time: float | None, seed: int,
                time_limit: float | None = None) -> bool:
    return _solve_assuming(g, lits, deterministic_time, seed, time_limit)[0]


def _core(g: _Guarded, active: list[int], deterministic_time: float | None, seed: int,
          time_limit: float | None = None) -> list[int] | None:
    """A minimal infeasible subset of ``active`` (literal indices), or None if feasible."""
    infeasible, solver = _solve_assuming(g, active, deterministic_time, seed, time_limit)
    if not infeasible:
        return None
    # presolve may name literals that are not assumptions: keep only ours
    core = [i for i in solver.sufficient_assumptions_for_infeasibility() if i in g.members]
    if not core or not _infeasible(g, core, deterministic_time, seed, time_limit):
        core = list(active)  # not enough on its own: shrink from everything
    k = 0
    while k < len(core):
        trial = core[:k] + core[k + 1:]
        infeasible, solver = _solve_assuming(g, trial, deterministic_time, seed, time_limit)
        if infeasible:
            core = trial
        else:
            if solver.response_proto.status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
                g.unproven = True  # timed out: kept, so the set may not be minimal
            k += 1
    return core


EXPLAIN_DETERMINISTIC_TIME = 10.0
"""Default CP-SAT deterministic time of each solve of the conflict explanation."""


def minimal_conflicts(scenario: Scenario, *, time_limit: float | None = None,
                      deterministic_time: float | None = EXPLAIN_DETERMINISTIC_TIME,
                      seed: int = 0) -> list[list[Member]]:
    """Minimal sets of rule instances and requests that cannot all hold; empty when the
    required occurrences fit (or infeasibility could not be proven within the limits).

    Each solve (the first, and one per deletion step) stops at ``deterministic_time`` CP-SAT
    deterministic time units, so the answer is the same on any machine and under any load;
    ``time_limit`` (wall seconds, default none) only when asked for. A deletion step that
    runs out of time keeps its member (the set is then marked not ``minimal``).

    Each set is minimal: dropping any one member makes the others satisfiable (every deletion
    is verified by a solve). After a set is found, its requests are set aside and the search
    goes on, so independent conflicts are each reported once.
    """
    g = _guarded_model(scenario)
    active = sorted(g.members)
    found: list[list[Member]] = []
    while True:
        g.unproven = False
        core = _core(g, active, deterministic_time, seed, time_limit)
        if core is None:
            break
        order = {"REQUEST": 0}
        conflict = Conflict(sorted((g.members[i] for i in core),
                                   key=lambda mb: (order.get(mb.rule, 1), mb.rule, mb.text)))
        conflict.minimal = not g.unproven
        found.append(conflict)
        requests = {i for i in core if g.members[i].rule == "REQUEST"}
        if not requests:
            break  # the rules alone conflict: nothing more to set aside
        active = [i for i in active if i not in requests]
    return found
