"""The product's day-indexed model as a MIP, solved by HiGHS (highspy): the baseline of
``benchmarks/run.py``.

The CP-SAT model of a part (``build_model(part).model.proto``) is translated constraint by
constraint, so both solvers see exactly the same variables, domains and constraints:

- every variable becomes an integer column with its CP-SAT domain as bounds (a domain with
  holes is refused: the product's models have none);
- ``linear`` rows keep their bounds; ``bool_or`` (sum >= 1), ``bool_and`` (each literal >= 1),
  ``at_most_one`` (sum <= 1) and ``exactly_one`` (sum == 1) become rows over literals, a
  negated literal ``not x`` written ``1 - x``;
- enforcement literals ``e1..ek`` (``add_implication`` is a ``bool_and`` enforced by its
  premise) are linearised with a big-M from the variables' domains: a row ``a.x <= hi`` holds
  when every ``e`` is true, so ``a.x <= hi + M * (k - sum e)`` with ``M = max(a.x) - hi``
  (and the same for the lower bound); no constraint is made looser than the CP-SAT one;
- any other constraint kind (intervals, no_overlap, ...) raises ``NotImplementedError`` naming
  the kind; the product's models use only ``linear`` and enforced ``bool_and`` (the benchmark
  run prints the kinds it met).

The lexicographic objective is the product's (scheduler/engine/objective.py): (1) maximise
``placed - big * shortfall`` (``big`` = total priority + 1); (2) with (1) fixed, minimise fees
(USD); (3) with (2) fixed, maximise preferred-weekday starts, then (3b) minimise the sum of first-
day offsets from the horizon start (the product's earliest-days tie-break; the product folds
(3) and (3b) into one weighted objective, whose optimum is the same lexicographic optimum; as
two MIPs the weights stay small enough for floating point). Optimality is proven with
``mip_rel_gap = 0``. Unlike the product's stages, a stage is not started from the previous
stage's solution: with a start solution (``setSolution``) HiGHS 1.16 returned, on a benchmark
part, columns worth less than the optimum it reported (3 preferred starts for 4), so the
columns are also checked against the reported objective (status ``INCONSISTENT`` if not).

    from benchmarks.highs import solve_part
    result = solve_part(part, time_limit=60)   # a HighsResult

highspy is imported when a model is solved (it is an optional dependency: the ``bench`` and
``dev`` extras).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from constraints.modelling import ModelContext
    from scheduler.core.scenario import Scenario

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
SUPPORTED = ("linear", "bool_or", "bool_and", "at_most_one", "exactly_one")
"""The CP-SAT constraint kinds :func:`translate` handles."""
_OTHER = ("bool_xor", "lin_max", "int_prod", "int_div", "int_mod", "element", "table",
          "automaton", "inverse", "reservoir", "interval", "no_overlap", "no_overlap_2d",
          "cumulative", "circuit", "routes", "all_diff")


def kind_of(c: Any) -> str:
    """The kind of a CP-SAT ``ConstraintProto`` (``"linear"``, ``"bool_and"``, ...)."""
    for k in (*SUPPORTED, *_OTHER):
        if getattr(c, f"has_{k}")():
            return k
    return "empty"


@dataclass
class Mip:
    """A MIP in row form: integer columns ``0..n-1`` with bounds ``lower``/``upper`` (float,
    ±inf for none), and rows ``row_lower <= A x <= row_upper`` with ``A`` in CSR arrays
    (``starts`` of length rows + 1, ``index`` int32, ``value`` float64)."""

    lower: np.ndarray
    upper: np.ndarray
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)
    starts: list[int] = field(default_factory=lambda: [0])
    index: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    """How many CP-SAT constraints of each kind were translated (``"bool_and+enf"``: with
    enforcement literals)."""

    @property
    def n(self) -> int:
        return len(self.lower)

    @property
    def rows(self) -> int:
        return len(self.row_lower)

    def add_row(self, terms: dict[int, float], lo: float, hi: float) -> None:
        """One row ``lo <= sum(coef * x[i]) <= hi`` (zero coefficients dropped)."""
        items = [(i, c) for i, c in terms.items() if c != 0]
        self.index.extend(i for i, _ in items)
        self.value.extend(c for _, c in items)
        self.starts.append(len(self.index))
        self.row_lower.append(lo)
        self.row_upper.append(hi)

    def activity_range(self, terms: dict[int, float]) -> tuple[float, float]:
        """(min, max) of ``sum(coef * x[i])`` over the column bounds."""
        lo = hi = 0.0
        for i, c in terms.items():
            a, b = c * self.lower[i], c * self.upper[i]
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi


def _bound(v: int) -> float:
    return -math.inf if v <= INT64_MIN else math.inf if v >= INT64_MAX else float(v)


def _literal(ref: int) -> tuple[int, int, int]:
    """(column, coefficient, constant) of a CP-SAT literal: ``x`` or ``not x = 1 - x``."""
    return (ref, 1, 0) if ref >= 0 else (-ref - 1, -1, 1)


def _literal_sum(refs: Iterable[int]) -> tuple[dict[int, float], int]:
    terms: dict[int, float] = {}
    const = 0
    for ref in refs:
        i, c, k = _literal(ref)
        terms[i] = terms.get(i, 0) + c
        const += k
    return terms, const


def translate(proto: Any) -> Mip:
    """The MIP of a ``CpModelProto`` (module docstring). Raises ``NotImplementedError`` for a
    constraint kind other than :data:`SUPPORTED`, a domain with holes, or a linear term over
    a negated reference."""
    lows, ups = [], []
    for v in proto.variables:
        d = list(v.domain)
        if len(d) != 2:
            raise NotImplementedError(f"variable {v.name!r} has a domain with holes: {d}")
        lows.append(_bound(d[0]))
        ups.append(_bound(d[1]))
    mip = Mip(np.array(lows, dtype=np.float64), np.array(ups, dtype=np.float64))
    for c in proto.constraints:
        kind = kind_of(c)
        enforce = list(c.enforcement_literal)
        key = kind + ("+enf" if enforce else "")
        mip.kinds[key] = mip.kinds.get(key, 0) + 1
        if kind == "linear":
            lin = c.linear
            if any(r < 0 for r in lin.vars):
                raise NotImplementedError("a linear constraint over a negated reference")
            terms: dict[int, float] = {}
            for i, a in zip(lin.vars, lin.coeffs, strict=True):
                terms[i] = terms.get(i, 0) + a
            dom = list(lin.domain)
            if len(dom) != 2:
                raise NotImplementedError(f"a linear constraint with a domain with holes: {dom}")
            _enforced(mip, terms, 0, _bound(dom[0]), _bound(dom[1]), enforce)
        elif kind == "bool_and":
            for ref in c.bool_and.literals:
                terms, const = _literal_sum([ref])
                _enforced(mip, terms, const, 1, math.inf, enforce)
        elif kind in ("bool_or", "at_most_one", "exactly_one"):
            lits = list(getattr(c, kind).literals)
            terms, const = _literal_sum(lits)
            lo, hi = {"bool_or": (1, math.inf), "at_most_one": (-math.inf, 1),
                      "exactly_one": (1, 1)}[kind]
            _enforced(mip, terms, const, lo, hi, enforce)
        elif kind == "empty":
            continue
        else:
            raise NotImplementedError(f"CP-SAT constraint kind {kind!r} is not translated")
    return mip


def _enforced(mip: Mip, terms: dict[int, float], const: float, lo: float, hi: float,
              enforce: Sequence[int]) -> None:
    """Row ``lo <= terms + const <= hi``, required only when every enforcement literal is
    true: big-M over ``k - sum(e)`` (0 when all hold, >= 1 otherwise)."""
    lo, hi = lo - const, hi - const
    if not enforce:
        mip.add_row(terms, lo, hi)
        return
    amin, amax = mip.activity_range(terms)
    e_terms, e_const = _literal_sum(enforce)
    k = len(enforce)
    # slack S = k - sum(e) = k - (e_terms + e_const); each e is 0/1
    if hi < math.inf and amax > hi:
        # terms <= hi + m_hi * S  <=>  terms + m_hi * e_terms <= hi + m_hi * (k - e_const)
        m_hi = amax - hi
        if math.isinf(m_hi):
            raise NotImplementedError("an enforced linear constraint over unbounded variables")
        row = dict(terms)
        for i, a in e_terms.items():
            row[i] = row.get(i, 0) + m_hi * a
        mip.add_row(row, -math.inf, hi + m_hi * (k - e_const))
    if lo > -math.inf and amin < lo:
        m_lo = lo - amin  # terms >= lo - m_lo * S
        if math.isinf(m_lo):
            raise NotImplementedError("an enforced linear constraint over unbounded variables")
        row = dict(terms)
        for i, a in e_terms.items():
            row[i] = row.get(i, 0) - m_lo * a
        mip.add_row(row, lo - m_lo * (k - e_const), math.inf)


def linear_of(model: cp_model.CpModel, expr: cp_model.LinearExprT) -> tuple[dict[int, float],
                                                                            float]:
    """(coefficient by variable index, constant) of a CP-SAT linear expression, read back
    from the model's objective proto (which is cleared afterwards)."""
    model.minimize(expr)
    o = model.proto.objective
    terms: dict[int, float] = {}
    for i, a in zip(o.vars, o.coeffs, strict=True):
        if i < 0:
            raise NotImplementedError("an objective over a negated reference")
        terms[i] = terms.get(i, 0) + a
    offset = float(o.offset)
    model.clear_objective()
    return terms, offset


