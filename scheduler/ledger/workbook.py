"""The ledger as an Excel workbook (``tourney ledger export --out x.xlsx``, ``tourney ledger
import x.xlsx``): one sheet per kind of entry (:data:`SHEETS`: Held, Filings, Licences,
Reports, then the adopted plans' Organizations, Operators, ... ), each with its table's own
columns (:func:`sheet_columns`), typed as a person reads them (days as dates, USD as numbers
with cents, yes/no as TRUE/FALSE), so export → import into an empty ledger → export gives the
same rows, and an edited figure is shown as an edit (``--apply-edits``: a correction). Errors
name the sheet and cell (``Held!F7``) and the column. A workbook of the earlier layout (one
sheet ``Ledger`` with the CSV export's columns, every cell text) is read too.

openpyxl (a dependency of tourney) is imported when a workbook is read or written, not at
start-up.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import Date, DateTime

from scheduler.core.atomic_files import same_file, shown
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.workbook.cells import WorkbookError
from scheduler.core.workbook.scan import Formula, SheetScan, scan_xlsx
from scheduler.ledger.frames import Ledger
from scheduler.ledger.store import LedgerError
from scheduler.ledger.transfer import (
    EXPORT_HEAD,
    Imported,
    export_entries,
    import_rows,
    ledger_tables,
)

SHEET = "Ledger"
"""The one sheet of a workbook of the earlier layout (every table's rows, column ``table``)."""
FIXED_TIME = dt.datetime(2000, 1, 1)
"""The workbook's created/modified times and every zip entry's time: the same ledger gives
the same bytes."""


def _openpyxl() -> Any:
    try:
        import openpyxl  # start-up time: only `.xlsx` files need it
    except ImportError:
        raise LedgerError("reading or writing .xlsx needs openpyxl, which tourney "
                          "installs: pip install openpyxl (or use a .csv file)") from None
    return openpyxl


SHEETS = {"held": "Held", "filings": "Filings", "licences": "Licences", "reports": "Reports",
          "organizations": "Organizations", "operators": "Operators", "lineages": "Lineages",
          "plan_versions": "Plan versions", "plan_events": "Plan events",
          "plan_licences": "Plan licences", "plan_deadlines": "Plan deadlines",
          "plan_scenarios": "Plan scenarios"}
"""The sheet of each table, in the workbook's order: what was held or cancelled, filed,
bought and reported first; then what the adopted plans said. A table added later gets a
sheet named as the table."""
_FRONT = {
    "held": ("tournament_id", "occurrence", "operator_id", "outcome", "first_day",
             "last_day", "players", "entries", "entry_fees_usd", "prizes_usd", "charity_usd",
             "charity_to", "charity_is_licensee", "expenses_usd", "surcharge_usd",
             "under_21_admitted", "away_from_establishment", "note"),
    "filings": ("kind", "tournament_id", "occurrence", "license_ref", "operator_id",
                "filed_on", "agency_number", "note"),
    "licences": ("kind", "tier", "agency_number", "operator_id", "fee_usd", "valid_from",
                 "valid_to", "license_ref", "note"),
    "reports": ("rule", "license_ref", "operator_id", "period_end", "filed_on", "note"),
}
_TAIL = ("key", "supersedes_id", "organization_id", "recorded_at", "recorded_by")
_USD_FORMAT = "#,##0.00"
_DAY_FORMAT = "yyyy-mm-dd"


def sheet_columns(table: Any) -> list[str]:
    """The columns of ``table``'s sheet, in order: what the entry says first (for a fact:
    what it is about, the days and figures, the note), then its other columns, then the
    bookkeeping (``key``, ``supersedes_id``, ``organization_id``, ``recorded_at``,
    ``recorded_by``). ``id`` is left out (a database's own number; references are keys)."""
    names = [c.name for c in table.columns if c.name != "id"]
    front = [c for c in _FRONT.get(table.name, ()) if c in names]
    tail = [c for c in _TAIL if c in names]
    return [*front, *[c for c in names if c not in front and c not in tail], *tail]


def _sheet_tables() -> list[Any]:
    """The tables in the workbook's sheet order (:data:`SHEETS`, then any other)."""
    tables = {t.name: t for t in ledger_tables()}
    return [*(tables[n] for n in SHEETS if n in tables),
            *(t for n, t in tables.items() if n not in SHEETS)]


def _cell_value(value: Any) -> tuple[Any, str | None]:
    """A value of :func:`~scheduler.ledger.transfer.export_entries` as a typed cell and its
    number format: USD a number with cents, a day a date, a time UTC text."""
    if isinstance(value, Decimal):
        return float(value), _USD_FORMAT
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), None
    if isinstance(value, dt.date):
        return value, _DAY_FORMAT
    if isinstance(value, str) and _NOT_XML.search(value):
        # kept by a ledger before notes were checked: shown as its escape (\x1b), as on a
        # terminal, since a workbook cannot hold it
        return _NOT_XML.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace")
                            .decode("ascii"), value), None
    return value, None


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""The characters an .xlsx cell (XML 1.0) cannot hold."""


def export_xlsx(ledger: Ledger) -> tuple[bytes, int]:
    """Every entry of ``ledger`` as an .xlsx workbook: one sheet per table (:data:`SHEETS`,
    columns :func:`sheet_columns`, header row bold and frozen), each cell typed (a day a
    date cell, USD a number shown with cents, yes/no TRUE/FALSE, a count a number, text
    text, never a formula; a time UTC text). Returns the bytes and the number of entries.
    Deterministic: the same ledger, the same bytes."""
    openpyxl = _openpyxl()
    from openpyxl.styles import Font  # start-up time: as openpyxl above
    from openpyxl.utils import get_column_letter  # start-up time: as openpyxl above

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    sheets: dict[str, Any] = {}
    columns: dict[str, list[str]] = {}
    widths: dict[str, list[int]] = {}
    for t in _sheet_tables():
        ws = wb.create_sheet(SHEETS.get(t.name, t.name))
        cols = sheet_columns(t)
        ws.append(cols)
        for c in ws[1]:
            c.font = Font(bold=True)
        ws.freeze_panes = "A2"
        sheets[t.name], columns[t.name] = ws, cols
        widths[t.name] = [len(c) for c in cols]
    n = 0
    for t, values in export_entries(ledger):
        ws, cols = sheets[t.name], columns[t.name]
        r = ws.max_row + 1
        for k, name in enumerate(cols, start=1):
            value, fmt = _cell_value(values.get(name))
            if value is None or value == "":
                continue
            cell = ws.cell(row=r, column=k)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # text, never a formula (a note starting with '=')
            if fmt:
                cell.number_format = fmt
            shown = 12 if fmt else len(str(value))
            widths[t.name][k - 1] = max(widths[t.name][k - 1], min(shown, 40))
        n += 1
    for name, ws in sheets.items():
        for k, w in enumerate(widths[name], start=1):
            ws.column_dimensions[get_column_letter(k)].width = w + 2
    wb.properties.creator = "tourney"
    wb.properties.created = wb.properties.modified = FIXED_TIME
    raw = io.BytesIO()
    wb.save(raw)
    return fixed_zip(raw.getvalue()), n


def fixed_zip(data: bytes) -> bytes:
    """``data`` (a zip) rewritten with every entry at one fixed time, and the modified time
    openpyxl stamps into docProps/core.xml replaced by the fixed one."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                text = body.decode("utf-8")
                start = text.find("<dcterms:modified")
                if start >= 0:
                    end = text.find("</dcterms:modified>", start)
                    head = text[start:text.find(">", start) + 1]
                    text = (text[:start] + head + FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ")
                            + text[end:])
                body = text.encode("utf-8")
            dst.writestr(zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0)),
                         body, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _date_columns() -> tuple[set[str], set[str]]:
    dates = {c.name for t in ledger_tables() for c in t.columns if isinstance(c.type, Date)}
    times = {c.name for t in ledger_tables() for c in t.columns if isinstance(c.type, DateTime)}
    return dates, times


