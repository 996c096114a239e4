"""Bounds on what tourney reads, so that no input can make it run out of memory or time.

Every limit is listed, with how to raise it, in ``docs/limits.md``. A limit that an honest
input could reach is overridable (an environment variable, or a command-line option); the
others (text lengths, control characters, dates) describe what the product can represent.

- :func:`read_bounded` reads a file given by the user: a regular file of at most
  :data:`MAX_INPUT_BYTES` (``TOURNEY_MAX_INPUT_MB``), never a device, pipe or folder.
- :func:`check_yaml_node` bounds a composed YAML document before it is turned into Python
  values: aliases may add at most :data:`MAX_YAML_ALIAS_NODES` nodes (a "billion laughs" of a
  few hundred bytes would otherwise expand to billions) and add at most
  :data:`MAX_YAML_ALIAS_CHARS` characters of text, nesting at most
  :data:`MAX_YAML_DEPTH` levels, and no alias may contain itself.
- :func:`read_calendar` reads an .ics file, counting its RDATE/EXDATE values
  (:data:`MAX_CALENDAR_DATES`) and the properties of each component
  (:data:`MAX_COMPONENT_PROPERTIES`) on the raw lines before anything parses it.
- :func:`expand_events` expands recurring calendar events (RRULE/RDATE) within a window of
  days, at most :data:`MAX_SERIES_INSTANCES` instances per event and
  :data:`MAX_CALENDAR_EVENTS` events per file (``TOURNEY_MAX_CALENDAR_EVENTS``).
- :func:`variants_count` and :func:`scheduler.decompose.model_size` estimate a sweep and a
  model before either is built (:data:`MAX_VARIANTS`, :data:`MAX_MODEL_CELLS`).
- :func:`cap_message` shortens a message meant for a person to :data:`MAX_MESSAGE_CHARS`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import itertools
import math
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # start-up time: yaml only where a file is read
    import yaml



def _env_int(name: str, default: int, scale: int = 1) -> int:
    """A positive whole number from the environment variable ``name`` (times ``scale``), else
    ``default``; a value that is not a positive whole number is ignored."""
    raw = os.environ.get(name, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw) * scale
    return default


MB = 1024 * 1024
MAX_INPUT_BYTES_DEFAULT = 64 * MB
"""Largest file read (scenario, vary file, schedule, calendar): 64 MB. A generated statewide
scenario of 1,000 operators is about 6 MB, of 5,000 operators about 30 MB."""
MAX_YAML_ALIAS_NODES = 100_000
"""How many nodes YAML aliases (``*name``) may add to a document when expanded."""
MAX_YAML_ALIAS_CHARS = 1_000_000
"""Characters of text that YAML aliases may repeat (a 5 MB string aliased 90,000 times
is 450 billion characters from a 5 MB file)."""
MAX_YAML_DEPTH = 100
"""Deepest nesting of mappings and lists in a YAML document."""
MAX_ID_LENGTH = 64
"""Characters of an operator or tournament id (ids name files: ``calendars/<id>.ics``)."""
MAX_NAME_LENGTH = 200
"""Characters of a title, a scenario or operator name, a beneficiary."""
MAX_TEXT_LENGTH = 2_000
"""Characters of a longer text: an address, a description."""
MAX_SERIES_INSTANCES = 5_000
"""Instances read of one recurring calendar event (a weekly series over ten years is 522;
a game every day for ten years 3,653)."""
MAX_CALENDAR_EVENTS_DEFAULT = 500_000
"""Events read from one calendar file, recurring ones expanded."""
MAX_VARIANTS_DEFAULT = 1_000
"""Variants of one sweep (``tourney sweep --max-variants N`` raises it)."""
MAX_VARIANTS_CEILING = 100_000
"""Most variants ``--max-variants`` can allow: each variant is a whole scenario in memory
before the sweep starts (a sweep of 100,000 variants would take days to solve anyway)."""
MAX_MODEL_CELLS_DEFAULT = 200_000
"""Candidate (tournament, first day) pairs of one independent part of a model
(``tourney solve --max-model N`` raises it). The largest part of a generated statewide
scenario of 1,000 operators has 1,235; 5,000 tournaments of one operator over a year
(1,825,000) took 12 minutes and 6.1 GB."""
MAX_MESSAGE_CHARS = 8_000
"""Characters of one message to a person; longer ones are cut with a count of the rest."""
MAX_PROBLEMS_SHOWN = 30
"""Problems listed of one invalid input; the rest are counted."""
MAX_LINES_SHOWN = 20
"""Lines listed of a long list in terminal output (violations, events not matched); the
rest are counted (``--format csv`` or ``json`` gives every one)."""
FIRST_YEAR, LAST_YEAR = 1900, 2199
"""Dates outside these years are refused (the product adds days and years to every date)."""
MAX_HORIZON_DAYS = 3_660
"""Longest horizon: about ten years."""
MAX_MONEY_USD = 10_000_000
"""Largest amount of money in a scenario or licences.csv (USD)."""


def max_input_bytes() -> int:
    """:data:`MAX_INPUT_BYTES_DEFAULT`, or ``TOURNEY_MAX_INPUT_MB`` megabytes."""
    return _env_int("TOURNEY_MAX_INPUT_MB", MAX_INPUT_BYTES_DEFAULT, MB)


def max_calendar_events() -> int:
    """:data:`MAX_CALENDAR_EVENTS_DEFAULT`, or ``TOURNEY_MAX_CALENDAR_EVENTS``."""
    return _env_int("TOURNEY_MAX_CALENDAR_EVENTS", MAX_CALENDAR_EVENTS_DEFAULT)


class LimitError(ValueError):
    """An input over one of the limits (exit 2): says which, the size, and how to raise it."""


# --------------------------------------------------------------------------- files
def regular_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as an input file (missing, a folder, a device or pipe, too
    large), else None. Does not open it (a FIFO would block)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return "cannot read the file: no such file"
    except OSError as exc:
        return f"cannot read the file: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return "cannot read the file: it is a folder"
    if not stat.S_ISREG(st.st_mode):
        return ("cannot read the file: it is not a regular file (a device, pipe or socket "
                "cannot be read as input)")
    limit = max_input_bytes()
    if st.st_size > limit:
        return (f"cannot read the file: it is {st.st_size / MB:,.1f} MB, larger than the "
                f"{limit / MB:,.0f} MB an input may be (set TOURNEY_MAX_INPUT_MB to raise it; "
                "see docs/limits.md)")
    return None


def read_bounded(path: str | Path) -> bytes:
    """The bytes of a regular file of at most :func:`max_input_bytes`. Raises
    :class:`LimitError` (the message says why, without the file name) for a missing file, a
    folder, a device or pipe (``/dev/zero``), a file over the limit (also one that grows
    while read), or one that cannot be read."""
    p = Path(path)
    problem = regular_file_problem(p)
    if problem:
        raise LimitError(problem)
    limit = max_input_bytes()
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise LimitError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise LimitError(f"cannot read the file: it is larger than the {limit / MB:,.0f} MB "
                         "an input may be (set TOURNEY_MAX_INPUT_MB to raise it; see "
                         "docs/limits.md)")
    return data


MAX_CALENDAR_DATES = 20_000
"""RDATE and EXDATE values of one calendar file (a weekly series over ten years is 522
dates). Parsing takes about 4 seconds a megabyte: a file of a million RDATE lines is refused
before it is parsed, not after a minute."""
MAX_COMPONENT_PROPERTIES = 1_000
"""Properties (unfolded lines) of one component of a calendar (an event, a time zone, the
calendar itself): an event tourney writes has about 20."""


def calendar_shape_problem(data: bytes) -> str | None:
    """Why the bytes of an .ics file are too many to parse, counted on the raw lines before
    any parsing (one pass, about a second for 64 MB): more than :data:`MAX_CALENDAR_DATES`
    RDATE/EXDATE values in the file, or more than :data:`MAX_COMPONENT_PROPERTIES` properties
    in one component. None when within both. The message names the line."""
    dates = 0
    props = 0
    in_dates = False
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line[:1] in (b" ", b"\t"):  # a folded line continues the property before it
            if in_dates:
                dates += line.count(b",")
        else:
            head = line[:7].upper()
            if head.startswith((b"BEGIN:", b"END:")):
                props = 0
                in_dates = False
                continue
            props += 1
            if props > MAX_COMPONENT_PROPERTIES:
                return (f"line {number:,}: one component (an event, a time zone or the "
                        f"calendar) has more than {MAX_COMPONENT_PROPERTIES:,} properties; an "
                        "event tourney writes has about 20 (see docs/limits.md)")
            in_dates = head.startswith((b"RDATE", b"EXDATE"))
            if in_dates:
                dates += 1 + line.count(b",")
        if dates > MAX_CALENDAR_DATES:
            return (f"line {number:,}: the calendar lists more than {MAX_CALENDAR_DATES:,} "
                    "dates in RDATE and EXDATE properties (a weekly series over ten years is "
                    "522); split it, or give the series as RRULEs (see docs/limits.md)")
    return None


def read_calendar(path: str | Path) -> bytes:
    """The bytes of an .ics file given by the user, as :func:`read_bounded`, and within
    :func:`calendar_shape_problem`'s counts (checked before icalendar parses it). Raises
    :class:`LimitError`."""
    data = read_bounded(path)
    problem = calendar_shape_problem(data) or _tzid_problem(data)
    if problem:
        raise LimitError(problem)
    return data


_TZID = re.compile(rb"TZID=(\"[^\"\r\n]*\"|[^:;,\r\n]*)", re.IGNORECASE)


def _tzid_problem(data: bytes) -> str | None:
    """A TZID parameter that icalendar would look up as an IANA name and fail on with an
    operating-system error (``TZID=America`` names a folder of the zone database, a
    300-character name is too long for a file name), else None. Names that are simply
    unknown are left to icalendar (a VTIMEZONE in the file may define them)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # start-up time: calendars only

    seen: set[bytes] = set()
    for match in _TZID.finditer(data):
        raw = match.group(1).strip(b'"')
        if raw in seen:
            continue
        seen.add(raw)
        name = raw.decode("utf-8", "replace")
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        except OSError:
            line = data.count(b"\n", 0, match.start()) + 1
            return (f"line {line:,}: TZID={short(name)} is not a known time zone (give an "
                    "IANA name such as America/Denver, or define it in a VTIMEZONE)")
    return None


