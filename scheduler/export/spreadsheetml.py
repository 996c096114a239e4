"""A workbook of plain tables written straight to SpreadsheetML (.xlsx), row by row.

:class:`XlsxStream` writes each sheet's rows into the zip as they are formatted (a few
thousand rows of XML at a time): a bold, filled, frozen header; an autofilter; column widths;
a landscape print setup fitting the page width, the header repeated on every page; text
in its cell (inline, as XlsxWriter's constant-memory mode writes it); each column's number
format on its cells with a value.
Deterministic: the same sheets give the same bytes (every zip entry dated 1980-01-31, the
document's date given).

Why not a library (issue #27): plan.xlsx at N = 200 (280,816 cells) took 4.90 s CPU with
XlsxWriter in constant-memory mode and 3.95 s in its fastest form on its public API (shared
strings, every cell held; dates as numbers), against 0.86 s here, the same cells read back
(``time.process_time``, 3 rounds of 5 runs, medians; docs/development.md). XlsxWriter
spends about 15 µs a cell in its generic per-cell path (argument checks, a cell tuple, a
format lookup, XML escaping by regular expression); a table whose columns are known needs
none of that per cell.

What is written is what XlsxWriter wrote, so openpyxl reads the same values, types and
number formats: numbers as ``{:.16G}``; dates and date-times as Excel serial days (1900
date system, 1900-02-29 counted as Excel counts it); text with control characters as
``_xHHHH_`` (a literal ``_xHHHH_`` with its underscore escaped, as Excel writes them), a
leading or trailing space kept, at most 32,767 UTF-16 units.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO

from scheduler.core.workbook.cells import letter as column_letters

__all__ = ["Column", "XlsxStream"]

Column = tuple[str, str, int]
"""(header, number format or "" for General, width in characters)."""

MAX_ROWS = 1_048_576
"""Excel's rows per sheet, the header's included."""
MAX_TEXT = 32_767
"""Excel's longest cell text, in UTF-16 code units (a longer one is cut, as Excel would)."""
ZIP_DATE = (1980, 1, 31, 0, 0, 0)
"""Every zip entry's date: fixed, so the same sheets give the same bytes."""

_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_HEADER, _HEADER_XF = ("\0header", False), 1
"""The header's style: its key among the cell styles, its index (0 is General)."""
_BUILTIN_FORMATS = {"": 0, "0": 1}
_CUSTOM_FORMATS = 164
"""The first number format id a workbook defines."""
_CHUNK = 2000
"""Rows formatted between two writes to the zip."""

_ESCAPED = re.compile("(_x[0-9a-fA-F]{4}_)")
_CONTROL = re.compile(r"([\x00-\x08\x0b-\x1f])")
_EDGE_SPACE = re.compile(r"^\s|\s$")
_SIMPLE_TITLE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_EXCEL_EPOCH = dt.datetime(1899, 12, 31)
_EPOCH_ORDINAL = _EXCEL_EPOCH.toordinal()




def _inline(text: str) -> str:
    """A text cell's content, ``<is><t>...</t></is>``, escaped as Excel writes it."""
    if len(text) > MAX_TEXT // 2 and len(text.encode("utf-16-le", "surrogatepass")) // 2 \
            > MAX_TEXT:
        units = 0
        for k, char in enumerate(text):
            units += 2 if ord(char) > 0xFFFF else 1
            if units > MAX_TEXT:
                text = text[:k]
                break
    text = _ESCAPED.sub(r"_x005F\1", text)
    text = _CONTROL.sub(lambda m: f"_x{ord(m.group(1)):04X}_", text)
    text = text.replace("\ufffe", "_xFFFE_").replace("\uffff", "_xFFFF_")
    keep = ' xml:space="preserve"' if _EDGE_SPACE.search(text) else ""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<is><t{keep}>{text}</t></is>"


def _attr(text: str) -> str:
    """``text`` as an XML attribute value (double quotes)."""
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;").replace("\n", "&#xA;"))


