"""A sheet read as the spreadsheet shows it: :func:`cell_value` (a cell as the YAML loader
reads it), the rows of a sheet with a merged range's value in every cell it covers and an
error cell empty, the judge that names a cell it cannot read as shown (a number where a date
is wanted), and :func:`read_table` (one sheet as a table: ``plan.xlsx``'s Schedule for
``tourney check``). openpyxl is imported when a workbook is read (start-up time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here); below
:mod:`.reader`, above :mod:`.scan`.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from scheduler.core.limits import FIRST_YEAR, LAST_YEAR
from scheduler.core.workbook.cells import WorkbookError, hhmm, letter
from scheduler.core.workbook.layout import Column
from scheduler.core.workbook.scan import SheetScan, scan_xlsx

if TYPE_CHECKING:  # start-up time: openpyxl only when a workbook is read
    from openpyxl.worksheet.worksheet import Worksheet


EMPTY = object()
_GAME = re.compile(r"^([A-Za-z]+\.?)\s*(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})$")
_YEAR = re.compile(r"^(\d{4})\s*:\s*(\d+)$")


def _number(value: float) -> int | Decimal:
    """A spreadsheet number as the loader wants it: a whole one as int, else the Decimal of
    its shortest decimal spelling (0.8, not 0.8000000000000000444)."""
    if value.is_integer():
        return int(value)
    return Decimal(repr(value))


def _share(value: Any) -> Any:
    """A percentage cell as a share: the number 0.5 (shown 50 %) or the text ``50%``."""
    if isinstance(value, str) and value.endswith("%"):
        try:
            return Decimal(value[:-1].strip()) / 100
        except InvalidOperation:
            return value
    return value


def cell_value(column: Column, value: Any) -> Any:
    """A cell of ``column`` as the YAML loader reads it; ``EMPTY`` for an empty cell.

    Numbers: a whole float is an int, others Decimal; a share reads ``50%`` text as 0.5;
    dates: a date-time cell is its date; times (``start_time``): a time cell is kept, text
    ``18:00`` too; hours: a time or duration cell becomes ``"H:MM"``; lists are split
    (commas, or semicolons for ``names`` and ``games``). Anything not understood is passed on
    as it is, for the loader to name the problem."""
    if value is None:
        return EMPTY
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return EMPTY
    if isinstance(value, float) and not isinstance(value, bool):
        value = _number(value)
    kind = column.kind
    if kind == "share":
        return _share(value)
    if kind == "date" and isinstance(value, dt.datetime):
        return value.date()
    if kind == "monthday" and isinstance(value, dt.date):  # a spreadsheet made 07-01 a date
        return f"{value:%m-%d}"
    if kind == "hours":
        if isinstance(value, dt.time):
            return hhmm(value.hour, value.minute)
        if isinstance(value, dt.timedelta):
            minutes = round(value.total_seconds() / 60)
            return hhmm(minutes // 60, minutes % 60)
    if kind == "time" and isinstance(value, dt.datetime):
        return value.time()
    if kind in ("list", "days"):
        if isinstance(value, dt.datetime):
            return [value.date()]
        if not isinstance(value, str):
            return [value]
        return [x for x in re.split(r"[\s,;]+", value) if x]
    if kind == "names":
        text = str(value)
        return [x.strip() for x in re.split(r"[;\n]", text) if x.strip()]
    if kind == "games":
        items = [x.strip() for x in re.split(r"[;,\n]", str(value)) if x.strip()]
        return [{"weekday": m.group(1), "start": m.group(2), "end": m.group(3)}
                if (m := _GAME.match(x)) else x for x in items]
    if kind == "years" and isinstance(value, str):
        pairs = [x.strip() for x in re.split(r"[,;\n]", value) if x.strip()]
        matched = [_YEAR.match(p) for p in pairs]
        if all(matched):
            return {int(m.group(1)): int(m.group(2)) for m in matched if m}
    return value


def header_text(value: Any) -> str:
    return re.sub(r"\s*\.\s*", ".", str(value).strip()) if value is not None else ""


def open_workbook(data: bytes) -> Any:
    # start-up time: openpyxl only when a workbook is read
    from openpyxl import load_workbook

    try:  # read-only: rows are streamed from the XML, never a grid of every cell
        return load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    except Exception as exc:  # noqa: BLE001 - zip, XML and openpyxl errors: all "not a workbook"
        raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                        f"{type(exc).__name__}: {str(exc)[:200]}")]) from None


def grid(ws: Worksheet, scan: SheetScan, min_row: int = 1, max_row: int | None = None,
          max_col: int | None = None) -> Iterable[tuple[int, tuple[Any, ...]]]:
    """(row number, values) of rows ``min_row``.. of ``ws``, never past the last row and
    column :func:`scan_xlsx` found a value in (openpyxl alone would walk to the sheet's
    recorded dimension, XFD1048576 if it says so), as the sheet shows them: a merged range's
    value in every cell it covers (openpyxl gives it in the first cell only), a cell that
    shows an error (``#DIV/0!``) empty (:func:`_shown_problems` names it)."""
    last_row = scan.max_row if max_row is None else min(max_row, scan.max_row)
    last_col = scan.max_column if max_col is None else min(max_col, scan.max_column)
    if last_row < min_row or last_col < 1:
        return
    merges = [m for m in scan.merged if m[2] >= min_row and m[0] <= last_row]
    errors = {cell_at(c) for c, _text in scan.errors}
    first: dict[tuple[int, int], Any] = {}
    if any(r0 < min_row for r0, _c0, _r1, _c1 in merges):  # a merge begun above min_row
        top = min(r0 for r0, _c0, _r1, _c1 in merges)
        for k, above in enumerate(ws.iter_rows(min_row=top, max_row=min_row - 1,
                                               max_col=last_col, values_only=True),
                                  start=top):
            for r0, c0, _r1, _c1 in merges:
                if r0 == k and c0 <= len(above):
                    first[(r0, c0)] = above[c0 - 1]
    for k, values in enumerate(ws.iter_rows(min_row=min_row, max_row=last_row,
                                            max_col=last_col, values_only=True),
                               start=min_row):
        if not merges and not errors:
            yield k, values
            continue
        row: list[Any] = list(values)
        for j in range(len(row)):
            if (k, j + 1) in errors:
                row[j] = None
        for r0, c0, r1, c1 in merges:
            if not r0 <= k <= r1:
                continue
            if k == r0 and c0 <= len(row):
                first[(r0, c0)] = row[c0 - 1]
            value = first.get((r0, c0))
            for j in range(c0, min(c1, len(row)) + 1):
                row[j - 1] = value
        yield k, tuple(row)


def cell_at(ref: str) -> tuple[int, int]:
    """``"M3"`` -> (3, 13): a cell reference as (row, column), 1-based."""
    m = re.match(r"^([A-Z]+)(\d+)$", ref)
    if not m:
        return (0, 0)
    column = 0
    for ch in m.group(1):
        column = column * 26 + ord(ch) - 64
    return int(m.group(2)), column


def first_row(ws: Worksheet, scan: SheetScan) -> tuple[Any, ...]:
    return next((row for _k, row in grid(ws, scan, 1, 1)), ())


class Judge:
    """A cell read as the sheet shows it (:func:`cell_value`), or left out with a problem of
    its own (``problems``: (where, value shown or None, message), rule SCENARIO) while the
    rest of the workbook is read: a number where a date or time of day is wanted (a cell in
    General format shows Excel's date number, ``46447``, not the date)."""

    def __init__(self, problems: list[tuple[str, Any, str]], epoch: dt.datetime | None):
        self.problems = problems
        self.epoch = epoch

    def problem(self, where: str, message: str, value: Any = None) -> None:
        self.problems.append((where, value, message))

    def __call__(self, column: Column, raw: Any, where: str) -> Any:
        value = cell_value(column, raw)
        if value is EMPTY:
            return value
        if column.kind in ("date", "days"):
            items = value if isinstance(value, list) else [value]
            number = next((x for x in items if _is_number(x)), None)
            if number is not None:
                self.problem(where, self._date_words(number), number)
                return EMPTY
        if column.kind == "time" and _is_number(value):
            self.problem(where, self._time_words(value), value)
            return EMPTY
        return value

    def _date_words(self, number: Any) -> str:
        # start-up time: openpyxl
        from openpyxl.utils.datetime import CALENDAR_WINDOWS_1900, from_excel

        try:
            day = from_excel(float(number), self.epoch or CALENDAR_WINDOWS_1900)
        except (ValueError, OverflowError, TypeError):
            day = None
        if isinstance(day, dt.datetime) and FIRST_YEAR <= day.year <= LAST_YEAR \
                and day.time() == dt.time(0):
            return (f"a number where a date is wanted: the cell is not formatted as a date, "
                    f"so it shows {number} (the spreadsheet's day number of "
                    f"{day.date().isoformat()}); give it a date format (Format Cells > Date) "
                    f"or type {day.date().isoformat()}")
        return (f"a number where a date is wanted: type a date, e.g. {FIRST_YEAR + 1}-03-01 "
                "(a date cell, or text YYYY-MM-DD)")

    @staticmethod
    def _time_words(number: Any) -> str:
        fraction = float(number)
        if 0 <= fraction < 1:
            minutes = round(fraction * 24 * 60)
            shown = f"{minutes // 60:02d}:{minutes % 60:02d}"
            return (f"a number where a time of day is wanted: the cell is not formatted as a "
                    f"time, so it shows {number} (the spreadsheet's {shown}); give it a time "
                    f"format (Format Cells > Time) or type {shown}")
        return "a number where a time of day is wanted: type a time HH:MM, e.g. 18:00"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def value_rows(ws: Worksheet, scan: SheetScan) -> Iterable[tuple[int, list[Any]]]:
    """(row number, values) of every row below the header that holds a value (empty rows,
    trailing ones too, are skipped)."""
    for number, row in grid(ws, scan, 2):
        if any(v is not None and str(v).strip() for v in row):
            yield number, list(row)


def read_table(data: bytes, sheet: str) -> tuple[list[str], list[tuple[int, list[Any]]],
                                                  list[tuple[str, str]], dt.datetime | None]:
    """One sheet of a workbook (``plan.xlsx``'s Schedule) as a table, read as the
    spreadsheet shows it: row 1 the headers, every row below holding a value (hidden and
    filtered rows too: a filter hides a row from view, not from the file), a merged range's
    value in every cell it covers, a formula as the value it shows.

    Parameters
    ----------
    data
        The .xlsx file's bytes (bounded by the caller, :func:`scheduler.core.limits.read_bounded`).
    sheet
        The sheet's name (in any letter case).

    Returns
    -------
    (headers, rows, problems, epoch)
        The header of each column (``""`` where none), (row number, values) of each row, the
        cells that cannot be read as shown as (``Sheet!H5 (start)``, sentence): a formula
        with no saved value, a cell showing an error (their values are None), cells merged
        over two or more columns; and the workbook's date epoch (1900 or 1904).

    Raises
    ------
    WorkbookError
        Not an .xlsx file, over the limits of :func:`scan_xlsx`, or no sheet ``sheet``
        (the message lists the sheets found).
    """
    scans = scan_xlsx(data)
    wb = open_workbook(data)
    try:
        found = [n for n in wb.sheetnames if n.strip().lower() == sheet.lower()]
        if not found:
            listed = ", ".join(repr(n) for n in wb.sheetnames) or "none"
            raise WorkbookError([(f"sheet {sheet}", f"the workbook has no sheet of this name "
                                  f"(its sheets: {listed})")])
        title = found[0]
        scan = scans.get(title, SheetScan(title))
        ws = wb[title]
        headers = [header_text(v) for v in first_row(ws, scan)]
        problems: list[tuple[str, str]] = []

        def where(row: int, column: int) -> str:
            head = headers[column - 1] if 0 < column <= len(headers) else ""
            return f"{title}!{letter(column - 1)}{row}" + (f" ({head})" if head else "")

        for f in scan.formulas:
            if not f.has_value:
                problems.append((where(f.row, f.column), f"a formula with no computed value "
                                 f"({f.text}): open and save the file in a spreadsheet "
                                 "application, or type the value"))
        for cell, text in scan.errors:
            problems.append((where(*cell_at(cell)), f"the cell shows the error "
                             f"{text or '#VALUE!'}: correct its formula, or type the value"))
        for r0, c0, r1, c1 in scan.merged:
            if c1 > c0 and any(headers[c - 1] for c in range(c0, min(c1, len(headers)) + 1)):
                problems.append((f"{title}!{letter(c0 - 1)}{r0}:{letter(c1 - 1)}{r1}",
                                 f"merged cells over {c1 - c0 + 1} columns: a value would be "
                                 "shown for several fields; unmerge them"))
        rows = list(value_rows(ws, scan))
        return headers, rows, problems, getattr(wb, "epoch", None)
    finally:
        wb.close()