# --------------------------------------------------------------------------- YAML
def check_yaml_node(node: yaml.Node | None) -> None:
    """Refuse a composed YAML document whose aliases would expand it by more than
    :data:`MAX_YAML_ALIAS_NODES` nodes, that nests deeper than :data:`MAX_YAML_DEPTH`, or
    whose alias contains itself. Linear in the document's distinct nodes (shared nodes are
    counted once, with their expanded size memoised). Raises :class:`LimitError` naming the
    line."""

    if node is None:
        return
    size: dict[int, int] = {}
    chars: dict[int, int] = {}  # characters of the scalars, aliases expanded
    distinct = 0
    written = 0  # characters of the distinct scalars
    # iterative post-order walk: (node, depth, children pushed?)
    stack: list[tuple[yaml.Node, int, bool]] = [(node, 1, False)]
    on_path: set[int] = set()
    while stack:
        n, depth, expanded = stack.pop()
        key = id(n)
        if expanded:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in _children(n))
            chars[key] = sum(chars[id(c)] for c in _children(n))
            continue
        if key in size:
            continue
        if key in on_path:
            raise LimitError(f"line {n.start_mark.line + 1}: an alias refers to a value that "
                             "contains it (a loop)")
        if depth > MAX_YAML_DEPTH:
            raise LimitError(f"line {n.start_mark.line + 1}: nested more than "
                             f"{MAX_YAML_DEPTH} levels deep")
        distinct += 1
        kids = _children(n)
        if not kids:
            size[key] = 1
            chars[key] = len(n.value) if isinstance(n.value, str) else 0
            written += chars[key]
            continue
        on_path.add(key)
        stack.append((n, depth, True))
        for c in kids:
            if id(c) in on_path:
                raise LimitError(f"line {c.start_mark.line + 1}: an alias refers to a value "
                                 "that contains it (a loop)")
            if id(c) not in size:
                stack.append((c, depth + 1, False))
    total = size[id(node)]
    if total - distinct > MAX_YAML_ALIAS_NODES:
        raise LimitError(f"aliases (*name) expand the document to {total:,} values from "
                         f"{distinct:,} written; at most {MAX_YAML_ALIAS_NODES:,} more are "
                         "allowed (write the values out, or use fewer aliases)")
    added = chars[id(node)] - written
    if added > MAX_YAML_ALIAS_CHARS:
        raise LimitError(f"aliases (*name) repeat {added:,} characters of text; at most "
                         f"{MAX_YAML_ALIAS_CHARS:,} are allowed (write the values out, or "
                         "use fewer aliases)")


