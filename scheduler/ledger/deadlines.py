"""``tourney deadlines``: what to file by when, for every operator of a plan, and whether the
ledger says it is done.

The lines are the plan folder's deadlines.csv, written from
:func:`scheduler.result.deadlines.list_deadlines` (the one list of a plan's deadlines, which the
report and plan.xlsx read too); a folder written before deadlines.csv existed gets the same
function's lines from its schedule.csv and licenses.csv, its ME application windows opening
90 days before (the day the plan was made as of is not in the folder).
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import func, select

from constraints import montana
from constraints.maine import report_due
from scheduler.core.clock import env_as_of, now, today_in
from scheduler.core.scenario_types import DEFAULT_TIMEZONE
from scheduler.core.text import uncell
from scheduler.core.timing import report_periods
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    PlanDeadline,
    PlanEvent,
    PlanLicence,
    PlanVersion,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import parse_date, read_csv
from scheduler.ledger.store import LedgerError, Store
from scheduler.result.deadlines import (
    DEADLINE_COLUMNS,
    Deadline,
    deadline_table,
    list_deadlines,
)

DEADLINES_CSV = "deadlines.csv"
"""The plan folder's deadlines (``scheduler.export.write.DEADLINES_FILE``)."""

COLUMNS = [*DEADLINE_COLUMNS, "state", "done_on", "entry"]
"""The columns of the deadlines table: deadlines.csv's
(:data:`scheduler.result.deadlines.DEADLINE_COLUMNS`: ``date``, ``file_by``, ``operator``,
``what``, ``opens``, ``rule``, ``citation``, ``operator_id``, ``occurrence``,
``license_id``, the same order and words), then the ledger's: ``state``
(:data:`STATES`), ``done_on`` the day the ledger says it was filed and ``entry`` that ledger
entry's id."""
STATES = ("due", "overdue", "done", "done late", "filed too early", "not needed")
# MT-PERMIT-FEES lines: ``done`` when the ledger records the permit bought (any day)
"""``due``: not done and ``date`` is on or after the as-of day; ``overdue``: not done and
``date`` is before it; ``done``: filed on or before ``date``; ``done late``: filed after it;
``filed too early``: an ME application received before its window opened (90 days before
the first day it covers: ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2), which is not an
application the rule counts, so it is not done (file again within the window);
``not needed``: an MT-NOTICE of an occurrence the ledger records as cancelled, or the
ME-APPLICATION-WINDOW of a licence every occurrence it covers of which the ledger records as
cancelled (its ME-REPORT stays due: a report is owed also when the game is cancelled)."""


@dataclass(frozen=True)
class _Licence:
    """The fields of a licenses.csv row the deadline rules read (``kind``, ``valid_from``,
    ``valid_to``: what :func:`~constraints.maine.report_periods` reads)."""

    license_id: str
    operator_id: str
    jurisdiction: str
    kind: str
    valid_from: dt.date
    valid_to: dt.date
    covers: tuple[str, ...]


@dataclass(frozen=True)
class _Row:
    """The fields of a schedule.csv row the deadline rules read
    (:class:`scheduler.result.deadlines.HeldRow`)."""

    tournament_id: str
    occurrence: int
    operator_id: str
    jurisdiction: str
    type: str
    title: str
    first_day: dt.date
    uid: str
    notice_due: dt.date | None = None
    """MT-NOTICE: the row's notice day (schedule.csv's ``notice_due``; a round of a
    progressive's is 5 days before the progressive's first round); None: 5 days before
    ``first_day``."""


# the columns each file of a plan folder must have to be read here (exit 2 otherwise)
_SCHEDULE = ("tournament_id", "occurrence", "operator_id", "jurisdiction", "type", "title",
             "first_day", "uid")
_LICENCES = ("license_id", "operator_id", "jurisdiction", "kind", "valid_from", "valid_to")
_DEADLINES = ("date", "rule", "citation", "operator_id", "what", "occurrence", "license_id",
              "opens")


