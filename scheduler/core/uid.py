"""The UIDs of a plan's calendar events: built and parsed here, and nowhere else.

An iCalendar UID must be globally unique and persistent (RFC 5545 §3.8.4.7, which recommends
a ``@domain`` right-hand side). Every UID tourney writes is

    ``<local>@<host>.<lineage>.<domain>``

- ``<local>`` says what the event is: ``<tournament>-<n>`` (an occurrence of a fresh plan,
  whose lineage key already names its horizon), ``<tournament>.<YYYYMMDD>-<n>`` (an
  occurrence a re-plan adds: YYYYMMDD is the re-plan's horizon start, since the lineage it
  inherits may hold plans of other horizons, e.g. next year's made from this year's, whose
  new occurrences are numbered on from the same previous plan),
  ``<occurrence local>.s<k>`` (the k-th session, k >= 2, of an occurrence given as
  ``sessions``: flights and day 2s; its first session's event has the occurrence's UID, so a
  plan without sessions and one with them keep the occurrence's UID; ``k`` is the session's
  position in the tournament's ``sessions``),
  ``<tournament>[.<weekday>].series[-<n>]`` (a weekly series of Montana small-stakes
  nights; ``-<n>``, n >= 2, when an earlier series of the lineage, e.g. last year's, holds
  the UID without it),
  ``notice-<operator>.<occurrence local>`` (MT-NOTICE deadline of an occurrence),
  ``application-opens-<licence id>``, ``application-due-<licence id>``,
  ``report-<licence id>[-YYYY-MM]`` (Maine licence deadlines);
- ``<host>`` is an operator id (the tournament's first operator, the licence holder);
- ``<lineage>`` is the plan lineage's key (:func:`lineage_key`): ten hex digits that a plan of
  another year, another scenario file or another organization does not repeat, while a rerun
  of the same input gives the same key; a re-plan (``--previous``) inherits its previous
  plan's key (:func:`inherited_lineage`), so announced events keep their UIDs;
- ``<domain>`` is a domain the organization controls: the operator's ``uid_domain``, else the
  scenario's ``uid_domain``, else :data:`DEFAULT_DOMAIN`.

Tournament and operator ids never contain a dot (``ID_PATTERN``), so the parts can be read
back (:func:`parse`). UIDs of earlier versions (``deep-1@room-a.tourney``, no lineage) are
read too, with ``lineage`` None.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scheduler.core.fields import WEEKDAYS
from scheduler.core.scenario import Scenario

DEFAULT_DOMAIN = "tourney.invalid"
"""The UID domain when neither the scenario nor the operator sets ``uid_domain``: the
reserved ``.invalid`` top-level domain (RFC 6761 §6.4), which nobody else's UIDs use."""
LINEAGE_DIGITS = 10
LINEAGE_PROPERTY = "X-TOURNEY-LINEAGE"
"""The VEVENT property holding the lineage key of the plan that wrote the event."""
OPERATOR_NAME_PROPERTY = "X-TOURNEY-OPERATOR-NAME"
"""The VCALENDAR property naming an operator the calendar is of, one per operator:
``<operator id> <operator name>`` as TEXT (RFC 5545 §3.3.11 escapes). Calendars of earlier
versions have none."""

PROPERTY_PREFIX = "X-TOURNEY-"
"""The prefix of every property tourney writes (an object holding one is a product's)."""
TOURNAMENT_PROPERTY = "X-TOURNEY-TOURNAMENT"
"""The VEVENT property naming the tournament id of an occurrence, series or cancellation."""
OCCURRENCE_PROPERTY = "X-TOURNEY-OCCURRENCE"
"""The VEVENT property holding an occurrence's number (``N`` of ``TOURNAMENT#N``)."""
OPERATORS_PROPERTY = "X-TOURNEY-OPERATORS"
"""The VEVENT property listing an event's operator ids, separated by single spaces."""
OPERATOR_PROPERTY = "X-TOURNEY-OPERATOR"
"""The VCALENDAR property naming the operator of a per-operator calendar."""
HORIZON_PROPERTY = "X-TOURNEY-HORIZON"
"""The VCALENDAR property holding the plan's horizon, ``start/end`` (ISO 8601 days)."""
DEADLINE_PROPERTY = "X-TOURNEY-DEADLINE"
"""The VEVENT property of a deadline event: a key of :data:`DEADLINE_KIND`."""
STATUS_PROPERTY = "X-TOURNEY-STATUS"
"""The VEVENT property of an occurrence holding its schedule.csv ``status`` (``held``,
``filed``, ``announced``, ``new``; :data:`scheduler.result.plan.STATUSES`): ``tourney check``
judges a held or filed one on what happened, as it does schedule.csv's rows. Not content:
a change of it alone keeps the event's SEQUENCE."""
PERMIT_HELD_PROPERTY = "X-TOURNEY-PERMIT-HELD"
"""The VEVENT property of a Montana occurrence listing the operator ids (single spaces)
whose permit for its permit year was held before the plan, so the plan bought none
(MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b)): what schedule.csv says by a ``permit_year``
without a ``license_id``."""
PLAY_PROPERTY = "X-TOURNEY-PLAY"
"""The VEVENT property holding when play starts and ends, ``start/end`` (ISO 8601 with UTC
offset)."""
SESSION_PROPERTY = "X-TOURNEY-SESSION"
"""The VEVENT property holding a session's number (1, 2, ...) of an occurrence given as
``sessions`` (:func:`session_uid`)."""