def _children(n: yaml.Node) -> list[yaml.Node]:
    import yaml  # start-up time: only reading a YAML file needs it

    if isinstance(n, yaml.MappingNode):
        return [x for pair in n.value for x in pair]
    if isinstance(n, yaml.SequenceNode):
        return list(n.value)
    return []


# --------------------------------------------------------------------------- calendars
def expand_events(cal: Any, first: dt.date, last: dt.date, *,
                  per_event: int = MAX_SERIES_INSTANCES,
                  budget: list[int] | None = None) -> tuple[list[Any], list[str]]:
    """The VEVENT instances of ``cal`` (an icalendar Calendar; recurring events, RRULE/RDATE,
    expanded) that start between ``first`` and ``last`` (dates, inclusive), and a note for
    each recurring event cut at ``per_event`` instances (e.g. ``FREQ=HOURLY``: its later
    instances are not read).

    ``budget`` is a one-element list of how many events the caller may still read (shared
    across calendars of one file; decremented). Raises :class:`LimitError` when it runs out
    (``TOURNEY_MAX_CALENDAR_EVENTS``)."""
    import recurring_ical_events  # start-up time: only reading a calendar needs it

    if budget is None:
        budget = [max_calendar_events()]
    query = recurring_ical_events.of(cal)
    start = query.to_datetime((first.year, first.month, first.day))
    stop_day = min(last + dt.timedelta(days=1), dt.date(LAST_YEAR + 1, 1, 1))
    stop = query.to_datetime((stop_day.year, stop_day.month, stop_day.day))
    out: list[Any] = []
    notes: list[str] = []
    if len(budget) < 2:  # months a rule may be walked without an instance, whole file
        budget.append(MAX_RULE_EMPTY_MONTHS)
    for series in query.series:
        _bound_rules(series, stop.replace(tzinfo=None), budget)
        # dateutil computes a rule's instances as one list from its DTSTART: find first,
        # lazily, where the (per_event + 1)-th instance in the window is, and give up on a
        # rule that makes too many before it (FREQ=SECONDLY from 1900)
        series_stop = _series_stop(series, start, stop, per_event)
        if series_stop is None:
            notes.append(f"recurring event UID {str(getattr(series, 'uid', ''))[:120] or '-'} "
                         f"repeats more than {MAX_RULE_SCAN:,} times before {last}; none of "
                         "its instances were read")
            continue
        got = 0
        with contextlib.suppress(*query._skip_errors):
            for occurrence in itertools.islice(series.between(start, series_stop),
                                               per_event + 1):
                if got == per_event:
                    comp = occurrence.as_component(False)
                    notes.append(f"event {str(comp.get('SUMMARY', ''))[:120]!r} (UID "
                                 f"{str(comp.get('UID', ''))[:120] or '-'}) repeats more than "
                                 f"{per_event:,} times between {first} and {last}; only the "
                                 f"first {per_event:,} were read")
                    break
                budget[0] -= 1
                if budget[0] < 0:
                    raise LimitError(
                        f"the calendar holds more than {max_calendar_events():,} events "
                        f"between {first} and {last}, recurring ones expanded (set "
                        "TOURNEY_MAX_CALENDAR_EVENTS to raise it; see docs/limits.md)")
                out.append(occurrence.as_component(query.keep_recurrence_attributes))
                got += 1
    return out, notes


