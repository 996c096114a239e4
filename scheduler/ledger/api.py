"""The ledger's commands and DataFrames: each function is one command, in one transaction.

``tourney ledger init|adopt|export|import`` and ``tourney record held|cancelled|filed|licence|
report`` call these and nothing else. Every function takes a :class:`Ledger` first, raises
:class:`LedgerError` (exit 2, nothing written) with a sentence naming the value at fault, and
records ``by`` (who) and the current UTC time (when) on each entry it adds.

Occurrences are named as in licenses.csv's ``covers``: ``TOURNAMENT#N`` (or by the UID of its
calendar event); the ledger looks them up in the newest adopted version of each plan lineage.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import os
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, cast

import pandas as pd
from icalendar import Calendar
from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, String, Text, func, select
from sqlalchemy.orm import Session

from scheduler.ledger.deadlines import deadlines
from scheduler.ledger.models import (
    FACTS,
    Base,
    Filing,
    Held,
    LicenceBought,
    Lineage,
    Operator,
    Organization,
    PlanEvent,
    PlanLicence,
    PlanVersion,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import LICENCE_KINDS, ME_LICENCE_KINDS, parse_date, read_csv
from scheduler.ledger.store import LedgerError, Store, now, who
from scheduler.timing import report_periods as licensed_periods
from scheduler.uid import parse

DEFAULT_ORGANIZATION = "default"
"""The organization of a ledger's first plan when ``--organization`` is not given."""
FILING_KINDS = ("mt-notice", "me-application")
_OCC = re.compile(r"^(?P<tid>[a-z0-9][a-z0-9-]*)#(?P<n>\d+)$")


class Ledger(Store):
    """A ledger database (``from scheduler.ledger import Ledger``). ``Ledger(url)`` opens
    nothing yet; ``url`` a file name or URL as :func:`~scheduler.ledger.store.resolve` takes
    it (None: ``$TOURNEY_LEDGER`` or ``./tourney-ledger.sqlite``). The database itself
    (migrations, sessions, writers serialized) is :class:`~scheduler.ledger.store.Store`;
    the methods here are the DataFrames of this module and the deadlines of a plan, for
    ``Ledger(url).held()`` in a notebook."""

    def held(self, **kw: Any) -> pd.DataFrame:
        """:func:`held_frame` of this ledger."""
        return held_frame(self, **kw)

    def filings(self, **kw: Any) -> pd.DataFrame:
        """:func:`filings_frame` of this ledger."""
        return filings_frame(self, **kw)

    def licences(self, **kw: Any) -> pd.DataFrame:
        """:func:`licences_frame` of this ledger."""
        return licences_frame(self, **kw)

    def reports(self, **kw: Any) -> pd.DataFrame:
        """:func:`reports_frame` of this ledger."""
        return reports_frame(self, **kw)

    def events(self) -> pd.DataFrame:
        """:func:`events_frame` of this ledger."""
        return events_frame(self)

    def deadlines(self, plan_dir: str | os.PathLike[str], as_of: dt.date | None = None
                  ) -> pd.DataFrame:
        """:func:`scheduler.ledger.deadlines.deadlines` of plan folder ``plan_dir`` as of
        ``as_of`` (default today), the states from this ledger: one row per deadline, sorted
        by date; columns (``scheduler.ledger.deadlines.COLUMNS``) ``date`` (a
        ``datetime.date``: the last day, inclusive), ``state`` (str: due, overdue, done,
        done late, not needed), ``rule`` (str: MT-NOTICE, ME-APPLICATION-WINDOW,
        ME-REPORT), ``operator_id``, ``what``, ``occurrence``, ``license_id`` (str),
        ``opens`` and ``done_on`` (``datetime.date`` or None), ``entry`` (Int64: the ledger
        entry that did it)."""
        return deadlines(plan_dir, as_of=as_of, ledger=self)


def _entry(by: str | None) -> dict[str, Any]:
    return {"key": uuid.uuid4().hex, "recorded_at": now(), "recorded_by": who(by)}


# ------------------------------------------------------------------------------ init
def init(ledger: Ledger) -> tuple[str | None, str]:
    """``tourney ledger init``: create the ledger (or migrate an older one). Returns
    ``(revision before, revision now)``; before is None for a new ledger."""
    return ledger.upgrade()


