"""An operator's year as an HTML table of report.html: what
:func:`scheduler.export.figures.plot_calendar` draws, as table cells the browser lays out and
prints (no picture to draw: issue #27, a matplotlib calendar took most of ``--report``'s time).

One row per month of the horizon, one column per day 1-31. In each day cell, from the top:
the deadline marks (MT-NOTICE ``▼`` red, ME-APPLICATION-WINDOW ``◆`` cyan), then one slot
per lane: a piece of a placed occurrence's bar (coloured by its category,
:data:`scheduler.export.figures.CATEGORIES`; a bar is split at month ends, its first and last
day closed by a border), occurrences sharing a day stacked in lanes as in the picture.
Blackout days (BLACKOUT) are hatched ``//`` in red, the operator's other games of chance
(ME-OTHER-GAMES) ``\\\\`` in grey, days that do not exist (Feb 30) or lie outside the horizon
greyed out. The styles are report.html.j2's (``table.year``).

The table is given to the template as tuples (unpacked there, no attribute look-ups: a
report draws up to 12 operators' years, 400 cells each, for every plan).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from typing import Any

from scheduler.core.timing import day_span, month_end, months_between
from scheduler.export.figures import (
    APPLICATION_COLOUR,
    BLACKOUT_COLOUR,
    CATEGORIES,
    NOTICE_COLOUR,
    OTHER_BAR_COLOUR,
    OTHER_GAME_COLOUR,
    application_deadlines,
    calendar_cells,
    category,
    lanes_of,
)
from scheduler.result.deadlines import Deadline
from scheduler.result.plan import OperatorOccurrence, Plan
from scheduler.result.words import span_text

MARKS = {"notice": ("▼", "MT notice due"), "application": ("◆", "ME application due")}
"""Deadline kind (its CSS class) → (mark, legend label) of a day cell."""

HATCHES = {"blackout": "blackout", "other-game": "other games of chance"}
"""Hatched day kind (:func:`scheduler.export.figures.calendar_cells`) → legend label."""


def colours() -> dict[str, Any]:
    """The colours of the tables' styles, those of the picture: ``bars`` (``(css class,
    colour)`` of each category, :data:`scheduler.export.figures.CATEGORIES`, then
    ``bar-other``), ``blackout``, ``other``, ``notice``, ``application``."""
    return {"bars": [(css_class(c), colour) for c, (_, colour) in CATEGORIES.items()]
            + [("bar-other", OTHER_BAR_COLOUR)],
            "blackout": BLACKOUT_COLOUR, "other": OTHER_GAME_COLOUR,
            "notice": NOTICE_COLOUR, "application": APPLICATION_COLOUR}


def css_class(cat: str) -> str:
    """The CSS class of a bar of category ``cat`` (``bar-large-stakes``; an unknown
    category: ``bar-other``)."""
    return f"bar-{cat}" if cat in CATEGORIES else "bar-other"


def year_table(plan: Plan, operator_id: str, deadlines: Iterable[Deadline] | None = None,
               rows: Iterable[OperatorOccurrence] | None = None) -> dict[str, Any]:
    """The year of ``operator_id`` in ``plan`` as report.html's table.

    Parameters
    ----------
    plan
        The solved plan.
    operator_id
        An operator of the scenario (``ValueError`` for another, as
        :func:`scheduler.export.figures.plot_calendar`).
    deadlines
        :func:`scheduler.result.deadlines.list_deadlines` of the plan when the caller has it.
    rows
        The operator's rows of ``plan.rows`` when the caller has grouped them.

    Returns
    -------
    dict
        ``title`` (the picture's: name, id, state, occurrences, months), ``note`` (deadlines
        before the horizon; empty when none), ``legend`` (``(kind, css class, mark,
        label)``, kind ``bar``, ``hatch`` or ``mark``), ``lanes``, and ``months``: one
        ``(label, cells)`` a month, ``cells`` 31 tuples ``(class, marks, slots)``: the day's
        class (``off``, ``blackout``, ``other-game`` or empty), its marks (``(css class,
        mark)``), its ``slots``, one per lane, each None or ``(css classes, tooltip)``.
    """
    sc = plan.scenario
    horizon = sc.horizon
    cells = calendar_cells(plan, operator_id)  # raises ValueError for an unknown operator
    op = sc.operator(operator_id)
    months = months_between(horizon.start, horizon.end)
    row_of = {ym: i for i, ym in enumerate(months)}
    mine = sorted((r for r in plan.rows if r.operator_id == operator_id) if rows is None
                  else rows, key=lambda r: (r.first_day, r.ref))
    lane_of, lanes = lanes_of(mine)

    klass = [["" for _ in range(31)] for _ in months]
    for i, (y, m) in enumerate(months):
        last = month_end(y, m).day
        for mday in range(1, 32):
            if mday > last or not (horizon.start <= dt.date(y, m, mday) <= horizon.end):
                klass[i][mday - 1] = "off"
    for kind, days in cells.items():
        for day in days:
            klass[row_of[(day.year, day.month)]][day.day - 1] = kind

    slots: list[list[list[tuple[str, str] | None]]] = [
        [[None] * lanes for _ in range(31)] for _ in months]
    used: list[str] = []
    for r in mine:
        cat = category(r)
        if cat not in used:
            used.append(cat)
        tip = f"{r.title} ({r.ref}), {span_text(r.first_day, r.last_day)}"
        days = [d for d in day_span(r.first_day, r.last_day) if (d.year, d.month) in row_of]
        for k, d in enumerate(days):
            ends = (" first" if k == 0 or d.day == 1 else "") + (
                " last" if k == len(days) - 1 or d == month_end(d.year, d.month) else "")
            slots[row_of[(d.year, d.month)]][d.day - 1][lane_of[r.ref]] = (
                css_class(cat) + ends, tip)

    marks: list[list[tuple[tuple[str, str], ...]]] = [[() for _ in range(31)] for _ in months]
    notices = sorted({r.notice_due for r in mine if r.notice_due is not None})
    applications = sorted({d for d, _ in application_deadlines(plan, operator_id, deadlines)})
    early: Counter[str] = Counter()
    for days, kind in ((notices, "notice"), (applications, "application")):
        for day in days:
            if (day.year, day.month) not in row_of or day < horizon.start:
                early[kind] += 1
                continue
            marks[row_of[(day.year, day.month)]][day.day - 1] += ((kind, MARKS[kind][0]),)

    legend = [("bar", css_class(c), "", CATEGORIES.get(c, (c, ""))[0]) for c in used]
    legend += [("hatch", kind, "", HATCHES[kind]) for kind in HATCHES if cells[kind]]
    legend += [("mark", kind, *MARKS[kind])
               for kind, days in (("notice", notices), ("application", applications)) if days]
    note = ""
    if early:
        first = min(d for d in notices + applications if d < horizon.start)
        note = (", ".join(f"{n} {kind} deadline(s)" for kind, n in sorted(early.items()))
                + f" fall before the horizon (the first on {first.isoformat()})")
    return {
        "title": (f"{op.name} ({op.id}, {op.jurisdiction}): {len(mine)} occurrence(s), "
                  f"{horizon.start:%b %Y} to {horizon.end:%b %Y}"),
        "note": note, "legend": legend, "lanes": lanes,
        "months": [(f"{dt.date(y, m, 1):%b %Y}",
                    list(zip(klass[i], marks[i], slots[i], strict=True)))
                   for i, (y, m) in enumerate(months)],
    }


__all__ = ["HATCHES", "MARKS", "colours", "css_class", "year_table"]