MAX_RULE_SCAN = 100_000
"""Instances of one RRULE looked at, from its DTSTART, to find those in the window."""
MAX_RULE_EMPTY_MONTHS = 24_000
"""Months (2,000 years) that the RRULEs of one calendar file may be walked, in all, without
finding an instance (``FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30`` never has one; dateutil would
walk it to the year 9999, 27 seconds an event)."""


class _RuleWalkStop(Exception):
    """A guarded rule walked past the end of the window (ends the walk quietly)."""


class _RuleWalkBudget(Exception):
    """The rules of one file walked :data:`MAX_RULE_EMPTY_MONTHS` without an instance."""


@functools.cache
def _guarded_rule_class() -> type:
    """A dateutil ``rrule`` that counts the months its walk goes through and stops it.

    dateutil computes a rule's instances period by period from DTSTART and checks its UNTIL
    only against instances found: a rule that never matches (February 30th) walks to the
    year 9999 without yielding anything. dateutil reads ``_bynweekday`` once each time its
    walk enters another month (``_iterinfo.rebuild``): that read is the step counted. Past
    ``_tourney_limit`` months it raises :class:`_RuleWalkStop`; past the file's remaining
    budget of months without an instance it raises :class:`_RuleWalkBudget`."""
    from dateutil import rrule as du  # start-up time: only reading a calendar needs it

    class GuardedRule(du.rrule):  # type: ignore[misc]
        @property
        def _bynweekday(self) -> Any:
            d = self.__dict__
            if "_tourney_limit" in d:
                d["_tourney_total"] += 1
                d["_tourney_empty"] += 1
                if d["_tourney_total"] > d["_tourney_limit"]:
                    raise _RuleWalkStop
                if d["_tourney_empty"] > d["_tourney_budget"][1]:
                    raise _RuleWalkBudget
            return d.get("_tourney_bynweekday")

        @_bynweekday.setter
        def _bynweekday(self, value: Any) -> None:
            self.__dict__["_tourney_bynweekday"] = value

    return GuardedRule


