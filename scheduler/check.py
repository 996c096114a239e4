"""Audit a schedule against the law without trusting any solver.

``tourney check SCENARIO SCHEDULE`` reads a ``schedule.csv`` written by the product, or an
``.ics`` file (the product's own, or one edited in a calendar application), matches its events
to the scenario's tournaments, and runs every rule's independent ``check`` (plain Python over
the placed occurrences; see ``constraints/``). Cost rules (MT-PERMIT-FEES, ME-FEES) are checked
only when a ``licenses.csv`` lies beside the schedule.
"""

from __future__ import annotations

import datetime as dt
import warnings
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pandas as pd
from icalendar import Calendar

from constraints.base import Audit, License, Occurrence, Violation
from constraints.catalogue import COST_RULES
from constraints.catalogue import RULES as CATALOGUE
from constraints.registry import RULES, check
from scheduler.calendar_limits import expand_events, read_calendar
from scheduler.limits import (
    FIRST_YEAR,
    LAST_YEAR,
    LimitError,
    max_calendar_events,
    regular_file_problem,
)
from scheduler.load import validate_scenario
from scheduler.plan import LICENSE_COLUMNS
from scheduler.scenario import MT_TYPES, Scenario, Tournament
from scheduler.timing import (
    Timing,
    day_span,
    local,
    read_timing,
    timing,
    tournament_tz,
    years_later,
)
from scheduler.uid import DEADLINE_KINDS, GAME_KINDS, KIND_PROPERTY, NOTICE, kind_of_uid
from scheduler.uid import parse as parse_uid

_CSV_YEARS = range(FIRST_YEAR, LAST_YEAR + 1)


class ScheduleError(ValueError):
    """The schedule file cannot be read (exit 2): names the file, the row or event, the field."""


@dataclass
class ReadSchedule:
    """What was read: occurrences matched to tournaments, and events that matched none."""

    placed: list[Occurrence]
    unmatched: list[str] = field(default_factory=list)
    licenses: list[License] | None = None
    operators: frozenset[str] | None = None
    not_checked: list[str] = field(default_factory=list)
    """Events read but not checked, each with the reason (a deadline, a cancelled event, a
    recurring event cut at its instance limit)."""


# ------------------------------------------------------------------------------ reading
def read_schedule(scenario: Scenario, path: str | Path,
                  operator: str | None = None) -> ReadSchedule:
    """Read a schedule to audit: a plan's ``schedule.csv`` or an ``.ics`` calendar.

    Parameters
    ----------
    scenario
        The scenario the schedule claims to follow (its tournaments are matched by id, or
        by title for calendar events).
    path
        The file: ``schedule.csv`` (the columns tourney writes) or an ``.ics`` file; at most
        :func:`scheduler.limits.max_input_bytes`.
    operator
        An operator id: the file is audited as that operator's schedule. None: an ``.ics``
        file says whose it is by its content (:func:`calendar_operator`), never by its file
        name, and any other file is the whole scenario's.

    Returns
    -------
    ReadSchedule
        ``placed``: the occurrences matched to tournaments; ``unmatched``: the events that
        matched none; ``licenses``: the licences of the ``licenses.csv`` in the same
        folder (None: there is none, so the cost rules are not audited); ``operators``:
        whose schedule it is (None: every operator's); ``not_checked``: events read but not
        checked, with the reason.

    Raises
    ------
    ScheduleError
        ``operator`` is not an operator of the scenario, or the file cannot be read
        (missing, a folder, too large, empty, a row or event at fault): the message names
        the file, the row or event and the field (exit 2 in the CLI).
    """
    p = Path(path)
    ids = {o.id for o in scenario.operators}
    if operator is not None and operator not in ids:
        raise ScheduleError(f"--operator {operator!r} is not an operator of the scenario "
                            f"(operators: {', '.join(sorted(ids))})")
    problem = regular_file_problem(p)
    if problem:
        raise ScheduleError(f"{p}: {problem.removeprefix('cannot read the file: ')}" + (
            "; give schedule.csv or a calendar (.ics) file" if p.is_dir() else ""))
    with open(p, "rb") as fh:
        head = fh.read(512).lstrip(b"\xef\xbb\xbf \r\n\t")
    if not head:
        raise ScheduleError(f"{p}: the file is empty")
    is_ics = p.suffix.lower() in (".ics", ".ical", ".icalendar") or head.startswith(
        b"BEGIN:VCALENDAR")
    read = _read_ics(scenario, p) if is_ics else _read_csv(scenario, p)
    lic = p.with_name("licenses.csv")
    if lic.is_file():
        read.licenses = _read_licenses(lic)
    owner = operator or (calendar_operator(scenario, p) if is_ics else None)
    if owner is not None:
        read.operators = frozenset({owner})  # one operator's calendar
    return read