def _plan_rows(plan_dir: Path) -> tuple[list[_Row], list[_Licence]]:
    """The occurrences and licences of plan folder ``plan_dir`` (its schedule.csv and
    licenses.csv)."""
    if not plan_dir.is_dir():
        raise LedgerError(f"{plan_dir} is not a folder: give a plan folder written by "
                          "`tourney solve --out`")
    rows = []
    for i, r in enumerate(read_csv(plan_dir / "schedule.csv", _SCHEDULE), start=2):
        where = f"{plan_dir / 'schedule.csv'} line {i}"
        try:
            occurrence = int(r["occurrence"])
        except ValueError:
            raise LedgerError(f"{where}: occurrence {r['occurrence']!r} is not a whole "
                              "number") from None
        due = r.get("notice_due", "").strip()
        rows.append(_Row(r["tournament_id"], occurrence, r["operator_id"], r["jurisdiction"],
                         r["type"], uncell(r["title"]), parse_date(r["first_day"], where),
                         r["uid"], parse_date(due, where) if due else None))
    lics = []
    for i, r in enumerate(read_csv(plan_dir / "licenses.csv", _LICENCES), start=2):
        where = f"{plan_dir / 'licenses.csv'} line {i}"
        lics.append(_Licence(r["license_id"], r["operator_id"], r["jurisdiction"], r["kind"],
                             parse_date(r["valid_from"], where), parse_date(r["valid_to"], where),
                             tuple(r.get("covers", "").split())))
    return rows, lics


def read_deadlines(path: Path) -> list[Deadline]:
    """The lines of a plan folder's deadlines.csv ``path`` as written (``uid`` empty,
    ``period_end`` None: :func:`with_plan` fills them). Read by ``tourney deadlines PLAN_DIR``
    and by ``tourney ledger adopt``, which stores them (table ``plan_deadlines``).

    Raises :class:`LedgerError` for a missing or unreadable file, a missing column, a bad
    date (the message names the file and line)."""
    out = []
    rows = read_csv(path, _DEADLINES)
    for i, r in enumerate(rows, start=2):
        where = f"{path} line {i}"
        out.append(Deadline(
            date=parse_date(r["date"], where), rule=r["rule"], citation=r["citation"],
            operator_id=r["operator_id"], what=uncell(r["what"]),
            occurrence=uncell(r["occurrence"]), license_id=r["license_id"],
            opens=parse_date(r["opens"], where) if r["opens"].strip() else None))
    return out


def read_names(path: Path) -> dict[str, str]:
    """Operator id -> name of a plan folder's deadlines.csv ``path`` (its ``operator``
    column; empty for a file written before it had one)."""
    return {r["operator_id"]: uncell(r["operator"]) for r in read_csv(path, _DEADLINES)
            if r.get("operator")}


def with_plan(lines: list[Deadline], rows: list[_Row], lics: list[_Licence]) -> list[Deadline]:
    """``lines`` (a plan's deadlines.csv, from the folder or stored by ``ledger adopt``)
    with what the ledger's entries are matched on, from the same plan's occurrences ``rows``
    and licences ``lics``: MT-NOTICE its occurrence's ``uid``; ME-REPORT (16-633 CMR ch. 32
    § 8) the ``period_end`` it reports on (:func:`_period_of`)."""
    uids = {(f"{r.tournament_id}#{r.occurrence}", r.operator_id): r.uid for r in rows}
    periods = {lic.license_id: report_periods(lic.kind, lic.valid_from, lic.valid_to)
               for lic in lics}
    return [replace(
        d, uid=uids.get((d.occurrence, d.operator_id), "") if d.rule == "MT-NOTICE" else "",
        period_end=_period_of(periods.get(d.license_id, []), d.date)
        if d.rule == "ME-REPORT" else None) for d in lines]


def _plan(plan_dir: Path) -> list[Deadline]:
    """The deadlines of plan folder ``plan_dir``: its deadlines.csv, else
    :func:`~scheduler.result.deadlines.list_deadlines` of its schedule.csv and licenses.csv."""
    rows, lics = _plan_rows(plan_dir)
    if not (plan_dir / DEADLINES_CSV).is_file():
        return list_deadlines(rows, lics, None)
    return with_plan(read_deadlines(plan_dir / DEADLINES_CSV), rows, lics)