class _BoundedRule:
    """Stands for one rrule of a recurring_ical_events series: walks a guarded copy of it, no
    further than ``stop`` (naive, wall clock) and within the file's budget of months without
    an instance. Offers what the series uses: ``until``, ``between`` and iteration."""

    def __init__(self, rule: Any, stop: dt.datetime, budget: list[int]) -> None:
        self.until = rule._until
        self._kwargs = {"interval": rule._interval, "count": rule._count,
                        "dtstart": rule._dtstart, "freq": rule._freq, "until": rule._until,
                        "wkst": rule._wkst, "cache": False, **rule._original_rule}
        start = rule._dtstart.replace(tzinfo=None)
        # months from DTSTART's month to the month after stop, and one more
        self._months = max(0, (stop.year - start.year) * 12 + stop.month - start.month) + 3
        self._budget = budget

    def __iter__(self) -> Any:
        rule = _guarded_rule_class()(**self._kwargs)
        d = rule.__dict__
        d.update(_tourney_limit=self._months, _tourney_total=0, _tourney_empty=0,
                 _tourney_budget=self._budget)
        try:
            for t in rule._iter():  # not the cached iterator: its lock outlives an error
                self._budget[1] -= max(0, d["_tourney_empty"] - 1)
                d["_tourney_empty"] = 0
                yield t
        except _RuleWalkStop:
            pass
        except _RuleWalkBudget:
            raise LimitError(
                "the calendar's recurring rules (RRULE) were looked at over more than "
                f"{MAX_RULE_EMPTY_MONTHS // 12:,} years, in all, without finding an instance "
                "(a rule such as BYMONTH=2;BYMONTHDAY=30 never has one); remove or correct "
                "those rules") from None
        finally:
            self._budget[1] -= max(0, d["_tourney_empty"] - 1)
            d["_tourney_empty"] = 0

    def between(self, after: Any, before: Any, inc: bool = False) -> Any:
        for t in self:
            if t > before or (t == before and not inc):
                return
            if t > after or (t == after and inc):
                yield t


