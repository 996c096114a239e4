"""``tourney deadlines``: what to file by when, for every operator of a plan, and whether the
ledger says it is done.

Every date comes from the deadline functions of :mod:`scheduler.timing` (``notice_due``,
``application_opens``/``application_due``, ``report_due``) and the licensed periods from
``report_periods``, which the calendar writer reads too, so this list, the calendars, the
model and the audit cannot disagree.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from scheduler.ledger.models import Filing, Held, ReportFiled, select_current
from scheduler.ledger.plans import ME_LICENCE_KINDS, parse_date, read_csv
from scheduler.ledger.store import LedgerError, Store
from scheduler.text import uncell
from scheduler.timing import (
    application_due,
    application_opens,
    notice_due,
    report_due,
    report_periods,
)

COLUMNS = ["date", "state", "rule", "operator_id", "what", "occurrence", "license_id",
           "opens", "done_on", "entry"]
"""The columns of the deadlines table: ``date`` the last day (inclusive) to do it;
``state`` (:data:`STATES`); ``rule`` its rule ID; ``what`` a sentence; ``occurrence``
``TOURNAMENT#N`` (MT-NOTICE) or ``license_id`` (Maine licence rules); ``opens`` the first day
an ME application may be received; ``done_on`` the day the ledger says it was filed and
``entry`` that ledger entry's id."""
STATES = ("due", "overdue", "done", "done late", "not needed")
"""``due``: not done and ``date`` is on or after the as-of day; ``overdue``: not done and
``date`` is before it; ``done``: filed on or before ``date``; ``done late``: filed after it;
``not needed``: an MT-NOTICE of an occurrence the ledger records as cancelled."""


@dataclass(frozen=True)
class _Licence:
    """The fields of a licenses.csv row the deadline rules read (``kind``, ``valid_from``,
    ``valid_to``: what :func:`~scheduler.timing.report_periods` reads)."""

    license_id: str
    operator_id: str
    jurisdiction: str
    kind: str
    valid_from: dt.date
    valid_to: dt.date
    covers: tuple[str, ...]


def _plan(plan_dir: Path) -> tuple[list[dict[str, str]], list[_Licence]]:
    if not plan_dir.is_dir():
        raise LedgerError(f"{plan_dir} is not a folder: give a plan folder written by "
                          "`tourney solve --out`")
    rows = read_csv(plan_dir / "schedule.csv")
    lics = []
    for i, r in enumerate(read_csv(plan_dir / "licenses.csv"), start=2):
        where = f"{plan_dir / 'licenses.csv'} line {i}"
        lics.append(_Licence(r["license_id"], r["operator_id"], r["jurisdiction"], r["kind"],
                             parse_date(r["valid_from"], where), parse_date(r["valid_to"], where),
                             tuple(r.get("covers", "").split())))
    return rows, lics


def _done(ledger: Store | None) -> dict[tuple[str, ...], tuple[dt.date | None, int]]:
    """What the ledger records as done: key -> (day filed, entry id); cancelled occurrences
    as ("cancelled", uid, operator) -> (None, id)."""
    if ledger is None:
        return {}
    out: dict[tuple[str, ...], tuple[dt.date | None, int]] = {}
    with ledger.read() as s:
        for f in s.scalars(select_current(Filing)):
            if f.kind == "mt-notice" and f.uid is not None:
                out[("MT-NOTICE", f.uid, f.operator_id)] = (f.filed_on, f.id)
            elif f.kind == "me-application" and f.license_ref is not None:
                out[("ME-APPLICATION-WINDOW", f.license_ref)] = (f.filed_on, f.id)
        for r in s.scalars(select_current(ReportFiled)):
            out[("ME-REPORT", r.license_ref, r.period_end.isoformat())] = (r.filed_on, r.id)
        for h in s.scalars(select_current(Held)):
            if h.outcome == "cancelled":
                out[("cancelled", h.uid, h.operator_id)] = (None, h.id)
    return out


def _covers(lic: _Licence) -> str:
    """The occurrences a licence covers, shortened past three: ``a#1 … a#23 (23)``."""
    if len(lic.covers) <= 3:
        return " ".join(lic.covers)
    return f"{lic.covers[0]} … {lic.covers[-1]} ({len(lic.covers)})"


def _state(due: dt.date, done: tuple[dt.date | None, int] | None, as_of: dt.date) -> str:
    if done is None:
        return "due" if due >= as_of else "overdue"
    return "done" if done[0] is not None and done[0] <= due else "done late"