def _from_ledger(ledger: Store) -> tuple[list[_Row], list[_Licence], list[Deadline]]:
    """The occurrences (confirmed) and licences of the newest adopted version of every plan
    lineage of the ledger, every organization's: what ``tourney deadlines`` without a plan
    folder lists; and their deadlines: the deadlines.csv lines ``ledger adopt`` stored of
    each version (:func:`with_plan` of that version), else, for the versions adopted without
    them (before schema 0004, or a folder without deadlines.csv),
    :func:`~scheduler.result.deadlines.list_deadlines` of their days (ME application windows
    opening 90 days before; no ``settings.closed_days``)."""
    rows: list[_Row] = []
    lics: list[_Licence] = []
    lines: list[Deadline] = []
    bare_rows: list[_Row] = []
    bare_lics: list[_Licence] = []
    with ledger.read() as s:
        for v in _latest_versions(s):
            v_rows = [_Row(e.tournament_id, e.occurrence, e.operator_id, e.jurisdiction,
                           e.type, e.title, e.first_day, e.uid)
                      for e in s.scalars(select(PlanEvent).where(
                          PlanEvent.version_id == v.id, PlanEvent.status == "CONFIRMED")
                          .order_by(PlanEvent.id))]
            v_lics = [_Licence(lic.license_id, lic.operator_id, lic.jurisdiction, lic.kind,
                               lic.valid_from, lic.valid_to, tuple(lic.covers.split()))
                      for lic in s.scalars(select(PlanLicence)
                                           .where(PlanLicence.version_id == v.id)
                                           .order_by(PlanLicence.id))]
            stored = [Deadline(date=x.date, rule=x.rule, citation=x.citation,
                               operator_id=x.operator_id, what=x.what,
                               occurrence=x.occurrence, license_id=x.license_id,
                               opens=x.opens)
                      for x in s.scalars(select(PlanDeadline)
                                         .where(PlanDeadline.version_id == v.id)
                                         .order_by(PlanDeadline.id))]
            rows += v_rows
            lics += v_lics
            if stored:
                lines += with_plan(stored, v_rows, v_lics)
            else:
                bare_rows += v_rows
                bare_lics += v_lics
    if bare_rows or bare_lics:
        lines += list_deadlines(bare_rows, bare_lics, None)
    return rows, lics, lines


def _period_of(ends: list[dt.date], due: dt.date) -> dt.date | None:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: the last day of the licensed period (of ``ends``,
    in order) whose report is due on ``due`` (a deadlines.csv line's day): the latest period
    end whose :func:`~constraints.maine.report_due` is on or before ``due`` (the line's day is
    later when the plan's ``settings.closed_days`` closed offices in between, which the
    folder does not hold); None when none is."""
    return max((end for end in ends if report_due(end) <= due), default=None)


def _covered(plan_dir: Path) -> dict[str, list[tuple[str, str]]]:
    """``license_id`` -> the (uid, operator) of each occurrence its ``covers`` names at its
    operator, from the plan folder's schedule.csv and licenses.csv (read by :func:`_plan`
    first, so well formed)."""
    uids = {(f"{r['tournament_id']}#{r['occurrence']}", r["operator_id"]): r["uid"]
            for r in read_csv(plan_dir / "schedule.csv")}
    return {r["license_id"]: [(uids.get((ref, r["operator_id"]), ""), r["operator_id"])
                              for ref in r.get("covers", "").split()]
            for r in read_csv(plan_dir / "licenses.csv")}


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
        for b in s.scalars(select_current(LicenceBought).order_by(LicenceBought.id)):
            if b.kind in montana.PERMIT_KINDS:  # the day bought is not recorded
                out[("MT-PERMIT-FEES", b.operator_id, b.kind, b.valid_from.isoformat(),
                     b.valid_to.isoformat())] = (None, b.id)
    return out


def _permit_done(done: dict[tuple[str, ...], tuple[dt.date | None, int]], operator: str,
                 kind: str, valid_from: dt.date) -> tuple[dt.date | None, int] | None:
    """The ledger's permit of ``kind`` bought by ``operator`` valid on ``valid_from``."""
    for key, val in done.items():
        if (key[0] == "MT-PERMIT-FEES" and key[1:3] == (operator, kind)
                and key[3] <= valid_from.isoformat() <= key[4]):
            return val
    return None


