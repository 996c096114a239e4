"""What a ledger command names, looked up: the organization, and the occurrence or licence
of the newest adopted version of a plan lineage; the bookkeeping columns of a new entry.

Occurrences are named as in licenses.csv's ``covers``: ``TOURNAMENT#N`` (or by the UID of its
calendar event). Every look-up raises :class:`LedgerError` with a sentence naming the value.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scheduler.ledger.checks import name_problem
from scheduler.ledger.models import (
    DEFAULT_ORGANIZATION,
    Lineage,
    Organization,
    PlanEvent,
    PlanLicence,
    PlanVersion,
)
from scheduler.ledger.store import LedgerError, now, who

_OCC = re.compile(r"^(?P<tid>[a-z0-9][a-z0-9-]*)#(?P<n>\d+)$")


def entry_fields(by: str | None) -> dict[str, Any]:
    return {"key": uuid.uuid4().hex, "recorded_at": now(), "recorded_by": who(by)}


def organization_of(session: Session, name: str | None, by: str | None,
                  create: bool) -> Organization:
    if name is not None:
        org = session.scalar(select(Organization).where(Organization.name == name))
        if org is None:
            if not create:
                raise LedgerError(f"--organization {name!r} is not in the ledger")
            problem = name_problem(name, f"--organization {name!r}")
            if problem:
                raise LedgerError(problem)
            org = Organization(name=name, **entry_fields(by))
            session.add(org)
            session.flush()
        return org
    orgs = list(session.scalars(select(Organization).order_by(Organization.id)))
    if len(orgs) == 1:
        return orgs[0]
    if not orgs and create:
        return organization_of(session, DEFAULT_ORGANIZATION, by, True)
    if not orgs:
        raise LedgerError("the ledger has no organization yet: adopt a plan first "
                          "(tourney ledger adopt PLAN_DIR)")
    raise LedgerError("the ledger keeps several organizations ("
                      + ", ".join(o.name for o in orgs) + "): give --organization")


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


def org_of(ev: PlanEvent) -> Organization:
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


def planned_like(s: Session, tournament_id: str, operator_id: str) -> PlanEvent | None:
    """The newest adopted plan event of tournament ``tournament_id`` at ``operator_id`` (any
    version, any occurrence): what an occurrence held that no plan had (``record held
    --unplanned``) takes its jurisdiction, type and charitable flag from; None when no plan
    has the tournament there."""
    return s.scalar(select(PlanEvent).where(PlanEvent.tournament_id == tournament_id,
                                            PlanEvent.operator_id == operator_id)
                    .order_by(PlanEvent.id.desc()).limit(1))
