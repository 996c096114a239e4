"""``tourney record held|cancelled|filed|licence|report``: each function is one command, in
one transaction, with the duplicate and correction (``--corrects``) rules every record shares.

Each raises :class:`LedgerError` (exit 2, nothing written) with a sentence naming the value at
fault, and records ``by`` (who) and the current UTC time (when) on the entry it adds.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scheduler.ledger.checks import (
    FILING_KINDS,
    MAX_ENTRY_ID,
    count_problem,
    entry_problems,
    future_problem,
    usd_problem,
)
from scheduler.ledger.frames import Ledger
from scheduler.ledger.lookups import _entry, _org_of, _organization, find_event, find_licence
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    Operator,
    PlanEvent,
    PlanLicence,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import LICENCE_KINDS, ME_LICENCE_KINDS
from scheduler.ledger.store import LedgerError
from scheduler.timing import report_periods as licensed_periods


# ----------------------------------------------------------------------- supersede
def _check_corrects(s: Session, model: Any, corrects: int | None, duplicate: Any | None,
                    same: dict[str, Any], what: str) -> None:
    """The duplicate / correction rules of every ``tourney record``: without ``--corrects``
    there must be no current entry for the same thing (``duplicate``); with it, entry
    ``corrects`` must exist, be current and be about the same thing (``same`` fields)."""
    table = model.__tablename__
    if corrects is None:
        if duplicate is not None:
            raise LedgerError(
                f"{what} is already recorded: entry {table} #{duplicate.id}, by "
                f"{duplicate.recorded_by} at {duplicate.recorded_at:%Y-%m-%d %H:%M} UTC; to "
                f"change it, record the right values with --corrects {duplicate.id}")
        return
    # an id the database cannot hold is no entry (SQLite stores 64 bits: 9 x 25 overflowed)
    old = s.get(model, corrects) if 0 < corrects <= MAX_ENTRY_ID else None
    if old is None:
        raise LedgerError(f"--corrects {corrects}: no entry #{corrects} in {table}")
    newer = s.scalar(select(model).where(model.supersedes_id == corrects))
    if newer is not None:
        raise LedgerError(f"--corrects {corrects}: entry #{corrects} was already corrected by "
                          f"#{newer.id}; correct #{newer.id} instead")
    for field, value in same.items():
        if getattr(old, field) != value:
            raise LedgerError(f"--corrects {corrects}: entry #{corrects} is about {field} "
                              f"{getattr(old, field)!r}, not {value!r}")


def _not_future(day: dt.date, what: str, today: dt.date | None) -> None:
    problem = future_problem(day, what, today)
    if problem:
        raise LedgerError(problem)


def _usd(value: Decimal | float | int | str | None, what: str) -> Decimal | None:
    if value is None:
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise LedgerError(f"{what}: {value!r} is not an amount in USD") from None
    problem = usd_problem(d, what, value)  # the checks `ledger import` makes too
    if problem:
        raise LedgerError(problem)
    return d.quantize(Decimal("0.01"))


def _count(value: int | None, what: str) -> int | None:
    problem = None if value is None else count_problem(value, what)
    if problem:
        raise LedgerError(problem)
    return value


_HELD_OPTIONS = {"first_day": "--first-day", "last_day": "--last-day",
                 "players": "--players", "entries": "--entries",
                 "entry_fees_usd": "--entry-fees", "prizes_usd": "--prizes",
                 "charity_usd": "--charity", "expenses_usd": "--expenses"}
"""The option of ``tourney record held`` that gives each column of the held table."""


def _refuse(problems: list[tuple[str, str]]) -> None:
    """Raise the first of :func:`~scheduler.ledger.checks.entry_problems`' problems."""
    if problems:
        raise LedgerError(problems[0][1])