def excel_serial(value: dt.date) -> str:
    """``value`` as Excel's serial day number, formatted as a cell's ``<v>``.

    Parameters
    ----------
    value
        A date, or a naive date-time (the wall-clock time the sheet shows).

    Returns
    -------
    str
        Days since 1899-12-31 (1900 date system), one more from 1900-03-01 on (Excel counts
        a 1900-02-29); a date-time's time of day as the fraction, ``{:.16G}``: 2027-01-01 is
        ``"46388"``, 2027-01-01 10:00 ``"46388.41666666666"``.

    Raises
    ------
    TypeError
        A date-time with a time zone (a sheet has none: give its local time).
    """
    if not isinstance(value, dt.datetime):
        days = value.toordinal() - _EPOCH_ORDINAL
        return f"{days + 1 if days > 59 else days:.16G}"
    if value.tzinfo is not None:
        raise TypeError(f"{value.isoformat()}: a cell has no time zone; give a naive time")
    delta = value - _EXCEL_EPOCH
    serial = delta.days + (float(delta.seconds) + float(delta.microseconds) / 1e6) / 86400
    if value.isocalendar() == (1900, 1, 1):  # XlsxWriter's (and Excel's) 1900-01-01 time
        serial -= 1
    if serial > 59:
        serial += 1
    return f"{serial:.16G}"


