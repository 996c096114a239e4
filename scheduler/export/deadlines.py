"""deadlines.csv of a plan folder: what to file or do by when, from the plan alone.

One line per deadline of :func:`scheduler.result.deadlines.list_deadlines` (MT-NOTICE,
MT-PERMIT-FEES,
ME-APPLICATION-WINDOW, ME-REPORT), the one list the report's table, plan.xlsx's *Deadlines*
sheet and ``tourney deadlines`` (:mod:`scheduler.ledger.deadlines`, which reads this file)
read too, so they cannot disagree; all four in the one shape
:data:`scheduler.result.deadlines.DEADLINE_COLUMNS`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from scheduler.core.memo import LastOf
from scheduler.core.text import cell
from scheduler.export.csv_text import csv_pieces
from scheduler.result.deadlines import (
    DEADLINE_COLUMNS,
    Deadline,
    deadline_table,
    list_deadlines,
)
from scheduler.result.plan import Plan

__all__ = ["DEADLINE_COLUMNS", "deadlines_csv", "deadlines_pieces", "plan_deadlines"]

def plan_deadlines(plan: Plan) -> list[Deadline]:
    """The deadlines of ``plan``.

    Parameters
    ----------
    plan
        The plan.

    Returns
    -------
    list of scheduler.result.deadlines.Deadline
        :func:`scheduler.result.deadlines.list_deadlines` of its rows and licences, ME application
        windows (ME-APPLICATION-WINDOW) opening no earlier than ``scenario.notice_from``;
        sorted by date, rule, operator, occurrence, licence, what. Listed once per plan
        (the same list again for the same plan): do not change it.
    """
    return _LISTED.get(plan, lambda: list_deadlines(
        plan.rows, plan.license_list, plan.scenario.notice_from,
        closed=plan.scenario.settings.closed_days))


_LISTED: LastOf[list[Deadline]] = LastOf()
"""deadlines.csv, the calendars and plan.xlsx of one plan share one list (issue #27)."""


def deadlines_csv(plan: Plan) -> bytes:
    """deadlines.csv of ``plan``.

    Parameters
    ----------
    plan
        The plan.

    Returns
    -------
    bytes
        UTF-8, ``\\n`` line ends, the columns
        :data:`scheduler.result.deadlines.DEADLINE_COLUMNS`, one line per
        :func:`plan_deadlines` (dates ISO 8601, ``opens`` empty but for
        ME-APPLICATION-WINDOW); text cells spreadsheet-safe as schedule.csv's
        (:func:`scheduler.core.text.cell`): titles are the user's. A plan with no deadline gives
        the header alone.
    """
    return b"".join(deadlines_pieces(plan))


def deadlines_pieces(plan: Plan) -> Iterator[bytes]:
    """:func:`deadlines_csv` in pieces, a few thousand lines each
    (:func:`scheduler.export.csv_text.csv_pieces`), made as they are asked for: the plan
    folder's deadlines.csv is written so, never whole in memory (issue #27)."""
    names = {op.id: op.name for op in plan.scenario.operators}
    rows = ({k: ("" if v is None else v.isoformat() if isinstance(v, dt.date)
                 else cell(str(v))) for k, v in row.items()}
            for d in plan_deadlines(plan) for row in deadline_table((d,), names))
    return csv_pieces(rows, DEADLINE_COLUMNS)
