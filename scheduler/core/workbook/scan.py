"""A workbook measured from its own records before anything loads it (:func:`scan_xlsx`).

openpyxl trusts a workbook: a 30 KB file with one cell at XFD1048576 makes it walk 17 billion
empty cells; a zip entry that says it is 4 KB may inflate to gigabytes; a text may be a
hundred megabytes. So, before openpyxl opens it, this module reads the zip's directory (every
entry's uncompressed size, which :mod:`zipfile` then enforces) and streams each worksheet's
XML once, with a parser that refuses a DTD, to learn the extent of the cells that hold a
value, the formulas, the hidden rows and columns and the sheets' visibility. The bounds are
in :mod:`scheduler.core.limits` and ``docs/limits.md``.

Part of :mod:`scheduler.core.workbook`.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from scheduler.core.limits import (
    MAX_WORKBOOK_PARTS,
    MAX_WORKBOOK_TEXT,
    MB,
    max_workbook_cells,
    max_workbook_unzipped,
)
from scheduler.core.workbook.cells import WorkbookError

_CELL = re.compile(r"^([A-Za-z]{1,3})([0-9]{1,7})$")
"""A cell reference as openpyxl reads one: ``B7``, or ``b7`` (where openpyxl puts a value is
where the scan must see it); a cell without one follows the cell before it."""
_MAX_COLUMN = 16_384  # XFD, a spreadsheet's last column
_MAX_ROW = 1_048_576  # a spreadsheet's last row


def _letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


@dataclass
class Formula:
    """A formula cell: ``cell`` (``B7``), its ``row`` and ``column`` (1-based), the formula
    text (``=2000``; ``=(shared formula)`` for a cell sharing another's) and whether a
    computed value was saved with it."""

    cell: str
    row: int
    column: int
    text: str
    has_value: bool


@dataclass
class SheetScan:
    """What :func:`scan_xlsx` learnt of one worksheet: ``state`` (``visible``, ``hidden``,
    ``veryHidden``), the last row and column holding a value (0 when none), the formulas,
    and the hidden rows and columns (1-based numbers) that hold a value."""

    name: str
    state: str = "visible"
    max_row: int = 0
    max_column: int = 0
    formulas: list[Formula] = field(default_factory=list)
    hidden_rows: list[int] = field(default_factory=list)
    hidden_columns: list[int] = field(default_factory=list)
    blank_cells: list[str] = field(default_factory=list)
    """Cells holding a value whose number format shows nothing (``;;;``)."""
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Merged ranges as (first row, first column, last row, last column), 1-based; the
    extent (``max_row``, ``max_column``) covers those whose first cell holds a value."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    """Cells that show an error (``#DIV/0!``, ``#REF!``): (cell, the error's text)."""


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _events(stream: IO[bytes]) -> Iterator[tuple[str, Any]]:
    # start-up time: defusedxml (openpyxl's own dependency) only when a workbook is read
    from defusedxml.ElementTree import iterparse

    return iterparse(stream, events=("start", "end"), forbid_dtd=True)  # type: ignore[no-any-return]


def _read_part(z: zipfile.ZipFile, name: str) -> Iterator[tuple[str, Any]]:
    with z.open(name) as raw:
        yield from _events(raw)


def _attr(elem: Any, name: str) -> str | None:
    for k, v in elem.attrib.items():
        if _local(k) == name:
            return str(v)
    return None


def _sheets(z: zipfile.ZipFile) -> list[tuple[str, str, str]]:
    """(name, state, part) of every worksheet, in the workbook's order."""
    rels: dict[str, str] = {}
    if "xl/_rels/workbook.xml.rels" in z.namelist():
        for event, elem in _read_part(z, "xl/_rels/workbook.xml.rels"):
            if event == "end" and _local(elem.tag) == "Relationship":
                target = elem.get("Target") or ""
                path = (target.lstrip("/") if target.startswith("/")
                        else posixpath.normpath(posixpath.join("xl", target)))
                rels[elem.get("Id") or ""] = path
    out = []
    for event, elem in _read_part(z, "xl/workbook.xml"):
        if event == "end" and _local(elem.tag) == "sheet":
            part = rels.get(_attr(elem, "id") or "", "")
            out.append((elem.get("name") or "", elem.get("state") or "visible", part))
    return out


_RANGE = re.compile(r"^([A-Za-z]{1,3})([0-9]{1,7}):([A-Za-z]{1,3})([0-9]{1,7})$")


def _has_value(cell: Any) -> tuple[bool, Any | None, bool]:
    """(holds a value, its <f> element or None, has a saved <v> or inline text)."""
    formula = None
    saved = False
    for child in cell:
        name = _local(child.tag)
        if name == "f":
            formula = child
        elif name == "v" and (child.text or "") != "":
            saved = True
            if len(child.text or "") > MAX_WORKBOOK_TEXT:
                raise _TooLong(len(child.text or ""))
        elif name == "is":
            text = "".join(child.itertext())
            if len(text) > MAX_WORKBOOK_TEXT:
                raise _TooLong(len(text))
            saved = saved or bool(text)
    return saved or formula is not None, formula, saved


class _TooLong(Exception):
    def __init__(self, n: int):
        self.n = n


def _blank_styles(z: zipfile.ZipFile) -> frozenset[str]:
    """The style indices (a cell's ``s``) whose number format shows nothing whatever the
    value: every section empty (``;;;``, the spreadsheet's way to hide a value in sight)."""
    name = "xl/styles.xml"
    if name not in z.namelist():
        return frozenset()
    blank_formats: set[str] = set()
    out: set[str] = set()
    in_xfs = False
    index = 0
    for event, elem in _read_part(z, name):
        tag = _local(elem.tag)
        if tag == "cellXfs":
            in_xfs = event == "start"
            continue
        if event != "end":
            continue
        if tag == "numFmt":
            code = elem.get("formatCode") or ""
            if code and set(code) <= {";"}:
                blank_formats.add(elem.get("numFmtId") or "")
        elif tag == "xf" and in_xfs:
            if (elem.get("numFmtId") or "0") in blank_formats:
                out.add(str(index))
            index += 1
    return frozenset(out)


def _scan_sheet(z: zipfile.ZipFile, part: str, scan: SheetScan, cap: int,
                blank: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """Fill ``scan`` from the worksheet XML ``part``; a problem (a value too far out, a text
    too long) as (cell, sentence), else None. Elements are dropped as soon as they are read."""
    hidden_cols: list[tuple[int, int]] = []
    zero_height = False
    row_number = 0
    row_hidden = False
    column = 0
    parent: Any = None
    hidden_rows: set[int] = set()
    hidden_columns: set[int] = set()
    valued_rows: dict[int, set[int]] = {}  # row -> columns holding a value (merges' first)
    for event, elem in _read_part(z, part):
        name = _local(elem.tag)
        if event == "start":
            if name == "sheetData":
                parent = elem
            elif name == "row":
                r = elem.get("r")
                row_number = int(r) if r and r.isdigit() else row_number + 1
                row_hidden = (elem.get("hidden") in ("1", "true")
                              or (elem.get("ht") not in (None, "")
                                  and _zero(elem.get("ht")))
                              or (zero_height and elem.get("customHeight") not in ("1", "true")))
                column = 0
            continue
        if name == "sheetFormatPr":
            zero_height = elem.get("zeroHeight") in ("1", "true")
        elif name == "col":
            if elem.get("hidden") in ("1", "true") or _zero(elem.get("width")):
                lo, hi = elem.get("min") or "0", elem.get("max") or "0"
                if lo.isdigit() and hi.isdigit():
                    hidden_cols.append((int(lo), int(hi)))
        elif name == "c":
            ref = elem.get("r") or ""
            m = _CELL.match(ref)
            if ref and not m:  # "$B$2", "B2:C3", "R2C2": openpyxl fails or guesses
                return (f"{_letters(column + 1)}{row_number}",
                        f"the cell reference {ref[:20]!r} is not one a spreadsheet writes "
                        "(such as B2): save the file again from a spreadsheet application")
            if m:
                column = _column_number(m.group(1).upper())
                row = int(m.group(2))
            else:
                column += 1
                row = row_number
            try:
                valued, formula, saved = _has_value(elem)
            except _TooLong as exc:
                return (f"{_letters(column)}{row}", f"a text of {exc.n:,} characters, longer "
                        f"than the {MAX_WORKBOOK_TEXT:,} a spreadsheet cell holds")
            if valued:
                if row > _MAX_ROW or column > _MAX_COLUMN:
                    return ref[:20], "not a cell of a spreadsheet (beyond XFD1048576)"
                scan.max_row = max(scan.max_row, row)
                scan.max_column = max(scan.max_column, column)
                if scan.max_row * scan.max_column > cap:
                    return (f"{_letters(column)}{row}", f"a value this far out makes the sheet "
                            f"{scan.max_row:,} rows by {scan.max_column:,} columns, more "
                            f"than the {cap:,} cells a sheet may span (delete the rows and "
                            "columns after your table; or set TOURNEY_MAX_WORKBOOK_CELLS; "
                            "see docs/limits.md)")
                if row_hidden:
                    hidden_rows.add(row)
                if any(lo <= column <= hi for lo, hi in hidden_cols):
                    hidden_columns.add(column)
                valued_rows.setdefault(row, set()).add(column)
                if elem.get("s") in blank:
                    scan.blank_cells.append(f"{_letters(column)}{row}")
                if elem.get("t") == "e":
                    scan.errors.append((f"{_letters(column)}{row}",
                                        next((c.text or "" for c in elem
                                              if _local(c.tag) == "v"), "")))
                if formula is not None:
                    text = formula.text or ("(shared formula)" if formula.get("t") == "shared"
                                            else "")
                    scan.formulas.append(Formula(f"{_letters(column)}{row}", row, column,
                                                 f"={text}", saved))
            elem.clear()
        elif name == "row":
            elem.clear()
            if parent is not None:
                parent.remove(elem)  # keep no row once read
        elif name == "mergeCell":
            ref = elem.get("ref") or ""
            m = _RANGE.match(ref)
            if not m:
                continue  # a one-cell "merge" (A1) merges nothing
            r0, c0 = int(m.group(2)), _column_number(m.group(1).upper())
            r1, c1 = int(m.group(4)), _column_number(m.group(3).upper())
            r0, r1, c0, c1 = min(r0, r1), max(r0, r1), min(c0, c1), max(c0, c1)
            scan.merged.append((r0, c0, r1, c1))
            if c0 in valued_rows.get(r0, ()):  # its value is shown over the whole range
                if r1 > _MAX_ROW or c1 > _MAX_COLUMN:
                    return ref[:20], "not a range of a spreadsheet (beyond XFD1048576)"
                scan.max_row = max(scan.max_row, r1)
                scan.max_column = max(scan.max_column, c1)
                if scan.max_row * scan.max_column > cap:
                    return (f"{_letters(c0)}{r0}", f"the merged range {ref} makes "
                            f"the sheet {scan.max_row:,} rows by {scan.max_column:,} columns, "
                            f"more than the {cap:,} cells a sheet may span (unmerge it; or set "
                            "TOURNEY_MAX_WORKBOOK_CELLS; see docs/limits.md)")
    scan.hidden_rows = sorted(hidden_rows)
    scan.hidden_columns = sorted(hidden_columns)
    return None


def _zero(text: str | None) -> bool:
    try:
        return text is not None and float(text) == 0
    except ValueError:
        return False


def _shared_strings(z: zipfile.ZipFile) -> str | None:
    name = "xl/sharedStrings.xml"
    if name not in z.namelist():
        return None
    count = 0
    for event, elem in _read_part(z, name):
        if event == "end" and _local(elem.tag) == "si":
            count += 1
            n = sum(len(t) for t in elem.itertext())
            if n > MAX_WORKBOOK_TEXT:
                return (f"text #{count} of the workbook has {n:,} characters, more than the "
                        f"{MAX_WORKBOOK_TEXT:,} a spreadsheet cell holds")
            elem.clear()
    return None


def scan_xlsx(data: bytes) -> dict[str, SheetScan]:
    """Measure the workbook ``data`` (the bytes of an .xlsx file) before it is loaded.

    Returns
    -------
    dict
        Sheet name → :class:`SheetScan`, in the workbook's order.

    Raises
    ------
    WorkbookError
        ``("<file>", sentence)`` for: not a zip; more than
        :data:`~scheduler.core.limits.MAX_WORKBOOK_PARTS` entries; entries that unzip to more than
        :func:`~scheduler.core.limits.max_workbook_unzipped` bytes (``TOURNEY_MAX_WORKBOOK_MB``);
        an XML part with a DTD (entity expansion) or that does not parse; a text longer than
        :data:`~scheduler.core.limits.MAX_WORKBOOK_TEXT` characters (Excel's own limit); a sheet
        whose cells holding a value span more than
        :func:`~scheduler.core.limits.max_workbook_cells` cells (``TOURNEY_MAX_WORKBOOK_CELLS``)
        or lie beyond XFD1048576. The sentence names the sheet and cell where known.
    """
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                        f"{type(exc).__name__}: {str(exc)[:200]}")]) from None
    with z:
        infos = z.infolist()
        if len(infos) > MAX_WORKBOOK_PARTS:
            raise WorkbookError([("<file>", f"the workbook has {len(infos):,} parts (zip "
                                            f"entries), more than {MAX_WORKBOOK_PARTS:,}: "
                                            "not a spreadsheet's workbook")])
        total = sum(i.file_size for i in infos)
        limit = max_workbook_unzipped()
        if total > limit:
            raise WorkbookError([("<file>", f"the workbook unzips to {total / MB:,.1f} MB, more "
                                            f"than the {limit / MB:,.0f} MB a workbook may "
                                            "(set TOURNEY_MAX_WORKBOOK_MB to raise it; see "
                                            "docs/limits.md)")])
        try:
            if "xl/workbook.xml" not in z.namelist():
                raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                                "it has no xl/workbook.xml")])
            shared = _shared_strings(z)
            if shared:
                raise WorkbookError([("<file>", shared)])
            cap = max_workbook_cells()
            blank = _blank_styles(z)
            out: dict[str, SheetScan] = {}
            for name, state, part in _sheets(z):
                same = [n for n in out if n.lower() == name.lower()]
                if same:  # openpyxl reads the first, the scan would describe the last
                    raise WorkbookError([(f"sheet {name}", f"two sheets are named {same[0]!r}"
                                          f" and {name!r}, which a spreadsheet does not allow "
                                          "(letter case aside); rename or delete one")])
                scan = SheetScan(name, state)
                out[name] = scan
                if part in z.namelist():
                    problem = _scan_sheet(z, part, scan, cap, blank)
                    if problem:
                        raise WorkbookError([(f"{name}!{problem[0]}", problem[1])])
        except WorkbookError:
            raise
        except Exception as exc:  # noqa: BLE001 - zip, XML (a DTD too) errors: "not a workbook"
            raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                            f"{type(exc).__name__}: {str(exc)[:200]}")]
                                ) from None
    return out
