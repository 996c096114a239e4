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

from constraints import maine, montana
from scheduler.core.jurisdiction import state_name
from scheduler.core.timing import report_periods as licensed_periods
from scheduler.core.uid import unplanned_uid
from scheduler.ledger.checks import (
    FILING_KINDS,
    MAX_ENTRY_ID,
    MAX_FIGURE_COUNT,
    count_problem,
    entry_problems,
    future_problem,
    usd_problem,
)
from scheduler.ledger.frames import Ledger
from scheduler.ledger.lookups import entry_fields, find_event, find_licence, org_of, organization_of
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    Operator,
    Organization,
    PlanEvent,
    PlanLicence,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import LICENCE_KINDS, ME_LICENCE_KINDS
from scheduler.ledger.store import LedgerError

MAX_COUNT = MAX_FIGURE_COUNT
"""The largest ``--players`` or ``--entries`` (as a scenario's whole-number fields; the
checks' own, :data:`scheduler.ledger.checks.MAX_FIGURE_COUNT`)."""
MAX_ID = MAX_ENTRY_ID
"""The largest entry id (PostgreSQL's INTEGER); a ``--corrects`` above it names no entry."""


# ----------------------------------------------------------------------- supersede
def _check_corrects(s: Session, model: Any, corrects: int | None, duplicate: Any | None,
                    same: dict[str, Any], what: str) -> None:
    """The duplicate / correction rules of every ``tourney record``: without ``--corrects``
    there must be no current entry for the same thing (``duplicate``); with it, entry
    ``corrects`` must exist, be current and be about the same thing (``same`` fields)."""
    table = model.__tablename__
    if corrects is not None and not 1 <= corrects <= MAX_ID:
        raise LedgerError(f"--corrects {corrects} is not an entry id (a whole number from 1 to "
                          f"{MAX_ID:,})")
    if corrects is None:
        if duplicate is not None:
            raise LedgerError(
                f"{what} is already recorded: {entry_name(duplicate)} entry #{duplicate.id}, by "
                f"{duplicate.recorded_by} at {duplicate.recorded_at:%Y-%m-%d %H:%M} UTC; to "
                f"change it, record the right values with --corrects {duplicate.id}")
        return
    old = s.get(model, corrects)
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
    """Refuse a fact dated after ``today`` (``--as-of``; default today where the operators
    are: :func:`scheduler.ledger.checks.future_problem`)."""
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


