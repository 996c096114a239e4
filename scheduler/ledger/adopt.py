"""``tourney ledger init`` and ``tourney ledger adopt``: the ledger created, and a plan folder
recorded as the next version of its lineage, in one transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from icalendar import Calendar
from sqlalchemy import func, select

from scheduler.core.calendar_limits import read_calendar
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.manifest import changed_since_written, manifest_home, read_manifest
from scheduler.core.uid import parse
from scheduler.ledger.checks import name_problem
from scheduler.ledger.deadlines import DEADLINES_CSV, read_deadlines
from scheduler.ledger.frames import Ledger
from scheduler.ledger.lookups import entry_fields, organization_of
from scheduler.ledger.models import (
    Lineage,
    Operator,
    Organization,
    PlanDeadline,
    PlanEvent,
    PlanLicence,
    PlanScenario,
    PlanVersion,
)
from scheduler.ledger.plans import parse_date, read_csv
from scheduler.ledger.scenarios import SCENARIO_FILE, folder_scenario, scenario_parts
from scheduler.ledger.store import LedgerError


# ------------------------------------------------------------------------------ init
def organization_name(text: str) -> str:
    """An organization's name as recorded: runs of white space made one space, none at the
    ends (``"  Post   39 "`` -> ``"Post 39"``)."""
    return " ".join(text.split())


def init(ledger: Ledger, name: str | None = None,
         by: str | None = None) -> tuple[str | None, str]:
    """``tourney ledger init``: create the ledger (or migrate an older one).

    Parameters
    ----------
    name
        The organization's name as people read it (on funds.csv, funds.html and in
        messages), e.g. ``"American Legion Post 39"``. Given once: the ledger is
        append-only, so a name is recorded when the ledger has no organization yet, or is
        one it already keeps. Without it, the first ``adopt`` names the organization
        ``"default"``.

    Returns
    -------
    ``(revision before, revision now)``; before is None for a new ledger.

    Raises
    ------
    LedgerError
        ``name`` is empty, longer than 200 characters, not one line of printable text
        (a control or invisible format character), or the ledger already keeps other
        organizations.
    """
    if name is not None:  # refused before the ledger is made
        name = organization_name(name)
        if not name or len(name) > 200:
            raise LedgerError("--name must be 1 to 200 characters: the organization's name "
                              "as it appears on its licences and reports")
        problem = name_problem(name, f"--name {name!r}")
        if problem:
            raise LedgerError(problem)
    revisions = ledger.upgrade()
    if name is None:
        return revisions
    with ledger.write() as s:
        names = list(s.scalars(select(Organization.name).order_by(Organization.id)))
        if names and name not in names:
            raise LedgerError(f"the ledger already keeps the organization(s) "
                              f"{', '.join(map(repr, names))}; an organization is named "
                              "once, when the ledger is made (give --organization NAME "
                              "to adopt a plan for another one)")
        if not names:
            organization_of(s, name, by, create=True)
    return revisions


# ----------------------------------------------------------------------------- adopt
@dataclass(frozen=True)
class Adopted:
    """What ``tourney ledger adopt`` recorded: the plan lineage key, its version number,
    the occurrences (rows) confirmed and cancelled, the licences; ``new`` False when this
    plan was already adopted (then nothing was recorded); ``scenario`` whether the scenario
    that made it was kept (what ``tourney record`` judges with)."""

    organization: str
    lineage: str
    version: int
    confirmed: int
    cancelled: int
    licences: int
    new: bool
    scenario: bool = False  # the plan's scenario kept (its folder's scenario.yaml)


def _cancelled_events(plan_dir: Path) -> list[tuple[str, int, str, str, int, dt.date]]:
    """The cancelled occurrences a re-plan's calendars announce (STATUS:CANCELLED):
    (tournament, occurrence, operator, UID, SEQUENCE, first day)."""
    out = []
    for path in sorted((plan_dir / "calendars").glob("*.ics")):
        try:
            cal = Calendar.from_ical(read_calendar(path))  # size and shape bounded
        except LimitError as exc:
            raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                              ) from None
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


_READ = frozenset({"schedule.csv", "licenses.csv", DEADLINES_CSV, "calendar.ics"})
"""The files of a plan folder adopt reads (with ``calendars/*.ics``, and scenario.yaml when
its manifest lists it), or whose announcement it records (calendar.ics): each must be as
tourney wrote it."""


def adopt(ledger: Ledger, plan_dir: str | os.PathLike[str], *, organization: str | None = None,
          by: str | None = None) -> Adopted:
    """``tourney ledger adopt PLAN_DIR``: record a plan folder as announced, as the next
    version of its lineage (read from the UIDs of its schedule.csv, ``scheduler/core/uid.py``):
    every occurrence at every operator with its UID, RECURRENCE-ID, SEQUENCE and status
    (``CONFIRMED``; ``CANCELLED`` for those its calendars cancel), its licences, the
    lines of its deadlines.csv when it has one (table ``plan_deadlines``: what ``tourney
    deadlines`` without a folder lists), and the scenario that made it when its manifest
    lists a scenario.yaml (table ``plan_scenarios``: what ``tourney record`` judges with,
    :mod:`scheduler.ledger.scenarios`; a folder of an older tourney has none, and a
    scenario.yaml its manifest does not list is not tourney's and is not read).

    Raises :class:`LedgerError` for a folder without schedule.csv/licenses.csv, one whose
    files differ from what its manifest (``.tourney-plan``) says tourney wrote, UIDs without
    a lineage (a plan of an old tourney: solve it again), or a lineage another organization
    owns; for a scenario.yaml that is not a scenario tourney reads."""
    folder = Path(plan_dir)
    if not folder.is_dir():
        raise LedgerError(f"{folder} is not a folder: give a plan folder written by "
                          "`tourney solve --out`")
    schedule_path = folder / "schedule.csv"
    home, prefix = manifest_home(folder)  # an alternative-<k>/ is listed by its plan's
    listed = {rel.removeprefix(prefix): v for rel, v in (read_manifest(home) or {}).items()
              if rel.startswith(prefix)}

    def reads(rel: str) -> bool:  # a file adopt reads, relative to the folder
        return rel in _READ or (rel == SCENARIO_FILE and rel in listed) or (
            rel.startswith("calendars/") and rel.endswith(".ics") and rel.count("/") == 1)

    changed = changed_since_written(
        home, lambda rel: rel.startswith(prefix) and reads(rel.removeprefix(prefix)))
    if prefix:  # named from the folder: its own files, and its plan folder's list above it
        changed = [c.removeprefix(prefix) if c.startswith(prefix) else f"../{c}"
                   for c in changed]
    if changed:  # the ledger records what tourney planned, as its calendars announced it
        raise LedgerError(f"{folder}: {', '.join(changed[:3])}"
                          + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
                          + " (its .tourney-plan lists what `tourney solve` wrote); the ledger "
                          "adopts a plan as tourney wrote it: solve the scenario again (with "
                          "--previous) and adopt that folder, or put the file back")
    rows = read_csv(schedule_path)
    licence_rows = read_csv(folder / "licenses.csv")
    digest = hashlib.sha256(read_bounded(schedule_path)).hexdigest()  # read_csv bounded it
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
    # the plan's own due days (tours, settings.closed_days), for `tourney deadlines` without
    # the folder; a folder written before deadlines.csv existed has none
    lines = (read_deadlines(folder / DEADLINES_CSV) if (folder / DEADLINES_CSV).is_file()
             else [])
    # the scenario that made the plan, for what the ledger judges alone (tourney record)
    scenario = folder_scenario(folder) if SCENARIO_FILE in listed else None
    with ledger.write() as s:
        lin = s.scalar(select(Lineage).where(Lineage.lineage == key))
        if lin is not None:
            org = lin.organization
            if organization is not None and organization != org.name:
                raise LedgerError(f"plan lineage {key} belongs to organization {org.name!r} "
                                  f"in the ledger, not {organization!r}")
        else:
            org = organization_of(s, organization, by, create=True)
            lin = Lineage(organization_id=org.id, lineage=key, **entry_fields(by))
            s.add(lin)
            s.flush()
        same = s.scalar(select(PlanVersion).where(PlanVersion.lineage_id == lin.id,
                                                  PlanVersion.schedule_sha256 == digest))
        if same is not None:
            return Adopted(org.name, key, same.version, 0, 0, 0, new=False)
        last = s.scalar(select(func.max(PlanVersion.version))
                        .where(PlanVersion.lineage_id == lin.id)) or 0
        version = PlanVersion(lineage_id=lin.id, version=last + 1, plan_dir=str(folder.resolve()),
                              schedule_sha256=digest, **entry_fields(by))
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
                    license_id=r.get("license_id", ""), **entry_fields(by))
            except (KeyError, ValueError, AttributeError) as exc:
                raise LedgerError(f"{where}: not a schedule.csv row of tourney ({exc})") from None
            ident = (ev.uid, oid, str(ev.recurrence_id or ""))
            if ident in seen:
                raise LedgerError(f"{where}: UID {ev.uid} at {oid} is listed twice")
            seen.add(ident)
            s.add(ev)
            if oid not in known_ops:
                known_ops[oid] = Operator(organization_id=org.id, operator_id=oid,
                                          jurisdiction=r["jurisdiction"], **entry_fields(by))
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
                last_day=before.last_day if before else day, license_id="", **entry_fields(by)))
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
                    covers=r.get("covers", ""), **entry_fields(by)))
            except (KeyError, InvalidOperation) as exc:
                raise LedgerError(f"{where}: not a licenses.csv row of tourney ({exc})") from None
        for line in lines:
            s.add(PlanDeadline(
                version_id=version.id, date=line.date, rule=line.rule, citation=line.citation,
                operator_id=line.operator_id, what=line.what, occurrence=line.occurrence,
                license_id=line.license_id, opens=line.opens, **entry_fields(by)))
        for part in scenario_parts(scenario) if scenario is not None else []:
            s.add(PlanScenario(version_id=version.id, **part, **entry_fields(by)))
        return Adopted(org.name, key, version.version, len(rows), n_cancelled,
                       len(licence_rows), new=True, scenario=scenario is not None)