# ------------------------------------------------------------------------ record …
def record_held(ledger: Ledger, occurrence: str, *, first_day: dt.date, last_day: dt.date,
                players: int | None = None, entries: int | None = None,
                entry_fees_usd: Decimal | float | str | None = None,
                prizes_usd: Decimal | float | str | None = None,
                charity_usd: Decimal | float | str | None = None,
                expenses_usd: Decimal | float | str | None = None,
                operator: str | None = None, lineage: str | None = None,
                corrects: int | None = None, note: str | None = None, by: str | None = None,
                today: dt.date | None = None) -> Held:
    """``tourney record held``: occurrence ``TOURNAMENT#N`` was held at ``operator`` from
    ``first_day`` to ``last_day`` (inclusive, as the adopted plan has them: a tournament moved
    is adopted as a re-plan first), with ``players``, ``entries`` and the USD totals of entry
    fees, prizes paid, charity paid and ``expenses_usd`` (what running it cost, a line of the
    ME-REPORT disposition of funds; schema 0002). Raises :class:`LedgerError` for an unknown or
    ambiguous occurrence, days that contradict the plan or lie in the future, a negative
    figure, or an occurrence already recorded (held or cancelled) without ``corrects``."""
    if last_day < first_day:
        raise LedgerError(f"--last-day {last_day} is before --first-day {first_day}")
    figures = {"players": _count(players, "--players"), "entries": _count(entries, "--entries"),
               "entry_fees_usd": _usd(entry_fees_usd, "--entry-fees"),
               "prizes_usd": _usd(prizes_usd, "--prizes"),
               "charity_usd": _usd(charity_usd, "--charity"),
               "expenses_usd": _usd(expenses_usd, "--expenses")}
    # every check of the held table, the ones `ledger import` makes (one home)
    _refuse(entry_problems("held", {"outcome": "held", "first_day": first_day,
                                    "last_day": last_day, **figures},
                           lambda c: _HELD_OPTIONS.get(c, c), today))
    with ledger.write() as s:
        ev = find_event(s, occurrence, operator=operator, lineage=lineage)
        if (first_day, last_day) != (ev.first_day, ev.last_day):
            raise LedgerError(
                f"{ev.tournament_id}#{ev.occurrence} at {ev.operator_id} is planned "
                f"{ev.first_day}..{ev.last_day} (plan version {ev.version.version} of lineage "
                f"{ev.version.lineage.lineage}), not {first_day}..{last_day}: adopt the "
                "re-plan that moved it first (tourney ledger adopt PLAN_DIR)")
        return _add_outcome(s, ev, "held", corrects, note, by, first_day=first_day,
                            last_day=last_day, **figures)


def record_cancelled(ledger: Ledger, occurrence: str, *, operator: str | None = None,
                     lineage: str | None = None, corrects: int | None = None,
                     note: str | None = None, by: str | None = None) -> Held:
    """``tourney record cancelled``: occurrence ``TOURNAMENT#N`` was not held at
    ``operator``. Errors as :func:`record_held`."""
    with ledger.write() as s:
        ev = find_event(s, occurrence, operator=operator, lineage=lineage)
        return _add_outcome(s, ev, "cancelled", corrects, note, by)


def _add_outcome(s: Session, ev: PlanEvent, outcome: str, corrects: int | None,
                 note: str | None, by: str | None, **figures: Any) -> Held:
    org = _org_of(ev)
    same = {"organization_id": org.id, "uid": ev.uid, "recurrence_id": ev.recurrence_id,
            "operator_id": ev.operator_id}
    dup = s.scalar(select_current(Held).filter_by(**same).limit(1))
    _check_corrects(s, Held, corrects, dup, same,
                    f"{ev.tournament_id}#{ev.occurrence} at {ev.operator_id}"
                    + (f" ({dup.outcome})" if dup is not None else ""))
    entry = Held(organization_id=org.id, operator_id=ev.operator_id, outcome=outcome,
                 tournament_id=ev.tournament_id, occurrence=ev.occurrence, uid=ev.uid,
                 recurrence_id=ev.recurrence_id,
                 supersedes_id=corrects, note=note, **figures, **_entry(by))
    s.add(entry)
    s.flush()
    return entry