KIND_PROPERTY = "X-TOURNEY-KIND"
"""The VEVENT property saying what the event is, one of :data:`KINDS`, written on every event;
``tourney check`` reads an event's kind from it (never from its UID)."""
OCCURRENCE = "occurrence"
"""``X-TOURNEY-KIND`` of an occurrence (or one session of it)."""
SERIES = "series"
"""``X-TOURNEY-KIND`` of a weekly series of Montana small-stakes nights."""
NOTICE = "notice"
"""``X-TOURNEY-KIND`` of an MT-NOTICE deadline."""
APPLICATION = "application"
"""``X-TOURNEY-KIND`` of an ME-APPLICATION-WINDOW deadline (the window opening or due)."""
REPORT = "report"
"""``X-TOURNEY-KIND`` of an ME-REPORT deadline."""
GAME_KINDS = (OCCURRENCE, SERIES)
"""The kinds of the events that are games (``tourney check`` checks them)."""
DEADLINE_KINDS = (NOTICE, APPLICATION, REPORT)
"""The kinds of the product's deadline events (not games: not checked)."""
KINDS = GAME_KINDS + DEADLINE_KINDS
"""Every value of ``X-TOURNEY-KIND``: what the event is."""
DEADLINE_KIND = {"mt-notice": NOTICE, "me-application-opens": APPLICATION,
                 "me-application-due": APPLICATION, "me-report": REPORT}
"""``X-TOURNEY-KIND`` of a deadline event by its ``X-TOURNEY-DEADLINE``."""

_ID = r"[a-z0-9][a-z0-9-]*"
_LINEAGE = re.compile(rf"^[0-9a-f]{{{LINEAGE_DIGITS}}}$")
_OCC = re.compile(rf"^(?P<tid>{_ID})(?:\.(?P<since>\d{{8}}))?-(?P<occ>\d+)$")
_SESSION = re.compile(rf"^(?P<occ>{_ID}(?:\.\d{{8}})?-\d+)\.s(?P<k>\d+)$")
_SERIES = re.compile(rf"^(?P<tid>{_ID})(?:\.(?P<wd>{'|'.join(WEEKDAYS)}))?\.series(?:-\d+)?$")
_NOTICE = re.compile(rf"^notice-(?P<op>{_ID})\.(?P<occ>{_ID}(?:\.\d{{8}})?-\d+)$")
_LEGACY_NOTICE = re.compile(rf"^notice-(?P<uid>.+\.tourney)-(?P<op>{_ID})$")
_LICENCE = re.compile(r"^(?P<kind>application-opens|application-due|report)-(?P<lid>[^/@]+/"
                      r"[^/@]+/(?P<day>\d{4}-\d{2}-\d{2})[^@]*)$")


@dataclass(frozen=True)
class Uid:
    """A product UID taken apart (see the module docstring); fields that do not apply are
    None. ``kind`` is ``occurrence``, ``series``, ``notice``, ``application-opens``,
    ``application-due`` or ``report``."""

    kind: str
    host: str | None
    lineage: str | None
    domain: str | None
    tournament_id: str | None = None
    occurrence: int | None = None
    weekday: int | None = None
    """A series' weekday (0 Monday) when its UID names one."""
    operator_id: str | None = None
    """The operator a deadline is for (notice: the notifying operator; licence: holder)."""
    occurrence_uid: str | None = None
    """A notice's occurrence."""
    licence_id: str | None = None
    session: int | None = None
    """The session (2 for the second, ...) of an occurrence with sessions (kind
    ``occurrence``), None for the occurrence's own UID (its first session)."""


