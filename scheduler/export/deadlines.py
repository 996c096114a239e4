"""deadlines.csv of a plan folder: what to file or do by when, from the plan alone.

One line per deadline of :func:`scheduler.result.deadlines.list_deadlines` (MT-NOTICE,
MT-PERMIT-FEES,
ME-APPLICATION-WINDOW, ME-REPORT), the one list the report's table, plan.xlsx's *Deadlines*
sheet and ``tourney deadlines`` (:mod:`scheduler.ledger.deadlines`, which reads this file)
read too, so they cannot disagree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict

import pandas as pd

from scheduler.core.text import cell
from scheduler.result.deadlines import Deadline, list_deadlines
from scheduler.result.plan import Plan

DEADLINE_COLUMNS = ["date", "rule", "citation", "operator_id", "what", "occurrence",
                    "license_id", "opens"]
"""The columns of deadlines.csv: ``date`` the last day (inclusive) to do it (ISO 8601);
``rule`` its rule ID and ``citation`` the law it comes from; ``operator_id`` who does it;
``what`` a sentence; ``occurrence`` ``TOURNAMENT#N`` (MT-NOTICE) or the occurrences a Maine
licence covers (shortened past three: ``a#1 … a#23 (23)``); ``license_id`` the Maine
licence or Montana permit (licenses.csv) of an ME or MT-PERMIT-FEES line; ``opens`` the first day
an ME application may be received (else empty)."""


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
        sorted by date, rule, operator, occurrence, licence, what.
    """
    return list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from,
                          closed=plan.scenario.settings.closed_days)


def deadlines_csv(plan: Plan) -> bytes:
    """deadlines.csv of ``plan``.

    Parameters
    ----------
    plan
        The plan.

    Returns
    -------
    bytes
        UTF-8, ``\\n`` line ends, the columns :data:`DEADLINE_COLUMNS`, one line per
        :func:`plan_deadlines` (dates ISO 8601, ``opens`` empty but for
        ME-APPLICATION-WINDOW); text cells spreadsheet-safe as schedule.csv's
        (:func:`scheduler.core.text.cell`): titles are the user's. A plan with no deadline gives
        the header alone.
    """
    rows = [{k: ("" if v is None else v.isoformat() if isinstance(v, dt.date)
                 else cell(str(v))) for k, v in asdict(d).items() if k in DEADLINE_COLUMNS}
            for d in plan_deadlines(plan)]
    text = pd.DataFrame(rows, columns=DEADLINE_COLUMNS).to_csv(index=False,
                                                               lineterminator="\n")
    return text.encode("utf-8")