def calendar_operator(scenario: Scenario, path: Path) -> str | None:
    """Whose calendar an .ics file is, from its content: the X-TOURNEY-OPERATOR property
    tourney writes into each ``calendars/<operator_id>.ics``, else an X-WR-CALNAME (or NAME)
    equal to the per-operator calendar's name (``<scenario> — <operator name>``), the
    operator's name or its id; None when it names no single operator (a whole plan's
    calendar, or one edited by hand)."""
    try:
        cals = Calendar.from_ical(read_calendar(path), multiple=True)
    except Exception:  # unreadable or over a limit: _read_ics says why
        return None
    ids = {o.id for o in scenario.operators}
    found = {str(c.get("X-TOURNEY-OPERATOR", "")).strip() for c in cals} - {""}
    if found:
        return found.pop() if len(found) == 1 and found <= ids else None
    names = {str(c.get(k, "")).strip().lower() for c in cals for k in ("X-WR-CALNAME", "NAME")}
    names.discard("")
    hits = {o.id for o in scenario.operators
            if names & {f"{scenario.name} — {o.name}".lower(), o.name.lower(), o.id}}
    return hits.pop() if len(hits) == 1 else None


def _read_csv(scenario: Scenario, path: Path) -> ReadSchedule:
    df = _csv(path)
    need = {"tournament_id", "occurrence", "start", "end", "first_day", "last_day"}
    missing = sorted(need - set(df.columns))
    if missing:
        raise ScheduleError(f"{path}: missing column(s) {', '.join(missing)}; expected the "
                            "schedule.csv written by `tourney solve`")
    known = {t.id: t for t in scenario.tournaments}
    seen: dict[tuple[str, int], list[Timing]] = {}
    out: list[Occurrence] = []
    notes: list[str] = []
    extra_numbers: dict[str, int] = {}
    for i, row in df.iterrows():
        line = int(str(i)) + 2
        tid = row["tournament_id"]
        if tid not in known:
            notes.append(f"{path}:{line}: tournament_id {tid!r} is not in the scenario")
            continue
        occ = _field(path, line, row, "occurrence", int)
        start = _field(path, line, row, "start", dt.datetime.fromisoformat)
        end = _field(path, line, row, "end", dt.datetime.fromisoformat)
        first = _field(path, line, row, "first_day", dt.date.fromisoformat)
        last = _field(path, line, row, "last_day", dt.date.fromisoformat)
        if start.tzinfo is None or end.tzinfo is None:
            raise ScheduleError(f"{path}:{line}: start/end need a UTC offset "
                                f"(e.g. 2027-03-12T12:00:00-07:00)")
        t = known[tid]
        tz = tournament_tz(scenario, t)
        start, end = start.astimezone(tz), end.astimezone(tz)
        # the day columns must say what start/end say (end exclusive)
        last_of_end = (end - dt.timedelta(microseconds=1)).date()
        if end <= start or first != start.date() or last != last_of_end:
            raise ScheduleError(
                f"{path}:{line}: {tid}#{occ}: first_day {first} .. last_day {last} do not "
                f"match start {start.isoformat()} .. end {end.isoformat()} (the days from "
                f"start to end, end exclusive, are {start.date()} .. {last_of_end})"
                if end > start else
                f"{path}:{line}: {tid}#{occ}: end {end.isoformat()} is not after start "
                f"{start.isoformat()}")
        tm = (read_timing(scenario, t, start, end) if t.sessions  # flights: their sessions
              else Timing(start, end, _span(first, last)))
        if t.sessions and not tm.sessions:  # not the span the scenario's sessions give
            want = timing(t, tz, start.date())
            if want is not None:
                notes.append(
                    f"{path}:{line}: {tid}#{occ}: start {start.isoformat()} .. end "
                    f"{end.isoformat()} is not the span of its {len(t.sessions)} sessions "
                    f"({', '.join(x.label for x in t.sessions)}: {want.start.isoformat()} .. "
                    f"{want.end.isoformat()}); read as one session from start to end "
                    "(SCENARIO)")
        same = seen.setdefault((tid, occ), [])
        if any(x.start == tm.start and x.end == tm.end for x in same):
            continue  # one row per operator of a shared occurrence
        if same:
            # another row says tid#occ is elsewhere: read it as one more occurrence
            n = extra_numbers.get(tid, max((o for (k, o) in seen if k == tid), default=0))
            extra_numbers[tid] = n + 1
            notes.append(f"{path}:{line}: {tid}#{occ} appears again with other dates "
                         f"({first}..{last}); read as occurrence {n + 1}")
            occ = n + 1
        same.append(tm)
        out.append(Occurrence(t, occ, tm))
    return ReadSchedule(sorted(out, key=lambda p: (p.first_day, p.ref)), notes)


