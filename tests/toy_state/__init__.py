"""Toyland (code ``TY``), a jurisdiction for tests only: one tournament type, ``toy-game``,
and one rule, TY-MONTHLY (at most 2 toy games per operator per calendar month of their first
day). It is a whole state's plug-in: its ``JURISDICTION`` object, its rule (model and check
side by side) and its catalogue row, with no edit outside this package;
``constraints.registry.register(JURISDICTION)`` installs it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import cast

from constraints.base import Audit, Occurrence, Rule, Violation
from constraints.catalogue import RuleInfo
from constraints.modelling import ModelContext, sum_by
from scheduler.core.jurisdiction import Jurisdiction

CODE = "TY"
TYPES = ("toy-game",)
MONTHLY_LIMIT = 2
"""TY-MONTHLY: toy games per operator per calendar month (of their first day)."""


def _encode(ctx: ModelContext) -> None:
    """At most 2 toy games an operator starts in a calendar month."""
    for op in ctx.scenario.operators:
        if op.jurisdiction != CODE:
            continue
        items = [(c, v) for c, v in ctx.of_operator(op.id) if c.tournament.type in TYPES]
        months = sum_by(items, lambda c: [(c.timing.first_day.year, c.timing.first_day.month)])
        for month, lits in months.items():
            if len(lits) > MONTHLY_LIMIT:
                y, m = cast(tuple[int, int], month)
                ctx.model.add(sum(lits) <= MONTHLY_LIMIT).with_name(
                    f"TY-MONTHLY: {op.id} starts at most {MONTHLY_LIMIT} toy games in "
                    f"{y}-{m:02d}")


def _check(a: Audit) -> Iterator[Violation]:
    """The same, read from a finished schedule: a month of 3 or more is a violation."""
    for op in a.scenario.operators:
        if op.jurisdiction != CODE:
            continue
        months: dict[tuple[int, int], list[Occurrence]] = defaultdict(list)
        for p in a.of_operator(op):
            if p.tournament.type in TYPES:
                months[(p.first_day.year, p.first_day.month)].append(p)
        for (y, m), ps in sorted(months.items()):
            if len(ps) > MONTHLY_LIMIT:
                refs = tuple(p.ref for p in sorted(ps, key=lambda p: (p.first_day, p.ref)))
                yield Violation("TY-MONTHLY", op.id, refs, f"{y}-{m:02d}",
                                f"{op.name} would start {len(ps)} toy games in {y}-{m:02d} "
                                f"({', '.join(refs)}); at most {MONTHLY_LIMIT} a month")


TY_MONTHLY = Rule("TY-MONTHLY", encode=_encode, check=_check,
                  info=RuleInfo("TY-MONTHLY", "Toy Code § 1", "sched",
                                "at most 2 toy games per operator per calendar month"))

JURISDICTION = Jurisdiction(
    code=CODE, name="Toyland", timezone="America/Chicago", types=TYPES,
    rules=(TY_MONTHLY,),
    catalogue=(TY_MONTHLY.info,) if TY_MONTHLY.info is not None else (),
    statute="Toyland Toy Code § 1", agency="the Toyland Games Board", filing="a form",
)