# --------------------------------------------------------------------------- identity
def lineage_key(scenario: Scenario) -> str:
    """The lineage key of a fresh plan of ``scenario``: the first ten hex digits of the
    SHA-256 of the JSON list ``[name, horizon start, horizon end, [[id, name, address,
    jurisdiction, organized_on, UID domain], ...]]`` (one entry per operator, sorted; the UID
    domain is the one its events get, :func:`domain`, so writing the default
    ``tourney.invalid`` is the same as not setting it).

    Another year (horizon), another scenario (name), another organization (a copied example
    with its own operator names or addresses, or its own ``uid_domain``) gives another key;
    editing tournaments, times or ``notice_from`` does not, and the same input always gives
    the same key."""
    ops = sorted([o.id, o.name, o.address or "", o.jurisdiction,
                  o.organized_on.isoformat() if o.organized_on else "", domain(scenario, o.id)]
                 for o in scenario.operators)
    data = [scenario.name, scenario.horizon.start.isoformat(),
            scenario.horizon.end.isoformat(), ops]
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:LINEAGE_DIGITS]


def inherited_lineage(uids: Iterable[str]) -> str | None:
    """The lineage key most of ``uids`` carry (a previous plan's UIDs; ties: the smallest
    key), None when none carries one (no previous plan, or one of an earlier version)."""
    found = Counter(p.lineage for u in uids if (p := parse(u)) is not None and p.lineage)
    if not found:
        return None
    return min(found, key=lambda k: (-found[k], k))


def domain(scenario: Scenario, operator_id: str | None) -> str:
    """The UID domain of an operator's events: its ``uid_domain``, else the scenario's, else
    :data:`DEFAULT_DOMAIN`."""
    op = None
    if operator_id is not None:
        try:
            op = scenario.operator(operator_id)
        except KeyError:
            op = None
    return (op.uid_domain if op is not None and op.uid_domain else None) \
        or scenario.uid_domain or DEFAULT_DOMAIN


def _rhs(scenario: Scenario, host: str, lineage: str) -> str:
    return f"{host}.{lineage}.{domain(scenario, host)}"


# --------------------------------------------------------------------------- building
def occurrence_uid(scenario: Scenario, tournament_id: str, n: int, host: str,
                   lineage: str, since: dt.date | None = None) -> str:
    """``<tournament>-<n>@<host>.<lineage>.<domain>``: the ``n``-th UID of a tournament; with
    ``since`` (a re-plan's horizon start) ``<tournament>.<YYYYMMDD>-<n>@...``, which no plan
    of the lineage with another horizon can give."""
    tag = f".{since:%Y%m%d}" if since is not None else ""
    return f"{tournament_id}{tag}-{n}@{_rhs(scenario, host, lineage)}"


def session_uid(occurrence: str, k: int) -> str:
    """The UID of the ``k``-th session (1-based) of the occurrence whose UID is
    ``occurrence``: ``occurrence`` itself for the first, ``<local>.s<k>@<rhs>`` for the
    others (a stable suffix: the session's position in the tournament's ``sessions``)."""
    if k <= 1:
        return occurrence
    local, at, rhs = occurrence.rpartition("@")
    return f"{local}.s{k}@{rhs}" if at else f"{occurrence}.s{k}"


def session_occurrence(uid: str, k: int) -> str:
    """The occurrence's UID of the ``k``-th session's UID ``uid`` (:func:`session_uid`
    read back): ``<local>@<rhs>`` of ``<local>.s<k>@<rhs>``; ``uid`` itself for the first
    session (whose UID is the occurrence's) or a UID without the suffix."""
    local, at, rhs = uid.rpartition("@")
    return f"{local.removesuffix(f'.s{k}')}@{rhs}" if at else uid.removesuffix(f".s{k}")


def series_uid(scenario: Scenario, tournament_id: str, weekday: int | None, host: str,
               lineage: str) -> str:
    """A weekly series' UID; ``weekday`` (0 Monday) only when the tournament has a series on
    several weekdays."""
    name = tournament_id if weekday is None else f"{tournament_id}.{WEEKDAYS[weekday]}"
    return f"{name}.series@{_rhs(scenario, host, lineage)}"


def renumbered_series_uid(uid: str, n: int) -> str:
    """A weekly series' UID ``uid`` with ``-n`` after ``.series`` (``sat.series@RHS`` ->
    ``sat.series-2@RHS``): the series revived beside a cancelled one that holds ``uid``."""
    local, _, rhs = uid.rpartition("@")
    return f"{local}-{n}@{rhs}"


def local_part(uid: str) -> str:
    """The part of ``uid`` before its last ``@`` (the whole UID when it has none): what stays
    when a plan's UID domain changes."""
    return uid.rpartition("@")[0] or uid