# ----------------------------------------------------------------------------- adopt
@dataclass(frozen=True)
class Adopted:
    """What ``tourney ledger adopt`` recorded: the plan lineage key, its version number,
    the occurrences (rows) confirmed and cancelled, the licences; ``new`` False when this
    plan was already adopted (then nothing was recorded)."""

    organization: str
    lineage: str
    version: int
    confirmed: int
    cancelled: int
    licences: int
    new: bool


def _organization(session: Session, name: str | None, by: str | None,
                  create: bool) -> Organization:
    if name is not None:
        org = session.scalar(select(Organization).where(Organization.name == name))
        if org is None:
            if not create:
                raise LedgerError(f"--organization {name!r} is not in the ledger")
            org = Organization(name=name, **_entry(by))
            session.add(org)
            session.flush()
        return org
    orgs = list(session.scalars(select(Organization).order_by(Organization.id)))
    if len(orgs) == 1:
        return orgs[0]
    if not orgs and create:
        return _organization(session, DEFAULT_ORGANIZATION, by, True)
    if not orgs:
        raise LedgerError("the ledger has no organization yet: adopt a plan first "
                          "(tourney ledger adopt PLAN_DIR)")
    raise LedgerError("the ledger keeps several organizations ("
                      + ", ".join(o.name for o in orgs) + "): give --organization")