def _csv(path: Path) -> pd.DataFrame:
    """A CSV as strings; UTF-8 (with or without BOM), else Windows-1252 (Excel on Windows)."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return pd.read_csv(path, dtype=str, keep_default_na=False, encoding=encoding)
        except UnicodeDecodeError:
            continue
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            raise ScheduleError(f"{path}: not a readable CSV file ({exc})") from None
    raise ScheduleError(f"{path}: not a text file")


def _field(path: Path, line: int, row: pd.Series, column: str, parse: Any) -> Any:
    try:
        value = parse(str(row[column]).strip())
    except (ValueError, InvalidOperation):
        value = None
    if isinstance(value, dt.date) and value.year not in _CSV_YEARS:
        raise ScheduleError(f"{path}:{line}: column {column} = {_cut(row[column])}: a date in "
                            f"the years {FIRST_YEAR} to {LAST_YEAR} is expected")
    if value is not None:
        return value
    want = {"occurrence": "a whole number", "start": "a date-time with UTC offset",
            "end": "a date-time with UTC offset",
            "fee_usd": "an amount in USD, e.g. 120 or 40.00 (no $ sign)"
            }.get(column, "a date YYYY-MM-DD")
    raise ScheduleError(f"{path}:{line}: column {column} = {_cut(row[column])} is not {want}")


def _cut(value: object) -> str:
    """A cell as shown in a message: ``repr``, cut to 80 characters."""
    text = str(value)
    return repr(text) if len(text) <= 80 else f"{text[:80]!r}... ({len(text):,} characters)"


def _read_licenses(path: Path) -> list[License]:
    df = _csv(path)
    if set(LICENSE_COLUMNS) - set(df.columns):
        raise ScheduleError(f"{path}: expected the columns {', '.join(LICENSE_COLUMNS)}")
    out = []
    seen: dict[str, int] = {}
    for i, r in df.iterrows():
        line = int(str(i)) + 2
        fee = _field(path, line, r, "fee_usd", _usd)
        lid = r["license_id"]
        if lid in seen:
            raise ScheduleError(f"{path}:{line}: license_id {lid!r} is listed twice (also on "
                                f"line {seen[lid]}): each licence or permit is one row")
        seen[lid] = line
        out.append(License(lid, r["operator_id"], r["jurisdiction"], r["kind"],
                           r["tier"], _field(path, line, r, "valid_from", dt.date.fromisoformat),
                           _field(path, line, r, "valid_to", dt.date.fromisoformat), fee,
                           tuple(r["covers"].split())))
    return out


def _usd(text: str) -> int | Decimal:
    """A licences.csv ``fee_usd``: whole dollars as an int, an amount with cents as a Decimal
    (compared exactly with the statute's fee: $120.40 is not $120). Raises ValueError for
    anything that is not a finite amount under $1,000,000,000."""
    try:
        fee = Decimal(text)
        if not fee.is_finite() or fee.adjusted() >= 9:  # adjusted(): the exponent, no math
            raise ValueError(text)
        return int(fee) if fee == fee.to_integral_value() else fee
    except ArithmeticError:  # decimal's Overflow, InvalidOperation, ...
        raise ValueError(text) from None


# the days from first to last (inclusive) and the same day N years later (Feb 29 -> Feb 28;
# how far around the horizon a calendar is read, not a legal period): scheduler.timing's
_span = day_span
_years_later = years_later

def _read_ics(scenario: Scenario, path: Path) -> ReadSchedule:
    unmatched: list[str] = []
    not_checked: list[str] = []
    with warnings.catch_warnings():  # icalendar warns about guessed TZIDs on stderr
        warnings.simplefilter("ignore")
        try:
            cals = Calendar.from_ical(read_calendar(path), multiple=True)
        except LimitError as exc:
            raise ScheduleError(f"{path}: {exc}") from None
        except Exception:  # icalendar raises several kinds for malformed input
            raise ScheduleError(f"{path}: not a readable iCalendar file (it should start "
                                "with BEGIN:VCALENDAR)") from None
        # expand RRULE/RDATE/EXDATE (a weekly series is many occurrences) over the horizon
        # and a year either side (an instance with a mistyped year is reported: HORIZON),
        # at most MAX_SERIES_INSTANCES per event (an hourly rule is cut and reported)
        first = max(_years_later(scenario.horizon.start, -1), dt.date(FIRST_YEAR, 1, 1))
        last = min(_years_later(scenario.horizon.end, 1), dt.date(LAST_YEAR, 12, 31))
        budget = [max_calendar_events()]
        events = []
        seen: set[tuple[str, str, str]] = set()
        for cal in cals:
            # recurring events are expanded; the others are read as written (an expansion
            # would turn a UTC DTEND in the repeated hour into the first of the two hours)
            masters = {str(ev.get("UID", "")) for ev in cal.walk("VEVENT")
                       if ev.get("RRULE") or ev.get("RDATE")}
            try:
                instances, cut = expand_events(cal, first, last, budget=budget)
            except LimitError as exc:
                raise ScheduleError(f"{path}: {exc}") from None
            except Exception as exc:
                raise ScheduleError(f"{path}: cannot read the events' dates "
                                    f"({str(exc)[:200]})") from None
            unmatched += [f"{path}: {note}" for note in cut]
            expanded = [ev for ev in instances if str(ev.get("UID", "")) in masters]
            got = {str(ev.get("UID", "")) for ev in expanded}
            for ev in cal.walk("VEVENT"):
                uid = str(ev.get("UID", ""))
                if uid in masters and uid not in got and \
                        str(ev.get("STATUS", "")).upper() != "CANCELLED":
                    unmatched.append(f"{path}: recurring event {_summary(ev)} (UID "
                                     f"{_short(uid) or '-'}) has no instance between {first} "
                                     f"and {last} (the horizon and a year either side): not "
                                     "checked")
                    got.add(uid)
            expanded += [ev for ev in cal.walk("VEVENT")
                         if str(ev.get("UID", "")) not in masters]
            for ev in expanded:  # the same event twice (e.g. two calendars joined): once
                key = (str(ev.get("UID", "")), str(ev.get("DTSTART", "") and
                                                   ev["DTSTART"].to_ical()),
                       str(ev.get("DTEND", "") and ev["DTEND"].to_ical()))
                if key not in seen:
                    seen.add(key)
                    events.append(ev)
    if not any(True for cal in cals for _ in cal.walk("VEVENT")):
        raise ScheduleError(f"{path}: the calendar has no events (VEVENT)")
    uid_count: dict[str, int] = {}
    for ev in events:
        uid_count[str(ev.get("UID", ""))] = uid_count.get(str(ev.get("UID", "")), 0) + 1
    by_id = {t.id: t for t in scenario.tournaments}
    by_title: dict[str, list[Tournament]] = {}
    for t in scenario.tournaments:
        by_title.setdefault(t.title.strip().lower(), []).append(t)
    found: list[tuple[Tournament, int | None, Timing]] = []
    # the sessions of one occurrence: (session number, timing, what the event is)
    parts: dict[tuple[str, int], list[tuple[int, Timing, str]]] = {}
    for ev in events:
        uid = str(ev.get("UID", ""))
        summary = str(ev.get("SUMMARY", ""))
        what = f"event {_summary(ev)} (UID {_short(uid) or '-'})"
        repeated = _repeated_property(ev)
        if repeated:  # which of two kinds (or tournaments, UIDs) is meant cannot be told
            unmatched.append(f"{path}: {what} has {repeated}: not checked")
            continue
        kind = event_kind(ev)
        forged = _kind_contradiction(ev, uid, kind)
        if forged:  # a game dressed as a deadline is checked as a game, and reported
            unmatched.append(f"{path}: {what} says X-TOURNEY-KIND {kind}, but {forged}: "
                             "checked as a game")
            kind = None
        if kind in DEADLINE_KINDS:
            not_checked.append(f"{path}: {what}: a {kind} deadline, not a game "
                               f"({_kind_source(ev)})")
            continue
        if str(ev.get("STATUS", "")).upper() == "CANCELLED":
            not_checked.append(f"{path}: {what}: cancelled (STATUS:CANCELLED)")
            continue
        if kind is not None and kind not in GAME_KINDS:
            unmatched.append(f"{path}: {what} has X-TOURNEY-KIND {_short(kind)}, which is not "
                             f"one of {', '.join(GAME_KINDS + DEADLINE_KINDS)}: not checked")
            continue
        match, occ = _match(ev, uid, summary, by_id, by_title)
        if match is None:
            unmatched.append(f"{path}: {what} matches no "
                             "tournament by UID, X-TOURNEY-TOURNAMENT or title")
            continue
        if uid_count.get(uid, 0) > 1:
            occ = None  # a recurring series: its occurrences are numbered by date
        session = _session_of(ev, uid) if match.sessions else None
        try:
            tm = _event_timing(scenario, match, ev, path, session)
        except ScheduleError:
            raise
        except Exception as exc:
            raise ScheduleError(f"{path}: event {summary!r} (UID {uid or '-'}): cannot read "
                                f"its DTSTART/DTEND ({exc})") from None
        if tm is None:
            unmatched.append(f"{path}: {what} has no usable DTSTART")
            continue
        if not (tm.start.year >= FIRST_YEAR and tm.end.year <= LAST_YEAR):
            unmatched.append(f"{path}: {what} is dated {tm.start.date()} to {tm.end.date()}, "
                             f"outside the years {FIRST_YEAR} to {LAST_YEAR}: not checked")
            continue
        if session is not None and occ is not None:  # a session: joined to its occurrence
            parts.setdefault((match.id, occ), []).append((session, tm, what))
            continue
        found.append((match, occ, tm))
    for (tid, occ), sess in sorted(parts.items(), key=lambda x: x[0]):
        unmatched += _session_notes(path, by_id[tid], occ, sess)
        found.append((by_id[tid], occ, _joined([tm for _, tm, _ in sess])))
    placed: list[Occurrence] = []
    for t in scenario.tournaments:
        mine = sorted((x for x in found if x[0].id == t.id), key=lambda x: x[2].start)
        used = {o for _, o, _ in mine if o is not None}
        nxt = 1
        for _, occ, tm in mine:
            if occ is None:  # matched by title: number it after the known ones, by date
                while nxt in used:
                    nxt += 1
                occ = nxt
                used.add(occ)
            placed.append(Occurrence(t, occ, tm))
    return ReadSchedule(sorted(placed, key=lambda p: (p.first_day, p.ref)), unmatched,
                        not_checked=not_checked)


def event_kind(ev: Any) -> str | None:
    """What a VEVENT is: the value of its ``X-TOURNEY-KIND`` (``occurrence``, ``series``,
    ``notice``, ``application``, ``report``; lower case), which the product writes on every
    event. For a calendar written before that property existed: ``notice``/``application``/
    ``report`` when it has ``X-TOURNEY-DEADLINE`` or its whole UID parses as a deadline UID of
    the product (:func:`scheduler.uid.parse`; never a prefix: a tournament may be called
    ``report-night``), else None (a game, or an event of another application)."""
    kind = str(ev.get(KIND_PROPERTY, "")).strip().lower()
    if kind:
        return kind
    deadline = str(ev.get("X-TOURNEY-DEADLINE", "")).strip().lower()
    parsed = parse_uid(str(ev.get("UID", "")))
    if parsed is not None and parsed.kind not in GAME_KINDS:
        return kind_of_uid(parsed)
    if deadline:
        return next((k for k in DEADLINE_KINDS if k in deadline), NOTICE)
    return None


SINGLE_PROPERTIES = ("X-TOURNEY-KIND", "UID", "X-TOURNEY-TOURNAMENT", "X-TOURNEY-OCCURRENCE",
                     "X-TOURNEY-DEADLINE", "X-TOURNEY-PLAY", "STATUS", "SUMMARY",
                     "X-TOURNEY-SESSION")
"""Properties that ``check`` reads of an event and that it may hold only once."""


def _repeated_property(ev: Any) -> str | None:
    """``two X-TOURNEY-KIND values (occurrence, notice)`` for the first of
    :data:`SINGLE_PROPERTIES` that ``ev`` holds more than once, else None."""
    for name in SINGLE_PROPERTIES:
        value = ev.get(name)
        if isinstance(value, list) and len(value) > 1:
            count = "two" if len(value) == 2 else f"{len(value):,}"
            shown = ", ".join(_short(str(v), 40) for v in value[:5])
            more = ", ..." if len(value) > 5 else ""
            return f"{count} {name} values ({shown}{more})"
    return None


def _kind_contradiction(ev: Any, uid: str, kind: str | None) -> str | None:
    """Why an event whose kind is a deadline (``notice``, ``application``, ``report``) is a
    game dressed as one, else None: it has ``X-TOURNEY-PLAY`` (the hours of play, written on
    games only), its UID is that of one of the product's games (:func:`scheduler.uid.parse`),
    or its explicit ``X-TOURNEY-KIND`` comes without the ``X-TOURNEY-DEADLINE`` that the
    product writes beside it on every deadline it has not cancelled. (``X-TOURNEY-TOURNAMENT``
    is no sign: a notice names its tournament too.)"""
    if kind not in DEADLINE_KINDS:
        return None
    if ev.get("X-TOURNEY-PLAY") is not None:
        return "it has X-TOURNEY-PLAY (the hours of play of a game)"
    parsed = parse_uid(uid)
    if parsed is not None and parsed.kind in GAME_KINDS:
        return f"its UID is that of a game ({parsed.kind} of {_short(parsed.tournament_id or '-')})"
    if (ev.get("X-TOURNEY-KIND") is not None and ev.get("X-TOURNEY-DEADLINE") is None
            and str(ev.get("STATUS", "")).upper() != "CANCELLED"):
        return "it has no X-TOURNEY-DEADLINE"
    return None


def _kind_source(ev: Any) -> str:
    if ev.get("X-TOURNEY-KIND"):
        return "X-TOURNEY-KIND"
    return "X-TOURNEY-DEADLINE" if ev.get("X-TOURNEY-DEADLINE") else "its UID"


def _short(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters, control characters escaped (a calendar's text
    reaches the terminal)."""
    shown = text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"
    return shown.encode("unicode_escape").decode("ascii") if not shown.isprintable() else shown


def _summary(ev: Any) -> str:
    return _cut(str(ev.get("SUMMARY", "")))



def _match(ev: object, uid: str, summary: str, by_id: dict[str, Tournament],
           by_title: dict[str, list[Tournament]]) -> tuple[Tournament | None, int | None]:
    p = parse_uid(uid)
    if p is not None and p.kind == "occurrence" and p.tournament_id in by_id:
        return by_id[p.tournament_id], p.occurrence
    tid = str(ev.get("X-TOURNEY-TOURNAMENT", ""))  # type: ignore[attr-defined]
    if tid in by_id:
        occ = str(ev.get("X-TOURNEY-OCCURRENCE", ""))  # type: ignore[attr-defined]
        return by_id[tid], int(occ) if occ.isdigit() else None
    same = by_title.get(summary.strip().lower(), [])
    if len(same) == 1:
        return same[0], None
    return None, None


def _session_of(ev: Any, uid: str) -> int | None:
    """The session number of an event of a tournament with ``sessions``: its
    X-TOURNEY-SESSION, else the one its UID names (:func:`scheduler.uid.session_uid`; the
    first session has the occurrence's own UID and no number there), else None."""
    text = str(ev.get("X-TOURNEY-SESSION", "")).strip()
    if text.isdigit():
        return int(text)
    p = parse_uid(uid)
    return p.session if p is not None and p.kind == "occurrence" else None


def _session_notes(path: Path, t: Tournament, occ: int,
                   got: list[tuple[int, Timing, str]]) -> list[str]:
    """What does not match the scenario's ``sessions`` among the session events read of
    occurrence ``occ`` of ``t`` (session number, timing, the event in words): a session
    with no event, a number the scenario does not give, and two sessions in play at once
    (rule ``SCENARIO``: the sessions of a tournament do not overlap). Each line names the
    file, the occurrence and the sessions."""
    n = len(t.sessions)

    def name(k: int) -> str:
        return f"session {k} ({t.sessions[k - 1].label})" if 1 <= k <= n else f"session {k}"

    ref = f"{path}: {t.id}#{occ}"
    have = {k for k, _, _ in got}
    out = [f"{ref}: {name(k)} has no event, the scenario gives {n} sessions (SCENARIO)"
           for k in range(1, n + 1) if k not in have]
    out += [f"{ref}: {what} is session {k}, the scenario gives {n} (SCENARIO)"
            for k, _, what in got if not 1 <= k <= n]
    seq = sorted(got, key=lambda x: (x[1].start, x[0]))
    out += [f"{ref}: {name(a)} ({x.start.isoformat()} .. {x.end.isoformat()}) and {name(b)} "
            f"({y.start.isoformat()} .. {y.end.isoformat()}) are in play at once; a "
            "tournament's sessions do not overlap (SCENARIO)"
            for (a, x, _), (b, y, _) in zip(seq, seq[1:], strict=False) if y.start < x.end]
    return out


def _joined(tms: list[Timing]) -> Timing:
    """One occurrence of the sessions read as events (flights and day 2s): from the first
    session's start to the last one's end, its days of play those the sessions touch."""
    tms = sorted(tms, key=lambda x: (x.start, x.end))
    return Timing(tms[0].start, max(x.end for x in tms),
                  tuple(sorted({d for x in tms for d in x.days})),
                  tuple((x.start, x.end) for x in tms))


def _event_timing(scenario: Scenario, t: Tournament, ev: object, path: Path,
                  session: int | None = None) -> Timing | None:
    """The timing an event shows; an all-day Montana event is played from the start time
    (of its ``session``, 1-based, when the tournament has ``sessions``) for ``hours``."""
    if session is not None and 1 <= session <= len(t.sessions):
        x = t.sessions[session - 1]  # this session read as a one-day tournament
        t = t.model_copy(update={"sessions": (), "start_time": x.start, "hours": x.hours,
                                 "days": 1})
    start_p = ev.get("DTSTART")  # type: ignore[attr-defined]
    if start_p is None:
        return None
    start = start_p.dt
    end_p = ev.get("DTEND")  # type: ignore[attr-defined]
    dur_p = ev.get("DURATION")  # type: ignore[attr-defined]
    end_v = end_p.dt if end_p is not None else (start + dur_p.dt if dur_p is not None else None)
    tz = tournament_tz(scenario, t)
    if _midnight_to_midnight(ev, start, end_v):
        # Exchange/Outlook write an all-day event as local midnight to midnight (with
        # X-MICROSOFT-CDO-ALLDAYEVENT:TRUE): the days, as the calendar shows them
        start = start.date()
        end_v = end_v.date() if isinstance(end_v, dt.datetime) else start + dt.timedelta(1)
    elif (isinstance(start, dt.datetime) and start.tzinfo is not None
          and (end_v is None or isinstance(end_v, dt.datetime) and end_v.tzinfo is not None)
          and _midnight_to_midnight(ev, start.astimezone(tz),
                                    end_v.astimezone(tz) if end_v is not None else None)):
        # the same local midnights written in UTC (``DTSTART:20270206T070000Z``) or another
        # zone: midnight in the operator's zone makes them all-day
        first = start.astimezone(tz).date()
        end_v = end_v.astimezone(tz).date() if end_v is not None else first + dt.timedelta(1)
        start = first
    if not isinstance(start, dt.datetime):  # all-day: the days are what the calendar shows
        last = (end_v - dt.timedelta(days=1)) if end_v is not None else start
        last = max(last, start)
        s = local(start, t.start_time, tz) or dt.datetime.combine(start, t.start_time, tz)
        if t.type in MT_TYPES:
            # play days: the last one's session ends `hours` after its start
            last_session = timing(t.model_copy(update={"days": 1}), tz, last)
            e = last_session.end if last_session is not None else s
        else:
            # a Maine game shown as all-day events: conducted until the end of its last day
            e = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(0), tz)
        return Timing(s, max(e, s), _span(start, last))
    if start.tzinfo is None:
        raise ScheduleError(f"{path}: event '{ev.get('SUMMARY')}' has a DTSTART without a "  # type: ignore[attr-defined]
                            "time zone it can be read in (no TZID, or an unknown one)")
    end = end_v if end_v is not None else start
    if not isinstance(end, dt.datetime):
        end = dt.datetime.combine(end, dt.time(0), start.tzinfo)
    s, e = start.astimezone(tz), end.astimezone(tz)
    last = (e - dt.timedelta(microseconds=1)).date() if e > s else s.date()
    return Timing(s, e, _span(s.date(), last))


