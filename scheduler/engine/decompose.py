"""Split a scenario into independent parts, and merge the parts' plans into one.

Two operators belong to one part when a rule counts their tournaments together:

- a tournament held by several venues (a progressive, MT-PROGRESSIVE, MCA 23-5-317(1)(e))
  counts for every one of them (MT-LARGE-LIMIT, MCA 23-5-317(1)(a), (1)(d)), so its
  operators are one part;
- a tour's stops are planned together (TOUR-WHOLE, TOUR-ORDER, TOUR-SPACING,
  ``constraints/tours.py``), so the operators of all its stops are one part;
- the statewide cap of super cribbage licences (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A))
  counts every operator with a super cribbage tournament together.

No other rule reaches across operators, so the parts share no variable and no constraint: each
lexicographic objective is a sum over the parts, and the merged plan of the parts' optima is an
optimum of the whole scenario (``tests/test_decompose.py`` solves both and compares).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scheduler.core.errors import TourneyError
from scheduler.core.fields import WEEKDAYS
from scheduler.core.scenario import Scenario
from scheduler.inputs.replan.previous import PublishedOccurrence
from scheduler.result.plan import Plan, PlanStatus


def components(scenario: Scenario) -> list[Scenario]:
    """The independent parts of ``scenario``, each a Scenario with the same horizon,
    notice date and settings, its own operators and their tournaments (in the original
    order). Parts are ordered by their first operator's place in the file; an operator with
    no tournament is a part of its own. One part is ``[scenario]`` itself."""
    ops = [o.id for o in scenario.operators]
    parent = {o: o for o in ops}

    def find(o: str) -> str:
        while parent[o] != o:
            parent[o] = parent[parent[o]]
            o = parent[o]
        return o

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb, key=ops.index)] = min(ra, rb, key=ops.index)

    cribbage: list[str] = []
    for t in scenario.tournaments:
        for o in t.operators[1:]:
            union(t.operators[0], o)
        if t.type == "super-cribbage":
            cribbage.append(t.operators[0])
    for o in cribbage[1:]:
        union(cribbage[0], o)
    first_op = {t.id: t.operators[0] for t in scenario.tournaments}
    for tour in scenario.tours:
        hosts = [first_op[s] for s in tour.stops if s in first_op]
        for o in hosts[1:]:
            union(hosts[0], o)
    roots: dict[str, list[str]] = {}
    for o in ops:
        roots.setdefault(find(o), []).append(o)
    if len(roots) == 1:
        return [scenario]
    part_of = {o: i for i, members in enumerate(roots.values()) for o in members}
    tournaments: list[list] = [[] for _ in roots]
    for t in scenario.tournaments:
        tournaments[part_of[t.operators[0]]].append(t)
    return [scenario.model_copy(update={
        "operators": tuple(scenario.operator(o) for o in members),
        "tournaments": tuple(tournaments[i]),
        "tours": tuple(tour for tour in scenario.tours
                       if any(part_of[first_op[s]] == i for s in tour.stops if s in first_op))})
        for i, members in enumerate(roots.values())]


def split_previous(parts: Sequence[Scenario], previous: list[PublishedOccurrence] | None
                   ) -> list[list[PublishedOccurrence] | None]:
    """The announced occurrences of a re-plan, per part (by tournament); those of
    tournaments no longer in the scenario go to the first part, which cancels them."""
    if previous is None:
        return [None] * len(parts)
    where = {t.id: i for i, p in enumerate(parts) for t in p.tournaments}
    out: list[list[PublishedOccurrence] | None] = [[] for _ in parts]
    for a in previous:
        out[where.get(a.tournament_id, 0)].append(a)  # type: ignore[union-attr]
    return out


def merge(scenario: Scenario, plans: Sequence[Plan]) -> Plan:
    """One plan of ``scenario`` from the plans of its parts (:func:`components`): rows,
    licences, unscheduled occurrences, cancellations and conflicts together, in the order a
    single solve gives them; objectives and bounds are sums; OPTIMAL only when every part is.
    """
    if len(plans) == 1:
        return plans[0]
    t_order = {t.id: i for i, t in enumerate(scenario.tournaments)}
    rows = tuple(sorted((r for p in plans for r in p.rows),
                        key=lambda r: (r.first_day, r.tournament_id, r.occurrence,
                                       r.operator_id)))
    # each part lists its licences by operator id, then preference; keep that within an operator
    licenses = tuple(sorted((lic for p in plans for lic in p.license_list),
                            key=lambda lic: lic.operator_id))
    unscheduled = tuple(sorted((u for p in plans for u in p.unscheduled_list),
                               key=lambda u: t_order[u.tournament_id]))
    keys = plans[0].objective.keys()
    return Plan(
        scenario, rows, licenses, unscheduled,
        PlanStatus.OPTIMAL if all(p.status == PlanStatus.OPTIMAL for p in plans)
        else PlanStatus.FEASIBLE,
        objective={k: sum(p.objective[k] for p in plans) for k in keys},
        bound={k: sum(p.bound[k] for p in plans) + 0.0 for k in keys},
        seed=plans[0].seed,
        cancelled=tuple(sorted((c for p in plans for c in p.cancelled),
                               key=lambda c: c.tournament_id)),
        conflicts=tuple(c for p in plans for c in p.conflicts),
        overasked=tuple(line for p in plans for line in p.overasked),
        interrupted=any(p.interrupted for p in plans),
        components=len(plans))


def model_size(scenario: Scenario) -> tuple[int, str]:
    """The largest independent part of ``scenario``'s model, estimated before building it:
    ``(cells, description)`` where cells are the candidate (tournament, first day) pairs of
    the part, counted at every operator of a shared tournament (days of the horizon in each
    tournament's window and weekdays, times its operators: each venue has its own variables
    and its own counts, MT-LARGE-LIMIT at every venue; the model grows with them), and the
    description names the part's largest contributors."""
    best = (0, "")
    for part in components(scenario):
        counts: list[tuple[int, str, int, int]] = []
        for t in part.tournaments:
            days, venues = _candidate_days(part, t), max(1, len(t.operators))
            counts.append((days * venues, t.id, days, venues))
        cells = sum(c[0] for c in counts)
        if cells > best[0]:
            top = sorted(counts, reverse=True)[:3]
            ops = ", ".join(o.id for o in part.operators[:3]) + (
                f" and {len(part.operators) - 3:,} more" if len(part.operators) > 3 else "")
            best = (cells, f"{len(part.tournaments):,} tournament(s) of {ops}; largest: "
                           + ", ".join(f"{tid} ({days:,} days" + (
                               f" x {venues:,} operators)" if venues > 1 else ")")
                               for _c, tid, days, venues in top))
    return best


