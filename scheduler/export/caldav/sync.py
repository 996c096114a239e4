"""The sync plan: the PUTs and DELETEs that make one operator's CalDAV collection hold
its calendar (:func:`plan_sync`, pure), and :func:`publish`, which makes them on any
:class:`CalendarServer`, every collection planned (and plan lineages checked) before any
change."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol
from urllib.parse import quote, unquote, urlsplit

from scheduler.core.timing import MT_NOTICE_DAYS
from scheduler.core.uid import DEFAULT_DOMAIN, LINEAGE_PROPERTY, PROPERTY_PREFIX, licence_day
from scheduler.core.uid import parse as parse_uid
from scheduler.export.caldav.calendars import (
    OperatorCalendar,
    parse_calendar,
    resource_name,
    same_content,
)
from scheduler.export.caldav.redaction import PublishError, redact, url_secrets

_LINEAGE_VALUE = re.compile(r"([0-9a-fA-F]+)")
_DTSTART_LINE = re.compile(r"^DTSTART[;:][^\r\n]*?(\d{8})", re.MULTILINE)


# --------------------------------------------------------------------------- sync plan
@dataclass(frozen=True)
class ServerObject:
    """A calendar object resource with a VEVENT, as listed by the server."""

    href: str
    data: str
    etag: str | None = None

    @property
    def lineage(self) -> str | None:
        """X-TOURNEY-LINEAGE of its VEVENT(s), as a property (never text inside another
        property such as a DESCRIPTION): the plan lineage that published it."""
        if LINEAGE_PROPERTY not in self.data.upper():  # cheap: most events are not ours
            return None
        values = self.properties.get(LINEAGE_PROPERTY, [])
        found = [m.group(1) for v in values if (m := _LINEAGE_VALUE.fullmatch(v.strip()))]
        return found[0] if found else None

    @property
    def properties(self) -> dict[str, list[str]]:
        """The X-TOURNEY- properties of its VEVENT(s) and of its VCALENDAR by name (upper
        case), their values as text; empty when the data does not parse."""
        try:
            cal = parse_calendar(self.data)
        except ValueError:
            return {}
        out: dict[str, list[str]] = {}
        for comp in [cal, *cal.walk("VEVENT")]:
            for name, value in comp.items():
                if name.upper().startswith(PROPERTY_PREFIX):
                    for v in value if isinstance(value, list) else [value]:
                        out.setdefault(name.upper(), []).append(str(v))
        return out

    @property
    def first_day(self) -> str | None:
        """Its VEVENT's DTSTART day (YYYYMMDD), for the history rule (never a VTIMEZONE's
        DTSTART before it: 1970 in the time zones calendar applications write)."""
        begin = self.data.find("BEGIN:VEVENT")
        m = _DTSTART_LINE.search(self.data, max(begin, 0)) if begin >= 0 else None
        return m.group(1) if m else None

    @property
    def uid(self) -> str | None:
        try:
            cal = parse_calendar(self.data)
        except ValueError:
            return None
        uids = {str(e.get("UID", "")).strip() for e in cal.subcomponents if e.name == "VEVENT"}
        uids.discard("")
        return uids.pop() if len(uids) == 1 else None


@dataclass(frozen=True)
class Change:
    action: Literal["create", "update", "delete"]
    uid: str
    href: str
    data: bytes | None = None
    etag: str | None = None


@dataclass
class SyncPlan:
    """What to do in one collection; ``unchanged`` are the UIDs already up to date;
    ``conflicts`` the (UID, lineage) of server events of another plan lineage that a change
    would overwrite or delete; ``others`` the server events of other lineages left alone."""

    changes: list[Change] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    others: int = 0

    def count(self, action: str) -> int:
        return sum(1 for c in self.changes if c.action == action)


def same_href(a: str, b: str) -> bool:
    return unquote(urlsplit(a).path).rstrip("/") == unquote(urlsplit(b).path).rstrip("/")


def plan_sync(cal: OperatorCalendar, server: Iterable[ServerObject],
              collection_url: str, *, take_over: bool = False) -> SyncPlan:
    """The PUTs and DELETEs that make the collection at ``collection_url`` hold exactly the
    events of ``cal``; objects without a (single) UID, events whose UID tourney does not
    write (added by hand), events of another plan lineage the file does not name, and events
    of the file's lineage outside its horizon (history) are left alone. A change to an event
    of another lineage is listed in ``conflicts`` (and made only when ``take_over``). Pure."""
    by_uid: dict[str, list[ServerObject]] = {}
    for obj in server:
        uid = obj.uid
        if uid is not None:
            by_uid.setdefault(uid, []).append(obj)
    base = collection_url if collection_url.endswith("/") else collection_url + "/"
    plan = SyncPlan()

    def foreign(o: ServerObject) -> str | None:
        """The other lineage that published ``o``, None when it is this file's (or none)."""
        theirs = o.lineage
        return theirs if theirs and cal.lineage and theirs != cal.lineage else None

    def conflict(objs: Iterable[ServerObject]) -> None:
        for o in objs:
            theirs = foreign(o)
            if theirs is not None and (o.uid, theirs) not in plan.conflicts:
                plan.conflicts.append((o.uid or "", theirs))

    for uid, data in sorted(cal.resources.items()):
        href = base + quote(resource_name(uid))
        have = sorted(by_uid.pop(uid, []),
                      key=lambda o: (not same_href(o.href, href), o.href))
        if not have:
            plan.changes.append(Change("create", uid, href, data))
            continue
        keep, *duplicates = have
        if same_content(data, keep.data):
            plan.unchanged.append(uid)
        else:
            conflict([keep])
            plan.changes.append(Change("update", uid, keep.href, data, keep.etag))
        conflict(duplicates)
        plan.changes += [Change("delete", uid, o.href, etag=o.etag) for o in duplicates]
    for uid, objs in sorted(by_uid.items()):  # gone from the file, or cancelled
        mine = [o for o in objs if ours(o)]  # an event someone added by hand: never touched
        if uid in cal.cancelled:
            conflict(mine)
        else:
            plan.others += sum(1 for o in mine if foreign(o) is not None)
            mine = [o for o in mine if foreign(o) is None and not _history(cal, o)]
        plan.changes += [Change("delete", uid, o.href, etag=o.etag) for o in mine]
    return plan