def _text(value: Any, column: str, dates: set[str], times: set[str]) -> str:
    """A cell as the CSV text :func:`~scheduler.ledger.transfer.import_rows` reads: text as is;
    a date or time a spreadsheet made of it back to ISO 8601 (a day for a day column, UTC
    for a time column); numbers without a trailing ``.0``."""
    if isinstance(value, dt.datetime) and column in times:
        v = value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value
        return v.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return sheet_text(value, column in dates)


def sheet_text(value: Any, day: bool) -> str:
    """A cell's value (as openpyxl reads it) as the text a CSV would hold: empty for no
    value; ``true``/``false`` for TRUE/FALSE; a date cell as its ISO day when ``day`` (the
    column holds days), else ISO 8601; a whole number without ``.0``; anything else as
    ``str``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if day else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def open_workbook(path: Path) -> tuple[Any, dict[str, SheetScan]]:
    """The workbook ``path`` (read-only, values) and the scans of its sheets (hidden rows and
    columns, formulas), its size and parts bounded before openpyxl reads it."""
    openpyxl = _openpyxl()
    if not path.exists():
        raise LedgerError(f"{path} does not exist")
    try:
        data = read_bounded(path)  # its size bounded (docs/limits.md)
        scans = scan_xlsx(data)  # its parts, cells and texts bounded before openpyxl
    except LimitError as exc:
        raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                          ) from None
    except WorkbookError as exc:
        where, message = exc.problems[0]
        if where == "<file>" and message.startswith("cannot be read as an Excel workbook"):
            raise LedgerError(f"cannot read {path} as an .xlsx workbook: "
                              f"{message.split(': ', 1)[-1]}") from None
        raise LedgerError(f"{path}" + ("" if where == "<file>" else f" {where}")
                          + f": {message}") from None
    try:  # read-only: rows streamed from the XML
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - zip, XML and openpyxl errors: "not a workbook"
        raise LedgerError(f"cannot read {path} as an .xlsx workbook: {exc}") from None
    return wb, scans


def read_sheet(path: Path, wb: Any, scans: dict[str, SheetScan], sheet: str
               ) -> tuple[list[str], list[tuple[int, list[Any]]]]:
    """The header (stripped texts) and the rows ``(row number, values)`` of ``sheet``, rows
    of only empty cells left out. Raises :class:`LedgerError` when the sheet is hidden,
    holds a formula or a hidden row or column (what a person does not see), or is empty."""
    scan = scans.get(sheet)
    unseen = _unseen(path, scan, sheet)
    if unseen:
        raise LedgerError(unseen)
    last_row = scan.max_row if scan else 0
    last_col = scan.max_column if scan else 0
    grid = ([list(r) for r in wb[sheet].iter_rows(max_row=last_row, max_col=last_col,
                                                  values_only=True)]
            if last_row and last_col else [])
    if not grid:
        raise LedgerError(f"{path} {sheet}!A1: the sheet is empty (no header row)")
    for f in scan.formulas if scan else []:  # TRUE and FALSE as LibreOffice saves them
        if _constant(f) and f.row <= len(grid) and f.column <= len(grid[f.row - 1]):
            grid[f.row - 1][f.column - 1] = _CONSTANTS[f.text.upper()]
    header = ["" if h is None else str(h).strip() for h in grid[0]]
    rows = [(r, values) for r, values in enumerate(grid[1:], start=2)
            if not all(v is None or (isinstance(v, str) and not v.strip()) for v in values)]
    return header, rows


def import_xlsx(ledger: Ledger, path: str | os.PathLike[str], *,
                today: dt.date | None = None, apply_edits: bool = False,
                by: str | None = None) -> Imported:
    """``tourney ledger import FILE.xlsx``: add the entries of a workbook :func:`export_xlsx`
    wrote (or a person edited: dates, numbers and TRUE/FALSE a spreadsheet made are read
    back, as the amounts a person types, :mod:`scheduler.ledger.spellings`), in one
    transaction, as :func:`~scheduler.ledger.transfer.import_csv`: rows that differ from the
    ledger are edits, recorded as corrections with ``apply_edits``, else listed
    (:class:`~scheduler.ledger.transfer.EditsNotApplied`). Sheets the export does not write
    are not read. A workbook of the earlier layout (sheet ``Ledger``) is read too. Raises
    :class:`LedgerError` naming the file, the sheet and cell (``Held!F7``) and the column
    of a value at fault, no sheet of the export, or a file that is not a workbook."""
    from openpyxl.utils import get_column_letter  # start-up time: openpyxl

    path = Path(path)
    wb, scans = open_workbook(path)
    tables = _sheet_tables()
    try:
        if SHEET in wb.sheetnames:
            names = [(None, SHEET)]  # the earlier layout: one sheet, its column `table`
        else:
            names = [(t.name, SHEETS.get(t.name, t.name)) for t in tables
                     if SHEETS.get(t.name, t.name) in wb.sheetnames]
        if not names:
            raise LedgerError(f"{path} has none of the sheets "
                              + ", ".join(SHEETS.values()) + " (sheets: "
                              + ", ".join(wb.sheetnames) + "): give a workbook written by "
                              "`tourney ledger export --out FILE.xlsx`")
        read = {sheet: (table, *read_sheet(path, wb, scans, sheet)) for table, sheet in names}
    finally:
        wb.close()
    dates, times = _date_columns()
    order = {t.name: k for k, t in enumerate(ledger_tables())}  # parents first, as the CSV
    rows: list[tuple[int, str, int, dict[str, str], dict[str, str]]] = []
    for sheet, (table, header, grid) in read.items():
        letters = {name: get_column_letter(k) for k, name in enumerate(header, start=1)
                   if name}
        for r, values in grid:
            row = {name: _text(values[k] if k < len(values) else None, name, dates, times)
                   for k, name in enumerate(header) if name}
            if table is not None:
                row["table"] = table
            rows.append((order.get(row.get("table", ""), -1), sheet, r, row, letters))
    rows.sort(key=lambda x: x[0] if names[0][0] is not None else 0)  # stable: sheet order

    def locate(line: int, column: str | None) -> str:
        _, sheet, r, _, letters = rows[line - 2]
        if column is None or column not in letters:
            return f"{path} sheet {sheet} row {r}"
        return f"{path} {sheet}!{letters[column]}{r}"

    return import_rows(ledger, [x[3] for x in rows], locate, today=today,
                       apply_edits=apply_edits, by=by)


def _unseen(path: Path, scan: SheetScan | None, sheet: str = SHEET) -> str | None:
    """What the import would read that a person does not see in ``sheet`` (the sheet
    hidden, a hidden row or column holding values, a formula with no computed value: a
    file a script wrote; a cell showing an error such as ``#N/A``, which would be read as
    that text), as one message naming the cells; None when all is shown. A
    formula a spreadsheet application saved with its value is read as the value it shows,
    as the scenario workbook's reader does."""
    if scan is None:
        return None
    found = []
    if scan.state != "visible":
        found.append(f"the sheet {sheet} is {scan.state}")
    formulas = [f for f in scan.formulas if not _constant(f) and not f.has_value]
    found += [f"{sheet}!{f.cell} is a formula with no computed value ({f.text[:80]})"
              for f in formulas[:5]]
    found += [f"{sheet}!{cell} shows the error {text or '#VALUE!'}"
              for cell, text in scan.errors[:5]]
    found += [f"{sheet} row {r} is hidden" for r in scan.hidden_rows[:5]]
    found += [f"{sheet} column {_column_letter(c)} is hidden" for c in scan.hidden_columns[:5]]
    if not found:
        return None
    todo = ", ".join(x for x, y in (("unhide what is hidden", scan.hidden_rows
                                     or scan.hidden_columns or scan.state != "visible"),
                                    ("open and save the file in a spreadsheet "
                                     "application (it computes each formula), or type the "
                                     "value", formulas),
                                    ("correct each formula showing an error, or type the "
                                     "value", scan.errors)) if y)
    return (f"{path}: " + "; ".join(found) + ": the import reads only values typed in and "
            f"shown: {todo}")


