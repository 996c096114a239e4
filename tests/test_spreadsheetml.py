"""The .xlsx writer of plan.xlsx (scheduler.export.spreadsheetml, issue #27): each kind of
cell as openpyxl reads it back, the header, filter, pane, widths and print setup, and the same
bytes whatever the target."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from scheduler.export.spreadsheetml import Column, XlsxStream, column_letters, excel_serial

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)  # SOURCE_DATE_EPOCH 1767225600
COLUMNS: list[Column] = [("what", "", 20), ("when", "yyyy-mm-dd", 11),
                         ("at", "yyyy-mm-dd hh:mm", 17), ("count", "0", 7),
                         ("fee", '"$"#,##0', 10)]


class Text(str):
    """A str subclass (a pydantic constrained string is one): still text."""


def _book(sheets: list[tuple[str, list[Column], list[Any]]]) -> bytes:
    buf = io.BytesIO()
    with XlsxStream(buf, [title for title, _, _ in sheets], WHEN) as book:
        for title, columns, rows in sheets:
            book.sheet(title, columns, rows)
    return buf.getvalue()


def _read(data: bytes) -> Any:
    return openpyxl.load_workbook(io.BytesIO(data))


def test_dates_and_times_are_excel_serial_days() -> None:
    # days since 1899-12-31, one more from 1900-03-01 on (Excel's 1900-02-29):
    # 1900-02-28 is day 59, 1900-03-01 day 61 (60 + 1); 2027-01-01 is 46,387 days after
    # 1899-12-31 (dt.date.toordinal: 739,617 - 693,230), + 1 = 46,388
    assert excel_serial(dt.date(1900, 2, 28)) == "59"
    assert excel_serial(dt.date(1900, 3, 1)) == "61"
    assert excel_serial(dt.date(2027, 1, 1)) == "46388"
    # 10:00 is 10 / 24 = 0.41666... of a day, 16 significant digits
    assert excel_serial(dt.datetime(2027, 1, 1, 10)) == "46388.41666666666"
    assert excel_serial(dt.datetime(2027, 1, 1)) == "46388"
    with pytest.raises(TypeError, match="time zone"):
        excel_serial(dt.datetime(2027, 1, 1, 10, tzinfo=dt.UTC))


def test_each_kind_of_cell_reads_back_with_its_type_and_number_format() -> None:
    rows = [
        ("=Stack", dt.date(2027, 1, 1), dt.datetime(2027, 1, 1, 10), 280, Decimal("75.50")),
        ("a & <b>", dt.date(1900, 3, 1), dt.datetime(2027, 12, 31, 23, 30), 0.5, 120),
        (Text("sub"), None, "", True, Fraction(1, 4)),
    ]
    ws = _read(_book([("Cells", COLUMNS, rows)]))["Cells"]
    got = [[(c.value, c.data_type, c.number_format) for c in row]
           for row in ws.iter_rows(min_row=2)]
    date, stamp = "yyyy-mm-dd", "yyyy-mm-dd hh:mm"
    assert got == [
        [("=Stack", "s", "General"),  # text, never a formula
         (dt.datetime(2027, 1, 1), "d", date), (dt.datetime(2027, 1, 1, 10), "d", stamp),
         (280, "n", "0"), (75.5, "n", '"$"#,##0')],  # "75.50" read as a float
        [("a & <b>", "s", "General"),
         (dt.datetime(1900, 3, 1), "d", date), (dt.datetime(2027, 12, 31, 23, 30), "d", stamp),
         (0.5, "n", "0"), (120, "n", '"$"#,##0')],
        [("sub", "s", "General"), (None, "n", "General"), (None, "n", "General"),
         (True, "b", "0"), (0.25, "n", '"$"#,##0')],  # None and "": empty, no format
    ]


def test_text_is_escaped_as_excel_escapes_it() -> None:
    texts = ["a\x01b", "_x0041_", "cr\rx", " lead", "trail ", "tab\there", "line\nbreak",
             "dice 🎲", "x" * 61, "y" * 60, "z" * 32_768]
    data = _book([("Text", [("text", "", 60)], [(t,) for t in texts])])
    cells = list(_read(data)["Text"].iter_rows(min_row=2))
    # control characters as _xHHHH_, a literal _xHHHH_ with its underscore escaped (_x005F_),
    # as Excel writes them (openpyxl reads an inline text's escapes as written); spaces at
    # either end kept
    assert [c[0].value for c in cells] == [
        "a_x0001_b", "_x005F_x0041_", "cr_x000D_x", " lead", "trail ", "tab\there",
        "line\nbreak", "dice 🎲", "x" * 61, "y" * 60, "z" * 32_767]  # Excel's longest text
    # over 60 characters wrapped, aligned to the top; 60 not
    assert [(c[0].alignment.wrap_text, c[0].alignment.vertical) for c in cells[8:10]] == [
        (True, "top"), (None, None)]
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        sheet = z.read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="A5" t="inlineStr"><is><t xml:space="preserve"> lead</t></is></c>' in sheet


def test_header_filter_pane_widths_and_print_setup() -> None:
    data = _book([("Cells", COLUMNS, [("a", None, None, 1, None)] * 3),
                  ("Bob's list", [("name", "", 30)], [])])
    wb = _read(data)
    ws = wb["Cells"]
    assert [c.value for c in ws[1]] == ["what", "when", "at", "count", "fee"]
    assert all(c.font.b and c.fill.fgColor.rgb == "FFDDEBF7" for c in ws[1])
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:E4"  # header + 3 rows
    assert {j: ws.column_dimensions[column_letters(j - 1)].width for j in range(1, 6)} == {
        1: 20, 2: 11, 3: 17, 4: 7, 5: 10}
    assert ws.print_title_rows == "$1:$1" and ws.page_setup.orientation == "landscape"
    assert ws.page_setup.fitToHeight == 0 and ws.sheet_properties.pageSetUpPr.fitToPage
    empty = wb["Bob's list"]  # no rows: the header alone, the filter over two rows
    assert empty.max_row == 1 and empty.auto_filter.ref == "A1:A2"
    assert empty.print_title_rows == "$1:$1"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        book = z.read("xl/workbook.xml").decode()
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 31, 0, 0, 0)}
        assert "<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-01-01T00:00:00Z<" in \
            z.read("docProps/core.xml").decode()
    assert names[0] == "[Content_Types].xml"
    assert "'Bob''s list'!$1:$1" in book  # a title with a space or quote, quoted


def test_the_same_bytes_to_a_path_a_file_and_memory(tmp_path: Path) -> None:
    rows = [("a", dt.date(2027, 1, 1), None, 1, 2)]
    data = _book([("Cells", COLUMNS, rows)])
    with XlsxStream(tmp_path / "a.xlsx", ["Cells"], WHEN) as book:
        book.sheet("Cells", COLUMNS, rows)
    with (tmp_path / "b.xlsx").open("wb") as fh, XlsxStream(fh, ["Cells"], WHEN) as book:
        book.sheet("Cells", COLUMNS, rows)
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes() == data
    assert _book([("Cells", COLUMNS, rows)]) == data


def test_sheets_out_of_order_or_missing_are_refused() -> None:
    book = XlsxStream(io.BytesIO(), ["One", "Two"], WHEN)
    with pytest.raises(ValueError, match="'Two' is not the workbook's next"):
        book.sheet("Two", COLUMNS, [])
    book.sheet("One", COLUMNS, [])
    with pytest.raises(ValueError, match="2 titles, 1 sheets written"):
        book.close()
