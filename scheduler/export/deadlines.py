"""deadlines.csv of a plan folder: what to file or do by when, from the plan alone.

One line per deadline, the same lines (date, rule, operator, what, occurrence, licence) as
``tourney deadlines PLAN_DIR`` prints without a ledger (:mod:`scheduler.ledger.deadlines`),
from the same deadline functions of :mod:`scheduler.timing` (``notice_due``,
``application_opens``/``application_due``, ``report_due``, ``report_periods``), so the plan
folder, the calendars, the model and the ledger cannot disagree:

- MT-NOTICE (MCA 23-5-317(1)(d)): each Montana large-stakes occurrence at each operator,
  :func:`~scheduler.timing.notice_due` of its first day;
- ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): each Maine licence, received between
  :func:`~scheduler.timing.application_opens` and :func:`~scheduler.timing.application_due`
  of the first day it covers;
- ME-REPORT (16-633 CMR ch. 32 § 8): each licensed period of each Maine licence,
  :func:`~scheduler.timing.report_due` of the period's last day.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from constraints.catalogue import RULES
from constraints.maine import LICENCE_KINDS
from scheduler.plan import OperatorOccurrence, Plan
from scheduler.text import cell
from scheduler.timing import (
    application_due,
    application_opens,
    notice_due,
    report_due,
    report_periods,
)

DEADLINE_COLUMNS = ["date", "rule", "citation", "operator_id", "what", "occurrence",
                    "license_id", "opens"]
"""The columns of deadlines.csv: ``date`` the last day (inclusive) to do it (ISO 8601);
``rule`` its rule ID and ``citation`` the law it comes from; ``operator_id`` who does it;
``what`` a sentence; ``occurrence`` ``TOURNAMENT#N`` (MT-NOTICE) or the occurrences a Maine
licence covers (shortened past three: ``a#1 … a#23 (23)``); ``license_id`` the Maine
licence (licenses.csv) of an ME-APPLICATION-WINDOW or ME-REPORT line; ``opens`` the first day
an ME application may be received (else empty)."""

def _covers(covers: tuple[str, ...]) -> str:
    """The occurrences a licence covers, shortened past three: ``a#1 … a#23 (23)``."""
    if len(covers) <= 3:
        return " ".join(covers)
    return f"{covers[0]} … {covers[-1]} ({len(covers)})"


def plan_deadlines(plan: Plan) -> list[dict[str, object]]:
    """The deadlines of ``plan``, one dict per line with the keys of
    :data:`DEADLINE_COLUMNS` (``date`` and ``opens`` as ``datetime.date``, ``opens`` None
    but for ME-APPLICATION-WINDOW), sorted by date, rule, operator, occurrence, licence,
    what. Dates are calendar days (inclusive)."""
    out: list[dict[str, object]] = []
    by_ref: dict[str, list[OperatorOccurrence]] = {}
    for r in plan.rows:
        ref = f"{r.tournament_id}#{r.occurrence}"
        by_ref.setdefault(ref, []).append(r)
        if r.jurisdiction != "MT" or r.type != "large-stakes":
            continue
        out.append({"date": notice_due(r.first_day), "rule": "MT-NOTICE",
                    "operator_id": r.operator_id,
                    "what": f"notify the department of {r.title} ({ref}), first day "
                            f"{r.first_day}",
                    "occurrence": ref, "license_id": "", "opens": None})
    for lic in plan.license_list:
        if lic.jurisdiction != "ME" or lic.kind not in LICENCE_KINDS:
            continue
        covered = [r for ref in lic.covers for r in by_ref.get(ref, [])]
        mine = [r for r in covered if r.operator_id == lic.operator_id] or covered
        first = min((r.first_day for r in mine), default=lic.valid_from)
        opens, due = application_opens(first), application_due(first)
        out.append({"date": due, "rule": "ME-APPLICATION-WINDOW",
                    "operator_id": lic.operator_id,
                    "what": f"the {lic.kind} licence application received between {opens} "
                            f"and {due} (first day covered {first})",
                    "occurrence": _covers(lic.covers), "license_id": lic.license_id,
                    "opens": opens})
        for end in report_periods(lic.kind, lic.valid_from, lic.valid_to):
            out.append({"date": report_due(end), "rule": "ME-REPORT",
                        "operator_id": lic.operator_id,
                        "what": "file the disposition-of-funds report for the licensed "
                                f"period ending {end}",
                        "occurrence": _covers(lic.covers), "license_id": lic.license_id,
                        "opens": None})
    for d in out:
        d["citation"] = RULES[str(d["rule"])].citation
    out.sort(key=lambda d: (d["date"], d["rule"], d["operator_id"], d["occurrence"],
                            d["license_id"], d["what"]))  # type: ignore[return-value]
    return out


def deadlines_csv(plan: Plan) -> bytes:
    """deadlines.csv of ``plan`` (UTF-8, ``\\n`` line ends, :data:`DEADLINE_COLUMNS`),
    text cells spreadsheet-safe as schedule.csv's (:func:`scheduler.text.cell`): titles
    are the user's. A plan with no deadline gives the header alone."""
    rows = [{k: ("" if v is None else v.isoformat() if isinstance(v, dt.date)
                 else cell(str(v))) for k, v in d.items()} for d in plan_deadlines(plan)]
    text = pd.DataFrame(rows, columns=DEADLINE_COLUMNS).to_csv(index=False,
                                                               lineterminator="\n")
    return text.encode("utf-8")
