"""Build the CP-SAT model of a scenario: variables once, then each rule adds itself.

The model is day-indexed: ``z[t, d]`` is a Boolean "an occurrence of tournament ``t`` has its
first day on ``d``", created only for days every *allows* rule accepts (window, weekdays,
blackouts of every co-host, notice, application window, play hours, other games, horizon).
Identical occurrences of one tournament are merged this way (they are numbered by date after
solving), which removes their symmetry. Counted limits are sums of ``z`` over the days of a
period; fees are Booleans of licences/permits with their USD fee.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from scheduler.scenario import Scenario, Tournament
from scheduler.timing import Timing, timing, tournament_tz


@dataclass(frozen=True)
class Candidate:
    """One allowed first day of a tournament, with its timing."""

    tournament: Tournament
    first_day: dt.date
    timing: Timing

    @property
    def tid(self) -> str:
        return self.tournament.id


Covers = Callable[[Tournament, Timing], bool]


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


@dataclass
class ModelContext:
    """The model under construction. Rules read the domain and add constraints and terms."""

    scenario: Scenario
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    candidates: dict[str, list[Candidate]] = field(default_factory=dict)
    rejected: dict[str, dict[dt.date, tuple[str, ...]]] = field(default_factory=dict)
    z: dict[tuple[str, dt.date], cp_model.IntVar] = field(default_factory=dict)
    placed_terms: list[tuple[cp_model.LinearExprT, int]] = field(default_factory=list)
    required_terms: list[tuple[cp_model.LinearExprT, int]] = field(default_factory=list)
    fee_terms: list[tuple[cp_model.IntVar, int]] = field(default_factory=list)
    preference_terms: list[tuple[cp_model.IntVar, int]] = field(default_factory=list)
    licenses: list[LicenseOption] = field(default_factory=list)
    explain: bool = False
    """Explain mode: every day is a candidate; excluded days are guarded, not removed."""
    excluded: dict[tuple[str, str], list[cp_model.IntVar]] = field(default_factory=dict)
    """Explain mode: (tournament id, rule id) → the ``z`` of the days that rule excludes."""
    rule_of_constraint: list[str] = field(default_factory=list)
    """The rule ID that added each constraint of the model, by index."""

    # ---------------------------------------------------------------- queries for rules
    def starts(self, t: Tournament) -> list[tuple[Candidate, cp_model.IntVar]]:
        """Allowed first days of ``t`` with their ``z`` literal, in date order."""
        return [(c, self.z[(c.tid, c.first_day)]) for c in self.candidates.get(t.id, [])]

    def of_operator(self, operator_id: str) -> list[tuple[Candidate, cp_model.IntVar]]:
        """Every candidate of every tournament held (also) by ``operator_id``."""
        out = []
        for t in self.scenario.tournaments:
            if operator_id in t.operators:
                out.extend(self.starts(t))
        return out

    def add_license(self, option: LicenseOption) -> None:
        self.licenses.append(option)
        self.fee_terms.append((option.var, option.fee_usd))


def _gap_timing(t: Tournament, tz: object, day: dt.date) -> Timing:
    """Explain mode only: a timing for a start that does not exist (taken as the instant the
    clocks jump), so the day can be modelled and excluded by CLOCK-CHANGE."""
    from scheduler.timing import UTC, _days_between

    start = dt.datetime.combine(day, t.start_time).replace(tzinfo=tz)  # type: ignore[arg-type]
    start = start.astimezone(UTC).astimezone(tz)  # type: ignore[arg-type]
    end = start + dt.timedelta(days=t.days - 1, hours=float(t.hours))
    return Timing(start, end, _days_between(start, end))


_Allow = tuple[str, object]


class _Rejections(dict[str, dict[dt.date, tuple[str, ...]]]):
    """``rejected[tid][day]``: the IDs of every rule that rejects ``day`` as a first day of
    ``tid``; computed for a tournament when first asked (reasons need it only for the
    tournaments not fully placed)."""

    def __init__(self, ctx: ModelContext, allows: list[_Allow],
                 allows_day: list[_Allow] | None = None) -> None:
        super().__init__()
        self._ctx = ctx
        self._allows = allows
        self._allows_day = allows_day or []

    def __missing__(self, tid: str) -> dict[dt.date, tuple[str, ...]]:
        sc = self._ctx.scenario
        t = sc.tournament(tid)
        tz = tournament_tz(sc, t)
        rej: dict[dt.date, tuple[str, ...]] = {}
        for day in sc.horizon.days():
            if not self._ctx.explain:
                # for reasons, a day outside the window (or weekdays) is put down to that
                # alone; explain mode needs every rule that excludes a day (its guards)
                by_day = tuple(rid for rid, fn in self._allows_day
                               if not fn(sc, t, day))  # type: ignore[operator]
                if by_day:
                    rej[day] = by_day
                    continue
            tm = timing(t, tz, day)
            bad = ("CLOCK-CHANGE",) if tm is None else tuple(
                rid for rid, fn in self._allows if not fn(sc, t, tm))  # type: ignore[operator]
            if bad:
                rej[day] = bad
        self[tid] = rej
        return rej


def build_domain(ctx: ModelContext, allows: list[_Allow],
                 allows_day: list[_Allow] | None = None) -> None:
    """Create ``z`` for every (tournament, day) that no rule's ``allows`` rejects.

    ``allows_day`` (rules' cheaper first-day-only tests) skip days before their timing is
    computed. ``rejected[tid][day]`` gives the IDs of the rules that reject a day (for
    reasons; computed when asked). In explain mode every day is a candidate and the
    rejecting rules of each are listed in ``excluded``.
    """
    sc = ctx.scenario
    days = list(sc.horizon.days())
    day_tests = [fn for _, fn in allows_day or []]
    tests = [fn for _, fn in allows]
    ctx.rejected = _Rejections(ctx, allows, allows_day)
    for t in sc.tournaments:
        tz = tournament_tz(sc, t)
        cands: list[Candidate] = []
        if ctx.explain:
            rej = ctx.rejected[t.id]
            for day in days:
                tm = timing(t, tz, day)
                # a day in the daylight-saving gap is a day like any other, excluded by
                # CLOCK-CHANGE
                cands.append(Candidate(t, day, tm if tm is not None else
                                       _gap_timing(t, tz, day)))
        else:
            rej = {}
            # WINDOW rejects every day outside the window: do not even visit those
            tdays = days if t.window is None else [
                d for d in (t.window.start + dt.timedelta(n)
                            for n in range((t.window.end - t.window.start).days + 1))
                if sc.horizon.start <= d <= sc.horizon.end]
            for day in tdays:
                if not all(f(sc, t, day) for f in day_tests):  # type: ignore[operator]
                    continue
                tm = timing(t, tz, day)
                if tm is not None and all(f(sc, t, tm) for f in tests):  # type: ignore[operator]
                    cands.append(Candidate(t, day, tm))
        ctx.candidates[t.id] = cands
        for c in cands:
            z = ctx.model.new_bool_var(f"z[{t.id},{c.first_day}]")
            ctx.z[(t.id, c.first_day)] = z
            for rid in rej.get(c.first_day, ()):
                ctx.excluded.setdefault((t.id, rid), []).append(z)


COST_RULES = ("MT-PERMIT-FEES", "ME-FEES")
"""Rules that only price a plan; they never make a placement impossible."""


def build_model(scenario: Scenario, *, explain: bool = False) -> ModelContext:
    """The full model of ``scenario``: domain, then every rule's encoding, in registry order.

    ``explain=True`` builds the model used to explain infeasibility: every day of the horizon
    is a candidate (days a rule excludes are listed in ``excluded`` for the caller to guard),
    and cost rules are left out.
    """
    from constraints.registry import RULES

    ctx = ModelContext(scenario, explain=explain)
    build_domain(ctx, [(r.id, r.allows) for r in RULES if r.allows is not None],
                 [(r.id, r.allows_day) for r in RULES if r.allows_day is not None])
    for rule in RULES:
        if rule.encode is not None and not (explain and rule.id in COST_RULES):
            rule.encode(ctx)
            added = len(ctx.model.proto.constraints) - len(ctx.rule_of_constraint)
            ctx.rule_of_constraint.extend([rule.id] * added)
    return ctx


def sum_by(
    items: list[tuple[Candidate, cp_model.IntVar]],
    keys: Callable[[Candidate], list[object]],
) -> dict[object, list[cp_model.IntVar]]:
    """Group literals by every key an item belongs to (e.g. each day it touches)."""
    out: dict[object, list[cp_model.IntVar]] = defaultdict(list)
    for c, v in items:
        for k in keys(c):
            out[k].append(v)
    return out
