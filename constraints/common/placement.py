"""The scenario's placement requests: at most ``count`` occurrences of a tournament (``COUNT``),
at least ``required`` of them (``REQUIRED``), and its fixed dates (``FIXED-DATES``). What a
placed occurrence earns and the shortfall below ``required`` and the fixed dates are objective
terms (``scheduler/engine/objective.py``); ``REQUIRED`` and ``FIXED-DATES`` are checks only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from constraints.base import Audit, Occurrence, Rule, Violation
from constraints.modelling import NO_MIN, ModelContext


# ------------------------------------------------------------------ COUNT
def _encode_count(ctx: ModelContext) -> None:
    """At most ``count`` occurrences, the fixed dates among them. What each placed one earns
    (``priority``) and the shortfall below ``must_place`` are objective terms
    (:func:`scheduler.engine.objective.add_terms`), not constraints."""
    for t in ctx.scenario.tournaments:
        if not isinstance(t.count, int):
            continue
        starts = ctx.starts(t)
        if len(starts) > t.count:
            ctx.add_sum([v for _, v in starts], NO_MIN, t.count,
                        f"COUNT: at most {t.count} occurrences of {t.id}" if ctx.named else "")
        if t.fixed_dates:
            # fixed dates are among the `count` occurrences: the others may not take their place
            free = [v for c, v in starts if c.first_day not in t.fixed_dates]
            if len(free) > t.count - len(t.fixed_dates):
                ctx.add_sum(free, NO_MIN, t.count - len(t.fixed_dates),
                            f"COUNT: {t.id}'s {len(t.fixed_dates)} fixed dates are among its "
                            f"{t.count} occurrences" if ctx.named else "")


def _check_count(a: Audit) -> Iterator[Violation]:
    n: dict[str, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        n[p.tid].append(p)
    for tid, ps in n.items():
        t = ps[0].tournament
        if isinstance(t.count, int) and len(ps) > t.count:
            yield Violation("COUNT", t.operators[0], tuple(p.ref for p in ps), "",
                            f"{tid} is placed {len(ps)} times; {t.count} wanted")


COUNT = Rule("COUNT", encode=_encode_count, check=_check_count)


def _check_required(a: Audit) -> Iterator[Violation]:
    n: dict[str, int] = defaultdict(int)
    for p in a.placed:
        n[p.tid] += 1
    for t in a.scenario.tournaments:
        if a.covers(t) and t.required > n[t.id]:
            yield Violation("REQUIRED", t.operators[0], (t.id,), "",
                            f"{t.id} must be placed {t.required} times (required) but is "
                            f"placed {n[t.id]} times")


REQUIRED = Rule("REQUIRED", check=_check_required)


# ------------------------------------------------------------------ FIXED-DATES
# A fixed date is a required occurrence on exactly that first day: in the model, a term of
# the objective's required shortfall (scheduler.engine.objective.add_terms), so a date that cannot
# be honoured is reported as unplaced, not as an infeasible model.
def _check_fixed(a: Audit) -> Iterator[Violation]:
    starts = {(p.tid, p.first_day) for p in a.placed}
    for t in a.scenario.tournaments:
        if not a.covers(t):
            continue
        for d in t.fixed_dates:
            if (t.id, d) not in starts:
                yield Violation("FIXED-DATES", t.operators[0], (t.id,), d.isoformat(),
                                f"{t.id} is pinned to start on {d} but does not")


FIXED_DATES = Rule("FIXED-DATES", check=_check_fixed)
