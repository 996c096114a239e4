"""A scenario workbook read (:func:`read_workbook`): the raw mapping the YAML loader
validates and the :class:`~scheduler.core.workbook.cells.Cells` that name the sheet, cell and
column of each field. openpyxl is imported when a workbook is read (start-up time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

import datetime as dt
import difflib
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from scheduler.core.limits import FIRST_YEAR, LAST_YEAR
from scheduler.core.workbook.cells import Cells, WorkbookError, _hhmm, _letter
from scheduler.core.workbook.layout import SETTINGS, SHEETS, Column
from scheduler.core.workbook.scan import SheetScan, scan_xlsx

if TYPE_CHECKING:  # start-up time: openpyxl only when a workbook is read
    from openpyxl.worksheet.worksheet import Worksheet


# --------------------------------------------------------------------------- reading
_EMPTY = object()
_GAME = re.compile(r"^([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$")
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
    """A cell of ``column`` as the YAML loader reads it; ``_EMPTY`` for an empty cell.

    Numbers: a whole float is an int, others Decimal; a share reads ``50%`` text as 0.5;
    dates: a date-time cell is its date; times (``start_time``): a time cell is kept, text
    ``18:00`` too; hours: a time or duration cell becomes ``"H:MM"``; lists are split
    (commas, or semicolons for ``names`` and ``games``). Anything not understood is passed on
    as it is, for the loader to name the problem."""
    if value is None:
        return _EMPTY
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return _EMPTY
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
            return _hhmm(value.hour, value.minute)
        if isinstance(value, dt.timedelta):
            minutes = round(value.total_seconds() / 60)
            return _hhmm(minutes // 60, minutes % 60)
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
        return [{"weekday": m.group(1).lower(), "start": m.group(2), "end": m.group(3)}
                if (m := _GAME.match(x)) else x for x in items]
    if kind == "years" and isinstance(value, str):
        pairs = [x.strip() for x in re.split(r"[,;\n]", value) if x.strip()]
        matched = [_YEAR.match(p) for p in pairs]
        if all(matched):
            return {int(m.group(1)): int(m.group(2)) for m in matched if m}
    return value


def _put(record: dict[str, Any], path: Sequence[str], value: Any) -> bool:
    """Set ``record[path]`` (creating nested mappings); False when it is already set."""
    node = record
    for part in path[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return False
    if path[-1] in node:
        return False
    node[path[-1]] = value
    return True


def _header(value: Any) -> str:
    return re.sub(r"\s*\.\s*", ".", str(value).strip()) if value is not None else ""


def _open(data: bytes) -> Any:
    # start-up time: openpyxl only when a workbook is read
    from openpyxl import load_workbook

    try:  # read-only: rows are streamed from the XML, never a grid of every cell
        return load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    except Exception as exc:  # noqa: BLE001 - zip, XML and openpyxl errors: all "not a workbook"
        raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                        f"{type(exc).__name__}: {str(exc)[:200]}")]) from None


REQUIRED_SHEETS = ("Settings", "Operators", "Tournaments")
"""The sheets every scenario workbook has (History and Tours are optional)."""


def _find_sheets(wb: Any) -> tuple[dict[str, str], list[tuple[str, str]], list[str]]:
    """The workbook's sheets by the names this module reads: (canonical name → the sheet's
    own name, problems, notes). A sheet named in other letter case or with spaces around
    (``tournaments``) is read, with a note; a required sheet missing is a problem naming
    the sheets found; a sheet of another name gets a note (it is not read)."""
    found = list(wb.sheetnames)
    names: dict[str, str] = {}
    notes: list[str] = []
    for sheet in SHEETS_READ:
        if sheet in found:
            names[sheet] = sheet
            continue
        same = [n for n in found if n.strip().lower() == sheet.lower()]
        if len(same) == 1:
            names[sheet] = same[0]
            notes.append(f"sheet {same[0]!r} is read as the {sheet} sheet")
    problems: list[tuple[str, str]] = []
    listed = ", ".join(repr(n) for n in found) or "none"
    for sheet in REQUIRED_SHEETS:
        if sheet not in names:
            near = [n for n in found if n not in names.values()
                    and sheet.lower() in n.lower()]
            hint = (f"; rename {near[0]!r} to {sheet}" if near
                    else "; tourney template writes one")
            problems.append((f"sheet {sheet}", "the workbook has no sheet of this name (its "
                             f"sheets: {listed}){hint}"))
    for n in found:
        if n not in names.values():
            notes.append(f"sheet {n!r} is not read (the sheets read are "
                         f"{', '.join(SHEETS_READ)})")
    return names, problems, notes


SHEETS_READ = ("Settings", "Operators", "Tournaments", "Sessions", "History", "Tours")
"""Every sheet a scenario workbook may have, in the order ``tourney template`` writes them."""


def _grid(ws: Worksheet, scan: SheetScan, min_row: int = 1, max_row: int | None = None,
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
    errors = {_cell_at(c) for c, _text in scan.errors}
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


def _cell_at(ref: str) -> tuple[int, int]:
    """``"M3"`` -> (3, 13): a cell reference as (row, column), 1-based."""
    m = re.match(r"^([A-Z]+)(\d+)$", ref)
    if not m:
        return (0, 0)
    column = 0
    for ch in m.group(1):
        column = column * 26 + ord(ch) - 64
    return int(m.group(2)), column


def _first_row(ws: Worksheet, scan: SheetScan) -> tuple[Any, ...]:
    return next((row for _k, row in _grid(ws, scan, 1, 1)), ())


def _has_header(ws: Worksheet, scan: SheetScan, sheet: str) -> bool:
    """True when row 1 of the record sheet names at least one of its known columns."""
    known = {c.header for c in SHEETS[sheet][1]}
    return any(_header(v) in known for v in _first_row(ws, scan))


MAX_BLANK_CELLS_SHOWN = 20
"""Cells of one sheet named for a number format that shows nothing (the rest are alike)."""


def _shown_problems(wb: Any, scans: Mapping[str, SheetScan], names: Mapping[str, str]
                    ) -> tuple[list[tuple[str, str]], list[tuple[str, Any, str]]]:
    """What the reading would not see as a person sees it, in the sheets read: (problems
    that stop the reading, problems of one cell whose value is left out while the rest is
    read), each (rule SCENARIO) naming the sheet and cell.

    Stop the reading: a hidden or very hidden sheet, a hidden row or column holding a
    value, a value whose number format shows nothing (``;;;``): what is planned would differ
    from what a person sees; a merged range over two or more columns that are read (whose
    field would its value be?) or over a record sheet's header row.

    One cell: a formula with no saved result (a file written by a script; a formula with
    one is read as the value it shows), a cell showing an error (``#DIV/0!``).
    """
    out: list[tuple[str, str]] = []
    soft: list[tuple[str, Any, str]] = []
    for sheet in SHEETS_READ:
        if sheet not in names:
            continue
        title = names[sheet]
        scan = scans.get(title, SheetScan(title))
        if scan.state != "visible":
            how = "very hidden (only a macro can show it)" if scan.state == "veryHidden" \
                else "hidden"
            out.append((f"sheet {title}", f"the sheet is {how}: tourney reads only what a "
                        "person can see; show it (Format > Sheet > Unhide), or delete it"))
        if not (scan.formulas or scan.hidden_rows or scan.hidden_columns
                or scan.blank_cells or scan.merged or scan.errors):
            continue
        ws = wb[title]
        if sheet == "Settings":
            heads = {k: _header(row[0]) for k, row in _grid(ws, scan, 1, None, 1)}
            read_columns = {1, 2}
        else:
            first = _first_row(ws, scan)
            heads = {j + 1: _header(v) for j, v in enumerate(first)}
            read_columns = {j for j, h in heads.items() if h}

        def head_of(row: int, column: int, sheet: str = sheet,
                    heads: Mapping[int, str] = heads) -> str:
            return heads.get(row if sheet == "Settings" else column, "")

        for f in scan.formulas:
            if not f.has_value:
                soft.append((f"{title}!{f.cell} ({head_of(f.row, f.column)})", None,
                             f"a formula with no computed value ({f.text}): open and save "
                             "the file in a spreadsheet application, or type the value"))
        for cell, text in scan.errors:
            row, column = _cell_at(cell)
            soft.append((f"{title}!{cell} ({head_of(row, column)})", None,
                         f"the cell shows the error {text or '#VALUE!'}: correct its formula, "
                         "or type the value"))
        for r0, c0, r1, c1 in scan.merged:
            ref = f"{_letter(c0 - 1)}{r0}:{_letter(c1 - 1)}{r1}"
            over = sorted(c for c in read_columns if c0 <= c <= c1)
            if len(over) > 1:
                fields = ", ".join(head_of(r0, c) or _letter(c - 1) for c in over) \
                    if sheet != "Settings" else "the field and its value"
                out.append((f"{title}!{ref}", f"merged cells over {len(over)} columns "
                            f"({fields}): a value would be shown for several fields; "
                            "unmerge them (Format > Merge Cells > Unmerge) and give each "
                            "column its value"))
            elif sheet != "Settings" and r0 == 1 < r1 and over:
                out.append((f"{title}!{ref}", "merged cells over the header row and the "
                            "rows below it: row 1 names the columns, the rows below hold "
                            "the values; unmerge them"))
        for cell in scan.blank_cells[:MAX_BLANK_CELLS_SHOWN]:
            out.append((f"{title}!{cell}", "the cell holds a value its number format (;;;) "
                        "shows as nothing: tourney reads only what a person can see; give "
                        "it a format that shows the value, or delete the value"))
        for r in scan.hidden_rows:
            out.append((f"{title} row {r}", "the row is hidden and holds values: tourney "
                        "reads only what a person can see; unhide the row, or delete it"))
        for c in scan.hidden_columns:
            head = heads.get(c, "") if sheet != "Settings" else ""
            out.append((f"{title} column {_letter(c - 1)}" + (f" ({head})" if head else ""),
                        "the column is hidden and holds values: tourney reads only what a "
                        "person can see; unhide the column, or delete it"))
    return out, soft


def read_workbook(data: bytes) -> tuple[dict[str, Any], Cells]:
    """A scenario workbook (the bytes of an .xlsx file) as the raw scenario mapping.

    Parameters
    ----------
    data
        The file's bytes (read within the limits of :func:`scheduler.core.limits.read_bounded`).

    Returns
    -------
    (mapping, cells)
        The mapping :func:`scheduler.inputs.load.load_scenario` validates (as a YAML file gives
        it), and :class:`Cells`, every field path's sheet, cell and column header.

    Raises
    ------
    WorkbookError
        Not an .xlsx file; no Settings, Operators or Tournaments sheet (in any letter case;
        the message lists the sheets found); a record sheet with no header row; a formula
        cell with no computed value (a file written by a script); a History row naming no
        operator of the Operators sheet, or an operator twice.
    """
    scans = scan_xlsx(data)  # bounded before openpyxl allocates anything
    wb = _open(data)
    try:
        return _read(wb, scans)
    finally:
        wb.close()


def _read(wb: Any, scans: Mapping[str, SheetScan]) -> tuple[dict[str, Any], Cells]:
    names, problems, notes = _find_sheets(wb)

    def scan(title: str) -> SheetScan:
        return scans.get(title, SheetScan(title))

    for sheet in ("Operators", "Tournaments", "Sessions", "History", "Tours"):
        if sheet in names and not _has_header(wb[names[sheet]], scan(names[sheet]), sheet):
            problems.append((f"{names[sheet]}!1", "no header row: row 1 must name the columns "
                             f"({', '.join(c.header for c in SHEETS[sheet][1][:4])}, ...) "
                             "as tourney template writes them"))
    hard, soft = _shown_problems(wb, scans, names)
    problems += hard
    if problems:
        raise WorkbookError(problems)
    cells = Cells()
    cells.notes = notes
    cells.problems = soft
    judge = _Judge(soft, getattr(wb, "epoch", None))
    out: dict[str, Any] = {}
    cells[()] = "Settings"
    by_field = {c.header: c for c in SETTINGS}
    settings = names["Settings"]
    for number, row in _grid(wb[settings], scan(settings), 2, None, 2):
        key = _header(row[0]) if row else ""
        value = row[1] if len(row) > 1 else None
        if not key:
            continue
        column = by_field.get(key, Column(key, "text", ""))
        where = f"{settings}!B{number} ({key})"
        for k in range(1, len(column.path) + 1):
            cells.setdefault(column.path[:k], where)
        read = judge(column, value, where)
        if read is not _EMPTY and not _put(out, column.path, read):
            judge.problem(where, "given twice in the Settings sheet")
    for sheet, (key, _columns) in SHEETS.items():
        if key not in out and sheet in names and sheet not in ("History", "Sessions"):
            out[key] = []
            cells[(key,)] = f"{names[sheet]} sheet"
    for sheet in ("Operators", "Tournaments", "Tours"):
        if sheet in names:
            _read_records(wb[names[sheet]], scan(names[sheet]), sheet, out, cells, judge)
    if "Sessions" in names:
        _read_sessions(wb[names["Sessions"]], scan(names["Sessions"]), out, cells, judge)
    if "History" in names:
        _read_history(wb[names["History"]], scan(names["History"]), out, cells, judge)
    return out, cells


class _Judge:
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
        if value is _EMPTY:
            return value
        if column.kind in ("date", "days"):
            items = value if isinstance(value, list) else [value]
            number = next((x for x in items if _is_number(x)), None)
            if number is not None:
                self.problem(where, self._date_words(number), number)
                return _EMPTY
        if column.kind == "time" and _is_number(value):
            self.problem(where, self._time_words(value), value)
            return _EMPTY
        return value

    def _date_words(self, number: Any) -> str:
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


def _rows(ws: Worksheet, scan: SheetScan) -> Iterable[tuple[int, list[Any]]]:
    """(row number, values) of every row below the header that holds a value (empty rows,
    trailing ones too, are skipped)."""
    for number, row in _grid(ws, scan, 2):
        if any(v is not None and str(v).strip() for v in row):
            yield number, list(row)


def _columns_of(ws: Worksheet, scan: SheetScan, sheet: str) -> list[tuple[int, Column]]:
    known = {c.header: c for c in SHEETS[sheet][1]}
    out = []
    for i, head in enumerate(_first_row(ws, scan)):
        header = _header(head)
        if header:
            out.append((i, known.get(header, Column(header, "text", ""))))
    return out


def _nearest(value: Any, ids: Iterable[str]) -> str:
    near = difflib.get_close_matches(str(value), list(ids), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def _read_records(ws: Worksheet, scan: SheetScan, sheet: str, out: dict[str, Any],
                  cells: Cells, judge: _Judge) -> None:
    key = SHEETS[sheet][0]
    columns = _columns_of(ws, scan, sheet)
    records: list[dict[str, Any]] = out.setdefault(key, [])
    for number, row in _rows(ws, scan):
        i = len(records)
        record: dict[str, Any] = {}
        cells[(key, i)] = f"{ws.title} row {number}"
        for j, column in columns:
            where = f"{ws.title}!{_letter(j)}{number} ({column.header})"
            raw = row[j] if j < len(row) else None
            if sheet == "Tournaments" and column.header == "sessions":
                if cell_value(column, raw) is not _EMPTY:
                    judge.problem(where, "flights are rows of the Sessions sheet, not a "
                                  "column: one row a session (tournament, day, start, "
                                  "hours, name), e.g. main-event, 1, 11:00, 10, Day 1A")
                continue
            for k in range(1, len(column.path) + 1):
                cells.setdefault((key, i, *column.path[:k]), where)
            value = judge(column, raw, where)
            if value is not _EMPTY and not _put(record, column.path, value):
                judge.problem(where, "given twice (two columns of this name)")
        records.append(record)


def _read_history(ws: Worksheet, scan: SheetScan, out: dict[str, Any], cells: Cells,
                  judge: _Judge) -> None:
    columns = _columns_of(ws, scan, "History")
    operators = out.get("operators", [])
    index = {str(o.get("id")): i for i, o in enumerate(operators)}
    seen: dict[str, int] = {}
    for number, row in _rows(ws, scan):
        values = {c.header: (j, judge(c, row[j] if j < len(row) else None,
                                      f"{ws.title}!{_letter(j)}{number} ({c.header})"))
                  for j, c in columns}
        j, op = values.get("operator", (0, _EMPTY))
        where = f"{ws.title}!{_letter(j)}{number} (operator)"
        if op is _EMPTY or str(op) not in index:
            near = (f"; the Operators sheet has {', '.join(sorted(index)) or 'none'}"
                    if op is _EMPTY or not _nearest(op, index) else _nearest(op, index))
            judge.problem(where, "no operator given: a History row names an operator id of "
                          f"the Operators sheet{near}" if op is _EMPTY else
                          f"not an operator id of the Operators sheet{near}",
                          None if op is _EMPTY else op)
            continue
        if str(op) in seen:
            judge.problem(where, f"this operator has a History row already (row "
                          f"{seen[str(op)]})", op)
            continue
        seen[str(op)] = number
        i = index[str(op)]
        for header, (j, value) in values.items():
            if header == "operator":
                continue
            path = tuple(header.split("."))
            where = f"{ws.title}!{_letter(j)}{number} ({header})"
            for k in range(1, len(path) + 1):
                cells[("operators", i, *path[:k])] = where
            if value is not _EMPTY and not _put(operators[i], path, value):
                judge.problem(where, "given twice (in the Operators and History sheets)")


def _read_sessions(ws: Worksheet, scan: SheetScan, out: dict[str, Any], cells: Cells,
                   judge: _Judge) -> None:
    """The Sessions sheet's rows as the ``sessions`` of the tournaments they name, in the
    order of the rows (rule SCENARIO sorts and checks them)."""
    columns = _columns_of(ws, scan, "Sessions")
    tournaments = out.get("tournaments", [])
    index = {str(t.get("id")): i for i, t in enumerate(tournaments)}
    for number, row in _rows(ws, scan):
        values = {c.header: (j, judge(c, row[j] if j < len(row) else None,
                                      f"{ws.title}!{_letter(j)}{number} ({c.header})"))
                  for j, c in columns}
        j, tid = values.get("tournament", (0, _EMPTY))
        where = f"{ws.title}!{_letter(j)}{number} (tournament)"
        if tid is _EMPTY or str(tid) not in index:
            near = (f"; the Tournaments sheet has {', '.join(sorted(index)) or 'none'}"
                    if tid is _EMPTY or not _nearest(tid, index) else _nearest(tid, index))
            judge.problem(where, "no tournament given: a session row names a tournament id "
                          f"of the Tournaments sheet{near}" if tid is _EMPTY else
                          f"not a tournament id of the Tournaments sheet{near}",
                          None if tid is _EMPTY else tid)
            continue
        i = index[str(tid)]
        sessions = tournaments[i].setdefault("sessions", [])
        k = len(sessions)
        cells.setdefault(("tournaments", i, "sessions"), f"{ws.title} row {number}")
        cells[("tournaments", i, "sessions", k)] = f"{ws.title} row {number}"
        session: dict[str, Any] = {}
        for header, (j, value) in values.items():
            if header == "tournament":
                continue
            cells[("tournaments", i, "sessions", k, header)] = \
                f"{ws.title}!{_letter(j)}{number} ({header})"
            if value is not _EMPTY:
                session[header] = value
        sessions.append(session)


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
    wb = _open(data)
    try:
        found = [n for n in wb.sheetnames if n.strip().lower() == sheet.lower()]
        if not found:
            listed = ", ".join(repr(n) for n in wb.sheetnames) or "none"
            raise WorkbookError([(f"sheet {sheet}", f"the workbook has no sheet of this name "
                                  f"(its sheets: {listed})")])
        title = found[0]
        scan = scans.get(title, SheetScan(title))
        ws = wb[title]
        headers = [_header(v) for v in _first_row(ws, scan)]
        problems: list[tuple[str, str]] = []

        def where(row: int, column: int) -> str:
            head = headers[column - 1] if 0 < column <= len(headers) else ""
            return f"{title}!{_letter(column - 1)}{row}" + (f" ({head})" if head else "")

        for f in scan.formulas:
            if not f.has_value:
                problems.append((where(f.row, f.column), f"a formula with no computed value "
                                 f"({f.text}): open and save the file in a spreadsheet "
                                 "application, or type the value"))
        for cell, text in scan.errors:
            problems.append((where(*_cell_at(cell)), f"the cell shows the error "
                             f"{text or '#VALUE!'}: correct its formula, or type the value"))
        for r0, c0, r1, c1 in scan.merged:
            if c1 > c0 and any(headers[c - 1] for c in range(c0, min(c1, len(headers)) + 1)):
                problems.append((f"{title}!{_letter(c0 - 1)}{r0}:{_letter(c1 - 1)}{r1}",
                                 f"merged cells over {c1 - c0 + 1} columns: a value would be "
                                 "shown for several fields; unmerge them"))
        rows = list(_rows(ws, scan))
        return headers, rows, problems, getattr(wb, "epoch", None)
    finally:
        wb.close()