def _state(due: dt.date, done: tuple[dt.date | None, int] | None, as_of: dt.date,
           rule: str = "", opens: dt.date | None = None) -> str:
    if done is None:
        return "due" if due >= as_of else "overdue"
    if rule == "MT-PERMIT-FEES":
        return "done"  # a permit bought (the ledger does not keep the day it was bought)
    if opens is not None and done[0] is not None and done[0] < opens:
        return "filed too early"  # ME-APPLICATION-WINDOW: received before the window opened
    return "done" if done[0] is not None and done[0] <= due else "done late"


def deadlines(plan_dir: str | os.PathLike[str] | None, *, as_of: dt.date | None = None,
              ledger: Store | None = None) -> pd.DataFrame:
    """The to-do list of plan folder ``plan_dir`` as of ``as_of``; with ``plan_dir`` None,
    of every plan the ledger has adopted (the newest version of each lineage, every
    operator of every organization).

    The lines are the plan's deadlines (:func:`scheduler.result.deadlines.list_deadlines`, read from
    the folder's deadlines.csv, or from the ledger's adopted plan: its ME application
    windows opening 90 days before): MT-NOTICE (MCA 23-5-317(1)(d)) per Montana large-stakes
    occurrence and operator, MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b)) per Montana permit
    to buy or renew (:func:`constraints.montana.permit_due`; ``done`` when the ledger
    records it bought), ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2) per Maine licence,
    ME-REPORT (16-633 CMR ch. 32 § 8) per licensed period.

    Parameters
    ----------
    plan_dir
        A plan folder written by ``tourney solve --out``; None: the ledger's adopted plans
        (``ledger`` is then required).
    as_of
        The day the states are judged on: a deadline is due on and before its ``date``
        (inclusive), overdue after. Default: today in the zone of the rule's state
        (:func:`scheduler.core.clock.today_in`: America/Denver for MT-NOTICE, America/New_York
        for the Maine rules), so a Maine deadline is still due at 20:30 on its day in
        Maine, whatever the machine's zone.
    ledger
        The ledger whose current filings, reports and cancellations say what is done; None:
        nothing is done (everything due or overdue).

    Returns
    -------
    pandas.DataFrame
        One row per deadline, columns :data:`COLUMNS` (``date``, ``opens``, ``done_on`` as
        ``datetime.date``; ``state`` one of :data:`STATES`; ``entry`` Int64), sorted by
        date, rule, operator, occurrence, licence, what.

    Raises
    ------
    scheduler.ledger.store.LedgerError
        For a folder that is not a plan, a missing or unreadable CSV file, a bad date; no
        folder and no ledger, or a ledger without an adopted plan.
    """
    as_of = as_of or env_as_of()
    at = now()  # one instant: every line is judged on the same clock reading
    done = _done(ledger)
    out: list[dict[str, Any]] = []
    filed: tuple[dt.date | None, int] | None
    if plan_dir is None:
        if ledger is None:
            raise LedgerError("give a plan folder, or a ledger with an adopted plan (--ledger)")
        rows, lics, lines = _from_ledger(ledger)
        if not rows and not lics:
            raise LedgerError("no plan is adopted in the ledger: give a plan folder, or "
                              "adopt one (tourney ledger adopt PLAN_DIR)")
        uids = {(f"{r.tournament_id}#{r.occurrence}", r.operator_id): r.uid for r in rows}
        covered = {lic.license_id: [(uids.get((ref, lic.operator_id), ""), lic.operator_id)
                                    for ref in lic.covers] for lic in lics}
        names: dict[str, str] = {}
    else:
        lines = _plan(Path(plan_dir))
        rows, lics = _plan_rows(Path(plan_dir))
        names = (read_names(Path(plan_dir) / DEADLINES_CSV)
                 if (Path(plan_dir) / DEADLINES_CSV).is_file() else {})
        covered = _covered(Path(plan_dir)) if ledger is not None else {}
    permits = {lic.license_id: lic for lic in lics}
    # the day each Maine licence's application window opens by law, 90 days before the
    # first day it covers (a deadlines.csv line gives the day the plan could file from)
    earliest = {e.license_id: e.earliest for e in list_deadlines(rows, lics, None)
                if e.rule == "ME-APPLICATION-WINDOW" and e.earliest is not None}
    for d in lines:
        state = ""
        if d.rule == "MT-PERMIT-FEES":
            lic = permits.get(d.license_id)
            filed = (None if lic is None
                     else _permit_done(done, d.operator_id, lic.kind, lic.valid_from))
        elif d.rule == "MT-NOTICE":
            if ("cancelled", d.uid, d.operator_id) in done:
                state, filed = "not needed", done[("cancelled", d.uid, d.operator_id)]
            else:
                filed = done.get(("MT-NOTICE", d.uid, d.operator_id))
        elif d.rule == "ME-APPLICATION-WINDOW":
            filed = done.get(("ME-APPLICATION-WINDOW", d.license_id))
            games = covered.get(d.license_id, [])
            if filed is None and games and all(
                    uid and ("cancelled", uid, op) in done for uid, op in games):
                # every game the licence covers is cancelled: no licence to apply for
                state, filed = "not needed", done[("cancelled", *games[-1])]
        else:
            end = d.period_end.isoformat() if d.period_end else ""
            filed = done.get(("ME-REPORT", d.license_id, end))
        day = today_in(DEFAULT_TIMEZONE.get(d.rule[:2], "America/New_York"), as_of, at=at)
        opens = earliest.get(d.license_id) if d.rule == "ME-APPLICATION-WINDOW" else None
        out.append({**deadline_table([d], names)[0],
                    "state": state or _state(d.date, filed, day, d.rule, opens),
                    "done_on": filed[0] if filed else None,
                    "entry": filed[1] if filed else None})
    df = pd.DataFrame(out, columns=COLUMNS)
    df = df.sort_values(["date", "rule", "operator_id", "occurrence", "license_id", "what"],
                        kind="stable").reset_index(drop=True)
    df["entry"] = df["entry"].astype("Int64")
    return df


