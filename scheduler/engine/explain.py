"""Why required occurrences cannot all be placed: a small set of conflicting rules and
requests, explained as a person reasons (issue #16).

First a counting argument when one exists: each rule's ``certificate`` (constraints/*.py,
e.g. "800 required small-stakes tournaments, at most one a day (MT-SMALL-DAILY), 731 days in
the horizon") proves by arithmetic alone that some requests cannot all fit. Then the set is
shrunk, or (without a certificate) found, with CP-SAT assumptions over *families*, not days:
one guard literal per (rule ID, scope) — every constraint instance of that rule for that
operator (each day's MT-SMALL-DAILY row, each permit year's MT-LARGE-LIMIT, ...) — one per
tournament's ``required``, one per tournament's fixed dates, one per (tournament, rule)
exclusion of first days. CP-SAT returns a sufficient set of assumptions
(``sufficient_assumptions_for_infeasibility``), which is shrunk by deletion until dropping
any one member makes the rest feasible: tens of solves, not hundreds. A family of a few
instances (e.g. an operator's two permit years) is then narrowed to the instances needed.

Every solve stops at a deterministic time (CP-SAT deterministic time units, the same answer
under any load), and all solves of one explanation share a total budget; when a step runs
out, its member is kept and the conflict is marked not proven minimal.

Only members that are assumptions are kept (presolve may report literals outside them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model
from ortools.sat.python.cp_model_helper import ConstraintProto

from constraints.catalogue import RULES as CATALOGUE
from constraints.modelling import ModelContext
from constraints.registry import RULES as REGISTRY
from constraints.requests import minimums
from scheduler.core.scenario import Scenario
from scheduler.engine.cpsat import new_solver, solve_interruptibly
from scheduler.engine.model import build_model
from scheduler.result.conflict import Conflict, Member

REFINE_MAX = 8
"""A family of at most this many constraint instances (e.g. an operator's permit years) gets
a guard per instance too, so a conflict can name the instances needed, not the family."""


@dataclass
class _Guarded:
    model: cp_model.CpModel
    members: dict[int, Member]
    """Every literal that may be assumed -> what it guards: the families, requests and
    exclusions (``top``), and the instances of the families that can be narrowed."""
    top: list[int] = field(default_factory=list)
    """The literals a search starts from: families, requests, fixed dates, exclusions."""
    parts: dict[int, list[int]] = field(default_factory=dict)
    """A family's literal -> its instances' literals (families of 2..REFINE_MAX instances)."""
    families: dict[tuple[str, str], int] = field(default_factory=dict)
    """(rule ID, scope) -> the family's literal. Scope: the operator ids ('+'-joined) that
    every tournament of a constraint belongs to (an operator's limit: that operator), '*'
    when they share none (e.g. ME-SUPER-CRIBBAGE statewide)."""
    requests: dict[str, int] = field(default_factory=dict)
    """Tournament id -> the literal of its ``required`` occurrences."""
    exclusions: dict[tuple[str, str], int] = field(default_factory=dict)
    """(tournament id, rule ID) -> the literal of that rule's exclusion of first days."""
    ctx: ModelContext | None = None
    budget: float | None = None
    """Total CP-SAT deterministic time of all solves (None: no total)."""
    spent: float = 0.0
    """CP-SAT deterministic time used so far."""
    unproven: bool = False  # a deletion step ran out of time or budget


def _literals(ct: ConstraintProto) -> list[int]:
    """The variable indices a constraint of the proto reads (linear terms or literals)."""
    refs: list[int] = list(ct.linear.vars) if ct.has_linear() else []
    for kind in ("bool_or", "bool_and", "at_most_one", "exactly_one"):
        if getattr(ct, f"has_{kind}")():
            refs += list(getattr(ct, kind).literals)
    return [r if r >= 0 else -r - 1 for r in refs]


def _family_text(rid: str, scope: str, texts: list[str]) -> str:
    """One line for a family's instances: the common words around the one that varies
    (``room holds at most one small-stakes tournament on each of 2027-01-01..2028-12-31
    (731 limits)``), else the rule's summary and the count."""
    if len(texts) == 1:
        return texts[0]
    words = [t.split(" ") for t in texts]
    shortest = min(len(w) for w in words)
    pre = 0
    while pre < shortest and len({w[pre] for w in words}) == 1:
        pre += 1
    suf = 0
    while suf < shortest - pre and len({w[-1 - suf] for w in words}) == 1:
        suf += 1
    mids = [w[pre:len(w) - suf] for w in words]
    if pre and all(len(m) == 1 for m in mids):
        seen = list(dict.fromkeys(m[0] for m in mids))
        shown = (", ".join(seen) if len(seen) <= 3
                 else f"each of {seen[0]}..{seen[-1]} ({len(seen)} limits)")
        return " ".join([*words[0][:pre], shown, *words[0][len(words[0]) - suf:]])
    who = "" if scope == "*" else f" of {scope}"
    return f"{CATALOGUE[rid].summary} ({len(texts)} limits{who})"


def _guarded_model(scenario: Scenario) -> _Guarded:
    ctx = build_model(scenario, explain=True)
    m = ctx.model
    g = _Guarded(m, {}, ctx=ctx)
    tid_of = {v.index: tid for (tid, _), v in ctx.z.items()}
    ops_of = {t.id: frozenset(t.operators) for t in scenario.tournaments}
    families: dict[tuple[str, str], list[int]] = {}
    for i in range(len(m.proto.constraints)):
        ct = m.proto.constraints[i]
        tids = {tid_of[v] for v in _literals(ct) if v in tid_of}
        ops = frozenset.intersection(*(ops_of[t] for t in tids)) if tids else frozenset()
        families.setdefault((ctx.rule_of_constraint[i], "+".join(sorted(ops)) or "*"),
                            []).append(i)
    for (rid, scope), idx in families.items():  # model order: deterministic
        texts = [(n.split(": ", 1)[1] if ": " in (n := m.proto.constraints[i].name)
                  else CATALOGUE[rid].summary) for i in idx]
        f = m.new_bool_var(f"family[{rid},{scope}]")
        g.members[f.index] = Member(rid, _family_text(rid, scope, texts))
        g.families[(rid, scope)] = f.index
        g.top.append(f.index)
        if 1 < len(idx) <= REFINE_MAX:
            g.parts[f.index] = []
            for i, text in zip(idx, texts, strict=True):
                p = m.new_bool_var(f"guard[{i}]")
                m.proto.constraints[i].enforcement_literal.append(p.index)
                m.add_implication(f, p)
                g.members[p.index] = Member(rid, text)
                g.parts[f.index].append(p.index)
        else:
            for i in idx:
                m.proto.constraints[i].enforcement_literal.append(f.index)
    day_of = {v.index: d for (_, d), v in ctx.z.items()}
    for (tid, rid), zs in sorted(ctx.excluded.items()):
        g_ex = m.new_bool_var(f"exclude[{tid},{rid}]")
        for z in zs:
            m.add(z == 0).only_enforce_if(g_ex)
        g.members[g_ex.index] = Member(rid, _exclusion_text(scenario, tid, rid, [
            day_of[z.index] for z in zs]))
        g.exclusions[(tid, rid)] = g_ex.index
        g.top.append(g_ex.index)
    for t in scenario.tournaments:
        lits = [v for c, v in ctx.starts(t)]
        if t.required:
            g_req = m.new_bool_var(f"required[{t.id}]")
            m.add(sum(lits) >= t.required).only_enforce_if(g_req)
            g.members[g_req.index] = Member("REQUEST", f"{t.id} needs {t.required} "
                                                       f"occurrence(s) placed (required: "
                                                       f"{t.required})")
            g.requests[t.id] = g_req.index
            g.top.append(g_req.index)
        if t.fixed_dates:
            g_fix = m.new_bool_var(f"fixed[{t.id}]")
            for d in t.fixed_dates:
                pinned = ctx.z.get((t.id, d))
                if pinned is None:  # the start time does not exist that day
                    m.add_bool_or([g_fix.Not()])
                else:
                    m.add(pinned == 1).only_enforce_if(g_fix)
            days = sorted(t.fixed_dates)
            on = (" and ".join(d.isoformat() for d in days) if len(days) <= 3
                  else f"each of {len(days)} days ({days[0]}..{days[-1]})")
            g.members[g_fix.index] = Member("REQUEST", f"{t.id} is pinned to start on {on} "
                                                       f"(fixed_dates)")
            g.top.append(g_fix.index)
    for n, (starts, least, text) in enumerate(minimums(ctx)):
        g_min = m.new_bool_var(f"minimum[{n}]")  # PER-MONTH-MIN, PER-WEEK-MIN
        m.add(starts >= least).only_enforce_if(g_min)
        g.members[g_min.index] = Member("REQUEST", text)
        g.top.append(g_min.index)
    return g


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
                    ) -> tuple[bool, cp_model.CpSolver | None]:
    """(whether the guarded model is proven infeasible under the assumptions ``lits``,
    the solver, whose ``status`` tells a proven fit from a time-out; None when the total
    budget was already spent and nothing was solved). Limits per solve:
    ``deterministic_time`` (CP-SAT deterministic time, the same answer under any load), at
    most what is left of ``g.budget``, and ``time_limit`` (wall seconds, None: none)."""
    if g.budget is not None:
        left = g.budget - g.spent
        if left <= 0:
            return False, None
        deterministic_time = left if deterministic_time is None else min(deterministic_time,
                                                                          left)
    g.model.clear_assumptions()
    g.model.proto.assumptions.extend(lits)
    # one worker and CP-SAT's own presolve rounds; the LP of the guarded limits
    # (linearization level 2, as every solver of new_solver) proves pigeonhole conflicts
    # (17 required into 16 slots) at once, without it the search enumerates placements
    solver = new_solver(time_limit=time_limit, deterministic_time=deterministic_time,
                        seed=seed, workers=1, repeated_presolve=True)
    status = solve_interruptibly(solver, g.model)
    g.spent += solver.response_proto.deterministic_time
    return status == cp_model.INFEASIBLE, solver


def _infeasible(g: _Guarded, lits: list[int], deterministic_time: float | None, seed: int,
                time_limit: float | None = None) -> bool:
    return _solve_assuming(g, lits, deterministic_time, seed, time_limit)[0]


def _fits(solver: cp_model.CpSolver | None) -> bool:
    """Whether a solve proved the assumptions satisfiable (not a time-out)."""
    return solver is not None and solver.response_proto.status in (cp_model.FEASIBLE,
                                                                    cp_model.OPTIMAL)


def _shrink(g: _Guarded, core: list[int], candidates: Iterable[int],
            deterministic_time: float | None, seed: int,
            time_limit: float | None = None) -> list[int]:
    """Deletion over ``candidates`` (members of the infeasible ``core``): each is dropped
    when the rest stay infeasible, kept when they fit; one that cannot be decided (time,
    budget) is kept and the result marked unproven."""
    core = list(core)
    for lit in list(candidates):
        trial = [i for i in core if i != lit]
        infeasible, solver = _solve_assuming(g, trial, deterministic_time, seed, time_limit)
        if infeasible:
            core = trial
        elif not _fits(solver):
            g.unproven = True  # timed out: kept, so the set may not be minimal
    return core


def _core(g: _Guarded, active: list[int], deterministic_time: float | None, seed: int,
          time_limit: float | None = None) -> list[int] | None:
    """A minimal infeasible subset of ``active`` (literal indices), or None if feasible (or
    not proven infeasible within the limits)."""
    infeasible, solver = _solve_assuming(g, active, deterministic_time, seed, time_limit)
    if not infeasible or solver is None:
        return None
    # presolve may name literals that are not assumptions: keep only ours
    core = [i for i in solver.sufficient_assumptions_for_infeasibility() if i in g.members]
    if not core or not _infeasible(g, core, deterministic_time, seed, time_limit):
        core = list(active)  # not enough on its own: shrink from everything
    return _shrink(g, core, core, deterministic_time, seed, time_limit)


def _refine(g: _Guarded, core: list[int], deterministic_time: float | None, seed: int,
            time_limit: float | None = None) -> list[int]:
    """Narrow each family of the core that has instance guards to the instances needed."""
    for lit in [i for i in core if i in g.parts]:
        core = [i for i in core if i != lit] + g.parts[lit]
        core = _shrink(g, core, g.parts[lit], deterministic_time, seed, time_limit)
    return core


def _certificates(g: _Guarded) -> list[tuple[str, list[int]]]:
    """Every rule's counting arguments over the requested tournaments, each with the
    literals of its members: the requests it counts, the rule's family of the operator,
    the exclusions it relies on. Registry order."""
    assert g.ctx is not None
    out = []
    for rule in REGISTRY:
        if rule.certificate is None:
            continue
        for cert in rule.certificate(g.ctx, frozenset(g.requests)):
            fams = [lit for (rid, scope), lit in g.families.items()
                    if rid == cert.rule and cert.operator_id in scope.split("+")]
            if not fams:
                continue  # the rule adds no constraint there: not its conflict
            out.append((cert.text, [g.requests[t] for t in cert.tournaments] + fams
                        + [g.exclusions[k] for k in cert.excluded if k in g.exclusions]))
    return out


EXPLAIN_DETERMINISTIC_TIME = 10.0
"""Default CP-SAT deterministic time of each solve of the conflict explanation."""
EXPLAIN_BUDGET = 60.0
"""Default CP-SAT deterministic time of all solves of one explanation together."""


def minimal_conflicts(scenario: Scenario, *, time_limit: float | None = None,
                      deterministic_time: float | None = EXPLAIN_DETERMINISTIC_TIME,
                      seed: int = 0, budget: float | None = EXPLAIN_BUDGET
                      ) -> list[Conflict]:
    """Minimal sets of rule families, requests and exclusions that cannot all hold; empty
    when the required occurrences fit (or infeasibility could not be proven within the
    limits).

    A rule's counting argument (``Rule.certificate``: MT-SMALL-DAILY, MT-LARGE-LIMIT,
    ME-MONTHLY-LIMIT) is tried first; it proves its set by arithmetic and is kept as the
    conflict's ``certificate`` when the set it names is also minimal. Otherwise CP-SAT finds
    the set over the family guards (see the module's docstring).

    Each solve stops at ``deterministic_time`` CP-SAT deterministic time units and all
    solves together at ``budget`` (None: no total), so the answer is the same on any machine
    and under any load; ``time_limit`` (wall seconds, default none) only when asked for. A
    deletion step that cannot be decided within them keeps its member and the set is marked
    not ``minimal``; when the budget is spent, the search for further conflicts stops.

    Each set marked ``minimal`` is minimal: dropping any one member makes the others
    satisfiable (every deletion is verified by a solve). After a set is found, its requests
    are set aside and the search goes on, so independent conflicts are each reported once.

    Parameters
    ----------
    scenario
        The scenario whose required occurrences may not all fit.
    time_limit
        Wall-clock seconds per solve; None (default): none, so the answer does not depend
        on the machine's load.
    deterministic_time
        CP-SAT deterministic time units per solve (default
        :data:`EXPLAIN_DETERMINISTIC_TIME`, 10).
    seed
        CP-SAT's random seed.
    budget
        Deterministic time units for all solves together (default :data:`EXPLAIN_BUDGET`,
        60); None: no total.

    Returns
    -------
    list of Conflict
        The conflicts found (:class:`scheduler.result.conflict.Conflict`: its members, each a
        :class:`~scheduler.result.conflict.Member`, a rule ID or ``REQUEST`` with its text, and
        ``minimal`` and ``certificate``); empty when the required occurrences fit or no
        conflict could be proven within the limits.
    """
    g = _guarded_model(scenario)
    g.budget = budget
    certificates = _certificates(g)
    active = list(g.top)
    found: list[Conflict] = []
    limits = (deterministic_time, seed, time_limit)
    while True:
        g.unproven = False
        claimed: str | None = None
        cert = next(((text, lits) for text, lits in certificates
                     if set(lits) <= set(active)), None)
        if cert is not None:
            text, lits = cert
            core = _shrink(g, lits, lits, *limits)
            claimed = text if set(core) == set(lits) else None
        else:
            found_core = _core(g, active, *limits)
            if found_core is None:
                break
            core = found_core
        core = _refine(g, core, *limits)
        order = {"REQUEST": 0}
        found.append(Conflict(
            tuple(sorted((g.members[i] for i in core),
                         key=lambda mb: (order.get(mb.rule, 1), mb.rule, mb.text))),
            minimal=not g.unproven, certificate=claimed))
        requests = {i for i in core if g.members[i].rule == "REQUEST"}
        if not requests:
            break  # the rules alone conflict: nothing more to set aside
        active = [i for i in active if i not in requests]
    return found