def record_filed(ledger: Ledger, kind: str, *, filed_on: dt.date, occurrence: str | None = None,
                 license_ref: str | None = None, agency_number: str | None = None,
                 operator: str | None = None, lineage: str | None = None,
                 corrects: int | None = None, note: str | None = None, by: str | None = None,
                 today: dt.date | None = None) -> Filing:
    """``tourney record filed mt-notice|me-application``:

    - ``mt-notice`` (MT-NOTICE, MCA 23-5-317(1)(d)): the notice of the Montana large-stakes
      occurrence ``occurrence`` at ``operator`` was filed on ``filed_on``;
    - ``me-application`` (ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2): the application for
      the plan's Maine licence ``license_ref`` was received on ``filed_on``;
      ``agency_number`` the licence number issued (when known).

    A late filing is recorded as it happened (the deadlines list shows it). Raises
    :class:`LedgerError` for an unknown occurrence or licence, one of the other jurisdiction
    or type, a date in the future, or a duplicate without ``corrects``."""
    if kind not in FILING_KINDS:
        raise LedgerError(f"filed {kind!r}: say what was filed, one of "
                          + ", ".join(FILING_KINDS))
    _not_future(filed_on, "--on", today)
    with ledger.write() as s:
        if kind == "mt-notice":
            if occurrence is None or license_ref is not None:
                raise LedgerError("filed mt-notice: give the occurrence (TOURNAMENT#N), "
                                  "not --licence")
            ev = find_event(s, occurrence, operator=operator, lineage=lineage)
            if ev.jurisdiction != "MT" or ev.type != "large-stakes":
                raise LedgerError(f"{ev.tournament_id}#{ev.occurrence} is a {ev.jurisdiction} "
                                  f"{ev.type} tournament: MT-NOTICE (MCA 23-5-317(1)(d)) is "
                                  "for Montana large-stakes tournaments")
            org = _org_of(ev)
            same: dict[str, Any] = {"organization_id": org.id, "kind": kind, "uid": ev.uid,
                                    "operator_id": ev.operator_id}
            what = f"the MT-NOTICE of {ev.tournament_id}#{ev.occurrence} at {ev.operator_id}"
            fields: dict[str, Any] = {"operator_id": ev.operator_id,
                                      "tournament_id": ev.tournament_id,
                                      "occurrence": ev.occurrence, "uid": ev.uid}
        else:
            if license_ref is None or occurrence is not None:
                raise LedgerError("filed me-application: give --licence LICENSE_ID (from "
                                  "licenses.csv), not an occurrence")
            lic, org = find_licence(s, license_ref)
            if lic.jurisdiction != "ME" or lic.kind not in ME_LICENCE_KINDS:
                raise LedgerError(f"licence {license_ref} is a {lic.kind}: "
                                  "ME-APPLICATION-WINDOW is for Maine licences")
            same = {"organization_id": org.id, "kind": kind, "license_ref": license_ref}
            what = f"the ME-APPLICATION-WINDOW application of licence {license_ref}"
            fields = {"operator_id": lic.operator_id, "license_ref": license_ref}
        dup = s.scalar(select_current(Filing).filter_by(**same).limit(1))
        _check_corrects(s, Filing, corrects, dup, same, what)
        entry = Filing(organization_id=org.id, kind=kind, filed_on=filed_on,
                       agency_number=agency_number or None, supersedes_id=corrects, note=note,
                       **fields, **_entry(by))
        s.add(entry)
        s.flush()
        return entry