def render(df: pd.DataFrame) -> str:
    """The deadlines as lines for a terminal, in the table's order: ``DATE  FILE_BY
    OPERATOR  what  [state]  RULE`` (``FILE_BY`` blank when it is ``DATE``), then what the
    ledger records as done."""
    lines = []
    width = max((len(str(x)) for x in df["operator"]), default=0) if len(df) else 0
    for r in df.to_dict(orient="records"):
        filed = r["done_on"]
        done = f" (filed {filed}, entry #{r['entry']})" if isinstance(filed, dt.date) else ""
        file_by = "" if r["file_by"] == r["date"] else str(r["file_by"])
        lines.append(f"{r['date']}  {file_by:<10}  {str(r['operator']):<{width}}  "
                     f"{r['what']}  [{r['state']}]  {r['rule']}{done}")
    return "\n".join(lines) + ("\n" if lines else "")


def _latest_versions(s: Any) -> list[PlanVersion]:
    """The newest adopted version of each plan lineage, every organization's."""
    newest = (select(PlanVersion.lineage_id, func.max(PlanVersion.version).label("v"))
              .group_by(PlanVersion.lineage_id).subquery())
    return list(s.scalars(select(PlanVersion).join(
        newest, (PlanVersion.lineage_id == newest.c.lineage_id)
        & (PlanVersion.version == newest.c.v)).order_by(PlanVersion.id)))