def _candidate_days(scenario: Scenario, t: Any) -> int:
    first, last = scenario.horizon.start, scenario.horizon.end
    if t.window is not None:
        first, last = max(first, t.window.start), min(last, t.window.end)
    days = (last - first).days + 1
    if days <= 0:
        return 0
    if t.weekdays:
        wanted = {WEEKDAYS.index(w) for w in t.weekdays}
        weeks, rest = divmod(days, 7)
        extra = sum(1 for k in range(rest) if (first.weekday() + k) % 7 in wanted)
        days = weeks * len(wanted) + extra
    return days


class ModelTooLarge(TourneyError, ValueError):
    """A scenario whose model would be larger than allowed (see docs/limits.md); the message
    says its size, where, and what to change."""

    def format_message(self) -> str:
        return f"tourney: {self}. Nothing was written."


def check_model_size(scenario: Scenario, limit: int, what: str = "") -> None:
    """Refuse a scenario whose largest independent part (:func:`model_size`) has more
    candidate (tournament, first day) pairs than ``limit``, before any model is built.

    Parameters
    ----------
    scenario : Scenario
        The scenario (or a sweep's variant of it).
    limit : int
        The most candidate pairs one part may have (``--max-model``).
    what : str
        Put before the message, e.g. ``"variant 'x': "`` for a sweep's variant.

    Raises
    ------
    ModelTooLarge
        When the largest part is larger than ``limit``.
    """
    cells, where = model_size(scenario)
    if cells > limit:
        raise ModelTooLarge(
            f"{what}the model would have {cells:,} candidate (tournament, first day) "
            f"pairs in one part ({where}); at most {limit:,} are allowed. Narrow the "
            "tournaments' windows or weekdays, lower their counts, split the scenario into "
            "several files, or raise the limit with --max-model (see docs/limits.md)")