def record_licence(ledger: Ledger, *, operator: str, agency_number: str, kind: str,
                   fee_usd: Decimal | float | str, valid_from: dt.date, valid_to: dt.date,
                   tier: str | None = None, license_ref: str | None = None,
                   organization: str | None = None, corrects: int | None = None,
                   note: str | None = None, by: str | None = None) -> LicenceBought:
    """``tourney record licence``: a licence or permit bought by ``operator``: the agency's
    number, ``kind`` (as licenses.csv), Maine ``tier``, ``fee_usd`` paid (USD), valid
    ``valid_from``..``valid_to`` (inclusive); ``license_ref`` the plan licence it buys.
    Raises :class:`LedgerError` for an operator no adopted plan has, a kind not in
    :data:`~scheduler.ledger.plans.LICENCE_KINDS`, a validity ending before it starts, a bad
    fee, a plan licence of another operator or kind, or the same agency
    number and kind recorded already without ``corrects``."""
    if valid_to < valid_from:
        raise LedgerError(f"--valid-to {valid_to} is before --valid-from {valid_from}")
    if not agency_number.strip():
        raise LedgerError("--number: the agency's licence or permit number is empty")
    if kind not in LICENCE_KINDS:
        raise LedgerError(f"--kind {kind!r} is not a licence or permit kind: one of "
                          + ", ".join(LICENCE_KINDS) + " (as licenses.csv's kind)")
    fee = _usd(fee_usd, "--fee")
    with ledger.write() as s:
        org = _organization(s, organization, by, create=False)
        op = s.scalar(select(Operator).where(Operator.organization_id == org.id,
                                             Operator.operator_id == operator))
        if op is None:
            raise LedgerError(f"--operator {operator!r}: no adopted plan of organization "
                              f"{org.name!r} has this operator")
        if license_ref is not None:
            lic, lic_org = find_licence(s, license_ref)
            if (lic_org.id, lic.operator_id, lic.kind) != (org.id, operator, kind):
                raise LedgerError(f"--plan-licence {license_ref} is a {lic.kind} of "
                                  f"{lic.operator_id}, not a {kind} of {operator}")
        same = {"organization_id": org.id, "agency_number": agency_number, "kind": kind}
        dup = s.scalar(select_current(LicenceBought).filter_by(**same).limit(1))
        _check_corrects(s, LicenceBought, corrects, dup, same,
                        f"{kind} number {agency_number}")
        entry = LicenceBought(organization_id=org.id, operator_id=operator,
                              agency_number=agency_number, kind=kind, tier=tier or None,
                              fee_usd=fee, valid_from=valid_from, valid_to=valid_to,
                              license_ref=license_ref, supersedes_id=corrects, note=note,
                              **_entry(by))
        s.add(entry)
        s.flush()
        return entry


def report_periods(lic: PlanLicence) -> list[dt.date]:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: the last day of each licensed period of ``lic``
    (each calendar month of an annual licence), exactly as the calendars emit them
    (:func:`scheduler.timing.report_periods`)."""
    return licensed_periods(lic.kind, lic.valid_from, lic.valid_to)


def record_report(ledger: Ledger, license_ref: str, *, period_end: dt.date, filed_on: dt.date,
                  corrects: int | None = None, note: str | None = None, by: str | None = None,
                  today: dt.date | None = None) -> ReportFiled:
    """``tourney record report``: the ME-REPORT disposition-of-funds report (16-633 CMR ch.
    32 § 8) of Maine licence ``license_ref`` for the licensed period ending ``period_end``
    was filed on ``filed_on``. Raises :class:`LedgerError` for an unknown or non-Maine
    licence, a ``period_end`` that is not one of the licence's periods, a date in the future,
    or a duplicate without ``corrects``."""
    _not_future(filed_on, "--on", today)
    with ledger.write() as s:
        lic, org = find_licence(s, license_ref)
        if lic.jurisdiction != "ME" or lic.kind not in ME_LICENCE_KINDS:
            raise LedgerError(f"licence {license_ref} is a {lic.kind}: ME-REPORT is for Maine "
                              "licences")
        periods = report_periods(lic)
        if period_end not in periods:
            raise LedgerError(f"--period-end {period_end}: licence {license_ref}'s licensed "
                              "periods end on " + ", ".join(str(p) for p in periods))
        same = {"organization_id": org.id, "license_ref": license_ref,
                "period_end": period_end}
        dup = s.scalar(select_current(ReportFiled).filter_by(**same).limit(1))
        _check_corrects(s, ReportFiled, corrects, dup, same,
                        f"the ME-REPORT of {license_ref} for the period ending {period_end}")
        entry = ReportFiled(organization_id=org.id, operator_id=lic.operator_id,
                            rule="ME-REPORT", license_ref=license_ref, period_end=period_end,
                            filed_on=filed_on, supersedes_id=corrects, note=note, **_entry(by))
        s.add(entry)
        s.flush()
        return entry
