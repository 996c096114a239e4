"""A ``schedule.csv`` read back (each row's day columns against its start and end, its
tournament and occurrence; flights read as their sessions), and the ``licenses.csv`` beside it
(fees in USD)."""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pandas as pd

from constraints import montana
from constraints.base import License, Occurrence
from scheduler.check.schedule import ReadSchedule, ScheduleError, cut_value
from scheduler.core.limits import FIRST_YEAR, LAST_YEAR, NotText, csv_text
from scheduler.core.scenario import Scenario
from scheduler.core.timing import Timing, day_span, days_touched, read_timing, timing, tournament_tz
from scheduler.result.plan import LICENSE_COLUMNS, STATUSES

_CSV_YEARS = range(FIRST_YEAR, LAST_YEAR + 1)


class At:
    """Where a row or cell of a schedule is, for the messages: ``schedule.csv:5`` and
    ``schedule.csv:5: column start`` in a CSV file; ``plan.xlsx Schedule row 5`` and
    ``plan.xlsx Schedule!H5 (start)`` in a workbook (``columns``: header -> letter)."""

    def __init__(self, path: Path, sheet: str | None = None,
                 columns: dict[str, str] | None = None):
        self.path, self.sheet, self.columns = path, sheet, columns or {}

    def row(self, line: int) -> str:
        return f"{self.path}:{line}" if self.sheet is None else \
            f"{self.path} {self.sheet} row {line}"

    def cell(self, line: int, column: str) -> str:
        if self.sheet is None or column not in self.columns:
            return f"{self.row(line)}: column {column}"
        return f"{self.path} {self.sheet}!{self.columns[column]}{line} ({column})"


def headers_read(headers: list[str], where: str) -> list[str]:
    """A schedule's column headers as tourney writes them (``Status``, `` First Day `` ->
    ``status``, ``first_day``: a spreadsheet may capitalise or space a header); an empty
    header stays empty. Raises ScheduleError when two headers are then the same column."""
    out = [re.sub(r"\s+", "_", str(h).strip().lower()) for h in headers]  # NBSP too
    twice = sorted({h for h in out if h and out.count(h) > 1})
    if twice:
        raise ScheduleError(f"{where}: column {twice[0]!r} appears twice (headers are read "
                            "without case or spaces); keep one")
    return out


def read_schedule_csv(scenario: Scenario, path: Path) -> ReadSchedule:
    df = _csv(path)
    df.columns = headers_read([str(c) for c in df.columns], str(path))
    rows = [(int(str(i)) + 2, {str(k): str(v) for k, v in r.items()})
            for i, r in df.iterrows()]
    return read_rows(scenario, list(df.columns), rows, At(path))


def _blank(row: dict[str, Any]) -> bool:
    """A row of only empty cells (``,,,,`` as a spreadsheet saves the rows below a table)."""
    return not any(str(v).strip() for v in row.values())


def read_rows(scenario: Scenario, columns: list[str], rows: list[tuple[int, dict[str, Any]]],
              at: At) -> ReadSchedule:
    """The occurrences of a schedule's rows (schedule.csv's columns, each cell as text):
    ``rows`` are (line or row number, header -> text); a row of empty cells is skipped."""
    path = at.path
    need = {"tournament_id", "occurrence", "start", "end", "first_day", "last_day"}
    missing = sorted(need - set(columns))
    if missing:
        where = str(path) if at.sheet is None else f"{path} {at.sheet}"
        raise ScheduleError(f"{where}: missing column(s) {', '.join(missing)}; expected the "
                            "schedule.csv written by `tourney solve`" if at.sheet is None else
                            f"{where}: missing column(s) {', '.join(missing)}; expected the "
                            "Schedule sheet of the plan.xlsx written by `tourney solve`")
    known = {t.id: t for t in scenario.tournaments}
    seen: dict[tuple[str, int], list[Timing]] = {}
    out: list[Occurrence] = []
    notes: list[str] = []
    extra_numbers: dict[str, int] = {}
    settled: dict[str, set[dt.date]] = {}
    held: dict[str, set[str]] = {}
    held_rows: list[tuple[str, str, dt.date]] = []
    skipped: list[str] = []
    for line, row in rows:
        if _blank(row):
            continue
        tid = row["tournament_id"]
        if tid not in known:
            notes.append(f"{at.row(line)}: tournament_id {tid!r} is not in the scenario")
            continue
        typed = str(row.get("status", "") or "")
        status = typed.strip().lower().removesuffix(".")
        status = "cancelled" if status == "canceled" else status  # the US spelling
        if status and status not in STATUSES:
            raise ScheduleError(f"{at.row(line)}: status {cut_value(typed)} is not one of "
                                f"{', '.join(STATUSES)}")
        if status == "cancelled":  # recorded as cancelled: not played, nothing to judge
            skipped.append(f"{at.row(line)}: {tid}#{row.get('occurrence', '')} is cancelled")
            continue
        occ = _field(at, line, row, "occurrence", int)
        start = _field(at, line, row, "start", dt.datetime.fromisoformat)
        end = _field(at, line, row, "end", dt.datetime.fromisoformat)
        first = _field(at, line, row, "first_day", dt.date.fromisoformat)
        last = _field(at, line, row, "last_day", dt.date.fromisoformat)
        if start.tzinfo is None or end.tzinfo is None:
            raise ScheduleError(f"{at.row(line)}: start/end need a UTC offset "
                                f"(e.g. 2027-03-12T12:00:00-07:00)")
        t = known[tid]
        tz = tournament_tz(scenario, t)
        start, end = start.astimezone(tz), end.astimezone(tz)
        # the day columns must say what start/end say (end exclusive)
        last_of_end = days_touched(start, end)[-1]  # read only when end > start
        if end <= start or first != start.date() or last != last_of_end:
            raise ScheduleError(
                f"{at.row(line)}: {tid}#{occ}: first_day {first} .. last_day {last} do not "
                f"match start {start.isoformat()} .. end {end.isoformat()} (the days from "
                f"start to end, end exclusive, are {start.date()} .. {last_of_end})" + (
                    "; to move it, change start and end, and first_day and last_day with "
                    "them (or leave those two empty)" if at.sheet is not None else "")
                if end > start else
                f"{at.row(line)}: {tid}#{occ}: end {end.isoformat()} is not after start "
                f"{start.isoformat()}")
        tm = (read_timing(scenario, t, start, end) if t.sessions  # flights: their sessions
              else Timing(start, end, day_span(first, last)))
        if t.sessions and not tm.sessions:  # not the span the scenario's sessions give
            want = timing(t, tz, start.date())
            if want is not None:
                notes.append(
                    f"{at.row(line)}: {tid}#{occ}: start {start.isoformat()} .. end "
                    f"{end.isoformat()} is not the span of its {len(t.sessions)} sessions "
                    f"({', '.join(x.label for x in t.sessions)}: {want.start.isoformat()} .. "
                    f"{want.end.isoformat()}); read as one session from start to end "
                    "(SCENARIO)")
        if status == "held":  # every row marked held, also an operator's of a shared one
            held_rows.append((at.row(line), f"{tid}#{occ}", tm.first_day))
        same = seen.setdefault((tid, occ), [])
        if any(x.start == tm.start and x.end == tm.end for x in same):
            continue  # one row per operator of a shared occurrence
        if same:
            # another row says tid#occ is elsewhere: read it as one more occurrence
            n = extra_numbers.get(tid, max((o for (k, o) in seen if k == tid), default=0))
            extra_numbers[tid] = n + 1
            notes.append(f"{at.row(line)}: {tid}#{occ} appears again with other dates "
                         f"({first}..{last}); read as occurrence {n + 1}")
            occ = n + 1
        same.append(tm)
        out.append(Occurrence(t, occ, tm))
        if status in ("held", "filed"):
            settled.setdefault(tid, set()).add(tm.first_day)
        if (str(row.get("jurisdiction", "")) == montana.CODE and str(row.get("permit_year", ""))
                and "license_id" in row and not str(row["license_id"]).strip()):
            # the plan bought no permit for this row: one was held before the plan
            held.setdefault(str(row.get("operator_id", "")), set()).add(
                "large-stakes" if t.is_large else "small-stakes")
    return ReadSchedule(sorted(out, key=lambda p: (p.first_day, p.ref)), notes,
                        not_checked=skipped, settled=settled, held=held_rows,
                        permits_held=held)


