"""Publish a plan's per-operator calendars to a CalDAV server (``tourney publish``).

Each ``calendars/<operator_id>.ics`` of a plan folder goes into the CalDAV calendar collection
``<operator_id>/`` in the user's calendar home (RFC 4791), created when missing with the file's
X-WR-CALNAME as its display name. Inside it:

- every UID of the file is one calendar object resource (RFC 4791 §4.1: one UID per resource,
  all its VEVENTs together, no METHOD), holding the VEVENT(s) and the VTIMEZONEs their TZID
  parameters name; a new one is named ``<uid-safe>.ics`` (:func:`resource_name`), an existing
  one keeps the server's name;
- it is put only when its content differs from the server's (:func:`same_content`: property and
  component order, line folding and DTSTAMP / LAST-MODIFIED / CREATED do not count), so a
  second publish of the same plan changes nothing;
- a server event whose UID is no longer in the file, or whose VEVENT in the file has
  ``STATUS:CANCELLED``, is deleted;
- plan lineages (``scheduler.uid``): every event tourney writes names its plan lineage
  (X-TOURNEY-LINEAGE). An event of another lineage (another year's plan, another
  organization's) is never deleted because this file lacks it, nor is an event of this
  lineage outside the file's horizon (X-TOURNEY-HORIZON: history); a file that would
  overwrite or delete an event of another lineage (the same UID) stops the whole publish
  before any change (:class:`LineageConflict`, exit 2, naming the events) unless
  ``take_over`` (``--take-over``). Events without X-TOURNEY-LINEAGE (earlier versions) are
  managed as before;
- other calendars, and objects without a VEVENT (tasks, journals), are never touched.

Writes are conditional (``If-None-Match: *`` for new resources, ``If-Match`` with the listed
ETag otherwise): an object changed on the server while publishing stops the run instead of
being overwritten. Publishing again finishes the job.

The pure parts (:func:`read_calendar`, :func:`plan_sync`, :func:`same_content`) take bytes and
return values; :class:`CalDAVServer` is the only code that talks to a server (through the
``caldav`` library), behind the small :class:`CalendarServer` protocol.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import ipaddress
import logging
import math
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar
from urllib.parse import quote, unquote, urlsplit

from icalendar import Calendar, Component

from scheduler.fields import ID_PATTERN
from scheduler.limits import read_calendar as read_ics_bounded
from scheduler.timing import MT_NOTICE_DAYS
from scheduler.uid import DEFAULT_DOMAIN, LINEAGE_PROPERTY, licence_day
from scheduler.uid import parse as parse_uid

PASSWORD_ENV = "TOURNEY_CALDAV_PASSWORD"
"""Environment variable holding the CalDAV password (never a command-line flag)."""
TIMEOUT = 30
"""Seconds each request to the server may take in all: connecting, sending, and every byte
of the answer (``tourney publish --timeout``); a server that trickles its answer is given up
on after this long, not after this long without a byte."""
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Hosts ``http://`` is allowed to without ``allow_insecure_http``: the password does not
leave this machine (127.0.0.0/8 counts too)."""
PRODID = "-//tourney//tourney publish//EN"
IGNORED_PROPERTIES = frozenset({"DTSTAMP", "LAST-MODIFIED", "CREATED"})
"""Properties a server may set or rewrite by itself: not a difference worth a PUT."""
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_T = TypeVar("_T")
_LINEAGE_LINE = re.compile(rf"^{LINEAGE_PROPERTY}[;:][^\r\n]*?([0-9a-f]+)\r?$",
                           re.MULTILINE | re.IGNORECASE)
_DTSTART_LINE = re.compile(r"^DTSTART[;:][^\r\n]*?(\d{8})", re.MULTILINE)


class PublishError(Exception):
    """A problem the user can fix (bad folder, URL, password, server); one line, no traceback."""


_URL_TOKEN = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^\s'\"<>]*)")
_CLEAN_AUTHORITY = re.compile(r"(\[[^\]@/?#]*\]|[^:@\[\]/?#]*)(:\d*)?")


def _userinfo_end(rest: str) -> int:
    """In a URL after its ``scheme://``, the index of the ``@`` that ends its user
    information, or -1 when it has none. Cautious: when the part before the first ``/``,
    ``?`` or ``#`` is not a plain ``host[:port]`` (a password may hold ``@``, ``/``, ``#``
    or ``?``, or the URL may not parse), the last ``@`` of the whole URL."""
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    if _CLEAN_AUTHORITY.fullmatch(rest[:end]):
        return -1
    return rest.rfind("@")