def _midnight_to_midnight(ev: object, start: object, end: object) -> bool:
    """Whether a timed event is an all-day one written as date-times: it runs from midnight
    to a later midnight, in its own zone (or floating), or says so with
    X-MICROSOFT-CDO-ALLDAYEVENT:TRUE (Exchange, Outlook) and starts at midnight."""
    if not isinstance(start, dt.datetime) or start.time() != dt.time(0):
        return False
    flag = str(ev.get("X-MICROSOFT-CDO-ALLDAYEVENT", "")).strip().upper()  # type: ignore[attr-defined]
    if isinstance(end, dt.datetime):
        if end.tzinfo is not None and start.tzinfo is not None:
            end = end.astimezone(start.tzinfo)
        return end > start and end.time() == dt.time(0) and (
            flag == "TRUE" or (end.date() - start.date()).days >= 1)
    return end is None and flag == "TRUE"


# ------------------------------------------------------------------------------ auditing
def audit(scenario: Scenario, read: ReadSchedule) -> list[Violation]:
    """Audit a schedule against every rule, independently of the solver (each rule's
    ``check``), as ``tourney check`` does.

    Parameters
    ----------
    scenario
        The scenario; first checked against the input rules
        (:func:`scheduler.load.validate_scenario`).
    read
        The schedule, as :func:`read_schedule` returns it. The cost rules (MT-PERMIT-FEES,
        ME-FEES, ...) are audited only when a licenses.csv was read (``read.licenses``).

    Returns
    -------
    list of Violation
        Every violation (:class:`constraints.base.Violation`: rule ID, operator id, the
        occurrences ``tournament_id#k``, the dates, the sentence), in registry order then by
        date; empty when the schedule is legal. :func:`violation_table` makes it a
        DataFrame.

    Raises
    ------
    ScenarioError
        (:class:`~scheduler.problems.ScenarioError`) the scenario itself breaks an input
        rule, as ``tourney check`` refuses it.
    """
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    rules = [r for r in RULES if read.licenses is not None or r.id not in COST_RULES]
    return check(Audit(scenario, read.placed, read.licenses or [], read.operators), rules=rules)


