"""The plan side of publishing: a plan folder's ``calendars/<operator_id>.ics`` read into
one resource per UID (:func:`read_plan_calendars`, :func:`read_calendar`), and whether two
iCalendar objects hold the same events (:func:`same_content`). Pure: bytes in, values
out."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from icalendar import Calendar, Component

from scheduler.core.calendar_limits import read_calendar as read_ics_bounded
from scheduler.core.fields import ID_PATTERN
from scheduler.core.uid import HORIZON_PROPERTY, LINEAGE_PROPERTY
from scheduler.export.caldav.redaction import PublishError

PRODID = "-//tourney//tourney publish//EN"
IGNORED_PROPERTIES = frozenset({"DTSTAMP", "LAST-MODIFIED", "CREATED"})
"""Properties a server may set or rewrite by itself: not a difference worth a PUT."""
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


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
    """UID → iCalendar object (VCALENDAR with its VTIMEZONEs and VEVENTs) to put, cancelled
    events (STATUS:CANCELLED) too: the server holds what the calendar holds."""
    cancelled: frozenset[str] = frozenset()
    """UIDs whose VEVENT is STATUS:CANCELLED (put as such when in ``resources``; a server
    event of such a UID without a resource is deleted)."""
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


def parse_calendar(data: bytes | str) -> Calendar:
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
    cal = parse_calendar(data)
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
            # put as it is (STATUS:CANCELLED): the server holds what the calendar holds, so
            # a client that synced the event sees it cancelled
            cancelled.add(uid)
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
    span = str(cal.get(HORIZON_PROPERTY, "")).strip().split("/")
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
        ca, cb = parse_calendar(a), parse_calendar(b)
    except ValueError:
        return False
    return (sorted(_canon(c) for c in ca.subcomponents)
            == sorted(_canon(c) for c in cb.subcomponents))