def _strip_credentials(m: re.Match[str]) -> str:
    scheme, rest = m.group(1), m.group(2)
    at = _userinfo_end(rest)
    return m.group(0) if at < 0 else f"{scheme}***@{rest[at + 1:]}"


def _url_secrets(url: str) -> list[str]:
    """What in the URL ``url`` is a secret: its password (as parsed, when it parses) and
    everything between the user name and the ``@`` that ends its user information
    (:func:`_userinfo_end`)."""
    found: list[str] = []
    with contextlib.suppress(ValueError):
        if urlsplit(url).password:
            found.append(str(urlsplit(url).password))
    scheme, sep, rest = url.partition("://")
    at = _userinfo_end(rest) if sep else -1
    if at > 0:
        found.append(rest[:at].partition(":")[2] or rest[:at])
    return found


def _without_credentials(url: str) -> str:
    """``url`` without its user information (``https://host/...``; an IPv6 host keeps its
    brackets): the user name and password go to the server separately."""
    scheme, sep, rest = url.partition("://")
    at = _userinfo_end(rest) if sep else -1
    return url if at < 0 else f"{scheme}://{rest[at + 1:]}"


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with the credentials of every URL in it (``https://user:pass@host/`` ->
    ``https://***@host/``; up to the last ``@`` when the password holds ``@``, ``/``, ``#``
    or ``?``, or the URL does not parse) and every one of ``secrets`` of three characters or
    more (a password, as typed and percent-encoded) where it stands as a whole word (not
    inside a longer word) replaced by ``***``. Apply ``secrets`` to what a server or library
    said, before it is put into tourney's own sentence: a password that is a common word
    must not blank tourney's words. Every message, log line and error of publishing goes
    through it."""
    out = _URL_TOKEN.sub(_strip_credentials, text)
    for secret in secrets:
        if secret and len(secret) >= 3:
            for form in sorted({secret, quote(secret, safe=""), quote(secret)}, key=len,
                               reverse=True):
                out = re.sub(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![A-Za-z0-9])", "***",
                             out)
    return out


class _Redacting(logging.Filter):
    """Redact the log records of the HTTP and CalDAV libraries (:func:`redact`)."""

    def __init__(self, secrets: Sequence[str | None]) -> None:
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage(), self.secrets)
        record.args = None
        return True


def operator_id_of(path: Path) -> str:
    """The operator ID a ``calendars/<operator_id>.ics`` file is for. Raises PublishError
    unless the name is one tourney writes: an operator ID (lowercase letters, digits and
    ``-``, as the scenario requires), so no file name (``%2e%2e%2fbob%2fx.ics``, ``..``)
    can steer publishing into another collection."""
    stem = path.name.removesuffix(".ics")
    if not re.fullmatch(ID_PATTERN, stem) or len(stem) > 200:
        raise PublishError(f"{path.name} in {path.parent} is not a calendar tourney wrote: "
                           "its name must be an operator ID (lowercase letters, digits and "
                           "-) followed by .ics; remove or rename it. Nothing was published")
    return stem


# --------------------------------------------------------------------------- plan side
@dataclass(frozen=True)
class OperatorCalendar:
    """One ``calendars/<operator_id>.ics``: the resources to have on the server."""

    operator_id: str
    name: str
    resources: Mapping[str, bytes]
    """UID → iCalendar object (VCALENDAR with its VTIMEZONEs and VEVENTs) to put."""
    cancelled: frozenset[str] = frozenset()
    """UIDs whose VEVENT is STATUS:CANCELLED: deleted from the server, never put."""
    lineage: str | None = None
    """The plan lineage of the file (its X-TOURNEY-LINEAGE), None for an earlier version's."""
    horizon: tuple[str, str] | None = None
    """The plan's horizon (X-TOURNEY-HORIZON: first and last day, ISO 8601)."""


def resource_name(uid: str) -> str:
    """The file name of a new resource for ``uid``: the UID itself when it is made of letters,
    digits, ``.``, ``_`` and ``-`` only; else those runs replaced by ``_`` and a short hash of
    the UID appended (so two UIDs never share a name). Always safe in a URL path."""
    safe = _SAFE.sub("_", uid).lstrip(".")[:150]
    if safe != uid or not safe:
        safe = f"{safe}-{hashlib.sha256(uid.encode('utf-8')).hexdigest()[:12]}"
    return f"{safe}.ics"


