"""The ledger as an Excel workbook (``tourney ledger export --out x.xlsx``, ``tourney ledger
import x.xlsx``): one sheet ``Ledger`` with exactly the columns and rows of the CSV export
(:func:`scheduler.ledger.transfer.export_csv`), every cell text, so export → import into an empty
ledger → export gives the same rows. Errors name the sheet and cell (``Ledger!C7``) and the
column.

openpyxl (a dependency of tourney) is imported when a workbook is read or written, not at
start-up.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import zipfile
from pathlib import Path
from typing import Any

from sqlalchemy import Date, DateTime

from scheduler.core.atomic_files import same_file, shown
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.workbook.cells import WorkbookError
from scheduler.core.workbook.scan import SheetScan, scan_xlsx
from scheduler.ledger.frames import Ledger
from scheduler.ledger.store import LedgerError
from scheduler.ledger.transfer import EXPORT_HEAD, Imported, export_csv, import_rows, ledger_tables

SHEET = "Ledger"
"""The name of the one sheet."""
_FIXED = dt.datetime(2000, 1, 1)
"""The workbook's created/modified times and every zip entry's time: the same ledger gives
the same bytes."""


def _openpyxl() -> Any:
    try:
        import openpyxl  # start-up time: only `.xlsx` files need it
    except ImportError:
        raise LedgerError("reading or writing .xlsx needs openpyxl, which tourney "
                          "installs: pip install openpyxl (or use a .csv file)") from None
    return openpyxl


def export_xlsx(ledger: Ledger) -> tuple[bytes, int]:
    """Every entry of ``ledger`` as an .xlsx workbook (sheet :data:`SHEET`, the columns of
    :func:`~scheduler.ledger.transfer.export_csv`, every cell text, header row frozen). Returns
    the bytes and the number of entries. Deterministic: the same ledger, the same bytes."""
    openpyxl = _openpyxl()
    buf = io.StringIO()
    n = export_csv(ledger, buf)
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    for r, values in enumerate(rows, start=1):
        for c, value in enumerate(values, start=1):
            if value == "":
                continue
            cell = ws.cell(row=r, column=c)
            cell.value = value
            cell.data_type = "s"  # text, never a formula (a note starting with '=')
    ws.freeze_panes = "A2"
    wb.properties.creator = "tourney"
    wb.properties.created = wb.properties.modified = _FIXED
    raw = io.BytesIO()
    wb.save(raw)
    return _fixed_zip(raw.getvalue()), n


def _fixed_zip(data: bytes) -> bytes:
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
                    text = (text[:start] + head + _FIXED.strftime("%Y-%m-%dT%H:%M:%SZ")
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
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        if column in dates:
            return value.date().isoformat()
        if column in times:
            v = value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value
            return v.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def import_xlsx(ledger: Ledger, path: str | os.PathLike[str], *,
                today: dt.date | None = None) -> Imported:
    """``tourney ledger import FILE.xlsx``: add the entries of sheet :data:`SHEET` of a
    workbook :func:`export_xlsx` wrote (or a person edited: dates and numbers a spreadsheet
    made of the text are read back), in one transaction, as
    :func:`~scheduler.ledger.transfer.import_csv`. Raises :class:`LedgerError` naming the file,
    the sheet and cell (``Ledger!C7``) and the column of a value at fault, a missing sheet,
    or a file that is not a workbook."""
    openpyxl = _openpyxl()
    from openpyxl.utils import get_column_letter  # start-up time: as openpyxl above

    path = Path(path)
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
    try:
        if SHEET not in wb.sheetnames:
            raise LedgerError(f"{path} has no sheet {SHEET!r} (sheets: "
                              + ", ".join(wb.sheetnames) + "): give a workbook written by "
                              "`tourney ledger export --out FILE.xlsx`")
        scan = scans.get(SHEET)
        unseen = _unseen(path, scan)
        if unseen:
            raise LedgerError(unseen)
        last_row = scan.max_row if scan else 0
        last_col = scan.max_column if scan else 0
        grid = ([list(r) for r in wb[SHEET].iter_rows(max_row=last_row, max_col=last_col,
                                                        values_only=True)]
                if last_row and last_col else [])
    finally:
        wb.close()
    if not grid:
        raise LedgerError(f"{path} {SHEET}!A1: the sheet is empty (no header row)")
    header = ["" if h is None else str(h).strip() for h in grid[0]]
    letters = {name: get_column_letter(k) for k, name in enumerate(header, start=1) if name}
    dates, times = _date_columns()
    rows = []
    for values in grid[1:]:
        if all(v is None or v == "" for v in values):
            continue  # a blank row a person left
        rows.append({name: _text(values[k] if k < len(values) else None, name, dates, times)
                     for k, name in enumerate(header) if name})

    def locate(line: int, column: str | None) -> str:
        if column is None or column not in letters:
            return f"{path} sheet {SHEET} row {line}"
        return f"{path} {SHEET}!{letters[column]}{line}"

    return import_rows(ledger, rows, locate, today=today)


def _unseen(path: Path, scan: SheetScan | None) -> str | None:
    """What the import would read that a person does not see in sheet :data:`SHEET` (the
    sheet hidden, a hidden row or column holding values, a formula whose saved result may
    be stale), as one message naming the cells; None when all is shown."""
    if scan is None:
        return None
    found = []
    if scan.state != "visible":
        found.append(f"the sheet {SHEET} is {scan.state}")
    found += [f"{SHEET}!{f.cell} is a formula ({f.text[:80]})" for f in scan.formulas[:5]]
    found += [f"{SHEET} row {r} is hidden" for r in scan.hidden_rows[:5]]
    found += [f"{SHEET} column {_column_letter(c)} is hidden" for c in scan.hidden_columns[:5]]
    if not found:
        return None
    return (f"{path}: " + "; ".join(found) + ": the import reads only typed values a person "
            "can see; unhide them, or replace each formula by its value")


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
        .xlsx workbook with the sheet :data:`SHEET`; False for anything else, also a file
        that cannot be read (not UTF-8, not a zip, not a workbook).

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
            return SHEET in wb.sheetnames
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
