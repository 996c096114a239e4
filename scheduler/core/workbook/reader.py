"""A scenario workbook read (:func:`read_workbook`): the raw mapping the YAML loader
validates and the :class:`~scheduler.core.workbook.cells.Cells` that name the sheet, cell and
column of each field. openpyxl is imported when a workbook is read (start-up time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from scheduler.core.workbook.cells import Cells, WorkbookError, hhmm, letter
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


SHEETS_READ = ("Settings", "Operators", "Tournaments", "History", "Tours")
"""Every sheet a scenario workbook may have, in the order ``tourney template`` writes them."""


def _grid(ws: Worksheet, scan: SheetScan, min_row: int = 1, max_row: int | None = None,
          max_col: int | None = None) -> Iterable[tuple[int, tuple[Any, ...]]]:
    """(row number, values) of rows ``min_row``.. of ``ws``, never past the last row and
    column :func:`scan_xlsx` found a value in (openpyxl alone would walk to the sheet's
    recorded dimension, XFD1048576 if it says so)."""
    last_row = scan.max_row if max_row is None else min(max_row, scan.max_row)
    last_col = scan.max_column if max_col is None else min(max_col, scan.max_column)
    if last_row < min_row or last_col < 1:
        return
    yield from enumerate(ws.iter_rows(min_row=min_row, max_row=last_row, max_col=last_col,
                                      values_only=True), start=min_row)


def _first_row(ws: Worksheet, scan: SheetScan) -> tuple[Any, ...]:
    return next((row for _k, row in _grid(ws, scan, 1, 1)), ())


def _has_header(ws: Worksheet, scan: SheetScan, sheet: str) -> bool:
    """True when row 1 of the record sheet names at least one of its known columns."""
    known = {c.header for c in SHEETS[sheet][1]}
    return any(_header(v) in known for v in _first_row(ws, scan))


MAX_BLANK_CELLS_SHOWN = 20
"""Cells of one sheet named for a number format that shows nothing (the rest are alike)."""


def _shown_problems(wb: Any, scans: Mapping[str, SheetScan], names: Mapping[str, str]
                    ) -> list[tuple[str, str]]:
    """What the reading would not see as a person sees it, in the sheets read, each a
    problem (rule SCENARIO) naming the sheet and cell:

    - a formula: its saved result may be out of date (a script changed the formula, the
      spreadsheet did not recalculate) or missing (a file written by a script): never read;
    - a hidden or very hidden sheet, a hidden row or column holding a value, a value whose
      number format shows nothing (``;;;``): what is planned would differ from what a
      person sees."""
    out: list[tuple[str, str]] = []
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
                or scan.blank_cells):
            continue
        ws = wb[title]
        if sheet == "Settings":
            heads = {k: _header(row[0]) for k, row in _grid(ws, scan, 1, None, 1)}
        else:
            first = _first_row(ws, scan)
            heads = {j + 1: _header(v) for j, v in enumerate(first)}
        for f in scan.formulas:
            header = heads.get(f.row if sheet == "Settings" else f.column, "")
            where = f"{title}!{f.cell} ({header})"
            if f.has_value:
                out.append((where, f"a formula ({f.text}): tourney reads typed values only, "
                            "as a formula's saved result can be out of date; replace it by "
                            "its value (copy, then paste as values)"))
            else:
                out.append((where, f"a formula with no computed value ({f.text}): open and "
                            "save the file in Excel, or type the value"))
        for cell in scan.blank_cells[:MAX_BLANK_CELLS_SHOWN]:
            out.append((f"{title}!{cell}", "the cell holds a value its number format (;;;) "
                        "shows as nothing: tourney reads only what a person can see; give "
                        "it a format that shows the value, or delete the value"))
        for r in scan.hidden_rows:
            out.append((f"{title} row {r}", "the row is hidden and holds values: tourney "
                        "reads only what a person can see; unhide the row, or delete it"))
        for c in scan.hidden_columns:
            head = heads.get(c, "") if sheet != "Settings" else ""
            out.append((f"{title} column {letter(c - 1)}" + (f" ({head})" if head else ""),
                        "the column is hidden and holds values: tourney reads only what a "
                        "person can see; unhide the column, or delete it"))
    return out


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

    for sheet in ("Operators", "Tournaments", "History", "Tours"):
        if sheet in names and not _has_header(wb[names[sheet]], scan(names[sheet]), sheet):
            problems.append((f"{names[sheet]}!1", "no header row: row 1 must name the columns "
                             f"({', '.join(c.header for c in SHEETS[sheet][1][:4])}, ...) "
                             "as tourney template writes them"))
    problems += _shown_problems(wb, scans, names)
    if problems:
        raise WorkbookError(problems)
    cells = Cells()
    cells.notes = notes
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
        read = cell_value(column, value)
        if read is not _EMPTY and not _put(out, column.path, read):
            problems.append((where, "given twice in the Settings sheet"))
    for sheet, (key, _columns) in SHEETS.items():
        if key not in out and sheet in names and sheet != "History":
            out[key] = []
            cells[(key,)] = f"{names[sheet]} sheet"
    for sheet in ("Operators", "Tournaments", "Tours"):
        if sheet in names:
            _read_records(wb[names[sheet]], scan(names[sheet]), sheet, out, cells, problems)
    if "History" in names:
        _read_history(wb[names["History"]], scan(names["History"]), out, cells, problems)
    if problems:
        raise WorkbookError(problems)
    return out, cells


def _rows(ws: Worksheet, scan: SheetScan) -> Iterable[tuple[int, list[Any]]]:
    """(row number, values) of every row below the header that holds a value."""
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


def _read_records(ws: Worksheet, scan: SheetScan, sheet: str, out: dict[str, Any],
                  cells: Cells, problems: list[tuple[str, str]]) -> None:
    key = SHEETS[sheet][0]
    columns = _columns_of(ws, scan, sheet)
    records: list[dict[str, Any]] = out.setdefault(key, [])
    for number, row in _rows(ws, scan):
        i = len(records)
        record: dict[str, Any] = {}
        cells[(key, i)] = f"{ws.title} row {number}"
        for j, column in columns:
            where = f"{ws.title}!{letter(j)}{number} ({column.header})"
            for k in range(1, len(column.path) + 1):
                cells.setdefault((key, i, *column.path[:k]), where)
            value = cell_value(column, row[j] if j < len(row) else None)
            if value is not _EMPTY and not _put(record, column.path, value):
                problems.append((where, "given twice (two columns of this name)"))
        records.append(record)


def _read_history(ws: Worksheet, scan: SheetScan, out: dict[str, Any], cells: Cells,
                  problems: list[tuple[str, str]]) -> None:
    columns = _columns_of(ws, scan, "History")
    operators = out.get("operators", [])
    index = {str(o.get("id")): i for i, o in enumerate(operators)}
    seen: dict[str, int] = {}
    for number, row in _rows(ws, scan):
        values = {c.header: (j, cell_value(c, row[j] if j < len(row) else None))
                  for j, c in columns}
        j, op = values.get("operator", (0, _EMPTY))
        where = f"{ws.title}!{letter(j)}{number} (operator)"
        if op is _EMPTY or str(op) not in index:
            near = f"; the Operators sheet has {', '.join(sorted(index)) or 'none'}"
            problems.append((where, f"{'no operator given' if op is _EMPTY else repr(op)}: "
                             f"not an operator id of the Operators sheet{near}"))
            continue
        if str(op) in seen:
            problems.append((where, f"{op!r} has a History row already (row {seen[str(op)]})"))
            continue
        seen[str(op)] = number
        i = index[str(op)]
        for header, (j, value) in values.items():
            if header == "operator":
                continue
            path = tuple(header.split("."))
            where = f"{ws.title}!{letter(j)}{number} ({header})"
            for k in range(1, len(path) + 1):
                cells[("operators", i, *path[:k])] = where
            if value is not _EMPTY and not _put(operators[i], path, value):
                problems.append((where, "given twice (in the Operators and History sheets)"))