def _parse(data: bytes | str) -> Calendar:
    cal = Calendar.from_ical(data)
    if not isinstance(cal, Calendar):  # several VCALENDARs in one file
        raise ValueError("not a single VCALENDAR")
    return cal


def _props(comp: Component) -> Iterable[tuple[str, Any]]:
    for name, value in comp.items():
        for v in value if isinstance(value, list) else [value]:
            yield name.upper(), v


def _tzids(comp: Component) -> set[str]:
    found = {str(v.params["TZID"]) for _, v in _props(comp)
             if hasattr(v, "params") and "TZID" in v.params}
    for sub in comp.subcomponents:
        found |= _tzids(sub)
    return found


def _is_cancelled(events: Sequence[Component]) -> bool:
    """The master VEVENT (no RECURRENCE-ID) is cancelled; without a master, all are."""
    masters = [e for e in events if "RECURRENCE-ID" not in e]
    pick = masters or list(events)
    return all(str(e.get("STATUS", "")).upper() == "CANCELLED" for e in pick)


def read_calendar(operator_id: str, data: bytes) -> OperatorCalendar:
    """Split one operator's .ics into one resource per UID. Raises ValueError when the bytes
    are not one iCalendar object or a VEVENT has no UID."""
    cal = _parse(data)
    name = str(cal.get("X-WR-CALNAME") or cal.get("NAME") or operator_id)
    zones = {str(tz["TZID"]): tz for tz in cal.subcomponents
             if tz.name == "VTIMEZONE" and "TZID" in tz}
    by_uid: dict[str, list[Component]] = {}
    for ev in cal.subcomponents:
        if ev.name != "VEVENT":
            continue
        uid = str(ev.get("UID", "")).strip()
        if not uid:
            raise ValueError(f"a VEVENT without UID ({ev.get('SUMMARY', 'no SUMMARY')})")
        by_uid.setdefault(uid, []).append(ev)
    resources: dict[str, bytes] = {}
    cancelled: set[str] = set()
    for uid, events in by_uid.items():
        if _is_cancelled(events):
            cancelled.add(uid)
            continue
        out = Calendar()
        out.add("prodid", str(cal.get("PRODID") or PRODID))
        out.add("version", "2.0")
        if "CALSCALE" in cal:
            out.add("calscale", str(cal["CALSCALE"]))
        needed: set[str] = set()
        for ev in events:
            needed |= _tzids(ev)
        for tzid in sorted(needed & zones.keys()):
            out.add_component(zones[tzid])
        for ev in events:
            out.add_component(ev)
        resources[uid] = out.to_ical()
    lineage = str(cal.get(LINEAGE_PROPERTY, "")).strip() or None
    span = str(cal.get("X-TOURNEY-HORIZON", "")).strip().split("/")
    horizon = (span[0], span[1]) if len(span) == 2 and all(span) else None
    return OperatorCalendar(operator_id, name, resources, frozenset(cancelled), lineage,
                            horizon)


def read_plan_calendars(plan_dir: str | Path) -> list[OperatorCalendar]:
    """Every ``calendars/<operator_id>.ics`` of a plan folder, by operator ID. Raises
    PublishError when the folder has none or one cannot be read."""
    folder = Path(plan_dir) / "calendars"
    if not folder.is_dir():
        raise PublishError(f"{plan_dir} is not a plan folder (no calendars/ in it); give a "
                           "folder written by `tourney solve --out`")
    files = sorted(p for p in folder.iterdir() if p.suffix == ".ics" and p.is_file())
    if not files:
        raise PublishError(f"{folder} holds no operator calendar (.ics)")
    ids = [operator_id_of(path) for path in files]  # all checked before any is read
    out = []
    for path, operator_id in zip(files, ids, strict=True):
        try:
            out.append(read_calendar(operator_id, read_ics_bounded(path)))  # docs/limits.md
        except (OSError, ValueError) as exc:
            raise PublishError(f"cannot read {path}: {exc}") from None
    return out


# --------------------------------------------------------------------------- comparison
def _canon(comp: Component) -> tuple[Any, ...]:
    props = sorted(
        (name,
         tuple(sorted((str(k).upper(), str(p)) for k, p in getattr(v, "params", {}).items())),
         v.to_ical() if hasattr(v, "to_ical") else str(v).encode("utf-8"))
        for name, v in _props(comp) if name not in IGNORED_PROPERTIES)
    subs = sorted(_canon(s) for s in comp.subcomponents)
    return (comp.name, tuple(props), tuple(subs))


