"""The ledger tried by a fresh tester (issue #13, fix13): what broke, fixed. SQLite only.

- ``tourney ledger export --out`` never writes over the ledger, the scenario or any file that
  is not an earlier export; ``ledger funds --out`` never into a plan folder;
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_ledger import write_plan
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, api

run = CliRunner().invoke


@pytest.fixture
def lg(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(tmp_path / "tourney-ledger.sqlite")
    api.init(ledger)
    api.adopt(ledger, write_plan(tmp_path / "plan"), organization="Big Sky Tour", by="ann")
    yield ledger
    ledger.dispose()


# ------------------------------------------------------------------ 1. no data loss
def test_export_refuses_to_write_over_the_ledger_itself(lg: Ledger, tmp_path: Path) -> None:
    before = (tmp_path / "tourney-ledger.sqlite").read_bytes()
    for out in ["tourney-ledger.sqlite", "./plan/../tourney-ledger.sqlite", "x.xlsx"]:
        if out == "x.xlsx":  # a symbolic link to the ledger, named as a workbook
            (tmp_path / out).symlink_to(tmp_path / "tourney-ledger.sqlite")
        r = run(app, ["ledger", "export", "--out", str(tmp_path / out), "--ledger",
                      str(tmp_path / "tourney-ledger.sqlite")])
        assert r.exit_code == 2, r.output
        assert "is the ledger" in r.output and "Nothing was written." in r.output
        assert "internal error" not in r.output
    assert (tmp_path / "tourney-ledger.sqlite").read_bytes() == before


def test_export_refuses_any_file_but_an_earlier_export(lg: Ledger, tmp_path: Path) -> None:
    scenario = tmp_path / "season.yaml"
    scenario.write_text("tournaments: []\n")
    book = tmp_path / "budget.xlsx"
    book.write_bytes(b"PK\x03\x04 not really a workbook")
    db = str(tmp_path / "tourney-ledger.sqlite")
    for f in (scenario, book, tmp_path / "plan" / "schedule.csv"):
        before = f.read_bytes()
        r = run(app, ["ledger", "export", "--out", str(f), "--ledger", db])
        assert r.exit_code == 2, r.output
        assert "is not a file written by `tourney ledger export`" in r.output
        assert "Nothing was written." in r.output
        assert f.read_bytes() == before
    # an earlier export (CSV or workbook) is replaced; a new file is written
    for name in ("ledger.csv", "ledger.xlsx"):
        out = tmp_path / name
        r = run(app, ["ledger", "export", "--out", str(out), "--ledger", db])
        assert r.exit_code == 0, r.output
        r = run(app, ["ledger", "export", "--out", str(out), "--ledger", db])
        assert r.exit_code == 0, r.output
    assert (tmp_path / "ledger.csv").read_text().startswith("table,key,recorded_at,")


def test_funds_refuses_a_plan_folder(lg: Ledger, tmp_path: Path) -> None:
    plan = tmp_path / "plan"
    (plan / ".tourney-plan").write_text("# tourney: the files written into this folder\n")
    r = run(app, ["ledger", "funds", "--out", str(plan), "--ledger",
                  str(tmp_path / "tourney-ledger.sqlite")])
    assert r.exit_code == 2, r.output
    assert "holds a plan (.tourney-plan)" in r.output and "Nothing was written." in r.output
    assert not (plan / "funds.csv").exists()
    r = run(app, ["ledger", "funds", "--out", str(tmp_path), "--ledger",
                  str(tmp_path / "tourney-ledger.sqlite")])
    assert r.exit_code == 0, r.output


# ------------------------------------------------------- 2. a damaged or foreign database
def test_a_damaged_or_text_ledger_is_refused_not_an_internal_error(lg: Ledger,
                                                                    tmp_path: Path) -> None:
    lg.dispose()  # its write-ahead log checkpointed into the file
    good = (tmp_path / "tourney-ledger.sqlite").read_bytes()
    assert len(good) > 3000
    (tmp_path / "cut.sqlite").write_bytes(good[:3000])  # the header page and a bit, cut
    (tmp_path / "text.sqlite").write_text("hello\n")
    for name, why in [("cut.sqlite", "database disk image is malformed"),
                      ("text.sqlite", "file is not a database")]:
        path = tmp_path / name
        for cmd in (["ledger", "export"], ["ledger", "init"],
                    ["record", "cancelled", "deep#1"]):
            r = run(app, [*cmd, "--ledger", str(path)])
            assert r.exit_code == 2, r.output
            assert r.output.startswith(f"tourney: {path} is not a readable tourney ledger "
                                       f"(damaged?): restore it from your export ({why})")
            assert "internal error" not in r.output
    assert (tmp_path / "text.sqlite").read_text() == "hello\n"


def test_init_refuses_a_database_of_another_program(tmp_path: Path) -> None:
    import sqlite3  # the other program's database, made without tourney

    other = tmp_path / "photos.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE album (name TEXT)")
    c.close()
    for cmd in (["ledger", "init"], ["ledger", "export"]):
        r = run(app, [*cmd, "--ledger", str(other)])
        assert r.exit_code == 2, r.output
        assert f"{other} is a SQLite database of another program (tables album)" in r.output
    with sqlite3.connect(other) as c:
        names = [n for (n,) in c.execute("SELECT name FROM sqlite_master")]
    c.close()
    assert names == ["album"]  # nothing added: no alembic_version, no ledger table