def _history(cal: OperatorCalendar, obj: ServerObject) -> bool:
    """An event of the file's lineage outside the file's horizon, before or after it (an
    earlier year that a re-plan of the next year inherits, or next year's plan published
    before this year's is published again): kept."""
    if cal.horizon is None or obj.lineage is None:
        return False
    day = obj.first_day
    if day is None:
        return False
    try:
        first, last = (dt.date.fromisoformat(d) for d in cal.horizon)
        when = dt.date(int(day[:4]), int(day[4:6]), int(day[6:]))
    except ValueError:
        return False
    # a deadline belongs to the day of what it is for: a licence deadline to the licence's
    # first day (in its UID), an MT notice to its occurrence's first day, MT_NOTICE_DAYS
    # after the notice's day (notice_due). Outside the horizon on either side is history:
    # last year's plan, and next year's, which this year's plan must not delete.
    p = parse_uid(obj.uid or "")
    lday = licence_day(obj.uid or "")
    if lday:
        when = dt.date.fromisoformat(lday)
    elif p is not None and p.kind == "notice":
        when += dt.timedelta(days=MT_NOTICE_DAYS)
    return not first <= when <= last


def ours(obj: ServerObject) -> bool:
    """Whether a server event is one tourney wrote: a VEVENT with an X-TOURNEY- property
    (tournament, deadline, lineage; a property, never the text X-TOURNEY-... inside a
    DESCRIPTION or SUMMARY someone typed) or a product UID (``scheduler.core.uid``)."""
    if parse_uid(obj.uid or "") is not None:
        return True
    return PROPERTY_PREFIX in obj.data.upper() and bool(obj.properties)


# --------------------------------------------------------------------------- server side
class CalendarServer(Protocol):
    """What publishing needs from a CalDAV server."""

    def collection(self, operator_id: str, display_name: str) -> tuple[str, bool]:
        """The URL of the operator's calendar, and whether it was just created."""
        ...

    def list_events(self, collection_url: str) -> list[ServerObject]: ...

    def put(self, href: str, data: bytes, etag: str | None, *, new: bool) -> None: ...

    def delete(self, href: str, etag: str | None) -> None: ...


@dataclass(frozen=True)
class OperatorResult:
    operator_id: str
    calendar_url: str
    calendar_created: bool
    created: int
    updated: int
    deleted: int
    unchanged: int
    others: int = 0
    """Events of other plan lineages in the collection, left alone."""
    default_domain: bool = False
    """This plan's UIDs end in the default ``tourney.invalid`` (no ``uid_domain`` set)."""