def same_content(a: bytes | str, b: bytes | str) -> bool:
    """Whether two iCalendar objects hold the same components (VEVENT, VTIMEZONE, ...) with
    the same properties, whatever their order, folding and line ends; calendar-level
    properties (PRODID, ...) and DTSTAMP, LAST-MODIFIED and CREATED are not compared. Data
    that does not parse is never the same."""
    try:
        ca, cb = _parse(a), _parse(b)
    except ValueError:
        return False
    return (sorted(_canon(c) for c in ca.subcomponents)
            == sorted(_canon(c) for c in cb.subcomponents))


# --------------------------------------------------------------------------- sync plan
@dataclass(frozen=True)
class ServerObject:
    """A calendar object resource with a VEVENT, as listed by the server."""

    href: str
    data: str
    etag: str | None = None

    @property
    def lineage(self) -> str | None:
        """X-TOURNEY-LINEAGE of its VEVENT(s): the plan lineage that published it."""
        m = _LINEAGE_LINE.search(self.data.replace("\r\n ", "").replace("\n ", ""))
        return m.group(1).strip() if m else None

    @property
    def first_day(self) -> str | None:
        """Its DTSTART's day (YYYYMMDD), for the history rule."""
        m = _DTSTART_LINE.search(self.data)
        return m.group(1) if m else None

    @property
    def uid(self) -> str | None:
        try:
            cal = _parse(self.data)
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


def _same_href(a: str, b: str) -> bool:
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
                      key=lambda o: (not _same_href(o.href, href), o.href))
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
    """Whether a server event is one tourney wrote: every product event carries an
    X-TOURNEY- property (tournament, deadline, lineage) or a product UID
    (``scheduler.uid``)."""
    return "X-TOURNEY-" in obj.data or parse_uid(obj.uid or "") is not None


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
            f"lineage (another year's, scenario's or organization's plan), and this plan "
            f"would overwrite or delete them: {shown}. Nothing was changed. Set uid_domain "
            f"in the scenario (docs/scenario.md) so that plans do not share UIDs, or publish "
            f"with --take-over to replace them")
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
    keys keep such plans apart (``scheduler.uid.lineage_key``), but only a ``uid_domain``
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
    secrets = [*secrets, *_url_secrets(url)]
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


_QUERY = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:prop><D:getetag/><C:calendar-data/></D:prop>"
    '<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/>'
    "</C:comp-filter></C:filter></C:calendar-query>"
)


def _loopback(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1); never a DNS name such as
    ``127.example.org``."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, *, allow_insecure_http: bool = False) -> str:
    """``url`` when it is an absolute https URL with a host (or http to this machine:
    :data:`LOOPBACK_HOSTS`, or anywhere with ``allow_insecure_http``); else PublishError
    (its message shows the URL without credentials)."""
    try:  # the host after the user information's last '@' (a password may hold '@', '/')
        parts = urlsplit(_without_credentials(url))
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise PublishError(f"--caldav must be an http:// or https:// URL of the server, e.g. "
                           f"https://cal.example.org/dav/, not {redact(repr(url))}")
    if parts.scheme == "http" and not allow_insecure_http and not _loopback(parts.hostname):
        raise PublishError(f"--caldav {redact(url)} is plain http: the password would cross "
                           "the network unencrypted, readable by anyone on the way. Use "
                           "https://, or add --allow-insecure-http if you accept that "
                           "(http to this machine, localhost or 127.0.0.1, is allowed)")
    return url


