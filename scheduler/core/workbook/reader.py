"""A scenario workbook read (:func:`read_workbook`): the raw mapping the YAML loader
validates and the :class:`~scheduler.core.workbook.cells.Cells` that name the sheet, cell and
column of each field. openpyxl is imported when a workbook is read (start-up time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scheduler.core.workbook.cells import Cells, WorkbookError, letter
from scheduler.core.workbook.layout import SETTINGS, SHEETS, Column
from scheduler.core.workbook.scan import SheetScan, scan_xlsx
from scheduler.core.workbook.shown import (
    EMPTY,
    Judge,
    cell_at,
    cell_value,
    first_row,
    grid,
    header_text,
    open_workbook,
    value_rows,
)

if TYPE_CHECKING:  # start-up time: openpyxl only when a workbook is read
    from openpyxl.worksheet.worksheet import Worksheet


# --------------------------------------------------------------------------- reading
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


def _has_header(ws: Worksheet, scan: SheetScan, sheet: str) -> bool:
    """True when row 1 of the record sheet names at least one of its known columns."""
    known = {c.header for c in SHEETS[sheet][1]}
    return any(header_text(v) in known for v in first_row(ws, scan))


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
            heads = {k: header_text(row[0]) for k, row in grid(ws, scan, 1, None, 1)}
            read_columns = {1, 2}
        else:
            first = first_row(ws, scan)
            heads = {j + 1: header_text(v) for j, v in enumerate(first)}
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
            row, column = cell_at(cell)
            soft.append((f"{title}!{cell} ({head_of(row, column)})", None,
                         f"the cell shows the error {text or '#VALUE!'}: correct its formula, "
                         "or type the value"))
        for r0, c0, r1, c1 in scan.merged:
            ref = f"{letter(c0 - 1)}{r0}:{letter(c1 - 1)}{r1}"
            over = sorted(c for c in read_columns if c0 <= c <= c1)
            if len(over) > 1:
                fields = ", ".join(head_of(r0, c) or letter(c - 1) for c in over) \
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
            out.append((f"{title} column {letter(c - 1)}" + (f" ({head})" if head else ""),
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
    wb = open_workbook(data)
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
    judge = Judge(soft, getattr(wb, "epoch", None))
    out: dict[str, Any] = {}
    cells[()] = "Settings"
    by_field = {c.header: c for c in SETTINGS}
    settings = names["Settings"]
    for number, row in grid(wb[settings], scan(settings), 2, None, 2):
        key = header_text(row[0]) if row else ""
        value = row[1] if len(row) > 1 else None
        if not key:
            continue
        column = by_field.get(key, Column(key, "text", ""))
        where = f"{settings}!B{number} ({key})"
        for k in range(1, len(column.path) + 1):
            cells.setdefault(column.path[:k], where)
        read = judge(column, value, where)
        if read is not EMPTY and not _put(out, column.path, read):
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


def _columns_of(ws: Worksheet, scan: SheetScan, sheet: str) -> list[tuple[int, Column]]:
    known = {c.header: c for c in SHEETS[sheet][1]}
    out = []
    for i, head in enumerate(first_row(ws, scan)):
        header = header_text(head)
        if header:
            out.append((i, known.get(header, Column(header, "text", ""))))
    return out


def _nearest(value: Any, ids: Iterable[str]) -> str:
    near = difflib.get_close_matches(str(value), list(ids), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def _read_records(ws: Worksheet, scan: SheetScan, sheet: str, out: dict[str, Any],
                  cells: Cells, judge: Judge) -> None:
    key = SHEETS[sheet][0]
    columns = _columns_of(ws, scan, sheet)
    records: list[dict[str, Any]] = out.setdefault(key, [])
    for number, row in value_rows(ws, scan):
        i = len(records)
        record: dict[str, Any] = {}
        cells[(key, i)] = f"{ws.title} row {number}"
        for j, column in columns:
            where = f"{ws.title}!{letter(j)}{number} ({column.header})"
            raw = row[j] if j < len(row) else None
            if sheet == "Tournaments" and column.header == "sessions":
                if cell_value(column, raw) is not EMPTY:
                    judge.problem(where, "flights are rows of the Sessions sheet, not a "
                                  "column: one row a session (tournament, day, start, "
                                  "hours, name), e.g. main-event, 1, 11:00, 10, Day 1A")
                continue
            for k in range(1, len(column.path) + 1):
                cells.setdefault((key, i, *column.path[:k]), where)
            value = judge(column, raw, where)
            if value is not EMPTY and not _put(record, column.path, value):
                judge.problem(where, "given twice (two columns of this name)")
        records.append(record)


def _read_history(ws: Worksheet, scan: SheetScan, out: dict[str, Any], cells: Cells,
                  judge: Judge) -> None:
    columns = _columns_of(ws, scan, "History")
    operators = out.get("operators", [])
    index = {str(o.get("id")): i for i, o in enumerate(operators)}
    seen: dict[str, int] = {}
    for number, row in value_rows(ws, scan):
        values = {c.header: (j, judge(c, row[j] if j < len(row) else None,
                                      f"{ws.title}!{letter(j)}{number} ({c.header})"))
                  for j, c in columns}
        j, op = values.get("operator", (0, EMPTY))
        where = f"{ws.title}!{letter(j)}{number} (operator)"
        if op is EMPTY or str(op) not in index:
            near = (f"; the Operators sheet has {', '.join(sorted(index)) or 'none'}"
                    if op is EMPTY or not _nearest(op, index) else _nearest(op, index))
            judge.problem(where, "no operator given: a History row names an operator id of "
                          f"the Operators sheet{near}" if op is EMPTY else
                          f"not an operator id of the Operators sheet{near}",
                          None if op is EMPTY else op)
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
            where = f"{ws.title}!{letter(j)}{number} ({header})"
            for k in range(1, len(path) + 1):
                cells[("operators", i, *path[:k])] = where
            if value is not EMPTY and not _put(operators[i], path, value):
                judge.problem(where, "given twice (in the Operators and History sheets)")


def _read_sessions(ws: Worksheet, scan: SheetScan, out: dict[str, Any], cells: Cells,
                   judge: Judge) -> None:
    """The Sessions sheet's rows as the ``sessions`` of the tournaments they name, in the
    order of the rows (rule SCENARIO sorts and checks them)."""
    columns = _columns_of(ws, scan, "Sessions")
    tournaments = out.get("tournaments", [])
    index = {str(t.get("id")): i for i, t in enumerate(tournaments)}
    for number, row in value_rows(ws, scan):
        values = {c.header: (j, judge(c, row[j] if j < len(row) else None,
                                      f"{ws.title}!{letter(j)}{number} ({c.header})"))
                  for j, c in columns}
        j, tid = values.get("tournament", (0, EMPTY))
        where = f"{ws.title}!{letter(j)}{number} (tournament)"
        if tid is EMPTY or str(tid) not in index:
            near = (f"; the Tournaments sheet has {', '.join(sorted(index)) or 'none'}"
                    if tid is EMPTY or not _nearest(tid, index) else _nearest(tid, index))
            judge.problem(where, "no tournament given: a session row names a tournament id "
                          f"of the Tournaments sheet{near}" if tid is EMPTY else
                          f"not a tournament id of the Tournaments sheet{near}",
                          None if tid is EMPTY else tid)
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
                f"{ws.title}!{letter(j)}{number} ({header})"
            if value is not EMPTY:
                session[header] = value
        sessions.append(session)
    for i, t in enumerate(tournaments):
        for field in ("days", "start_time", "hours") if t.get("sessions") else ():
            if field in t:  # the sheet's way to say what YAML says "not both" of
                judge.problem(cells[("tournaments", i, field)], "this tournament has rows in "
                              "the Sessions sheet (flights), which replace days, start_time "
                              "and hours: leave this cell empty, or delete its Sessions rows",
                              t.pop(field))