def violation_table(violations: list[Violation]) -> pd.DataFrame:
    """Violations as rows: ``rule, citation, operator_id, tournament_id, occurrence, dates,
    message`` (all str; ``occurrence`` is the 1-based number, empty when a rule concerns a
    whole tournament)."""
    rows = []
    for v in violations:
        for ref in v.refs[:1] or ("",):
            tid, _, occ = ref.partition("#")
            cit = CATALOGUE[v.rule].citation
            rows.append({"rule": v.rule, "citation": "" if cit == "scenario" else cit,
                         "operator_id": v.operator_id, "tournament_id": tid,
                         "occurrence": occ, "dates": v.dates, "message": v.message})
    return pd.DataFrame(rows, columns=["rule", "citation", "operator_id", "tournament_id",
                                       "occurrence", "dates", "message"])



def check_table(violations: list[Violation], read: ReadSchedule) -> pd.DataFrame:
    """What ``tourney check --format csv|json`` lists: :func:`violation_table`, then one row
    per event read but not matched (rule ``UNMATCHED``) and per event not checked (rule
    ``NOT-CHECKED``), its text in ``message``, the other columns empty. Same columns."""
    table = violation_table(violations)
    if not (read.unmatched or read.not_checked):
        return table
    extra = pd.DataFrame([{"rule": rule, "citation": "", "operator_id": "",
                           "tournament_id": "", "occurrence": "", "dates": "",
                           "message": line}
                          for rule, lines in (("UNMATCHED", read.unmatched),
                                              ("NOT-CHECKED", read.not_checked))
                          for line in lines])
    return pd.concat([table, extra], ignore_index=True)