def notice_uid(occurrence: str, operator_id: str) -> str:
    """The MT-NOTICE deadline of an occurrence (by its UID) for one of its operators: it
    keeps the occurrence's right-hand side, so it moves with it."""
    p = parse(occurrence)
    if p is None or p.lineage is None or p.kind != "occurrence":
        return f"notice-{occurrence}-{operator_id}"  # an occurrence UID of an earlier version
    local, _, rhs = occurrence.rpartition("@")
    return f"notice-{operator_id}.{local}@{rhs}"


def licence_uid(scenario: Scenario, kind: str, licence_id: str, operator_id: str,
                lineage: str, suffix: str = "") -> str:
    """A Maine licence deadline: ``kind`` is ``application-opens``, ``application-due`` or
    ``report`` (``suffix`` ``-YYYY-MM`` for a month of an annual licence)."""
    return f"{kind}-{licence_id}{suffix}@{_rhs(scenario, operator_id, lineage)}"


def unplanned_uid(tournament_id: str, first_day: dt.date, operator_id: str) -> str:
    """The UID the ledger gives an occurrence held that no plan had (``tourney record held
    --unplanned``): ``<tournament>.held-<YYYYMMDD>@<operator>.ledger.<DEFAULT_DOMAIN>``,
    the same for the same tournament, first day and operator (a second record of it is a
    duplicate, corrected with ``--corrects``). No calendar publishes it; :func:`parse`
    reads it as no product UID."""
    return f"{tournament_id}.held-{first_day:%Y%m%d}@{operator_id}.ledger.{DEFAULT_DOMAIN}"


# --------------------------------------------------------------------------- parsing
def parse(uid: str) -> Uid | None:
    """The parts of a product UID (this version's or an earlier one's), None for any other
    UID (an event added by hand)."""
    uid = uid.strip()
    m = _LEGACY_NOTICE.match(uid)
    if m:
        occ = parse(m.group("uid"))
        return Uid("notice", occ.host if occ else None, None, None,
                   occ.tournament_id if occ else None, occ.occurrence if occ else None,
                   operator_id=m.group("op"), occurrence_uid=m.group("uid"))
    local, at, rhs = uid.rpartition("@")
    if not at:  # licence deadlines of earlier versions had no right-hand side
        local, rhs = uid, ""
    host: str | None
    lineage: str | None
    labels = rhs.split(".") if rhs else []
    if len(labels) >= 3 and _LINEAGE.match(labels[1]):
        host, lineage, dom = labels[0], labels[1], ".".join(labels[2:])
    elif len(labels) == 2 and labels[1] == "tourney":
        host, lineage, dom = labels[0], None, None
    elif not rhs:
        host = lineage = dom = None
    else:
        return None
    if (m := _OCC.match(local)) and host is not None:
        return Uid("occurrence", host, lineage, dom, m.group("tid"), int(m.group("occ")))
    if (m := _SESSION.match(local)) and host is not None:
        occ_local = _OCC.match(m.group("occ"))
        assert occ_local is not None
        return Uid("occurrence", host, lineage, dom, occ_local.group("tid"),
                   int(occ_local.group("occ")), session=int(m.group("k")))
    if (m := _SERIES.match(local)) and host is not None:
        wd = WEEKDAYS.index(m.group("wd")) if m.group("wd") else None
        return Uid("series", host, lineage, dom, m.group("tid"), weekday=wd)
    if (m := _NOTICE.match(local)) and host is not None:
        occ_local = _OCC.match(m.group("occ"))
        assert occ_local is not None
        return Uid("notice", host, lineage, dom, occ_local.group("tid"),
                   int(occ_local.group("occ")), operator_id=m.group("op"),
                   occurrence_uid=f"{m.group('occ')}@{rhs}")
    if m := _LICENCE.match(local):
        lid = m.group("lid")
        return Uid(m.group("kind"), host, lineage, dom, operator_id=lid.split("/", 1)[0],
                   licence_id=lid)
    return None


def kind_of_uid(p: Uid) -> str:
    """The ``X-TOURNEY-KIND`` (:data:`KINDS`) of the event a product UID ``p`` names: its
    ``kind``, but ``application`` for ``application-opens`` and ``application-due``."""
    return APPLICATION if p.kind.startswith("application-") else p.kind


def is_deadline(uid: str) -> bool:
    """Whether ``uid`` is one of a deadline event (notice, licence application, report)."""
    p = parse(uid)
    return p is not None and p.kind not in GAME_KINDS


def licence_day(uid: str) -> str | None:
    """The licence start day (ISO) a licence deadline's UID names, else None."""
    m = _LICENCE.match(local_part(uid))
    return m.group("day") if m else None
