"""The scenario's cross references (rule ``SCENARIO``: unique ids, known operators, types that
match the operators' state, dates in range) and fixed dates whose start time the clocks skip
(``CLOCK-CHANGE``): :data:`REFERENCES`, the input rules checked before all others
(:func:`constraints.registry.validate_terms`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from constraints.base import Rule
from scheduler.core.jurisdiction import codes, installed, jurisdiction
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.timing import local, years_end


# ------------------------------------------------------------------ SCENARIO (cross references)
def _either_types() -> str:
    """``MT or ME types``: the jurisdictions' codes, for a tournament of several states."""
    *first, last = codes()
    return f"{', '.join(first)} or {last} types" if first else f"{last} types"


def validate_references(sc: Scenario) -> Iterator[TermProblem]:
    """Unique ids, known operators, types that match the operators' state, dates in range."""
    seen: set[str] = set()
    for i, o in enumerate(sc.operators):
        if o.id in seen:
            yield TermProblem(("operators", i, "id"), "SCENARIO", "operator id is used twice")
        seen.add(o.id)
        for other in installed():
            if other.code == o.jurisdiction:
                continue
            for f in other.operator_fields:
                if f in o.model_fields_set:
                    yield TermProblem(("operators", i, f), "SCENARIO",
                                      f"field applies only to {other.code} operators")
    ops = {o.id: o for o in sc.operators}
    if sc.horizon.end < sc.horizon.start:
        yield TermProblem(("horizon", "end"), "SCENARIO", "horizon ends before it starts")
    elif sc.horizon.end > years_end(sc.horizon.start, 2):
        yield TermProblem(("horizon", "end"), "SCENARIO",
                          f"a horizon is at most 2 years (end on or before "
                          f"{years_end(sc.horizon.start, 2)})")
    tids: set[str] = set()
    for i, t in enumerate(sc.tournaments):
        loc = ("tournaments", i)
        if t.id in tids:
            yield TermProblem((*loc, "id"), "SCENARIO", "tournament id is used twice")
        tids.add(t.id)
        for j, oid in enumerate(t.operators):
            if oid not in ops:
                yield TermProblem((*loc, "operators", j), "SCENARIO",
                                  f"unknown operator id; known: {', '.join(sorted(ops))}")
        if len(set(t.operators)) != len(t.operators):
            yield TermProblem((*loc, "operators"), "SCENARIO", "an operator is listed twice")
        states = {ops[o].jurisdiction for o in t.operators if o in ops}
        allowed = jurisdiction(next(iter(states))).types if len(states) == 1 else ()
        if states and t.type not in allowed:
            yield TermProblem((*loc, "type"), "SCENARIO",
                              f"type must be one of {', '.join(allowed) or _either_types()} "
                              f"for {'/'.join(sorted(states))} operators")
        if t.count == "all" and not t.is_small:
            yield TermProblem((*loc, "count"), "SCENARIO",
                              "count \"all\" is only for small-stakes tournaments")
        horizon_days = (sc.horizon.end - sc.horizon.start).days + 1
        if isinstance(t.count, int) and 0 < horizon_days < t.count:
            yield TermProblem((*loc, "count"), "SCENARIO",
                              f"count exceeds the {horizon_days} days of the horizon (at most one "
                              "occurrence starts a day)")
        if isinstance(t.count, int):
            if len(t.fixed_dates) > t.count:
                yield TermProblem((*loc, "fixed_dates"), "SCENARIO",
                                  f"{len(t.fixed_dates)} fixed dates but count is {t.count}")
            if t.required > t.count:
                yield TermProblem((*loc, "required"), "SCENARIO",
                                  f"required ({t.required}) exceeds count ({t.count})")
        if t.window is not None:
            if t.window.end < t.window.start:
                yield TermProblem((*loc, "window", "end"), "SCENARIO",
                                  "window ends before it starts")
            elif t.window.end < sc.horizon.start or t.window.start > sc.horizon.end:
                yield TermProblem((*loc, "window"), "SCENARIO", "window lies outside the horizon")
        for j, d in enumerate(t.fixed_dates):
            if d not in sc.horizon:
                yield TermProblem((*loc, "fixed_dates", j), "SCENARIO",
                                  f"fixed date outside the horizon {sc.horizon.start}.."
                                  f"{sc.horizon.end}")
        if len(set(t.fixed_dates)) != len(t.fixed_dates):
            yield TermProblem((*loc, "fixed_dates"), "SCENARIO", "a fixed date is listed twice")
    tour_ids: set[str] = set()
    for j, tour in enumerate(sc.tours):
        if tour.id in tour_ids:
            yield TermProblem(("tours", j, "id"), "SCENARIO", "tour id is used twice")
        tour_ids.add(tour.id)


SCENARIO = Rule("SCENARIO", validate=validate_references)


# ------------------------------------------------------------------ CLOCK-CHANGE (fixed dates)
def validate_clock_change(sc: Scenario) -> Iterator[TermProblem]:
    """CLOCK-CHANGE: a fixed date whose start time does not exist in the first operator's time
    zone (the clocks spring forward past it, e.g. 02:30 on 2027-03-14 in America/Denver). A
    cross reference, checked with ``SCENARIO`` before the other input rules
    (:func:`constraints.registry.validate_terms`); the model leaves such days out of every
    other tournament's domain (``scheduler.engine.model``)."""
    ops = {o.id: o for o in sc.operators}
    for i, t in enumerate(sc.tournaments):
        if not all(o in ops for o in t.operators):
            continue  # an unknown operator: SCENARIO names it
        tz = ops[t.operators[0]].tz
        for j, d in enumerate(t.fixed_dates):
            if t.sessions:  # each session's start on its own day (flights)
                for x in t.sessions:
                    day = d + dt.timedelta(days=x.day - 1)
                    if local(day, x.start, tz) is None:
                        yield TermProblem(("tournaments", i, "fixed_dates", j), "CLOCK-CHANGE",
                                          f"{x.label}'s start {x.start:%H:%M} does not exist "
                                          f"on {day} in {tz.key} (the clocks spring forward); "
                                          "choose another start time or day")
                continue
            if local(d, t.start_time, tz) is None:
                yield TermProblem(("tournaments", i, "fixed_dates", j), "CLOCK-CHANGE",
                                  f"{t.start_time:%H:%M} does not exist on {d} in "
                                  f"{tz.key} (the clocks spring forward); "
                                  "choose another start time or day")


CLOCK_CHANGE = Rule("CLOCK-CHANGE", validate=validate_clock_change)
REFERENCES = (SCENARIO, CLOCK_CHANGE)
"""The rules whose input checks are cross references: the other input rules run only when
these find nothing (:func:`constraints.registry.validate_terms`)."""
