"""What a rule's ``encode`` works on: the model under construction and its pieces.

:class:`ModelContext` holds the CP-SAT model of a scenario, the candidate first days of each
tournament with their Boolean ``z`` literals, the fee terms the cost rules contribute and
the other terms of the lexicographic objective (added by ``scheduler.engine.objective``, not by a
rule); :class:`LicenseOption` is a licence or permit the model may buy, with
``covers_occurrence``/``covers_period`` saying which occurrences it covers. It lives in
``constraints`` (not in ``scheduler.engine.model``, which builds the model from the registry) so
the rules can import it without a cycle: see docs/architecture.md.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model, cp_model_helper
from ortools.util.python.sorted_interval_list import Domain

from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import Timing


@dataclass(frozen=True, slots=True)
class Placement:
    """One allowed first day of a tournament, with its timing."""

    tournament: Tournament
    first_day: dt.date
    timing: Timing

    @property
    def tid(self) -> str:
        return self.tournament.id


Covers = Callable[[Tournament, Timing], bool]
_BOOL = Domain(0, 1)
_ONES = [str([1] * n) for n in range(64)]  # the coefficients of a sum of n, as text
NO_MIN, NO_MAX = -(2**63), 2**63 - 1
"""The bound of a linear constraint's side that has none (``domain: [lo, NO_MAX]``,
``[NO_MIN, hi]``), as ``CpModel.add`` writes it."""


def covers_occurrence(tournament_id: str, first_day: dt.date) -> Covers:
    """A licence for one occurrence (per-tournament, super cribbage; ME-FEES: a
    per-tournament licence covers exactly one game, valid over that game's days)."""
    def covers(t: Tournament, tm: Timing) -> bool:
        return t.id == tournament_id and tm.first_day == first_day
    return covers


def covers_period(types: tuple[str, ...], valid_from: dt.date, valid_to: dt.date,
                  players_ok: Callable[[int], bool] | None = None, *,
                  every_day: bool = True) -> Covers:
    """A licence or permit valid [valid_from, valid_to] (dates, inclusive) for occurrences of
    ``types`` (whose player cap ``players_ok`` accepts), judged on the days the occurrence is
    conducted (``Timing.days``, the one answer to "which days is it conducted on").

    ``every_day=True`` (a licence, ME-FEES, 17 M.R.S. § 1836(3-A)): it covers an occurrence
    only if every day of it lies in the period. ``every_day=False`` (a permit,
    MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b)): it covers the occurrence's days in its permit
    year, i.e. any occurrence with a day in the period; an occurrence across a permit-year
    boundary needs the permit of each permit year it touches."""
    def covers(t: Tournament, tm: Timing) -> bool:
        if t.type not in types or (players_ok is not None and not players_ok(t.players or 1)):
            return False
        inside = [valid_from <= d <= valid_to for d in tm.days]
        return all(inside) if every_day else any(inside)
    return covers


@dataclass
class LicenseOption:
    """A licence or permit the model may buy: its Boolean, fee (USD) and period."""

    var: cp_model.IntVar
    operator_id: str
    jurisdiction: str
    kind: str
    tier: str
    valid_from: dt.date
    valid_to: dt.date
    fee_usd: int
    covers: Covers
    """Whether this licence may cover an occurrence (used to list ``covers`` after solving)."""
    rank: int = 0
    """Order of preference when several bought licences could cover one occurrence."""


class CpModel(cp_model.CpModel):
    """``cp_model.CpModel`` without its pre-PEP 8 aliases (``AddBoolOr`` and the like, which
    the code never calls): ortools 9.15 makes them as some seventy bound methods on each new
    model, half a millisecond a model (one model per part: 128 at N = 200), and those bound
    methods make the model a reference cycle that only the cyclic garbage collector frees
    (with its proto), issue #27."""

    def __init__(self, model_proto: cp_model_helper.CpModelProto | None = None) -> None:
        cp_model_helper.CpBaseModel.__init__(self, model_proto)


@dataclass
class ModelContext:
    """The model under construction. Rules read the domain and add constraints and terms."""

    scenario: Scenario
    model: cp_model.CpModel = field(default_factory=CpModel)
    candidates: dict[str, list[Placement]] = field(default_factory=dict)
    rejected: dict[str, dict[dt.date, tuple[str, ...]]] = field(default_factory=dict)
    z: dict[tuple[str, dt.date], cp_model.IntVar] = field(default_factory=dict)
    placed_terms: list[tuple[cp_model.LinearExprT, int]] = field(default_factory=list)
    """(term, weight) of the objective: occurrences placed (``scheduler.engine.objective``)."""
    required_terms: list[tuple[cp_model.LinearExprT, int]] = field(default_factory=list)
    """(term, weight) of the objective: required shortfall (``scheduler.engine.objective``)."""
    fee_terms: list[tuple[cp_model.IntVar, int]] = field(default_factory=list)
    """(licence Boolean, fee in USD): what the cost rules' ``encode`` add (``add_license``)."""
    preference_terms: list[tuple[cp_model.IntVar, int]] = field(default_factory=list)
    """(term, weight) of the objective: preferred weekdays (``scheduler.engine.objective``)."""
    licenses: list[LicenseOption] = field(default_factory=list)
    explain: bool = False
    named: bool = False
    """Name the model's variables and constraints (explain mode: conflicts are read from the
    constraints' names); otherwise the hot encodings leave them unnamed."""
    """Explain mode: every day is a candidate; excluded days are guarded, not removed."""
    excluded: dict[tuple[str, str], list[cp_model.IntVar]] = field(default_factory=dict)
    """Explain mode: (tournament id, rule id) → the ``z`` of the days that rule excludes."""
    rule_of_constraint: list[str] = field(default_factory=list)
    """The rule ID that added each constraint of the model, by index."""
    _starts: dict[str, tuple[list[Placement], int, list[tuple[Placement, cp_model.IntVar]]]] = (
        field(default_factory=dict, repr=False))
    """:meth:`starts` of each tournament (its candidate list and length when built)."""
    _pending: list[str] = field(default_factory=list, repr=False)
    """Constraints added as protobuf text, not yet in the proto (:meth:`flush`)."""
    whole_demand: bool = False
    """Certificates (:func:`overfull`) count every tournament competing for the limit, not
    the smallest set that proves it (the summary's up-front "more is wanted" line)."""

    def new_bool(self, name: str = "") -> cp_model.IntVar:
        """``model.new_bool_var(name)``: a new 0-1 variable; an unnamed one (the hot
        encodings' variables, named only in explain mode) without the naming call."""
        if name:
            return self.model.new_bool_var(name)
        return cp_model.IntVar(self.model.proto).with_domain(_BOOL)

    def new_bools(self, n: int) -> list[cp_model.IntVar]:
        """``n`` new unnamed 0-1 variables, in order (:meth:`new_bool` ``n`` times)."""
        proto, var = self.model.proto, cp_model.IntVar
        return [var(proto).with_domain(_BOOL) for _ in range(n)]

    # ------------------------------------------------------ constraints written as text
    # The hot encodings write their constraints as protobuf text, merged into the model's proto
    # in one call per rule (:meth:`flush`), exactly as ``CpModel.add``/``add_implication`` would
    # write them (variables in index order, the bounds moved to the right:
    # tests/test_model_same_protos.py): no LinearExpr, Constraint or proto wrapper object per
    # constraint, the model's CPU at N = 200 (issue #27).
    def add_sum(self, lits: Iterable[cp_model.IntVar], lo: int, hi: int,
                name: str = "") -> None:
        """``lo <= sum(lits) <= hi`` (:data:`NO_MIN`, :data:`NO_MAX`: no bound), ``lits``
        distinct variables: what ``model.add(lo <= LinearExpr.sum(lits) <= hi)`` adds.
        Written at the next :meth:`flush`: a rule that adds with these methods adds all its
        constraints with them (``build_model`` flushes after each rule)."""
        indices = sorted([v.index for v in lits])
        if len(set(indices)) < len(indices):  # a variable twice: its coefficient the count
            counts: dict[int, int] = defaultdict(int)
            for i in indices:
                counts[i] += 1
            self.add_linear(counts.items(), lo, hi, name)
            return
        self.add_indices(indices, lo, hi, name)

    def add_indices(self, indices: list[int], lo: int, hi: int, name: str = "") -> None:
        """:meth:`add_sum` of the variables of ``indices`` (distinct, ascending)."""
        if name:
            self._named_linear(indices, [1] * len(indices), lo, hi, name)
            return
        n = len(indices)
        ones = _ONES[n] if n < len(_ONES) else str([1] * n)
        self._pending.append(f"constraints{{linear{{vars:{indices}coeffs:{ones}"
                             f"domain:[{lo},{hi}]}}}}")

    def add_linear(self, terms: Iterable[tuple[int, int]], lo: int, hi: int,
                   name: str = "") -> None:
        """``lo <= sum(coeff * variable) <= hi`` of ``terms`` ``(variable index, coeff)``,
        each variable once: what ``model.add`` adds of the same sum, its variables moved to
        the left and its constants to the bounds (written at the next :meth:`flush`)."""
        ordered = sorted(terms)
        indices, coeffs = [i for i, _ in ordered], [c for _, c in ordered]
        if name:
            self._named_linear(indices, coeffs, lo, hi, name)
            return
        self._pending.append(f"constraints{{linear{{vars:{indices}coeffs:{coeffs}"
                             f"domain:[{lo},{hi}]}}}}")

    def add_implication(self, a: int, b: int) -> None:
        """``a => b`` of two variable indices: what ``model.add_implication`` adds (written at
        the next :meth:`flush`)."""
        self._pending.append(f"constraints{{enforcement_literal:{a} bool_and{{literals:{b}}}}}")

    def flush(self) -> None:
        """Write the constraints added since the last flush into the model's proto, in order."""
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            if not self.model.proto.merge_text_format(text):
                raise ValueError(f"CP-SAT did not read the model's constraints: {text[:200]}")

    def _named_linear(self, indices: list[int], coeffs: list[int], lo: int, hi: int,
                      name: str) -> None:
        """A named linear constraint (explain mode: conflicts are read from the names),
        written now, after those pending."""
        self.flush()
        ct = self.model.proto.constraints.add()
        ct.name = name
        lin = ct.linear
        lin.vars.extend(indices)
        lin.coeffs.extend(coeffs)
        lin.domain.extend([lo, hi])

    def new_int_index(self, lo: int, hi: int, name: str = "") -> int:
        """The index of a new integer variable of domain [lo, hi]: what
        ``model.new_int_var(lo, hi, name).index`` adds, without the variable's object."""
        variables = self.model.proto.variables
        var = variables.add()
        var.domain.extend([lo, hi])
        if name:
            var.name = name
        return len(variables) - 1

    # ---------------------------------------------------------------- queries for rules
    def starts(self, t: Tournament) -> list[tuple[Placement, cp_model.IntVar]]:
        """Allowed first days of ``t`` with their ``z`` literal, in date order (a new list;
        built once per tournament after the domain: the rules ask it many times)."""
        cands = self.candidates.get(t.id)
        if not cands:
            return []
        hit = self._starts.get(t.id)
        if hit is None or hit[0] is not cands or hit[1] != len(cands):
            z = self.z
            hit = self._starts[t.id] = (cands, len(cands), [(c, z[(c.tid, c.first_day)])
                                                           for c in cands])
        return list(hit[2])

    def of_operator(self, operator_id: str) -> list[tuple[Placement, cp_model.IntVar]]:
        """Every candidate of every tournament held (also) by ``operator_id``."""
        out = []
        for t in self.scenario.tournaments:
            if operator_id in t.operators:
                out.extend(self.starts(t))
        return out

    def add_license(self, option: LicenseOption) -> None:
        self.licenses.append(option)
        self.fee_terms.append((option.var, option.fee_usd))


def sum_by(
    items: list[tuple[Placement, cp_model.IntVar]],
    keys: Callable[[Placement], list[object]],
) -> dict[object, list[cp_model.IntVar]]:
    """Group literals by every key an item belongs to (e.g. each day it touches)."""
    out: dict[object, list[cp_model.IntVar]] = defaultdict(list)
    for c, v in items:
        for k in keys(c):
            out[k].append(v)
    return out


@dataclass(frozen=True)
class Overfull:
    """What :func:`overfull` found: more required occurrences than a per-period limit lets
    into the periods they can use."""

    tournaments: tuple[str, ...]
    """The tournaments counted (ids, sorted); dropping any one breaks the count."""
    required: int
    """Their ``required`` occurrences together."""
    slots: tuple[Any, ...]
    """The periods (days, months, ...) they can use, sorted."""
    whole_horizon: bool
    """True: ``slots`` are every period the horizon offers them (no exclusion relied on)."""
    excluded: tuple[tuple[str, str], ...]
    """(tournament id, rule ID) exclusions that take the other periods away (empty when
    ``whole_horizon``)."""


def overfull(ctx: ModelContext, demand: dict[str, int],
             slots: Callable[[Placement], Iterable[Any]], per_slot: int) -> Overfull | None:
    """A pigeonhole argument for certificates (``Rule.certificate``): a set S of tournaments
    whose required occurrences exceed ``per_slot`` times the number of periods they can use,
    sum(demand[t] for t in S) > per_slot * |slots of S|; None when there is none.

    Parameters
    ----------
    ctx
        The model's context; a candidate day of a tournament is usable unless
        ``ctx.rejected`` lists it (in explain mode every day is a candidate).
    demand
        Tournament id -> occurrences required (``required``), each > 0.
    slots
        The periods an occurrence starting on a candidate counts in (e.g. its first day for
        MT-SMALL-DAILY, the months it touches for ME-MONTHLY-LIMIT); each must be sortable.
    per_slot
        The limit per period (1 a day, 2 a month).

    Returns
    -------
    Overfull | None
        The first such S found (the whole set, then, for each distinct set of periods a
        tournament can use, the tournaments whose periods lie within it), shrunk until
        dropping any one tournament breaks the count (not shrunk when
        ``ctx.whole_demand``); the periods of the whole horizon when
        the count holds over them, else the usable ones and the exclusions that take the
        others away. Deterministic.
    """
    tids = sorted(demand)
    usable: dict[str, set[Any]] = {}
    every: dict[str, set[Any]] = {}
    for tid in tids:
        # outside explain mode a candidate day is never a rejected one (build_domain keeps
        # only the days no rule rejects): the rejections need not be computed at all
        rej = ctx.rejected[tid] if ctx.explain else {}
        usable[tid], every[tid] = set(), set()
        for c in ctx.candidates.get(tid, []):
            s = set(slots(c))
            every[tid] |= s
            if c.first_day not in rej:
                usable[tid] |= s

    def union(of: dict[str, set[Any]], group: list[str]) -> set[Any]:
        out: set[Any] = set()
        for t in group:
            out |= of[t]
        return out

    def holds(group: list[str], of: dict[str, set[Any]]) -> bool:
        return sum(demand[t] for t in group) > per_slot * len(union(of, group))

    # the whole set, then per distinct set of periods (at most 64, in first-seen order) the
    # tournaments whose periods lie within it
    shapes = list(dict.fromkeys(frozenset(usable[t]) for t in tids))[:64]
    for group in [tids, *([u for u in tids if usable[u] <= shape] for shape in shapes)]:
        if not group or not holds(group, usable):
            continue
        of = every if holds(group, every) else usable
        if ctx.whole_demand:  # every tournament that competes for a period, none that can't
            group = [u for u in group if of[u]]
            if not group or not holds(group, of):
                continue
        for t in ([] if ctx.whole_demand else list(group)):
            if len(group) > 1 and holds([u for u in group if u != t], of):
                group = [u for u in group if u != t]
        used = union(of, group)
        excluded: set[tuple[str, str]] = set()
        if of is usable:
            for t in group:
                for c in ctx.candidates.get(t, []):
                    if not set(slots(c)) <= used:
                        excluded.update((t, rid) for rid in (
                            ctx.rejected[t].get(c.first_day, ()) if ctx.explain else ()))
        return Overfull(tuple(group), sum(demand[t] for t in group), tuple(sorted(used)),
                        of is every, tuple(sorted(excluded)))
    return None