class XlsxStream:
    """An .xlsx written sheet by sheet: ``XlsxStream(target, titles, created)``, then
    :meth:`sheet` once per title in order, then :meth:`close` (or use it as a context
    manager: the workbook is finished when the block ends without an exception).

    Parameters
    ----------
    target
        A path, or a binary file open for writing (seekable: a pipe gives other bytes).
    titles
        The sheets' names, in order (at most 31 characters each, as Excel requires).
    created
        The document's created and modified time (UTC, or naive taken as UTC; the zip
        entries are dated :data:`ZIP_DATE` whatever it is).
    wrap_over
        Text longer than this many characters is wrapped, aligned to the top of its cell.

    Raises
    ------
    OSError
        The target cannot be written.
    ValueError
        A sheet with more rows than Excel's :data:`MAX_ROWS`, or sheets not in the
        order of ``titles`` (:meth:`sheet`, :meth:`close`).
    """

    def __init__(self, target: str | Path | BinaryIO, titles: Sequence[str],
                 created: dt.datetime, *, wrap_over: int = 60) -> None:
        self._titles = list(titles)
        self._created = (created.astimezone(dt.UTC).replace(tzinfo=None)
                         if created.tzinfo else created)
        self._wrap_over = wrap_over
        self._texts: dict[str, str] = {}  # each text once escaped (a plan repeats them)
        self._xfs: dict[tuple[str, bool], int] = {("", False): 0, _HEADER: _HEADER_XF}
        self._filters: list[tuple[str, int]] = []  # each written sheet's last column and row
        self._zip = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED)
        try:
            self._first_parts()
        except BaseException:
            self._zip.close()
            raise

    def __enter__(self) -> XlsxStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:
            self._zip.close()

    # ----------------------------------------------------------------------------- writing

    def sheet(self, title: str, columns: Sequence[Column], rows: Sequence[Sequence[Any]]
              ) -> None:
        """Write the next sheet: the header of ``columns`` and one row per item of ``rows``.

        Parameters
        ----------
        title
            The sheet's name: the next of the workbook's ``titles``.
        columns
            Header, number format ("" General, "0", "yyyy-mm-dd", ...) and width in
            characters, one per column.
        rows
            One sequence of cell values per row, in the columns' order: None or "" an empty
            cell; ``str`` text (never a formula, whatever its first character); ``bool``
            TRUE/FALSE; ``int``, ``float``, ``Decimal`` numbers; ``date`` and naive
            ``datetime`` Excel dates; anything else a number when ``float()`` takes it,
            else its ``str()``.
        """
        k = len(self._filters)
        if k >= len(self._titles) or title != self._titles[k]:
            raise ValueError(f"sheet {title!r} is not the workbook's next "
                             f"({self._titles[k] if k < len(self._titles) else 'none'!r})")
        if len(rows) + 1 > MAX_ROWS:
            raise ValueError(f"sheet {title}: {len(rows):,} rows, more than Excel's "
                             f"{MAX_ROWS - 1:,}")
        with self._zip.open(self._entry(f"xl/worksheets/sheet{k + 1}.xml"), "w") as fh:
            self._sheet_xml(k == 0, columns, rows, fh)
        self._filters.append((column_letters(len(columns) - 1), max(1, len(rows)) + 1))

    def _sheet_xml(self, first: bool, columns: Sequence[Column],
                   rows: Sequence[Sequence[Any]], fh: IO[bytes]) -> None:
        letters = [column_letters(j) for j in range(len(columns))]
        last = len(rows)
        while last and all(v is None or v == "" for v in rows[last - 1]):
            last -= 1  # the used range ends at the last row with a value
        widths = "".join(f'<col min="{j}" max="{j}" width="{w}" customWidth="1"/>'
                         for j, (_, _, w) in enumerate(columns, start=1))
        selected = ' tabSelected="1"' if first else ""
        head = "".join(f'<c r="{letters[j]}1" s="{_HEADER_XF}" t="inlineStr">{self._text(h)}'
                       '</c>' for j, (h, _, _) in enumerate(columns))
        fh.write(
            f'{_XML}<worksheet xmlns="{_MAIN}" xmlns:r="{_DOC}"><sheetPr><pageSetUpPr '
            f'fitToPage="1"/></sheetPr><dimension ref="A1:{letters[-1]}{last + 1}"/>'
            f'<sheetViews><sheetView{selected} workbookViewId="0"><pane ySplit="1" '
            'topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection '
            'pane="bottomLeft"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
            f'<cols>{widths}</cols><sheetData><row r="1">{head}</row>'.encode())
        self._rows(columns, rows, letters, fh.write)
        fh.write(
            f'</sheetData><autoFilter ref="A1:{letters[-1]}{max(1, len(rows)) + 1}"/>'
            '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" '
            'footer="0.3"/><pageSetup fitToHeight="0" orientation="landscape"/>'
            '</worksheet>'.encode())

    def _rows(self, columns: Sequence[Column], rows: Sequence[Sequence[Any]],
              letters: list[str], write: Callable[[bytes], object]) -> None:
        """The rows' ``<row>`` elements, a few thousand at a time (the innermost loop: a
        cell is one type test, one f-string and, for text, one dictionary look-up)."""
        texts, wrap_over = self._texts, self._wrap_over
        plain = [self._style(fmt, False) for _, fmt, _ in columns]
        wrapped: list[str | None] = [None] * len(columns)
        dates: dict[dt.date, str] = {}  # a plan repeats its days and hours
        chunk: list[str] = []
        for i, row in enumerate(rows, start=2):
            r = str(i)
            cells = [f'<row r="{r}">']
            for j, value in enumerate(row):
                if value is None or value == "":
                    continue
                kind = type(value)
                if kind is str or isinstance(value, str):
                    if kind is not str:
                        value = str(value)  # a str subclass: its text
                    if len(value) > wrap_over:
                        style = wrapped[j]
                        if style is None:
                            style = wrapped[j] = self._style(columns[j][1], True)
                    else:
                        style = plain[j]
                    text = texts.get(value)
                    if text is None:
                        text = texts[value] = _inline(value)
                    cells.append(f'<c r="{letters[j]}{r}"{style} t="inlineStr">{text}</c>')
                elif kind is int or kind is float or kind is Decimal:
                    cells.append(f'<c r="{letters[j]}{r}"{plain[j]}><v>{value:.16G}</v></c>')
                elif kind is dt.date or kind is dt.datetime:
                    serial = dates.get(value)
                    if serial is None:
                        serial = dates[value] = excel_serial(value)
                    cells.append(f'<c r="{letters[j]}{r}"{plain[j]}><v>{serial}</v></c>')
                elif kind is bool:
                    cells.append(f'<c r="{letters[j]}{r}"{plain[j]} t="b"><v>{int(value)}</v>'
                                 '</c>')
                else:
                    cells.append(self._other(value, f'<c r="{letters[j]}{r}"', plain[j]))
            cells.append("</row>")
            chunk.append("".join(cells))
            if len(chunk) == _CHUNK:
                write("".join(chunk).encode("utf-8"))
                chunk.clear()
        write("".join(chunk).encode("utf-8"))

    def _other(self, value: Any, start: str, style: str) -> str:
        """A cell of another type: a number when ``float()`` takes it (a date subclass a
        date), else its text."""
        if isinstance(value, dt.date):
            return f"{start}{style}><v>{excel_serial(value)}</v></c>"
        try:
            number = float(value)
        except (TypeError, ValueError):
            return f'{start}{style} t="inlineStr">{self._text(str(value))}</c>'
        return f"{start}{style}><v>{number:.16G}</v></c>"

    def _text(self, text: str) -> str:
        """``text`` as a cell's escaped ``<is>`` element, made once."""
        got = self._texts.get(text)
        if got is None:
            got = self._texts[text] = _inline(text)
        return got

    def _style(self, fmt: str, wrapped: bool) -> str:
        """The ``s`` attribute of a cell with number format ``fmt`` (wrapped or not); ""
        for General (style 0). Styles are numbered as first asked for."""
        index = self._xfs.setdefault((fmt, wrapped), len(self._xfs))
        return f' s="{index}"' if index else ""

    # ----------------------------------------------------------------------------- closing

    def close(self) -> None:
        """Finish the workbook: the styles and the workbook part (each sheet's filter
        range) after the sheets. Raises ``ValueError`` when a title has no sheet."""
        if len(self._filters) != len(self._titles):
            self._zip.close()
            raise ValueError(f"{len(self._titles)} titles, {len(self._filters)} sheets written")
        self._part("xl/styles.xml", self._styles())
        self._part("xl/workbook.xml", self._workbook())
        self._zip.close()

    def _first_parts(self) -> None:
        """The parts known before the sheets, [Content_Types].xml the very first (as Excel
        orders them; ``file`` tells a workbook from a plain zip by them)."""
        self._part("[Content_Types].xml", self._content_types())
        self._part("_rels/.rels", _relationships([
            (f"{_DOC}/officeDocument", "xl/workbook.xml"),
            (f"{_PKG}/metadata/core-properties", "docProps/core.xml"),
            (f"{_DOC}/extended-properties", "docProps/app.xml")]))
        when = self._created.strftime("%Y-%m-%dT%H:%M:%SZ")
        self._part(
            "docProps/core.xml",
            f'{_XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/'
            'dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>'
            '</dc:creator><cp:lastModifiedBy></cp:lastModifiedBy><dcterms:created '
            f'xsi:type="dcterms:W3CDTF">{when}</dcterms:created><dcterms:modified '
            f'xsi:type="dcterms:W3CDTF">{when}</dcterms:modified></cp:coreProperties>')
        self._part(
            "docProps/app.xml",
            f'{_XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
            'extended-properties"><Application>tourney</Application></Properties>')

        sheets = [(f"{_DOC}/worksheet", f"worksheets/sheet{k}.xml")
                  for k in range(1, len(self._titles) + 1)]
        self._part("xl/_rels/workbook.xml.rels", _relationships(
            [*sheets, (f"{_DOC}/styles", "styles.xml")]))

    def _content_types(self) -> str:
        parts = [("/xl/workbook.xml", f"{_TYPE}.sheet.main+xml")]
        parts += [(f"/xl/worksheets/sheet{k}.xml", f"{_TYPE}.worksheet+xml")
                  for k in range(1, len(self._titles) + 1)]
        parts += [("/xl/styles.xml", f"{_TYPE}.styles+xml"),
                  ("/docProps/core.xml", "application/vnd.openxmlformats-package.core-"
                                         "properties+xml"),
                  ("/docProps/app.xml", "application/vnd.openxmlformats-officedocument."
                                        "extended-properties+xml")]
        return (f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                'content-types"><Default Extension="rels" ContentType="application/'
                'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
                'ContentType="application/xml"/>'
                + "".join(f'<Override PartName="{p}" ContentType="{t}"/>' for p, t in parts)
                + "</Types>")

    def _styles(self) -> str:
        """styles.xml: Calibri 11, the header's bold on light blue, and one cell style per
        (number format, wrapped) the sheets used, numbered as :meth:`_style` gave them."""
        custom: dict[str, int] = {}
        xfs = []
        for fmt, wrapped in self._xfs:  # in index order (insertion order)
            if (fmt, wrapped) == _HEADER:
                xfs.append('<xf numFmtId="0" fontId="1" fillId="2" borderId="0" xfId="0" '
                           'applyFont="1" applyFill="1"/>')
                continue
            number = _BUILTIN_FORMATS.get(fmt)
            if number is None:
                number = custom.setdefault(fmt, _CUSTOM_FORMATS + len(custom))
            applied = ' applyNumberFormat="1"' if number else ""
            xf = f'<xf numFmtId="{number}" fontId="0" fillId="0" borderId="0" xfId="0"{applied}'
            xfs.append(f'{xf} applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>'
                       if wrapped else f"{xf}/>")
        formats = "".join(f'<numFmt numFmtId="{n}" formatCode="{_attr(f)}"/>'
                          for f, n in custom.items())
        font = '<sz val="11"/><name val="Calibri"/><family val="2"/>'
        return (f'{_XML}<styleSheet xmlns="{_MAIN}">'
                + (f'<numFmts count="{len(custom)}">{formats}</numFmts>' if custom else "")
                + f'<fonts count="2"><font>{font}</font><font><b/>{font}</font></fonts>'
                '<fills count="3"><fill><patternFill patternType="none"/></fill><fill>'
                '<patternFill patternType="gray125"/></fill><fill><patternFill '
                'patternType="solid"><fgColor rgb="FFDDEBF7"/><bgColor indexed="64"/>'
                '</patternFill></fill></fills><borders count="1"><border><left/><right/><top/>'
                '<bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf '
                'numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
                f'<cellXfs count="{len(xfs)}">{"".join(xfs)}</cellXfs><cellStyles count="1">'
                '<cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
                '<dxfs count="0"/><tableStyles count="0"/></styleSheet>')

    def _workbook(self) -> str:
        """workbook.xml: the sheets, each one's filter range and print titles (row 1)."""
        sheets = "".join(f'<sheet name="{_attr(t)}" sheetId="{k}" r:id="rId{k}"/>'
                         for k, t in enumerate(self._titles, start=1))
        names = [_attr(t if _SIMPLE_TITLE.fullmatch(t) else "'" + t.replace("'", "''") + "'")
                 for t in self._titles]
        filters = "".join(
            f'<definedName name="_xlnm._FilterDatabase" localSheetId="{k}" hidden="1">'
            f"{name}!$A$1:${col}${row}</definedName>"
            for k, (name, (col, row)) in enumerate(zip(names, self._filters, strict=True)))
        titles = "".join(f'<definedName name="_xlnm.Print_Titles" localSheetId="{k}">'
                         f"{name}!$1:$1</definedName>" for k, name in enumerate(names))
        return (f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_DOC}"><workbookPr/><bookViews>'
                '<workbookView xWindow="240" yWindow="15" windowWidth="16095" '
                f'windowHeight="9660"/></bookViews><sheets>{sheets}</sheets><definedNames>'
                f"{filters}{titles}</definedNames></workbook>")

    def _entry(self, name: str) -> zipfile.ZipInfo:
        info = zipfile.ZipInfo(name, ZIP_DATE)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 3  # Unix, on every system: the same bytes
        info.external_attr = 0o600 << 16
        return info

    def _part(self, name: str, text: str) -> None:
        self._zip.writestr(self._entry(name), text.encode("utf-8"))


def _relationships(targets: Sequence[tuple[str, str]]) -> str:
    return (f'{_XML}<Relationships xmlns="{_PKG}">'
            + "".join(f'<Relationship Id="rId{k}" Type="{t}" Target="{g}"/>'
                      for k, (t, g) in enumerate(targets, start=1))
            + "</Relationships>")