def _bound_rules(series: Any, stop: dt.datetime, budget: list[int]) -> None:
    """Replace each RRULE of ``series`` (a recurring_ical_events series) by a
    :class:`_BoundedRule` walked no further than ``stop``."""
    from dateutil import rrule as du  # start-up time: only reading a calendar needs it

    rules = getattr(getattr(series, "recurrence", None), "rrules", None)
    if not isinstance(rules, list):
        return
    rules[:] = [_BoundedRule(r, stop, budget) if type(r) is du.rrule else r for r in rules]


def _series_stop(series: Any, start: dt.datetime, stop: dt.datetime,
                 per_event: int) -> dt.datetime | None:
    """Where to stop expanding ``series``: ``stop``, or earlier, just after its
    ``per_event + 1``-th instance from ``start`` (naive datetimes, compared as wall clock);
    None when a rule makes more than :data:`MAX_RULE_SCAN` instances before that."""
    rules = getattr(getattr(series, "recurrence", None), "rrules", None) or []
    end = stop
    for rule in rules:
        inside = 0
        for seen, t in enumerate(rule, start=1):  # lazily, from DTSTART
            naive = t.replace(tzinfo=None) if isinstance(t, dt.datetime) else \
                dt.datetime.combine(t, dt.time())
            if naive > end:
                break
            if seen > MAX_RULE_SCAN:
                return None
            if naive >= start:
                inside += 1
                if inside > per_event:
                    end = min(end, naive + dt.timedelta(seconds=1))
                    break
    return end


# --------------------------------------------------------------------------- sizes
def variants_count(lists: Iterable[Sequence[Any]], combine: str) -> int:
    """How many variants a grid makes: the product of the list lengths (``combine:
    product``) or the longest (``zip``), computed without building any."""
    lengths = [len(v) for v in lists]
    if not lengths:
        return 0
    return math.prod(lengths) if combine == "product" else max(lengths)


# --------------------------------------------------------------------------- messages
def cap_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` for a terminal: control characters other than line breaks shown as escapes
    (``\x1b``: an escape sequence in a name must not drive the terminal), cut at ``limit``
    characters with a count of what was left out."""
    if not text.isprintable():
        text = "".join(ch if ch == "\n" or ch.isprintable() or ch == " "
                       else ch.encode("unicode_escape").decode("ascii") for ch in text)
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n... ({len(text) - limit:,} more characters not shown)"


def cap_lines(lines: Sequence[str], limit: int = MAX_LINES_SHOWN,
              more: str = "line(s)") -> list[str]:
    """The first ``limit`` distinct ``lines`` (a line repeated is shown once, with
    ``(N times)``) and one line counting the rest."""
    counts: dict[str, int] = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    shown = [line if n == 1 else f"{line} ({n:,} times)" for line, n in counts.items()]
    if len(shown) <= limit:
        return shown
    return [*shown[:limit], f"... and {len(shown) - limit:,} more {more} not shown"]


def short(value: str, limit: int = 80) -> str:
    """``repr(value)``, cut to about ``limit`` characters with its length when longer."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value):,} characters)"