def _cancelled_events(plan_dir: Path) -> list[tuple[str, int, str, str, int, dt.date]]:
    """The cancelled occurrences a re-plan's calendars announce (STATUS:CANCELLED):
    (tournament, occurrence, operator, UID, SEQUENCE, first day)."""
    out = []
    for path in sorted((plan_dir / "calendars").glob("*.ics")):
        try:
            cal = Calendar.from_ical(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise LedgerError(f"cannot read {path}: {exc}") from None
        for ev in cal.walk("VEVENT"):
            if str(ev.get("status", "")).upper() != "CANCELLED":
                continue
            p = parse(str(ev.get("uid", "")))
            if p is None or p.kind != "occurrence" or p.tournament_id is None:
                continue
            start = ev.decoded("dtstart")
            day = start.date() if isinstance(start, dt.datetime) else start
            out.append((p.tournament_id, int(p.occurrence or 0), path.stem, str(ev["uid"]),
                        int(ev.get("sequence", 0)), day))
    return out


def adopt(ledger: Ledger, plan_dir: str | os.PathLike[str], *, organization: str | None = None,
          by: str | None = None) -> Adopted:
    """``tourney ledger adopt PLAN_DIR``: record a plan folder as announced, as the next
    version of its lineage (read from the UIDs of its schedule.csv, ``scheduler/uid.py``):
    every occurrence at every operator with its UID, RECURRENCE-ID, SEQUENCE and status
    (``CONFIRMED``; ``CANCELLED`` for those its calendars cancel), and its licences.

    Raises :class:`LedgerError` for a folder without schedule.csv/licenses.csv, UIDs without
    a lineage (a plan of an old tourney: solve it again), or a lineage another organization
    owns."""
    folder = Path(plan_dir)
    if not folder.is_dir():
        raise LedgerError(f"{folder} is not a folder: give a plan folder written by "
                          "`tourney solve --out`")
    schedule_path = folder / "schedule.csv"
    rows = read_csv(schedule_path)
    licence_rows = read_csv(folder / "licenses.csv")
    digest = hashlib.sha256(schedule_path.read_bytes()).hexdigest()
    lineages = {p.lineage for r in rows if (p := parse(r.get("uid", ""))) is not None}
    if not rows:
        raise LedgerError(f"{schedule_path} has no occurrence: nothing to adopt")
    if None in lineages or not lineages:
        raise LedgerError(f"{schedule_path}: its UIDs carry no plan lineage (written by an "
                          "older tourney); solve the scenario again and adopt the new plan")
    if len(lineages) > 1:
        several = ", ".join(sorted(str(x) for x in lineages))
        raise LedgerError(f"{schedule_path}: UIDs of several lineages ({several}); adopt "
                          "one plan at a time")
    key = str(next(iter(lineages)))
    cancelled = _cancelled_events(folder)
    with ledger.write() as s:
        lin = s.scalar(select(Lineage).where(Lineage.lineage == key))
        if lin is not None:
            org = lin.organization
            if organization is not None and organization != org.name:
                raise LedgerError(f"plan lineage {key} belongs to organization {org.name!r} "
                                  f"in the ledger, not {organization!r}")
        else:
            org = _organization(s, organization, by, create=True)
            lin = Lineage(organization_id=org.id, lineage=key, **_entry(by))
            s.add(lin)
            s.flush()
        same = s.scalar(select(PlanVersion).where(PlanVersion.lineage_id == lin.id,
                                                  PlanVersion.schedule_sha256 == digest))
        if same is not None:
            return Adopted(org.name, key, same.version, 0, 0, 0, new=False)
        last = s.scalar(select(func.max(PlanVersion.version))
                        .where(PlanVersion.lineage_id == lin.id)) or 0
        version = PlanVersion(lineage_id=lin.id, version=last + 1, plan_dir=str(folder.resolve()),
                              schedule_sha256=digest, **_entry(by))
        s.add(version)
        s.flush()
        known_ops = {o.operator_id: o for o in s.scalars(
            select(Operator).where(Operator.organization_id == org.id))}
        seen: set[tuple[str, str, str]] = set()  # (uid, operator, recurrence-id)
        for i, r in enumerate(rows, start=2):
            where = f"{schedule_path} line {i}"
            try:
                tid, occ, oid = r["tournament_id"], int(r["occurrence"]), r["operator_id"]
                ev = PlanEvent(
                    version_id=version.id, uid=r["uid"], sequence=int(r["sequence"] or 0),
                    recurrence_id=(parse_date(r["recurrence_id"], where)
                                   if r.get("recurrence_id") else None),
                    status="CONFIRMED", tournament_id=tid, occurrence=occ, operator_id=oid,
                    jurisdiction=r["jurisdiction"], type=r["type"],
                    charitable=r["charitable"].strip().lower() == "true", title=r["title"],
                    first_day=parse_date(r["first_day"], where),
                    last_day=parse_date(r["last_day"], where),
                    license_id=r.get("license_id", ""), **_entry(by))
            except (KeyError, ValueError, AttributeError) as exc:
                raise LedgerError(f"{where}: not a schedule.csv row of tourney ({exc})") from None
            ident = (ev.uid, oid, str(ev.recurrence_id or ""))
            if ident in seen:
                raise LedgerError(f"{where}: UID {ev.uid} at {oid} is listed twice")
            seen.add(ident)
            s.add(ev)
            if oid not in known_ops:
                known_ops[oid] = Operator(organization_id=org.id, operator_id=oid,
                                          jurisdiction=r["jurisdiction"], **_entry(by))
                s.add(known_ops[oid])
        n_cancelled = 0
        for tid, occ, oid, uid_, seq, day in cancelled:
            if (uid_, oid, "") in seen:
                continue
            seen.add((uid_, oid, ""))
            before = s.scalar(select(PlanEvent).join(PlanVersion).where(
                PlanVersion.lineage_id == lin.id, PlanEvent.uid == uid_,
                PlanEvent.operator_id == oid).order_by(PlanVersion.version.desc()).limit(1))
            op = known_ops.get(oid)
            s.add(PlanEvent(
                version_id=version.id, uid=uid_, sequence=seq, recurrence_id=None,
                status="CANCELLED", tournament_id=tid,
                occurrence=before.occurrence if before else occ, operator_id=oid,
                jurisdiction=before.jurisdiction if before else (op.jurisdiction if op else ""),
                type=before.type if before else "", charitable=bool(before and before.charitable),
                title=before.title if before else tid, first_day=day,
                last_day=before.last_day if before else day, license_id="", **_entry(by)))
            n_cancelled += 1
        for i, r in enumerate(licence_rows, start=2):
            where = f"{folder / 'licenses.csv'} line {i}"
            try:
                s.add(PlanLicence(
                    version_id=version.id, license_id=r["license_id"],
                    operator_id=r["operator_id"], jurisdiction=r["jurisdiction"],
                    kind=r["kind"], tier=r.get("tier") or None,
                    valid_from=parse_date(r["valid_from"], where),
                    valid_to=parse_date(r["valid_to"], where), fee_usd=Decimal(r["fee_usd"]),
                    covers=r.get("covers", ""), **_entry(by)))
            except (KeyError, InvalidOperation) as exc:
                raise LedgerError(f"{where}: not a licenses.csv row of tourney ({exc})") from None
        return Adopted(org.name, key, version.version, len(rows), n_cancelled,
                       len(licence_rows), new=True)


# ------------------------------------------------------------------- look-ups in plans
def _latest_versions(s: Session, org: Organization | None = None) -> list[PlanVersion]:
    """The newest adopted version of each lineage (of ``org``, else of all)."""
    newest = (select(PlanVersion.lineage_id, func.max(PlanVersion.version).label("v"))
              .group_by(PlanVersion.lineage_id).subquery())
    q = (select(PlanVersion).join(newest, (PlanVersion.lineage_id == newest.c.lineage_id)
                                  & (PlanVersion.version == newest.c.v)))
    if org is not None:
        q = q.join(Lineage, Lineage.id == PlanVersion.lineage_id).where(
            Lineage.organization_id == org.id)
    return list(s.scalars(q.order_by(PlanVersion.id)))


_MAX_OCCURRENCE = 2**31 - 1
"""The largest occurrence number the ledger's integer column holds (a larger one in
``TOURNAMENT#N`` is no plan's: refused, not an overflow of the database driver)."""


def find_event(s: Session, occurrence: str, *, operator: str | None = None,
               lineage: str | None = None) -> PlanEvent:
    """The planned occurrence ``occurrence`` (``TOURNAMENT#N`` or its UID) at ``operator``
    in the newest adopted version of its lineage. Raises :class:`LedgerError` when no adopted
    plan has it, when it is ambiguous (give ``--operator`` / ``--lineage``), or when it is
    the UID of a weekly series (one night is named by its ``TOURNAMENT#N``)."""
    m = _OCC.match(occurrence.strip())
    if m and int(m["n"]) > _MAX_OCCURRENCE:
        raise LedgerError(f"unknown occurrence {occurrence!r}: no plan numbers an occurrence "
                          f"{m['n']} (write TOURNAMENT#N as in licenses.csv's covers, e.g. "
                          "spring-deepstack#2)")
    versions = [v for v in _latest_versions(s)
                if lineage is None or v.lineage.lineage == lineage]
    if not versions:
        raise LedgerError("no plan is adopted in the ledger" + (
            f" for lineage {lineage}" if lineage else "")
            + ": record a plan first (tourney ledger adopt PLAN_DIR)")
    q = select(PlanEvent).where(PlanEvent.version_id.in_([v.id for v in versions]))
    if m:
        q = q.where(PlanEvent.tournament_id == m["tid"], PlanEvent.occurrence == int(m["n"]))
    else:
        q = q.where(PlanEvent.uid == occurrence.strip())
    found = list(s.scalars(q.order_by(PlanEvent.id)))
    if m and any(e.status == "CONFIRMED" for e in found):
        # TOURNAMENT#N is the newest plan's numbering; a cancelled event keeps an old number
        found = [e for e in found if e.status == "CONFIRMED"]
    if operator is not None:
        others = sorted({e.operator_id for e in found if e.operator_id != operator})
        found = [e for e in found if e.operator_id == operator]
        if not found and others:
            raise LedgerError(f"occurrence {occurrence} is planned at {', '.join(others)}, "
                              f"not at operator {operator!r}")
    if not found:
        raise LedgerError(f"unknown occurrence {occurrence!r}: no adopted plan has it (write "
                          "TOURNAMENT#N as in licenses.csv's covers, e.g. spring-deepstack#2, "
                          "or the event's UID)")
    if len({e.version_id for e in found}) > 1:
        raise LedgerError(f"occurrence {occurrence} is in several plan lineages ("
                          + ", ".join(sorted({e.version.lineage.lineage for e in found}))
                          + "): give --lineage")
    nights = sorted({e.recurrence_id for e in found if e.recurrence_id is not None})
    if len(nights) > 1:  # a weekly series' UID names every night of it
        first = min(found, key=lambda e: (e.recurrence_id or e.first_day, e.id))
        raise LedgerError(f"{occurrence} is the UID of a weekly series of {len(nights)} "
                          f"nights ({nights[0]} .. {nights[-1]}): record one night by its "
                          f"TOURNAMENT#N, e.g. {first.tournament_id}#{first.occurrence}")
    if len(found) > 1:
        raise LedgerError(f"occurrence {occurrence} is shared by operators "
                          + ", ".join(e.operator_id for e in found)
                          + ": give --operator (each venue records its own)")
    ev = found[0]
    if ev.status == "CANCELLED":
        raise LedgerError(f"occurrence {occurrence} is cancelled in plan version "
                          f"{ev.version.version} of lineage {ev.version.lineage.lineage}")
    return ev


def _org_of(ev: PlanEvent) -> Organization:
    return ev.version.lineage.organization


def find_licence(s: Session, license_ref: str) -> tuple[PlanLicence, Organization]:
    """The licence ``license_ref`` (a ``license_id`` of licenses.csv) in the newest adopted
    version of a lineage; :class:`LedgerError` when no adopted plan has it."""
    for v in reversed(_latest_versions(s)):
        lic = s.scalar(select(PlanLicence).where(PlanLicence.version_id == v.id,
                                                 PlanLicence.license_id == license_ref))
        if lic is not None:
            return lic, v.lineage.organization
    raise LedgerError(f"unknown licence {license_ref!r}: no adopted plan lists it in "
                      "licenses.csv (license_id column)")


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
    today = today or dt.date.today()
    if day > today:
        raise LedgerError(f"{what} {day} is in the future (today is {today})")


def _usd(value: Decimal | float | int | str | None, what: str) -> Decimal | None:
    if value is None:
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise LedgerError(f"{what}: {value!r} is not an amount in USD") from None
    # the bound first: quantizing 1e400 would itself raise InvalidOperation
    if not d.is_finite() or d < 0 or d >= 10**10 or d != d.quantize(Decimal("0.01")):
        raise LedgerError(f"{what}: {value} is not an amount in USD (0 or more, at most "
                          "cents)")
    return d.quantize(Decimal("0.01"))


def _count(value: int | None, what: str) -> int | None:
    if value is not None and value < 0:
        raise LedgerError(f"{what}: {value} is negative")
    return value


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
    _not_future(last_day, "--last-day", today)
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


# --------------------------------------------------------------------- DataFrames
_META = ("id", "key", "recorded_at", "recorded_by", "supersedes_id")
FRAME_DTYPES = {"Date": "datetime64[ns] (a calendar day, no time zone)",
                "DateTime": "datetime64[ns, UTC]", "Numeric": "Float64 (USD)", "Integer": "Int64",
                "String": "string", "Text": "string"}
"""The dtype each column type of the ledger's tables has in :func:`held_frame`,
:func:`filings_frame`, :func:`licences_frame` and :func:`reports_frame` (``organization``:
string), whatever rows there are (none, or only empty values); :func:`events_frame` keeps
the same."""


def _frame(ledger: Ledger, model: Any, columns: Sequence[str], current: bool) -> pd.DataFrame:
    with ledger.read() as s:
        q: Any = select_current(model) if current else select(cast("type[Base]", model))
        rows = list(s.scalars(q.order_by(model.id)))
        org_names = {o.id: o.name for o in s.scalars(select(Organization))}
        data = [{"organization": org_names[r.organization_id],
                 **{c: getattr(r, c) for c in columns}} for r in rows]
    cols = ["organization", *columns]
    df = pd.DataFrame(data, columns=cols)
    for c in columns:
        col = model.__table__.c[c]
        if isinstance(col.type, Date):
            df[c] = pd.to_datetime(df[c]).astype("datetime64[ns]")
        elif isinstance(col.type, DateTime):
            df[c] = pd.to_datetime(df[c], utc=True).astype("datetime64[ns, UTC]")
        elif isinstance(col.type, Numeric):
            df[c] = df[c].astype("Float64")
        elif isinstance(col.type, Integer):
            df[c] = df[c].astype("Int64")
        elif isinstance(col.type, String | Text):
            # one dtype whatever the rows: a column of only empty values would be object
            df[c] = df[c].astype("string")
    df["organization"] = df["organization"].astype("string")
    return df


def held_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per occurrence outcome recorded (``tourney record held|cancelled``), in entry
    order; current entries only unless ``current=False`` (then corrected ones too).

    Columns and dtypes (:data:`FRAME_DTYPES`; missing values ``<NA>``/``NaT``):

    - ``organization``, ``operator_id``, ``tournament_id`` (string), ``occurrence`` (Int64:
      its number in the plan version it was recorded against), ``outcome`` (string:
      ``held`` or ``cancelled``);
    - ``first_day``, ``last_day`` (datetime64, a calendar day, no time zone; inclusive; NaT
      when cancelled);
    - ``players``, ``entries`` (Int64); ``entry_fees_usd``, ``prizes_usd``, ``charity_usd``,
      ``expenses_usd`` (Float64, USD, cents exact to 2 places);
    - ``uid`` (string: the occurrence's calendar UID), ``recurrence_id`` (datetime64: the
      night of a weekly series, else NaT), ``note`` (string);
    - the entry's own: ``id`` (Int64, as ``--corrects`` takes it), ``key`` (string, 32 hex),
      ``recorded_at`` (datetime64, UTC), ``recorded_by`` (string), ``supersedes_id`` (Int64:
      the entry it corrects).

    Raises :class:`LedgerError` for a missing or uninitialised ledger."""
    return _frame(ledger, Held, ["operator_id", "tournament_id", "occurrence", "outcome",
                                 "first_day", "last_day", "players", "entries",
                                 "entry_fees_usd", "prizes_usd", "charity_usd",
                                 "expenses_usd", "uid",
                                 "recurrence_id", "note", *_META], current)


def filings_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per filing (``tourney record filed``), in entry order: ``organization``,
    ``operator_id``, ``kind`` (string: ``mt-notice`` for MT-NOTICE, MCA 23-5-317(1)(d);
    ``me-application`` for ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2), ``tournament_id``
    (string) and ``occurrence`` (Int64) of an MT notice, ``license_ref`` (string: the plan
    licence an ME application is for), ``filed_on`` (datetime64, a calendar day),
    ``agency_number`` (string: the licence number issued), ``uid`` (string), ``note``
    (string), and the entry's columns as :func:`held_frame`. ``current`` as there."""
    return _frame(ledger, Filing, ["operator_id", "kind", "tournament_id", "occurrence",
                                   "license_ref", "filed_on", "agency_number", "uid", "note",
                                   *_META], current)


def licences_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per licence or permit bought (``tourney record licence``), in entry order:
    ``organization``, ``operator_id``, ``kind`` (string, as licenses.csv:
    ``mt-large-stakes-permit``, ``me-annual``, ...), ``tier`` (string: the Maine tier, e.g.
    ``51-100``), ``agency_number`` (string), ``fee_usd`` (Float64, USD paid), ``valid_from``,
    ``valid_to`` (datetime64, calendar days, inclusive), ``license_ref`` (string: the plan
    licence it buys), ``note`` (string), and the entry's columns as :func:`held_frame`.
    ``current`` as there."""
    return _frame(ledger, LicenceBought, ["operator_id", "kind", "tier", "agency_number",
                                          "fee_usd", "valid_from", "valid_to", "license_ref",
                                          "note", *_META], current)


def reports_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per report filed (``tourney record report``), in entry order:
    ``organization``, ``operator_id``, ``rule`` (string: ``ME-REPORT``, 16-633 CMR ch. 32
    § 8), ``license_ref`` (string), ``period_end`` (datetime64: the last day of the licensed
    period reported), ``filed_on`` (datetime64), ``note`` (string), and the entry's columns
    as :func:`held_frame`. ``current`` as there."""
    return _frame(ledger, ReportFiled, ["operator_id", "rule", "license_ref", "period_end",
                                        "filed_on", "note", *_META], current)


def events_frame(ledger: Ledger) -> pd.DataFrame:
    """Every adopted plan version's occurrences, one row per occurrence and operator, in
    adoption order, with the dtypes of the other frames (:func:`held_frame`) whatever the
    rows: ``lineage`` (string, 10 hex), ``version`` (Int64), ``uid`` (string),
    ``recurrence_id`` (datetime64: the night of a weekly series, else NaT), ``sequence``
    (Int64, the calendar SEQUENCE), ``status`` (string: ``CONFIRMED`` or ``CANCELLED``),
    ``tournament_id`` (string), ``occurrence`` (Int64), ``operator_id``, ``jurisdiction``,
    ``type`` (string), ``first_day``, ``last_day`` (datetime64, calendar days, inclusive).
    Raises :class:`LedgerError` for a missing or uninitialised ledger."""
    with ledger.read() as s:
        rows = s.execute(select(Lineage.lineage, PlanVersion.version, PlanEvent)
                         .join(PlanVersion, PlanVersion.lineage_id == Lineage.id)
                         .join(PlanEvent, PlanEvent.version_id == PlanVersion.id)
                         .order_by(PlanEvent.id)).all()
        data = [{"lineage": lin, "version": ver, "uid": e.uid, "recurrence_id": e.recurrence_id,
                 "sequence": e.sequence, "status": e.status, "tournament_id": e.tournament_id,
                 "occurrence": e.occurrence, "operator_id": e.operator_id,
                 "jurisdiction": e.jurisdiction, "type": e.type, "first_day": e.first_day,
                 "last_day": e.last_day} for lin, ver, e in rows]
    df = pd.DataFrame(data, columns=["lineage", "version", "uid", "recurrence_id", "sequence",
                                     "status", "tournament_id", "occurrence", "operator_id",
                                     "jurisdiction", "type", "first_day", "last_day"])
    for c in df.columns:
        if c in ("recurrence_id", "first_day", "last_day"):
            df[c] = pd.to_datetime(df[c]).astype("datetime64[ns]")
        elif c in ("version", "sequence", "occurrence"):
            df[c] = df[c].astype("Int64")
        else:
            df[c] = df[c].astype("string")
    return df


# ------------------------------------------------------------------ export / import
def _tables() -> list[Any]:
    """Every table, parents before children."""
    return list(Base.metadata.sorted_tables)


def _fk_target(col: Any) -> Any | None:
    fks = list(col.foreign_keys)
    return fks[0].column.table if fks else None


EXPORT_HEAD = ("table", "key", "recorded_at", "recorded_by")
"""The first columns of every export's header, of this schema and of every earlier one."""


def export_columns() -> list[str]:
    """The columns of :func:`export_csv`'s header, in order: :data:`EXPORT_HEAD`, then the
    union of the tables' own columns (``id`` left out), parents first."""
    columns: list[str] = list(EXPORT_HEAD)
    for t in _tables():
        for c in t.columns:
            if c.name not in columns and c.name != "id":
                columns.append(c.name)
    return columns


def export_csv(ledger: Ledger, out: io.TextIOBase | Any) -> int:
    """``tourney ledger export``: every entry of every table to ``out`` as one CSV, parents
    first, in id order: columns ``table, key, recorded_at, recorded_by`` and the union of the
    tables' own columns; references to other entries (``organization_id``, ``supersedes_id``,
    …) are written as the other entry's key, so :func:`import_csv` into any ledger rebuilds
    them. Dates ISO 8601, times UTC, USD with cents. Returns the number of entries."""
    tables = _tables()
    columns = export_columns()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    n = 0
    with ledger.read() as s:
        keys: dict[tuple[str, int], str] = {}
        for t in tables:
            for row in s.execute(select(t).order_by(t.c.id)).mappings():
                keys[(t.name, row["id"])] = row["key"]
                rec: dict[str, str] = {"table": t.name}
                for c in t.columns:
                    if c.name == "id":
                        continue
                    v = row[c.name]
                    target = _fk_target(c)
                    if v is not None and target is not None:
                        v = keys[(target.name, v)]
                    rec[c.name] = _text(v)
                writer.writerow(rec)
                n += 1
    return n


def _text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dt.datetime):
        v = v.replace(tzinfo=dt.UTC) if v.tzinfo is None else v.astimezone(dt.UTC)
        return v.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, Decimal):
        return f"{v:.2f}"
    return str(v)


