"""Issue #12 review (fixC): the ledger export's refusal lives in the engine with narrow
exceptions, and the public API's functions are documented in NumPy style."""

from __future__ import annotations

import inspect
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import scheduler
from scheduler.ledger import Ledger, LedgerError
from scheduler.ledger.funds import refuse_funds_folder
from scheduler.ledger.workbook import (
    earlier_export,
    export_xlsx,
    import_xlsx,
    refuse_export_over,
)


@pytest.fixture
def lg(tmp_path: Path, migrated_sqlite: Callable[[Path], Ledger]) -> Iterator[Ledger]:
    ledger = migrated_sqlite(tmp_path / "tourney-ledger.sqlite")
    yield ledger
    ledger.dispose()


def test_earlier_export_reads_only_what_the_export_writes(lg: Ledger, tmp_path: Path) -> None:
    csv = tmp_path / "ledger.csv"
    csv.write_text("table,key,recorded_at,recorded_by,extra\n")  # EXPORT_HEAD, then more
    assert earlier_export(csv)
    other = tmp_path / "other.csv"
    other.write_text("table,key,recorded_by\n")  # 3 of the 4 head columns, out of order
    assert not earlier_export(other)
    latin = tmp_path / "latin.csv"
    latin.write_bytes(b"\xff\xfetable,key\n")  # not UTF-8
    assert not earlier_export(latin)
    book = tmp_path / "ledger.xlsx"
    book.write_bytes(export_xlsx(lg)[0])  # sheet "Ledger"
    assert earlier_export(book)
    # not a zip (BadZipFile), a zip without [Content_Types].xml (KeyError), broken XML
    # (an XML parser's SyntaxError), a zip with no workbook part (OSError): all "not ours"
    (tmp_path / "a.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    with zipfile.ZipFile(tmp_path / "b.xlsx", "w") as z:
        z.writestr("x.txt", "hi")
    with zipfile.ZipFile(tmp_path / "c.xlsx", "w") as z:
        z.writestr("[Content_Types].xml", "<bad")
    with zipfile.ZipFile(tmp_path / "d.xlsx", "w") as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/'
                                          'package/2006/content-types"/>')
    for name in "abcd":
        assert not earlier_export(tmp_path / f"{name}.xlsx"), name


def test_refuse_export_over_the_ledger_or_a_foreign_file(lg: Ledger, tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match=r"is the ledger .* itself") as err:
        refuse_export_over(lg, tmp_path / "tourney-ledger.sqlite")
    assert err.value.exit_code == 2
    scenario = tmp_path / "season.yaml"
    scenario.write_text("tournaments: []\n")
    with pytest.raises(LedgerError, match="exists and is not a file written by `tourney "
                                          "ledger export`"):
        refuse_export_over(lg, scenario)
    refuse_export_over(lg, tmp_path / "new.csv")  # a new file: nothing to refuse
    (tmp_path / "old.csv").write_text("table,key,recorded_at,recorded_by\n")
    refuse_export_over(lg, tmp_path / "old.csv")  # an earlier export is replaced


def test_public_functions_have_numpy_sections() -> None:
    # every function of the public API (scheduler.__all__; classes have their own fields'
    # docstrings) says what it takes and gives: Parameters and Returns sections
    for name in scheduler.__all__:
        obj = getattr(scheduler, name)
        if inspect.isfunction(obj):
            doc = inspect.getdoc(obj) or ""
            assert "Parameters\n----------" in doc, name
            assert "Returns\n-------" in doc, name
    for method in (scheduler.Scenario.from_frames, scheduler.Scenario.from_excel,
                   scheduler.Scenario.to_xlsx, scheduler.Plan.usage, scheduler.Plan.fees,
                   scheduler.Plan.summary_table, scheduler.Plan.rows_of):
        assert "Returns\n-------" in (inspect.getdoc(method) or ""), method.__qualname__


def test_refuse_funds_folder_a_plan_or_the_ledger(lg: Ledger, tmp_path: Path) -> None:
    plan = tmp_path / "plan"
    plan.mkdir()
    (plan / ".tourney-plan").write_text("# tourney: the files written into this folder\n")
    with pytest.raises(LedgerError, match=r"holds a plan \(\.tourney-plan\)"):
        refuse_funds_folder(lg, plan)
    (tmp_path / "funds").mkdir()
    (tmp_path / "funds" / "funds.csv").symlink_to(tmp_path / "tourney-ledger.sqlite")
    with pytest.raises(LedgerError, match="is the ledger .* itself"):
        refuse_funds_folder(lg, tmp_path / "funds")
    refuse_funds_folder(lg, tmp_path)  # a folder of neither: nothing to refuse


def test_import_of_a_workbook_with_broken_xml_is_a_ledger_error(lg: Ledger,
                                                               tmp_path: Path) -> None:
    # before: lxml's XMLSyntaxError escaped as an internal error (exit 3)
    book = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(book, "w") as z:
        z.writestr("[Content_Types].xml", "<bad")
    with pytest.raises(LedgerError, match=r"broken\.xlsx as an \.xlsx workbook") as err:
        import_xlsx(lg, book)
    assert err.value.exit_code == 2