def _csv(path: Path) -> pd.DataFrame:
    """A CSV as strings, its text as a spreadsheet saves it (:func:`csv_text`: UTF-8 with or
    without BOM, UTF-16 with one, else Windows-1252, Excel on Windows)."""
    try:
        text = csv_text(path.read_bytes()).removeprefix("\ufeff")
    except NotText as exc:
        raise ScheduleError(f"{path}: {exc}") from None
    try:
        return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise ScheduleError(f"{path}: not a readable CSV file ({exc})") from None


def _field(at: At, line: int, row: Any, column: str, parse: Any) -> Any:
    try:
        value = parse(str(row[column]).strip())
    except (ValueError, InvalidOperation):
        value = None
    if isinstance(value, dt.date) and value.year not in _CSV_YEARS:
        raise ScheduleError(f"{at.cell(line, column)} = {cut_value(row[column])}: a date in "
                            f"the years {FIRST_YEAR} to {LAST_YEAR} is expected")
    if value is not None:
        return value
    want = {"occurrence": "a whole number", "start": "a date-time with UTC offset",
            "end": "a date-time with UTC offset",
            "fee_usd": "an amount in USD, e.g. 120 or 40.00 (no $ sign)"
            }.get(column, "a date YYYY-MM-DD")
    if at.sheet is not None and column in ("start", "end"):
        want = "a date and time, e.g. 2027-03-12 12:00"
    raise ScheduleError(f"{at.cell(line, column)} = {cut_value(row[column])} is not {want}")


def read_licenses(path: Path) -> list[License]:
    df = _csv(path)
    rows = [(int(str(i)) + 2, {str(k): str(v) for k, v in r.items()})
            for i, r in df.iterrows()]
    return read_license_rows(list(df.columns), rows, At(path))


def read_license_rows(columns: list[str], rows: list[tuple[int, dict[str, Any]]], at: At
                      ) -> list[License]:
    """The licences of licenses.csv's rows (or plan.xlsx's Licences sheet): ``rows`` are
    (line or row number, header -> text); a row of empty cells is skipped."""
    if set(LICENSE_COLUMNS) - set(columns):
        where = str(at.path) if at.sheet is None else f"{at.path} {at.sheet}"
        raise ScheduleError(f"{where}: expected the columns {', '.join(LICENSE_COLUMNS)}")
    out = []
    seen: dict[str, int] = {}
    for line, r in rows:
        if _blank(r):
            continue
        fee = _field(at, line, r, "fee_usd", _usd)
        lid = r["license_id"]
        if lid in seen:
            raise ScheduleError(f"{at.row(line)}: license_id {lid!r} is listed twice (also on "
                                f"{'line' if at.sheet is None else 'row'} {seen[lid]}): each "
                                "licence or permit is one row")
        seen[lid] = line
        out.append(License(lid, r["operator_id"], r["jurisdiction"], r["kind"],
                           r["tier"], _field(at, line, r, "valid_from", dt.date.fromisoformat),
                           _field(at, line, r, "valid_to", dt.date.fromisoformat), fee,
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