class LineageConflict(PublishError):
    """The plan would overwrite or delete events another plan lineage published."""


def publish(calendars: Sequence[OperatorCalendar], server: CalendarServer, *,
            take_over: bool = False, done: list[str] | None = None) -> list[OperatorResult]:
    """Bring each operator's collection on ``server`` up to date with its calendar.

    Every collection is planned first: when a change would overwrite or delete an event of
    another plan lineage, :class:`LineageConflict` names them and nothing is changed, unless
    ``take_over``. ``done`` collects the operator ids whose collection is up to date."""
    planned = []
    conflicts: list[str] = []
    for cal in calendars:
        url, made = server.collection(cal.operator_id, cal.name)
        plan = plan_sync(cal, [] if made else server.list_events(url), url,
                         take_over=take_over)
        planned.append((cal, url, made, plan))
        conflicts += [f"{cal.operator_id}: {uid} (lineage {theirs})"
                      for uid, theirs in plan.conflicts]
    if conflicts and not take_over:
        shown = "; ".join(conflicts[:10]) + (f"; and {len(conflicts) - 10} more"
                                             if len(conflicts) > 10 else "")
        raise LineageConflict(
            f"{len(conflicts)} event(s) on the server were published by another plan "
            f"lineage: {shown}. Nothing was changed. Set uid_domain in the scenario, or "
            f"publish with --take-over (docs/scenario.md)")
    results = []
    for cal, url, made, plan in planned:
        for ch in plan.changes:
            if ch.action == "delete":
                server.delete(ch.href, ch.etag)
            else:
                assert ch.data is not None
                server.put(ch.href, ch.data, ch.etag, new=ch.action == "create")
        results.append(OperatorResult(cal.operator_id, url, made, plan.count("create"),
                                      plan.count("update"), plan.count("delete"),
                                      len(plan.unchanged), plan.others,
                                      _default_domain(cal)))
        if done is not None:
            done.append(cal.operator_id)
    return results


def _default_domain(cal: OperatorCalendar) -> bool:
    return any((p := parse_uid(uid)) is not None and p.domain == DEFAULT_DOMAIN
               for uid in (*cal.resources, *cal.cancelled))


def warnings(results: Sequence[OperatorResult]) -> list[str]:
    """What ``tourney publish`` warns about (one line each): a calendar shared with other
    plan lineages while this plan's UIDs end in the default ``tourney.invalid``. Lineage
    keys keep such plans apart (``scheduler.core.uid.lineage_key``), but only a ``uid_domain``
    the organization controls makes its UIDs its own (RFC 5545 §3.8.4.7)."""
    shared = [r for r in results if r.others and r.default_domain]
    if not shared:
        return []
    where = ", ".join(f"{r.operator_id} ({r.others} of other plans)" for r in shared)
    return [f"calendar(s) {where} are shared with other plans, and this plan's UIDs end in "
            f"the default {DEFAULT_DOMAIN}: set uid_domain in the scenario to a domain your "
            f"organization controls (docs/scenario.md), so that no other organization's "
            f"plan can take its UIDs"]


def summary(results: Sequence[OperatorResult], url: str,
            secrets: Iterable[str | None] = ()) -> str:
    """What ``tourney publish`` prints: one line per operator and a total (URLs without
    their credentials, and without ``secrets`` such as the password: :func:`redact`)."""
    secrets = [*secrets, *url_secrets(url)]
    lines = []
    for r in results:
        new = ", new calendar" if r.calendar_created else ""
        others = f", {r.others} of other plans left alone" if r.others else ""
        lines.append(f"{r.operator_id} ({redact(r.calendar_url, secrets)}{new}): "
                     f"{r.created} created, "
                     f"{r.updated} updated, {r.deleted} deleted, {r.unchanged} unchanged"
                     f"{others}")
    tot = [sum(getattr(r, k) for r in results)
           for k in ("created", "updated", "deleted", "unchanged")]
    lines.append(f"Published {len(results)} calendar(s) to {redact(url, secrets)}: "
                 f"{tot[0]} created, "
                 f"{tot[1]} updated, {tot[2]} deleted, {tot[3]} unchanged.")
    return "\n".join(lines) + "\n"