@dataclass
class HighsResult:
    """One part solved lexicographically by HiGHS. Times in wall seconds; objective values as
    the product reports them (``placed``: priority-weighted occurrences; ``shortfall``:
    required occurrences missing; ``fees_usd``; ``preferred``: starts on preferred weekdays;
    ``offset_days``: sum of first days' offsets from the horizon start)."""

    build_s: float = 0.0
    translate_s: float = 0.0
    solve_s: float = 0.0
    stage_s: dict[str, float] = field(default_factory=dict)
    status: str = "OPTIMAL"
    """OPTIMAL when every stage was proven optimal; else the first other HiGHS status."""
    placed: int = 0
    shortfall: int = 0
    fees_usd: int = 0
    preferred: int = 0
    offset_days: int = 0
    columns: int = 0
    rows: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    days: dict[str, list[str]] = field(default_factory=dict)
    """Chosen first days (ISO) per tournament id."""


def _value(terms: dict[int, float], offset: float, x: np.ndarray) -> float:
    return offset + sum(c * x[i] for i, c in terms.items())


def stage_expressions(ctx: ModelContext) -> dict[str, tuple[dict[int, float], float]]:
    """The product's objective pieces as linear terms over the proto's variables: ``placed``,
    ``shortfall``, ``fees_usd``, ``preferred``, ``offset_days`` and ``stage1``
    (``placed - big * shortfall``, big = sum of priorities + 1)."""
    from ortools.sat.python import cp_model

    def weighted(pairs: Sequence[tuple[Any, int]]) -> Any:
        return cp_model.LinearExpr.weighted_sum([v for v, _ in pairs], [w for _, w in pairs])

    start = ctx.scenario.horizon.start
    offsets = [(v, (day - start).days) for (_, day), v in ctx.z.items()]
    out = {
        "placed": linear_of(ctx.model, weighted(ctx.placed_terms)),
        "shortfall": linear_of(ctx.model, weighted(ctx.required_terms)),
        "fees_usd": linear_of(ctx.model, weighted(ctx.fee_terms)),
        "preferred": linear_of(ctx.model, weighted(ctx.preference_terms)),
        "offset_days": linear_of(ctx.model, weighted(offsets)),
    }
    big = sum(w for _, w in ctx.placed_terms) + 1
    (p, po), (s, so) = out["placed"], out["shortfall"]
    stage1 = dict(p)
    for i, a in s.items():
        stage1[i] = stage1.get(i, 0) - big * a
    out["stage1"] = (stage1, po - big * so)
    return out