def _value(col: Any, text: str, where: str) -> Any:
    if text == "":  # an empty cell: NULL, or the empty text of a column that has no NULL
        return "" if not col.nullable and isinstance(col.type, String) else None
    try:
        if isinstance(col.type, Boolean):
            if text not in ("true", "false"):
                raise ValueError("not true/false")
            return text == "true"
        if isinstance(col.type, DateTime):
            return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC)
        if isinstance(col.type, Date):
            return dt.date.fromisoformat(text)
        if isinstance(col.type, Numeric):
            return Decimal(text)
        if isinstance(col.type, Integer):
            return int(text)
    except (ValueError, InvalidOperation) as exc:
        raise LedgerError(f"{where}: column {col.name}: {text!r} is not valid ({exc})") from None
    return text


@dataclass(frozen=True)
class Imported:
    """What ``tourney ledger import`` did: entries added, and entries already in the ledger
    (same key: skipped, so importing a file twice adds nothing)."""

    added: int
    skipped: int


def import_csv(ledger: Ledger, path: str | os.PathLike[str]) -> Imported:
    """``tourney ledger import FILE.csv``: add the entries of a file :func:`export_csv`
    wrote, in one transaction (all or nothing). Entries whose key the ledger already has are
    skipped; references are resolved by key (to entries of the file or of the ledger).
    Raises :class:`LedgerError` naming the line and column of an unreadable value, an
    unknown table, a reference to a key that is nowhere, or a file whose header is not
    the export's."""
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            header = reader.fieldnames or []
    except FileNotFoundError:
        raise LedgerError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    if header[:2] != ["table", "key"]:
        raise LedgerError(f"{path} line 1: not a file written by `tourney ledger export` "
                          "(its first line is the header table,key,...)")
    return import_rows(ledger, rows, lambda i, column: f"{path} line {i}")


