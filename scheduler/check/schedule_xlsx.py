"""A ``plan.xlsx`` read back for ``tourney check``: its *Schedule* sheet as schedule.csv's
rows and its *Licences* sheet as licenses.csv's, read as the spreadsheet shows them
(:func:`scheduler.core.workbook.read_table`), so an operator can move a date in the workbook
``tourney solve`` wrote and check it.

``start`` and ``end`` are local date-times in the zone of the ``time_zone`` column (the
sheet's own spelling); ``first_day`` and ``last_day`` must agree with them, as in
schedule.csv, or be left empty (then they are the days ``start`` to ``end`` touch). Every
problem names the sheet, cell and column (``plan.xlsx Schedule!H5 (start)``).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from constraints.base import License
from scheduler.check.schedule import ReadSchedule, ScheduleError, cut_value
from scheduler.check.schedule_csv import At, headers_read, read_license_rows, read_rows
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.scenario import Scenario
from scheduler.core.timing import days_touched, tournament_tz
from scheduler.core.workbook.cells import WorkbookError, letter
from scheduler.core.workbook.shown import read_table

_DAYS = ("first_day", "last_day", "notice_due", "permit_year", "valid_from", "valid_to")


def read_plan_xlsx(scenario: Scenario, path: Path) -> ReadSchedule:
    """The occurrences of ``plan.xlsx``'s Schedule sheet, and the licences of its Licences
    sheet (None when it has none: the cost rules are not audited).

    Raises
    ------
    ScheduleError
        Not a workbook, no Schedule sheet, a cell that cannot be read as shown (a formula
        with no saved value, an error, cells merged across columns), a date cell showing a
        number, a time zone that is not one; each naming the sheet, cell and column.
    """
    try:
        data = read_bounded(path)
        headers, rows, problems, epoch = read_table(data, "Schedule")
    except LimitError as exc:
        raise ScheduleError(f"{path}: {exc}") from None
    except WorkbookError as exc:
        raise ScheduleError("; ".join(f"{path} {w}: {m}" for w, m in exc.problems)) from None
    if problems:
        raise ScheduleError("; ".join(f"{path} {w}: {m}" for w, m in problems))
    headers = headers_read(headers, f"{path} Schedule")
    at = At(path, "Schedule", {h: letter(j) for j, h in enumerate(headers) if h})
    texts = [(n, _texts(scenario, headers, values, at, n, epoch)) for n, values in rows]
    read = read_rows(scenario, [h for h in headers if h], texts, at)
    read.licenses = _licences(data, path)
    return read


def _licences(data: bytes, path: Path) -> list[License] | None:
    try:
        headers, rows, problems, epoch = read_table(data, "Licences")
    except WorkbookError:
        return None  # no Licences sheet: fees not checked (as without licenses.csv)
    if problems:
        raise ScheduleError("; ".join(f"{path} {w}: {m}" for w, m in problems))
    at = At(path, "Licences", {h: letter(j) for j, h in enumerate(headers) if h})
    texts = [(n, {h: _text(h, values[j] if j < len(values) else None, at, n, epoch)
                  for j, h in enumerate(headers) if h}) for n, values in rows]
    return read_license_rows([h for h in headers if h], texts, at)


def _texts(scenario: Scenario, headers: list[str], values: list[Any], at: At, line: int,
           epoch: dt.datetime | None) -> dict[str, str]:
    """A Schedule row as schedule.csv's text: ``start``/``end`` with the UTC offset of the
    row's ``time_zone`` (else the tournament's zone); empty ``first_day``/``last_day`` are
    the days from ``start`` to ``end`` (end exclusive)."""
    raw = {h: values[j] if j < len(values) else None for j, h in enumerate(headers) if h}
    out = {h: _text(h, v, at, line, epoch) for h, v in raw.items()}
    zone = _zone(scenario, out, at, line)
    for side in ("start", "end"):
        value = raw.get(side)
        if isinstance(value, dt.datetime) or (isinstance(value, str) and value.strip()):
            moment = value if isinstance(value, dt.datetime) else _parse_moment(value)
            if moment is not None and moment.tzinfo is None and zone is not None:
                out[side] = moment.replace(tzinfo=zone).isoformat()
            elif moment is not None:
                out[side] = moment.isoformat()
    if not out.get("first_day") and not out.get("last_day") and zone is not None:
        try:
            start = dt.datetime.fromisoformat(out.get("start", ""))
            end = dt.datetime.fromisoformat(out.get("end", ""))
        except ValueError:
            return out  # read_rows names the cell
        if end > start and start.tzinfo is not None:
            days = days_touched(start.astimezone(zone), end.astimezone(zone))
            out["first_day"], out["last_day"] = days[0].isoformat(), days[-1].isoformat()
    return out


def _zone(scenario: Scenario, row: dict[str, str], at: At, line: int) -> ZoneInfo | None:
    name = row.get("time_zone", "").strip()
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise ScheduleError(f"{at.cell(line, 'time_zone')} = {cut_value(name)} is not a time "
                                "zone (IANA name, e.g. America/Denver)") from None
    t = next((t for t in scenario.tournaments if t.id == row.get("tournament_id")), None)
    return tournament_tz(scenario, t) if t is not None else None


def _parse_moment(text: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(text.strip())
    except ValueError:
        return None


def _text(header: str, value: Any, at: At, line: int, epoch: dt.datetime | None) -> str:
    """A cell as schedule.csv's text: a date cell as YYYY-MM-DD, a date-time as ISO, a
    whole number without ``.0``; a number in a date column is named (a General cell shows
    Excel's day number, not the date)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if header in _DAYS or header in ("start", "end"):
        if isinstance(value, dt.datetime):
            return value.date().isoformat() if header in _DAYS else value.isoformat()
        if isinstance(value, dt.date):
            return value.isoformat()
        if isinstance(value, int | float | Decimal):
            # start-up time: openpyxl only for a workbook
            from openpyxl.utils.datetime import CALENDAR_WINDOWS_1900, from_excel

            try:
                shown = from_excel(float(value), epoch or CALENDAR_WINDOWS_1900)
            except (ValueError, OverflowError, TypeError):
                shown = None
            hint = (f" (the spreadsheet's day number of {shown:%Y-%m-%d %H:%M}".removesuffix(
                " 00:00") + ")" if isinstance(shown, dt.datetime) else "")
            raise ScheduleError(f"{at.cell(line, header)} = {value}: a number where a date is "
                                f"wanted: the cell is not formatted as a date, so it shows "
                                f"{value}{hint}; give it a date format (Format Cells > Date)")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()
