"""plan.xlsx as scheduler.export.spreadsheetml writes it (issue #27): the cells, number
formats and layout openpyxl's writer gave (issue #14), byte-identical from run to run.

The reference is openpyxl's write-only writer of the same sheets (what plan.xlsx was written
with before, kept here with only what the comparison needs: values and number formats), run
on a bundled example's plan; both files are read back with openpyxl.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.cell import WriteOnlyCell
from openpyxl.utils import get_column_letter

from scheduler.engine.solver import solve
from scheduler.export.write import write_plan
from scheduler.export.xlsx import LICENCES, SCHEDULE, plan_sheets, plan_xlsx
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "examples" / "combined.yaml"


@pytest.fixture(scope="module")
def plan() -> Plan:
    return solve(load_scenario(EXAMPLE), seed=0)


def _openpyxl_reference(plan: Plan) -> bytes:
    """plan.xlsx's cells as openpyxl's writer wrote them: each column's number format on the
    cells with a value, text beginning with "=" as text."""
    wb = openpyxl.Workbook(write_only=True)
    for title, columns, rows in plan_sheets(plan):
        ws = wb.create_sheet(title)
        ws.append([head for head, _, _ in columns])
        for row in rows:
            out = []
            for (_, fmt, _), value in zip(columns, row, strict=True):
                cell = WriteOnlyCell(ws, value=value)
                if isinstance(value, str) and value.startswith("="):
                    cell.data_type = "s"
                if fmt and value is not None and value != "":
                    cell.number_format = fmt
                out.append(cell)
            ws.append(out)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _grid(ws: Any) -> list[list[tuple[Any, str]]]:
    return [[(c.value, c.number_format) for c in row] for row in ws.iter_rows()]


def test_plan_xlsx_has_openpyxls_cells_and_number_formats(plan: Plan) -> None:
    new = openpyxl.load_workbook(io.BytesIO(plan_xlsx(plan)))
    old = openpyxl.load_workbook(io.BytesIO(_openpyxl_reference(plan)))
    assert new.sheetnames == old.sheetnames == [
        "Schedule", "Licences", "Deadlines", "Not placed", "Limits"]
    compared = 0
    for name in old.sheetnames:
        a, b = _grid(old[name]), _grid(new[name])
        assert len(b) == len(a) > 1, name  # the header and at least one row
        for i, (x, y) in enumerate(zip(a, b, strict=True), start=1):
            assert y == x, f"{name} row {i}"
            compared += len(x)
    assert compared > 1000  # every sheet's every cell, not an empty file
    ws = new["Schedule"]
    # a date-time, a date and a count, by number format (issue #14's three kinds)
    assert ws["H2"].number_format == "yyyy-mm-dd hh:mm" and isinstance(ws["H2"].value,
                                                                      dt.datetime)
    assert ws["K2"].number_format == "yyyy-mm-dd" and ws["B2"].number_format == "0"
    assert new["Licences"]["H2"].number_format == '"$"#,##0'


def _widths(ws: Any) -> dict[int, float]:
    """Column (1-based) -> width, each <col min max> range spread over its columns."""
    return {j: d.width for d in ws.column_dimensions.values()
            for j in range(d.min, d.max + 1)}


def _expected_widths(columns: Sequence[tuple[str, str, int]]) -> dict[int, float]:
    return {j: float(w) for j, (_, _, w) in enumerate(columns, start=1)}


def test_plan_xlsx_layout_header_filter_pane_widths_and_print(plan: Plan) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(plan_xlsx(plan)))
    for name in wb.sheetnames:
        ws = wb[name]
        assert ws.freeze_panes == "A2", name
        last = get_column_letter(ws.max_column)
        assert ws.auto_filter.ref == f"A1:{last}{max(2, ws.max_row)}", name
        assert ws.print_title_rows == "$1:$1", name
        assert ws.page_setup.orientation == "landscape"
        fit = ws.sheet_properties.pageSetUpPr
        assert ws.page_setup.fitToHeight == 0 and fit is not None and fit.fitToPage
        head = ws["A1"]
        assert head.font.b and head.fill.fgColor.rgb.endswith("DDEBF7")
    # widths in characters, as issue #14 set them: Schedule A (tournament_id) 22, Licences
    # I (covers) 60
    assert _widths(wb["Schedule"]) == _expected_widths(SCHEDULE)
    assert _widths(wb["Licences"]) == _expected_widths(LICENCES)
    assert _widths(wb["Schedule"])[1] == 22 and _widths(wb["Licences"])[9] == 60


def test_plan_xlsx_same_bytes_run_to_run_and_dated(plan: Plan, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    when = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)  # SOURCE_DATE_EPOCH 1767225600
    data = plan_xlsx(plan, when)
    assert data == plan_xlsx(plan, when)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        core = z.read("docProps/core.xml").decode()
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 31, 0, 0, 0)}
    assert "<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-01-01T00:00:00Z<" in core
    assert "<dcterms:modified xsi:type=\"dcterms:W3CDTF\">2026-01-01T00:00:00Z<" in core
    # no SOURCE_DATE_EPOCH: the fixed date 2000-01-01 (scheduler.core.workbook.layout.FIXED_TIME)
    with zipfile.ZipFile(io.BytesIO(plan_xlsx(plan))) as z:
        assert "2000-01-01T00:00:00Z" in z.read("docProps/core.xml").decode()
    # the plan folder's file is these bytes, written twice the same
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    first = (write_plan(plan, tmp_path / "a") / "plan.xlsx").read_bytes()
    second = (write_plan(plan, tmp_path / "b") / "plan.xlsx").read_bytes()
    assert first == second == data