STAGES = (("stage1", "max"), ("fees_usd", "min"), ("preferred", "max"), ("offset_days", "min"))
"""The lexicographic stages solved by :func:`solve_context`, in order."""


def solve_context(ctx: ModelContext, *, time_limit: float | None = None,
                  stages: int = len(STAGES)) -> HighsResult:
    """Solve a built model with HiGHS, stage by stage (:data:`STAGES`, the first ``stages``
    of them), each stage's optimum fixed as a row before the next. ``time_limit`` (wall s)
    is shared by all stages. Requires highspy (``ImportError`` otherwise); raises
    ``NotImplementedError`` from :func:`translate`."""
    res = HighsResult()
    t0 = time.perf_counter()
    mip = translate(ctx.model.proto)
    exprs = stage_expressions(ctx)
    res.translate_s = time.perf_counter() - t0
    res.kinds = dict(mip.kinds)
    z_cols = {key: v.index for key, v in ctx.z.items()}
    left = None if time_limit is None else time_limit - res.translate_s
    solve_staged(mip, exprs, z_cols, res, time_limit=left, stages=stages)
    return res


def solve_staged(mip: Mip, exprs: dict[str, tuple[dict[int, float], float]],
                 z_cols: dict[tuple[str, Any], int], res: HighsResult, *,
                 time_limit: float | None = None, stages: int = len(STAGES)) -> None:
    """Solve ``mip`` with HiGHS lexicographically (:data:`STAGES`, the first ``stages``), each
    stage's optimum fixed as a row before the next, and fill ``res`` (``solve_s``,
    ``stage_s``, ``status``, the objective values, ``days``, ``columns``, ``rows``).

    ``exprs`` holds the stage pieces as (coefficient by column, constant), keyed as
    :func:`stage_expressions` returns them; ``z_cols`` maps (tournament id, first day) to the
    column of its start Boolean. ``time_limit`` (wall s) is shared by all stages. Every column
    is integer. Requires highspy (``ImportError`` otherwise). The translated model
    (:func:`solve_context`) and the native MIP (``benchmarks/mip.py``) both solve here."""
    import highspy

    t0 = time.perf_counter()
    res.columns, res.rows = mip.n, mip.rows
    t_solve = time.perf_counter()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-6)
    h.setOptionValue("random_seed", 0)
    n = mip.n
    h.addCols(n, np.zeros(n), mip.lower, mip.upper, 0, np.zeros(0, np.int32),
              np.zeros(0, np.int32), np.zeros(0))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kInteger))
    if mip.rows:
        h.addRows(mip.rows, np.array(mip.row_lower), np.array(mip.row_upper), len(mip.index),
                  np.array(mip.starts[:-1], dtype=np.int32), np.array(mip.index, dtype=np.int32),
                  np.array(mip.value, dtype=np.float64))
    x: np.ndarray | None = None
    for name, sense in STAGES[:stages]:
        terms, offset = exprs[name]
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - t0)
            if left <= 0:
                res.status = "TIME_LIMIT"
                break
            h.setOptionValue("time_limit", left)
        cost = np.zeros(n)
        for i, a in terms.items():
            cost[i] = a
        h.changeColsCost(n, np.arange(n, dtype=np.int32), cost)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize if sense == "max"
                               else highspy.ObjSense.kMinimize)
        ts = time.perf_counter()
        h.run()
        res.stage_s[name] = time.perf_counter() - ts
        status = h.modelStatusToString(h.getModelStatus())
        sol = h.getSolution()
        if not sol.value_valid:
            res.status = status
            break
        x = np.array(sol.col_value)
        if status != "Optimal":
            res.status = status
            break
        best = round(_value(terms, offset, x))
        if abs(best - offset - h.getInfo().objective_function_value) > 0.5:
            res.status = "INCONSISTENT"  # the columns do not give the reported objective
            break
        # fix this stage: the next ones keep its optimum
        row = {i: a for i, a in terms.items() if a}
        if sense == "max":
            h.addRow(best - offset, math.inf, len(row), np.array(list(row), dtype=np.int32),
                     np.array(list(row.values()), dtype=np.float64))
        else:
            h.addRow(-math.inf, best - offset, len(row), np.array(list(row), dtype=np.int32),
                     np.array(list(row.values()), dtype=np.float64))
    res.solve_s = time.perf_counter() - t_solve
    if x is not None:
        for key in ("placed", "shortfall", "fees_usd", "preferred", "offset_days"):
            setattr(res, key, round(_value(*exprs[key], x)))
        for (tid, day), col in z_cols.items():
            if x[col] > 0.5:
                res.days.setdefault(tid, []).append(day.isoformat())


def solve_part(part: Scenario, *, time_limit: float | None = None,
               stages: int = len(STAGES)) -> HighsResult:
    """Build the product's model of ``part`` (``scheduler.engine.model.build_model``) and solve it
    with :func:`solve_context`; ``build_s`` is the build time (wall s)."""
    from scheduler.engine.model import build_model
    from scheduler.engine.objective import add_terms

    t0 = time.perf_counter()
    ctx = build_model(part)
    add_terms(ctx)
    build = time.perf_counter() - t0
    left = None if time_limit is None else max(0.0, time_limit - build)
    res = solve_context(ctx, time_limit=left, stages=stages)
    res.build_s = build
    return res