class CalDAVServer:
    """:class:`CalendarServer` over the ``caldav`` library (``DAVClient``): principal and
    calendar-home discovery, MKCALENDAR, calendar-query REPORT, PUT and DELETE."""

    def __init__(self, url: str, user: str, password: str, timeout: float = TIMEOUT, *,
                 allow_insecure_http: bool = False) -> None:
        # start-up time: the caldav library (and its HTTP stack) only to talk to a server
        from caldav.davclient import DAVClient

        self.url = check_url(url, allow_insecure_http=allow_insecure_http)
        self.timeout = timeout
        # without the URL's user information: given separately (an IPv6 host keeps its
        # brackets, which the library's own stripping loses)
        self.client: Any = DAVClient(url=_without_credentials(url), username=user,
                                     password=password,
                                     timeout=max(1, math.ceil(timeout)),
                                     enable_rfc6764=False)
        self._principal: Any = None
        for name in ("collection", "list_events", "put", "delete"):  # each one bounded
            setattr(self, name, self._bounded(getattr(self, name)))

    def _bounded(self, fn: Callable[..., _T]) -> Callable[..., _T]:
        """``fn`` run on a helper thread and given up on after ``self.timeout`` seconds in
        all (PublishError; the connection is closed so the thread ends soon after)."""
        def run(*args: Any, **kwargs: Any) -> _T:
            box: list[Any] = []

            def call() -> None:
                try:
                    box.append((True, fn(*args, **kwargs)))
                except BaseException as exc:  # handed to the caller's thread
                    box.append((False, exc))

            worker = threading.Thread(target=call, name="tourney-caldav", daemon=True)
            worker.start()
            worker.join(self.timeout)
            if not box:
                with contextlib.suppress(Exception):
                    self.client.session.close()
                raise PublishError(
                    f"the server at {redact(self.url)} did not answer in full within "
                    f"{self.timeout:g} s (--timeout); it may be overloaded or not a CalDAV "
                    "server")
            ok, value = box[0]
            if not ok:
                raise value
            return value  # type: ignore[no-any-return]
        return run

    def _inside(self, href: str, collection_url: str) -> bool:
        """Whether ``href`` names a resource directly inside the collection (same server,
        decoded path one level below it, no ``..``)."""
        a, b = urlsplit(href), urlsplit(collection_url)
        if (a.scheme, a.hostname, a.port) != (b.scheme, b.hostname, b.port):
            return False
        base = unquote(b.path).rstrip("/") + "/"
        path = unquote(a.path)
        name = path[len(base):]
        return (path.startswith(base) and bool(name) and "/" not in name
                and name not in (".", ".."))

    def _home(self) -> Any:
        if self._principal is None:
            self._principal = self.client.principal()
        return self._principal

    def collection(self, operator_id: str, display_name: str) -> tuple[str, bool]:
        principal = self._home()
        for cal in principal.calendars():
            if unquote(str(cal.url).rstrip("/").rsplit("/", 1)[-1]) == operator_id:
                return str(cal.url), False
        cal = principal.make_calendar(name=display_name, cal_id=operator_id,
                                      supported_calendar_component_set=["VEVENT"])
        return str(cal.url), True

    def _url(self, href: str) -> str:
        return str(self.client.url.join(href))

    def list_events(self, collection_url: str) -> list[ServerObject]:
        from caldav.elements import cdav, dav  # start-up time, as DAVClient above

        resp = self.client.report(collection_url, _QUERY, depth=1)
        _check(resp, (207,), f"list the events of {collection_url}")
        found = resp.expand_simple_props([dav.GetEtag(), cdav.CalendarData()])
        out = []
        for href, props in found.items():
            data = props.get(cdav.CalendarData.tag)
            if (not data or _same_href(self._url(href), collection_url)
                    or not self._inside(self._url(href), collection_url)):
                continue  # the collection itself, or not in it: never touched
            out.append(ServerObject(self._url(href), str(data),
                                    props.get(dav.GetEtag.tag) or None))
        return out

    def put(self, href: str, data: bytes, etag: str | None, *, new: bool) -> None:
        headers = {"Content-Type": "text/calendar; charset=utf-8"}
        if new:
            headers["If-None-Match"] = "*"
        elif etag:
            headers["If-Match"] = etag
        resp = self.client.put(href, data.decode("utf-8"), headers)
        _check(resp, (200, 201, 204), f"put {href}")

    def delete(self, href: str, etag: str | None) -> None:
        resp = self.client.delete(href, {"If-Match": etag} if etag else None)
        _check(resp, (200, 204, 404), f"delete {href}")


def _check(resp: Any, ok: tuple[int, ...], what: str) -> None:
    status = int(getattr(resp, "status", 0) or 0)
    if status in ok:
        return
    if status == 412:
        raise PublishError(f"cannot {what}: it changed on the server while publishing "
                           "(HTTP 412); publish again")
    reason = str(getattr(resp, "reason", "") or "").strip()
    raise PublishError(f"cannot {what}: the server answered HTTP {status} {reason}".rstrip())