def _name(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    if not value.strip():
        raise LedgerError(f"{what}: the name is empty")
    if len(value.strip()) > 200:
        raise LedgerError(f"{what}: the name has {len(value.strip())} characters; at most 200")
    return value.strip()


def _count(value: int | None, what: str) -> int | None:
    problem = None if value is None else count_problem(value, what, MAX_FIGURE_COUNT)
    if problem:
        raise LedgerError(problem)
    return value


_HELD_OPTIONS = {"first_day": "--first-day", "last_day": "--last-day",
                 "players": "--players", "entries": "--entries",
                 "entry_fees_usd": "--entry-fees", "prizes_usd": "--prizes",
                 "charity_usd": "--charity", "expenses_usd": "--expenses",
                 "surcharge_usd": "--surcharge", "charity_to": "--charity-to"}
"""The option of ``tourney record held`` that gives each column of the held table."""


def _refuse(problems: list[tuple[str, str]]) -> None:
    """Raise the first of :func:`~scheduler.ledger.checks.entry_problems`' problems."""
    if problems:
        raise LedgerError(problems[0][1])


def entry_name(entry: object) -> str:
    """What an entry records, as its command names it: ``held`` or ``cancelled`` (an
    outcome), ``mt-notice`` or ``me-application`` (a filing), ``licence``, ``ME-REPORT``."""
    if isinstance(entry, Held):
        return entry.outcome
    if isinstance(entry, Filing):
        return entry.kind
    if isinstance(entry, LicenceBought):
        return "licence"
    if isinstance(entry, ReportFiled):
        return entry.rule
    return str(getattr(entry, "__tablename__", "ledger"))


# ------------------------------------------------------------------------ record …
def record_held(ledger: Ledger, occurrence: str | None, *, first_day: dt.date,
                last_day: dt.date,
                players: int | None = None, entries: int | None = None,
                entry_fees_usd: Decimal | float | str | None = None,
                prizes_usd: Decimal | float | str | None = None,
                charity_usd: Decimal | float | str | None = None,
                expenses_usd: Decimal | float | str | None = None,
                surcharge_usd: Decimal | float | str | None = None,
                charity_to: str | None = None, charity_is_licensee: bool | None = None,
                under_21_admitted: bool | None = None,
                away_from_establishment: bool | None = None,
                operator: str | None = None, lineage: str | None = None,
                corrects: int | None = None, note: str | None = None, by: str | None = None,
                today: dt.date | None = None, unplanned: bool = False,
                tournament: str | None = None, organization: str | None = None) -> Held:
    """``tourney record held``: occurrence ``TOURNAMENT#N`` was held at ``operator`` from
    ``first_day`` to ``last_day`` (inclusive: the days it actually ran, which may differ
    from the plan's, e.g. a final table that ran into Monday; ``tourney check --ledger``
    judges those days), with ``players`` (unique persons who played), ``entries`` (entries
    sold, re-entries included) and the USD totals of entry fees (all a participant paid to
    play), prizes paid, charity paid and ``expenses_usd`` (what running it cost, a line of
    the ME-REPORT disposition of funds; schema 0002).

    Since schema 0003, each optional (None: not recorded; the rule that needs it says so in
    ``tourney check --ledger``): ``surcharge_usd`` the licence-fee surcharge collected from
    all players together (USD; ME-ENTRY-CAP, 17 M.R.S. § 1836(4)); ``charity_to`` the name of
    the charity paid and ``charity_is_licensee`` whether it is the licensee itself
    (ME-SUPER-CRIBBAGE, § 1836(4-A)(F)); ``under_21_admitted`` whether patrons under 21 were
    admitted and ``away_from_establishment`` whether it was held away from the licensed
    establishment (ME-CRIBBAGE-REG, § 1836(4-B)).

    ``unplanned``: an occurrence held that no adopted plan had (``occurrence`` None): of
    ``tournament`` at ``operator`` (both required; ``organization`` when the operator is in
    several), under the stable UID :func:`scheduler.core.uid.unplanned_uid`, occurrence number 0.

    Raises :class:`LedgerError` for an unknown or ambiguous occurrence, days in the future,
    a last day before the first, a negative figure, an empty ``charity_to``, an unplanned
    occurrence without its tournament or operator, or an occurrence already recorded (held
    or cancelled) without ``corrects``."""
    if last_day < first_day:
        raise LedgerError(f"--last-day {last_day} is before --first-day {first_day}")
    figures = {"players": _count(players, "--players"), "entries": _count(entries, "--entries"),
               "entry_fees_usd": _usd(entry_fees_usd, "--entry-fees"),
               "prizes_usd": _usd(prizes_usd, "--prizes"),
               "charity_usd": _usd(charity_usd, "--charity"),
               "expenses_usd": _usd(expenses_usd, "--expenses"),
               "surcharge_usd": _usd(surcharge_usd, "--surcharge"),
               "charity_to": _name(charity_to, "--charity-to"),
               "charity_is_licensee": charity_is_licensee,
               "under_21_admitted": under_21_admitted,
               "away_from_establishment": away_from_establishment}
    # every check of the held table, the ones `ledger import` makes (one home)
    _refuse(entry_problems("held", {"outcome": "held", "first_day": first_day,
                                    "last_day": last_day, **figures},
                           lambda c: _HELD_OPTIONS.get(c, c), today))
    if unplanned:
        return _record_unplanned(ledger, tournament, operator, organization, first_day,
                                 last_day, figures, corrects, note, by, occurrence)
    if occurrence is None or tournament is not None:
        raise LedgerError("record held: give the occurrence (TOURNAMENT#N or UID); for one no "
                          "plan had, --unplanned --tournament ID --operator OP")
    with ledger.write() as s:
        ev = find_event(s, occurrence, operator=operator, lineage=lineage)
        return _add_outcome(s, ev, "held", corrects, note, by, first_day=first_day,
                            last_day=last_day, **figures)


def _record_unplanned(ledger: Ledger, tournament: str | None, operator: str | None,
                      organization: str | None, first_day: dt.date, last_day: dt.date,
                      figures: dict[str, Any], corrects: int | None, note: str | None,
                      by: str | None, occurrence: str | None) -> Held:
    """``tourney record held --unplanned``: see :func:`record_held`."""
    if occurrence is not None:
        raise LedgerError(f"record held --unplanned: give --tournament and --operator, not "
                          f"the occurrence {occurrence!r} (an unplanned one has no number)")
    if tournament is None or operator is None:
        raise LedgerError("record held --unplanned: give --tournament ID and --operator OP "
                          "(the tournament held and where)")
    with ledger.write() as s:
        q = select(Operator).where(Operator.operator_id == operator)
        if organization is not None:
            q = q.join(Organization, Organization.id == Operator.organization_id).where(
                Organization.name == organization)
        ops = list(s.scalars(q.order_by(Operator.id)))
        if not ops:
            raise LedgerError(f"--operator {operator!r}: no adopted plan has this operator"
                              + (f" in organization {organization!r}" if organization else ""))
        if len(ops) > 1:
            raise LedgerError(f"--operator {operator!r} is in several organizations of the "
                              "ledger: give --organization")
        op = ops[0]
        uid = unplanned_uid(tournament, first_day, operator)
        same = {"organization_id": op.organization_id, "uid": uid, "recurrence_id": None,
                "operator_id": operator}
        dup = s.scalar(select_current(Held).filter_by(**same).limit(1))
        _check_corrects(s, Held, corrects, dup, same,
                        f"{tournament} held from {first_day} at {operator} (unplanned)")
        entry = Held(organization_id=op.organization_id, operator_id=operator,
                     outcome="held", tournament_id=tournament, occurrence=0, uid=uid,
                     recurrence_id=None, supersedes_id=corrects, note=note,
                     first_day=first_day, last_day=last_day, **figures, **entry_fields(by))
        s.add(entry)
        s.flush()
        return entry


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
    org = org_of(ev)
    same = {"organization_id": org.id, "uid": ev.uid, "recurrence_id": ev.recurrence_id,
            "operator_id": ev.operator_id}
    dup = s.scalar(select_current(Held).filter_by(**same).limit(1))
    _check_corrects(s, Held, corrects, dup, same,
                    f"{ev.tournament_id}#{ev.occurrence} at {ev.operator_id}"
                    + (f" ({dup.outcome})" if dup is not None else ""))
    entry = Held(organization_id=org.id, operator_id=ev.operator_id, outcome=outcome,
                 tournament_id=ev.tournament_id, occurrence=ev.occurrence, uid=ev.uid,
                 recurrence_id=ev.recurrence_id,
                 supersedes_id=corrects, note=note, **figures, **entry_fields(by))
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
            if ev.jurisdiction != montana.CODE or ev.type != "large-stakes":
                raise LedgerError(f"{ev.tournament_id}#{ev.occurrence} is a "
                                  f"{state_name(ev.jurisdiction)} "
                                  f"{ev.type} tournament: MT-NOTICE (MCA 23-5-317(1)(d)) is "
                                  "for Montana large-stakes tournaments")
            org = org_of(ev)
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
            if lic.jurisdiction != maine.CODE or lic.kind not in ME_LICENCE_KINDS:
                raise LedgerError(f"licence {license_ref} is of kind {lic.kind}: "
                                  "ME-APPLICATION-WINDOW is for Maine licences")
            same = {"organization_id": org.id, "kind": kind, "license_ref": license_ref}
            what = f"the ME-APPLICATION-WINDOW application of licence {license_ref}"
            fields = {"operator_id": lic.operator_id, "license_ref": license_ref}
        dup = s.scalar(select_current(Filing).filter_by(**same).limit(1))
        _check_corrects(s, Filing, corrects, dup, same, what)
        entry = Filing(organization_id=org.id, kind=kind, filed_on=filed_on,
                       agency_number=agency_number or None, supersedes_id=corrects, note=note,
                       **fields, **entry_fields(by))
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
        org = organization_of(s, organization, by, create=False)
        op = s.scalar(select(Operator).where(Operator.organization_id == org.id,
                                             Operator.operator_id == operator))
        if op is None:
            raise LedgerError(f"--operator {operator!r}: no adopted plan of organization "
                              f"{org.name!r} has this operator")
        if license_ref is not None:
            lic, lic_org = find_licence(s, license_ref)
            if (lic_org.id, lic.operator_id, lic.kind) != (org.id, operator, kind):
                raise LedgerError(f"--plan-licence {license_ref} is of kind {lic.kind} for "
                                  f"{lic.operator_id}, not of kind {kind} for {operator}")
        same = {"organization_id": org.id, "agency_number": agency_number, "kind": kind}
        dup = s.scalar(select_current(LicenceBought).filter_by(**same).limit(1))
        _check_corrects(s, LicenceBought, corrects, dup, same,
                        f"{kind} number {agency_number}")
        entry = LicenceBought(organization_id=org.id, operator_id=operator,
                              agency_number=agency_number, kind=kind, tier=tier or None,
                              fee_usd=fee, valid_from=valid_from, valid_to=valid_to,
                              license_ref=license_ref, supersedes_id=corrects, note=note,
                              **entry_fields(by))
        s.add(entry)
        s.flush()
        return entry


def report_periods(lic: PlanLicence) -> list[dt.date]:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: the last day of each licensed period of ``lic``
    (each calendar month of an annual licence), exactly as the calendars emit them
    (:func:`constraints.maine.report_periods`)."""
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
        if lic.jurisdiction != maine.CODE or lic.kind not in ME_LICENCE_KINDS:
            raise LedgerError(f"licence {license_ref} is of kind {lic.kind}: ME-REPORT is for "
                              "Maine licences")
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
                            filed_on=filed_on, supersedes_id=corrects, note=note,
                            **entry_fields(by))
        s.add(entry)
        s.flush()
        return entry
