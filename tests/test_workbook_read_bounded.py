"""A workbook is measured from its own records before anything loads it (issue 24, "Memory and
time" and "Wrong all-clear"): the sizes its zip says, the cells that hold a value, the longest
text, its formulas, hidden sheets, rows and columns. Each hostile workbook below is read by
``tourney`` in a child process limited to 1 GB of address space and 60 seconds: before the
bounds, one value at XFD1048576 in a 30 KB file took 5.35 GB (exit 3, MemoryError) in
``solve``, ``check`` and ``ledger import``.

Bounds (scheduler/core/limits.py, docs/limits.md): a sheet spans at most 1,000,000 cells (last row
holding a value × last column holding a value; TOURNEY_MAX_WORKBOOK_CELLS), a workbook unzips
to at most 100 MB (TOURNEY_MAX_WORKBOOK_MB), a text has at most 32,767 characters.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from scheduler.core.workbook.cells import WorkbookError
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.core.workbook.scan import scan_xlsx
from scheduler.inputs.load import load_scenario

ROOT = Path(__file__).resolve().parent.parent
TOURNEY = [sys.executable, "-c", "from scheduler.cli import main; main()"]
GB = 1024 ** 3
TIMEOUT = 60.0  # seconds: every refusal below takes under 5 s


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in a child of at most 1 GB of address space and 60 seconds."""
    return subprocess.run([*TOURNEY, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT, preexec_fn=_limit_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def montana_xlsx() -> bytes:
    return load_scenario(EXAMPLES["montana"]).to_xlsx()


def _part_of(data: bytes, sheet: str) -> str:
    """The zip entry of worksheet ``sheet`` (by the workbook's own relationships)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        book = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
    rid = re.search(rf'name="{sheet}"[^>]*r:id="(rId\d+)"', book)
    assert rid
    target = re.search(rf'Id="{rid.group(1)}"[^>]*Target="([^"]+)"|'
                       rf'Target="([^"]+)"[^>]*Id="{rid.group(1)}"', rels)
    assert target
    path = target.group(1) or target.group(2)
    return path.lstrip("/") if path.startswith("/") else f"xl/{path}"


def edit_part(data: bytes, part: str, edit: Callable[[bytes], bytes]) -> bytes:
    """``data`` with zip entry ``part`` replaced by ``edit(its bytes)``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            dst.writestr(info.filename, edit(body) if info.filename == part else body)
    return out.getvalue()


def edit_sheet(data: bytes, sheet: str, edit: Callable[[str], str]) -> bytes:
    return edit_part(data, _part_of(data, sheet), lambda b: edit(b.decode()).encode())


def add_cells(xml: str, cells: str) -> str:
    """Worksheet ``xml`` with the row elements ``cells`` added at the end of sheetData."""
    return xml.replace("</sheetData>", cells + "</sheetData>")


def _one_cell_far_out(data: bytes) -> bytes:
    return edit_sheet(data, "Tournaments", lambda x: add_cells(
        x, '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>'))


@pytest.fixture
def far_out(tmp_path: Path) -> Path:
    path = tmp_path / "far.xlsx"
    path.write_bytes(_one_cell_far_out(montana_xlsx()))
    assert path.stat().st_size < 50_000  # the finding: a 30 KB file (40 KB with 6 sheets)
    return path


# ------------------------------------------------------------------- one cell far out
@pytest.mark.parametrize("command", [["solve", "far.xlsx", "--out", "plan"],
                                     ["check", "far.xlsx", "schedule.csv"]])
def test_one_value_at_xfd1048576_is_refused_before_loading(far_out: Path, command: list[str]
                                                           ) -> None:
    (far_out.parent / "schedule.csv").write_text("tournament_id,first_day\n")
    res = run(command, far_out.parent)
    # 1,048,576 rows x 16,384 columns = 17,179,869,184 cells spanned, over 1,000,000
    assert res.returncode == 2, res.stderr
    assert "Tournaments!XFD1048576" in res.stderr, res.stderr
    assert "1,048,576 rows by 16,384 columns" in res.stderr, res.stderr
    assert "TOURNEY_MAX_WORKBOOK_CELLS" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr
    assert not (far_out.parent / "plan").exists()


def test_ledger_import_of_a_workbook_with_one_value_at_xfd1048576(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Ledger"
    ws["A1"], ws["B1"] = "table", "key"
    buf = io.BytesIO()
    wb.save(buf)
    (tmp_path / "far.xlsx").write_bytes(edit_sheet(buf.getvalue(), "Ledger", lambda x: add_cells(
        x, '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>')))
    res = run(["ledger", "import", "far.xlsx", "--ledger", "l.sqlite"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert "Ledger!XFD1048576" in res.stderr and "Traceback" not in res.stderr, res.stderr


# ------------------------------------------------------------------- the span, at its bound
def _span_book(last: str) -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "h"
    ws[last] = 1
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_the_span_of_a_sheet_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # a value at C4: 4 rows x 3 columns = 12 cells spanned
    data = _span_book("C4")
    monkeypatch.setenv("TOURNEY_MAX_WORKBOOK_CELLS", "12")
    scans = scan_xlsx(data)
    assert (scans["Sheet"].max_row, scans["Sheet"].max_column) == (4, 3)
    monkeypatch.setenv("TOURNEY_MAX_WORKBOOK_CELLS", "11")
    with pytest.raises(WorkbookError) as err:
        scan_xlsx(data)
    assert err.value.problems[0][0] == "Sheet!C4"
    assert "4 rows by 3 columns, more than the 11 cells" in err.value.problems[0][1]


def test_empty_formatted_cells_far_out_do_not_count() -> None:
    # a formatted but empty cell (no value) at Z5000 spans nothing: the template has them
    data = edit_sheet(_span_book("B2"), "Sheet", lambda x: add_cells(
        x, '<row r="5000"><c r="Z5000" s="0"/></row>'))
    scans = scan_xlsx(data)
    assert (scans["Sheet"].max_row, scans["Sheet"].max_column) == (2, 2)


# ------------------------------------------------------------------- a million rows
# (the bound in cells, the last row written): the default bound against every row a sheet
# has (slow); the same behaviour at a bound of 10,000 cells against 2,000 rows in every run
ROWS = [pytest.param(None, 1_048_576, marks=pytest.mark.slow, id="1000000-cells"),
        pytest.param(10_000, 2_000, id="10000-cells")]


@pytest.mark.parametrize("bound, last", ROWS)
def test_a_million_rows_is_refused_within_memory(tmp_path: Path, bound: int | None,
                                                 last: int) -> None:
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>'
                   for r in range(202, last + 1))
    base = montana_xlsx()
    columns = scan_xlsx(base)["Tournaments"].max_column  # the template's (47: A..AU)
    data = edit_sheet(base, "Tournaments", lambda x: add_cells(x, rows))
    (tmp_path / "rows.xlsx").write_bytes(data)
    env = {} if bound is None else {"TOURNEY_MAX_WORKBOOK_CELLS": str(bound)}
    res = run(["solve", "rows.xlsx", "--out", "plan"], tmp_path, **env)
    assert res.returncode == 2, res.stderr
    # the first row over 1,000,000 cells: with 47 columns 21,277 (21,276 x 47 = 999,972;
    # 21,277 x 47 = 1,000,019); over 10,000: 213 (212 x 47 = 9,964; 213 x 47 = 10,011);
    # the template gains a column now and then, so the row is derived from its width
    cells = bound or 1_000_000
    first = cells // columns + 1
    assert (first - 1) * columns <= cells < first * columns and 202 <= first <= last
    assert f"Tournaments!A{first}:" in res.stderr, res.stderr


# ------------------------------------------------------------------- a zip bomb
def _bomb(data: bytes, part: str, size: int) -> bytes:
    """``data`` with worksheet ``part`` followed by ``size`` bytes of spaces inside its
    sheetData, deflated in a stream (the file stays a few hundred kilobytes)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        xml = z.read(part)
    head, tail = xml.split(b"</sheetData>")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != part:
                dst.writestr(info.filename, src.read(info.filename))
                continue
            info = zipfile.ZipInfo(part)
            info.compress_type = zipfile.ZIP_DEFLATED
            with dst.open(info, "w", force_zip64=True) as w:
                w.write(head)
                chunk = b" " * (1 << 20)
                for _ in range(size >> 20):
                    w.write(chunk)
                w.write(b"</sheetData>" + tail)
    return out.getvalue()


# (the bound in MB, the spaces in MB): the default bound, 100 MB, against 256 MB (slow);
# the same behaviour at a bound of 4 MB against 16 MB in every run
BOMBS = [pytest.param(None, 256, marks=pytest.mark.slow, id="100-of-256MB"),
         pytest.param(4, 16, id="4-of-16MB")]


@pytest.mark.parametrize("bound, size", BOMBS)
def test_a_zip_bomb_is_refused_by_its_unzipped_size(tmp_path: Path, bound: int | None,
                                                   size: int) -> None:
    data = montana_xlsx()
    bomb = _bomb(data, _part_of(data, "Tournaments"), size * 1024 * 1024)
    assert len(bomb) < 1_000_000  # 256 MB of spaces deflate to about 250 KB
    (tmp_path / "bomb.xlsx").write_bytes(bomb)
    env = {} if bound is None else {"TOURNEY_MAX_WORKBOOK_MB": str(bound)}
    res = run(["solve", "bomb.xlsx", "--out", "plan"], tmp_path, **env)
    assert res.returncode == 2, res.stderr
    # 256 (16) MB of spaces and the rest of the workbook (0.3 MB, six sheets): 256.3 (16.3) MB
    assert f"unzips to {size}.3 MB, more than the {bound or 100} MB" in res.stderr, res.stderr
    assert "TOURNEY_MAX_WORKBOOK_MB" in res.stderr


# ------------------------------------------------------------------- a huge text
@pytest.mark.parametrize("n, refused", [(32_767, False), (32_768, True)])
def test_a_text_longer_than_a_cell_holds(n: int, refused: bool) -> None:
    data = edit_sheet(_span_book("B2"), "Sheet", lambda x: add_cells(
        x, f'<row r="3"><c r="A3" t="inlineStr"><is><t>{"x" * n}</t></is></c></row>'))
    if not refused:
        assert scan_xlsx(data)["Sheet"].max_row == 3
        return
    with pytest.raises(WorkbookError) as err:
        scan_xlsx(data)
    assert err.value.problems == [("Sheet!A3", "a text of 32,768 characters, longer than the "
                                               "32,767 a spreadsheet cell holds")]


# 50 MB in the slow run (52,428,800 characters), 1 MB (1,048,576) in every run
@pytest.mark.parametrize("mb, said", [
    pytest.param(50, "52,428,800", marks=pytest.mark.slow, id="50MB"),
    pytest.param(1, "1,048,576", id="1MB")])
def test_a_fifty_megabyte_text_is_refused_within_memory(tmp_path: Path, mb: int,
                                                        said: str) -> None:
    big = "x" * (mb * 1024 * 1024)
    data = edit_sheet(montana_xlsx(), "Tournaments", lambda x: add_cells(
        x, f'<row r="300"><c r="B300" t="inlineStr"><is><t>{big}</t></is></c></row>'))
    (tmp_path / "text.xlsx").write_bytes(data)
    res = run(["solve", "text.xlsx", "--out", "plan"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert f"Tournaments!B300: a text of {said} characters" in res.stderr, res.stderr


# ------------------------------------------------------------------- formulas, hidden
def _problems(tmp_path: Path, data: bytes) -> str:
    (tmp_path / "y.xlsx").write_bytes(data)
    res = run(["solve", "y.xlsx", "--out", "plan"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert not (tmp_path / "plan").exists()
    return res.stderr


def _entry_fee_column(data: bytes) -> str:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    return next(c.column_letter for c in wb["Tournaments"][1] if c.value == "entry_fee")


def test_a_formula_with_a_saved_value_is_read_as_the_value_it_shows(tmp_path: Path) -> None:
    data = montana_xlsx()
    col = _entry_fee_column(data)
    # the cell shows the saved result, 100, whatever its formula says (=2000): the
    # spreadsheet shows $100.00, and that is what is planned
    shown = edit_sheet(data, "Tournaments", lambda x: re.sub(
        rf'<c r="{col}2"[^>]*?(/>|>.*?</c>)', f'<c r="{col}2"><f>2000</f><v>100</v></c>', x,
        count=1))
    (tmp_path / "y.xlsx").write_bytes(shown)
    assert load_scenario(tmp_path / "y.xlsx").tournament("deepstack").entry_fee == 100


def test_a_very_hidden_sheet_is_refused(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(montana_xlsx()))
    wb["Tournaments"].sheet_state = "veryHidden"
    buf = io.BytesIO()
    wb.save(buf)
    err = _problems(tmp_path, buf.getvalue())
    assert "sheet Tournaments: the sheet is very hidden (only a macro can show it)" in err, err


def test_a_hidden_row_and_a_hidden_column_holding_values_are_refused(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(montana_xlsx()))
    ws = wb["Tournaments"]
    ws.row_dimensions[3].hidden = True
    col = next(c.column_letter for c in ws[1] if c.value == "title")
    ws.column_dimensions[col].hidden = True
    buf = io.BytesIO()
    wb.save(buf)
    err = _problems(tmp_path, buf.getvalue())
    assert "Tournaments row 3: the row is hidden and holds values" in err, err
    assert f"Tournaments column {col} (title): the column is hidden and holds values" in err


def test_a_hidden_row_of_the_ledger_workbook_is_refused(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Ledger"
    ws.append(["table", "key"])
    ws.append(["organizations", "0" * 32])
    ws.row_dimensions[2].hidden = True
    wb.save(tmp_path / "l.xlsx")
    res = run(["ledger", "import", "l.xlsx", "--ledger", "l.sqlite"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert "Ledger row 2 is hidden" in res.stderr, res.stderr


def test_a_dtd_in_a_part_is_refused() -> None:
    data = edit_sheet(_span_book("B2"), "Sheet", lambda x: '<!DOCTYPE w [<!ENTITY a "aaaa">]>'
                      + x.split("?>", 1)[-1])
    with pytest.raises(WorkbookError) as err:
        scan_xlsx(data)
    assert "DTD" in err.value.problems[0][1] or "Forbidden" in err.value.problems[0][1]


def test_the_bounds_the_slow_cases_meet_are_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    # the twins above run at smaller bounds set by their variables; unset, the bounds are
    # 1,000,000 cells, 100 MB unzipped and 64 MB a CalDAV reply (1 MB = 1,048,576 bytes)
    from scheduler.core.limits import max_response_bytes, max_workbook_cells, max_workbook_unzipped

    for var in ("TOURNEY_MAX_WORKBOOK_CELLS", "TOURNEY_MAX_WORKBOOK_MB",
                "TOURNEY_MAX_RESPONSE_MB"):
        monkeypatch.delenv(var, raising=False)
    assert max_workbook_cells() == 1_000_000
    assert max_workbook_unzipped() == 100 * 1_048_576
    assert max_response_bytes() == 64 * 1_048_576