def _refs(v: Violation) -> list[dict[str, object]]:
    """Every occurrence a violation names, ``tournament_id#N`` split into the id and the
    1-based number N (an int); a ref without a number (a whole tournament) is left out."""
    out: list[dict[str, object]] = []
    for ref in v.refs:
        for one in ref.split(","):  # a ref may list several, "a#1,a#2"
            tid, _, occ = one.strip().partition("#")
            if tid and occ.isdigit():
                out.append({"tournament_id": tid, "occurrence": int(occ)})
    return out


def check_records(violations: list[Violation], read: ReadSchedule | None = None
                  ) -> list[dict[str, object]]:
    """What ``tourney check --format json`` prints: the rows of :func:`check_table` (of
    :func:`violation_table` without ``read``), each violation with ``occurrences``, a list
    of every occurrence it names, ``{"tournament_id": str, "occurrence": int}`` (1-based),
    in the rule's order; ``occurrence`` is the first of them, an int too (null when the
    violation concerns a whole tournament); an UNMATCHED or NOT-CHECKED row has an empty
    list.
    """
    table = check_table(violations, read) if read is not None else violation_table(violations)
    records: list[dict[str, object]] = [{str(k): v for k, v in r.items()}
                                        for r in table.to_dict(orient="records")]
    for rec, v in zip(records, violations, strict=False):
        rec["occurrences"] = _refs(v)
    for rec in records[len(violations):]:
        rec["occurrences"] = []
    for rec in records:  # the first of ``occurrences``, an int as there; null for none
        refs = rec["occurrences"]
        rec["occurrence"] = refs[0]["occurrence"] if isinstance(refs, list) and refs else None
    return records