_CONSTANTS = {"=TRUE()": True, "=FALSE()": False}


def _constant(formula: Formula) -> bool:
    """Whether ``formula`` is ``=TRUE()`` or ``=FALSE()``: how LibreOffice Calc saves a TRUE
    or FALSE cell (with no saved value), read as the value it shows."""
    return formula.text.upper() in _CONSTANTS


def _column_letter(column: int) -> str:
    """The letters of 1-based ``column`` (1 → A, 27 → AA)."""
    out = ""
    while column:
        column, r = divmod(column - 1, 26)
        out = chr(65 + r) + out
    return out


def earlier_export(path: str | os.PathLike[str]) -> bool:
    """Whether the existing file ``path`` was written by ``tourney ledger export``.

    Parameters
    ----------
    path
        The file: ``*.xlsx`` is read as a workbook, anything else as a CSV.

    Returns
    -------
    bool
        True for a CSV whose header begins with the export's columns
        (:data:`~scheduler.ledger.transfer.EXPORT_HEAD`, the same in every schema) or an
        .xlsx workbook with the sheet ``Held`` (or :data:`SHEET`, the earlier layout);
        False for anything else, also a file that cannot be read (not UTF-8, not a zip,
        not a workbook).

    Raises
    ------
    LedgerError
        openpyxl cannot be imported (it is a dependency of tourney).
    """
    path = Path(path)
    if path.suffix.lower() == ".xlsx":
        openpyxl = _openpyxl()
        from openpyxl.utils.exceptions import InvalidFileException  # start-up time: openpyxl

        try:
            wb = openpyxl.load_workbook(path, read_only=True)
        except (OSError, ValueError, KeyError, SyntaxError, zipfile.BadZipFile,
                InvalidFileException):  # not a zip, no workbook part, broken XML
            return False
        try:
            return SHEET in wb.sheetnames or SHEETS["held"] in wb.sheetnames
        finally:
            wb.close()
    try:
        with path.open("rb") as f:
            head = f.readline(65536).decode("utf-8-sig").rstrip("\r\n")
    except (OSError, UnicodeDecodeError):
        return False
    return tuple(head.split(",")[:len(EXPORT_HEAD)]) == EXPORT_HEAD


def refuse_export_over(ledger: Ledger, out: str | os.PathLike[str]) -> None:
    """Refuse an ``--out`` of ``tourney ledger export`` that would destroy an input: no
    command writes over one of its inputs.

    Parameters
    ----------
    ledger
        The ledger being exported (its file, when it is SQLite, is never written over).
    out
        The file the export would write (CSV or .xlsx).

    Raises
    ------
    LedgerError
        ``out`` is the ledger's own file (the same file once links are resolved), or an
        existing file that is not an earlier export (:func:`earlier_export`): the
        scenario, a plan's file. Exit code 2; the message names ``out``.
    """
    out = Path(out)
    if ledger.path is not None and same_file(out, ledger.path):
        raise LedgerError(f"--out {shown(out)} is the ledger {ledger.where} itself: writing "
                          "there would destroy it; give another --out")
    if out.is_file() and not earlier_export(out):
        raise LedgerError(f"--out {shown(out)} exists and is not a file written by `tourney "
                          "ledger export`: writing there would destroy it; give another --out "
                          "(or remove the file first)")