def import_rows(ledger: Ledger, rows: Sequence[dict[str, str]],
                locate: Callable[[int, str | None], str]) -> Imported:
    """Add ``rows`` (dicts of text cells keyed by :func:`export_csv`'s columns; the first
    is line 2, after the header) in one transaction, as :func:`import_csv` does.
    ``locate(line, column)`` names where a value is for messages (``column`` None: the
    row), e.g. ``"ledger.csv line 7"`` or ``"ledger.xlsx Ledger!C7"``. Raises
    :class:`LedgerError` as :func:`import_csv`."""
    by_name = {t.name: t for t in _tables()}
    added = skipped = 0
    with ledger.write() as s:
        conn = s.connection()
        ids: dict[tuple[str, str], int] = {}

        # the keys the ledger holds already, of the tables the file has rows of
        for name in sorted({r.get("table") or "" for r in rows} & set(by_name)):
            t = by_name[name]
            for k, i in conn.execute(select(t.c.key, t.c.id)):
                ids[(name, k)] = i

        # rows are inserted in batches of one table (executemany), flushed before a row
        # refers to one of them and at the end
        batch: list[dict[str, Any]] = []
        batch_table: list[Any] = []
        in_batch: set[tuple[str, str]] = set()

        def flush() -> None:
            if not batch:
                return
            t = batch_table[0]
            conn.execute(t.insert(), batch)
            keys = [b["key"] for b in batch]
            for j in range(0, len(keys), 500):
                for k, i in conn.execute(select(t.c.key, t.c.id)
                                         .where(t.c.key.in_(keys[j:j + 500]))):
                    ids[(t.name, k)] = i
            batch.clear()
            batch_table.clear()
            in_batch.clear()

        def resolve_key(table: Any, key: str, where: str) -> int:
            if (table.name, key) in in_batch:
                flush()
            if (table.name, key) not in ids:
                found = conn.execute(select(table.c.id).where(table.c.key == key)).scalar()
                if found is None:
                    raise LedgerError(f"{where}: refers to {table.name} entry {key}, which is "
                                      "neither in the file before it nor in the ledger")
                ids[(table.name, key)] = found
            return ids[(table.name, key)]

        for i, r in enumerate(rows, start=2):
            where = locate(i, None)
            t = by_name.get(r.get("table") or "")
            if t is None:
                raise LedgerError(f"{locate(i, 'table')}: table {r.get('table')!r} is not a "
                                  "ledger table "
                                  "(a file written by `tourney ledger export`?)")
            key = r.get("key") or ""
            if not re.fullmatch(r"[0-9a-f]{32}", key):
                raise LedgerError(f"{locate(i, 'key')}: key {key!r} is not 32 hex digits")
            if (t.name, key) in ids or (t.name, key) in in_batch:
                skipped += 1
                continue
            values: dict[str, Any] = {}
            for c in t.columns:
                if c.name == "id":
                    continue
                text = r.get(c.name)
                if text is None and c.nullable:
                    text = ""  # a column added since (an export of an older ledger): empty
                if text is None:
                    raise LedgerError(f"{where}: column {c.name} is missing")
                at = locate(i, c.name)
                target = _fk_target(c)
                if target is not None and text != "":
                    values[c.name] = resolve_key(target, text, at)
                else:
                    values[c.name] = _value(c, text, at)
                if values[c.name] is None and not c.nullable:
                    raise LedgerError(f"{at}: column {c.name} is empty")
            if batch_table and batch_table[0] is not t:
                flush()
            batch_table[:1] = [t]
            batch.append(values)
            in_batch.add((t.name, key))
            added += 1
        flush()
    return Imported(added, skipped)


def current_entries(ledger: Ledger) -> dict[str, int]:
    """How many current entries each fact table holds (for summaries and tests)."""
    with ledger.read() as s:
        return {m.__tablename__: len(list(s.scalars(select_current(m)))) for m in FACTS}


def all_entries(ledger: Ledger) -> dict[str, int]:
    """How many entries each table holds."""
    with ledger.read() as s:
        conn = s.connection()
        return {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
                for t in _tables()}