def deadlines(plan_dir: str | os.PathLike[str], *, as_of: dt.date | None = None,
              ledger: Store | None = None) -> pd.DataFrame:
    """The to-do list of plan folder ``plan_dir`` as of ``as_of`` (default today): one row
    per deadline, sorted by date, rule, operator, occurrence/licence (:data:`COLUMNS`):

    - MT-NOTICE (MCA 23-5-317(1)(d)): each Montana large-stakes occurrence at each operator,
      :func:`~scheduler.timing.notice_due` of its first day;
    - ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): each Maine licence, received between
      :func:`~scheduler.timing.application_opens` and
      :func:`~scheduler.timing.application_due` of the first day it covers;
    - ME-REPORT (16-633 CMR ch. 32 § 8): each licensed period of each Maine licence,
      :func:`~scheduler.timing.report_due` of the period's last day.

    With ``ledger``, the states come from its current filings, reports and cancellations
    (:data:`STATES`); without, everything is due or overdue. Raises
    :class:`~scheduler.ledger.store.LedgerError` for a folder that is not a plan."""
    as_of = as_of or dt.date.today()
    rows, lics = _plan(Path(plan_dir))
    done = _done(ledger)
    out: list[dict[str, Any]] = []
    filed: tuple[dt.date | None, int] | None
    by_ref: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by_ref.setdefault(f"{r['tournament_id']}#{r['occurrence']}", []).append(r)
        if r["jurisdiction"] != "MT" or r["type"] != "large-stakes":
            continue
        first = dt.date.fromisoformat(r["first_day"])
        due = notice_due(first)
        ref = f"{r['tournament_id']}#{r['occurrence']}"
        if ("cancelled", r["uid"], r["operator_id"]) in done:
            state, filed = "not needed", done[("cancelled", r["uid"], r["operator_id"])]
        else:
            filed_ = done.get(("MT-NOTICE", r["uid"], r["operator_id"]))
            state, filed = _state(due, filed_, as_of), filed_
        out.append({"date": due, "state": state, "rule": "MT-NOTICE",
                    "operator_id": r["operator_id"],
                    "what": f"notify the department of {uncell(r['title'])} ({ref}), first day "
                            f"{first}",
                    "occurrence": ref, "license_id": "", "opens": None,
                    "done_on": filed[0] if filed else None, "entry": filed[1] if filed else None})
    for lic in lics:
        if lic.jurisdiction != "ME" or lic.kind not in ME_LICENCE_KINDS:
            continue
        covered = [r for ref in lic.covers for r in by_ref.get(ref, [])]
        mine = [r for r in covered if r["operator_id"] == lic.operator_id] or covered
        first = min((dt.date.fromisoformat(r["first_day"]) for r in mine),
                    default=lic.valid_from)
        opens, due = application_opens(first), application_due(first)
        filed = done.get(("ME-APPLICATION-WINDOW", lic.license_id))
        out.append({"date": due, "state": _state(due, filed, as_of),
                    "rule": "ME-APPLICATION-WINDOW", "operator_id": lic.operator_id,
                    "what": f"the {lic.kind} licence application received between {opens} and "
                            f"{due} (first day covered {first})",
                    "occurrence": _covers(lic), "license_id": lic.license_id,
                    "opens": opens, "done_on": filed[0] if filed else None,
                    "entry": filed[1] if filed else None})
        for end in report_periods(lic.kind, lic.valid_from, lic.valid_to):
            due = report_due(end)
            filed = done.get(("ME-REPORT", lic.license_id, end.isoformat()))
            out.append({"date": due, "state": _state(due, filed, as_of), "rule": "ME-REPORT",
                        "operator_id": lic.operator_id,
                        "what": f"file the disposition-of-funds report for the licensed "
                                f"period ending {end}",
                        "occurrence": _covers(lic), "license_id": lic.license_id,
                        "opens": None, "done_on": filed[0] if filed else None,
                        "entry": filed[1] if filed else None})
    df = pd.DataFrame(out, columns=COLUMNS)
    df = df.sort_values(["date", "rule", "operator_id", "occurrence", "license_id", "what"],
                        kind="stable").reset_index(drop=True)
    df["entry"] = df["entry"].astype("Int64")
    return df


def render(df: pd.DataFrame) -> str:
    """The deadlines as lines for a terminal: ``DATE  STATE  RULE  OPERATOR  what``."""
    lines = []
    for r in df.to_dict(orient="records"):
        filed = r["done_on"]
        done = f" (filed {filed}, entry #{r['entry']})" if isinstance(filed, dt.date) else ""
        lines.append(f"{r['date']}  {r['state']:<10}  {r['rule']:<21}  "
                     f"{r['operator_id']:<20}  {r['what']}{done}")
    return "\n".join(lines) + ("\n" if lines else "")