def publish_to(plan_dir: str | Path, url: str, user: str, password: str, *,
               timeout: float = TIMEOUT, allow_insecure_http: bool = False,
               take_over: bool = False) -> list[OperatorResult]:
    """Read the plan's calendars, then publish them to the CalDAV server at ``url``. Every
    failure the user can act on (folder, URL, password, server unreachable, slower than
    ``timeout`` seconds for one request in all, or not CalDAV) is a PublishError with one
    line of explanation; no message, log line or result shows the URL's credentials or the
    password (:func:`redact`). Plain ``http://`` other than to this machine needs
    ``allow_insecure_http`` (:func:`check_url`)."""
    # the password and the URL's are redacted from what the server or a library says before
    # it goes into tourney's own sentence (redact), never from tourney's words
    secrets = [password, *_url_secrets(url)]

    def clean(text: object) -> str:
        return redact(str(text), secrets)

    try:
        calendars = read_plan_calendars(plan_dir)
        check_url(url, allow_insecure_http=allow_insecure_http)
    except PublishError as exc:
        raise PublishError(redact(str(exc))) from None
    # start-up time: the caldav library (and its HTTP stack) only to talk to a server
    from caldav.lib import error as dav_error

    logging.getLogger("caldav").setLevel(logging.CRITICAL)  # its warnings are not for operators
    guard = _Redacting(secrets)
    for name in ("caldav", "niquests", "urllib3", "urllib3_future", "requests"):
        if not any(isinstance(f, _Redacting) for f in logging.getLogger(name).filters):
            logging.getLogger(name).addFilter(guard)
    shown = redact(url)
    done: list[str] = []

    def stopped(why: str) -> PublishError:
        so_far = f" (done before it stopped: {', '.join(done)}; publish again)" if done else ""
        return PublishError(redact(f"{why}{so_far}"))

    try:
        server = CalDAVServer(url, user, password, timeout,
                              allow_insecure_http=allow_insecure_http)
        return [replace(r, calendar_url=clean(r.calendar_url))
                for r in publish(calendars, server, take_over=take_over, done=done)]
    except LineageConflict as exc:
        raise LineageConflict(clean(exc)) from None
    except PublishError as exc:
        raise stopped(clean(exc)) from None
    except dav_error.AuthorizationError as exc:
        if getattr(exc, "status", None) == 403:
            raise stopped(f"the server at {shown} does not let user {user!r} read or write "
                          f"{clean(exc.url or 'there')} (HTTP 403); check --caldav and --user"
                          ) from None
        raise stopped(f"the server at {shown} refused user {user!r} (HTTP 401: wrong user "
                      f"name or password? The password comes from {PASSWORD_ENV} or the "
                      "prompt)") from None
    except dav_error.NotFoundError as exc:
        raise stopped(f"no CalDAV calendar home found at {shown} ({clean(_dav_detail(exc))}); "
                      "check "
                      "--caldav") from None
    except dav_error.DAVError as exc:
        raise stopped(f"the server at {shown} is not answering as a CalDAV server "
                      f"({clean(_dav_detail(exc))}); check --caldav") from None
    except OSError as exc:  # connection refused, DNS, TLS, timeout (niquests/requests)
        raise stopped(f"cannot reach the CalDAV server at {shown} ({clean(_cause(exc))}); "
                      "is it "
                      "running, and is --caldav right?") from None
    except (ValueError, SyntaxError) as exc:  # unparsable XML (lxml) or iCalendar
        raise stopped(f"the server at {shown} sent an answer that is not CalDAV "
                      f"({clean(_one_line(exc))}); check --caldav") from None


_KNOWN_CAUSES = (
    ("connection refused", "connection refused"),
    ("name or service not known", "host name not found"),
    ("failed to resolve", "host name not found"),
    ("name resolution", "host name not found"),
    ("nodename nor servname", "host name not found"),
    ("timed out", "timed out"),
    ("certificate verify failed", "its TLS certificate is not trusted"),
    ("wrong version number", "not a TLS server: try http://"),
    ("connection reset", "connection reset"),
    ("network is unreachable", "network unreachable"),
)
_ERRNO = re.compile(r"\[Errno -?\d+\] ([^'\")\]]+)")


def _cause(exc: BaseException) -> str:
    """The root cause of a connection error in a few words ("connection refused", "host name
    not found", "timed out", ...), not the HTTP library's chain of wrappers."""
    text = str(exc)
    for needle, words in _KNOWN_CAUSES:
        if needle in text.lower():
            return words
    found = _ERRNO.search(text)
    return found.group(1).strip() if found else _one_line(exc)


def _dav_detail(exc: BaseException) -> str:
    """A DAVError's HTTP status and reason, without an HTML error page."""
    reason = " ".join(str(getattr(exc, "reason", "") or "").split("<", 1)[0].split())
    status = getattr(exc, "status", None)
    if reason and reason != "no reason":
        return reason if len(reason) <= 120 else reason[:117] + "..."
    return f"HTTP {status}" if status else type(exc).__name__


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
