"""The ledger tried by a fresh tester (issue #13, fix13): what broke, fixed. SQLite only.

- ``tourney ledger export --out`` never writes over the ledger, the scenario or any file that
  is not an earlier export; ``ledger funds --out`` never into a plan folder;
- a damaged or foreign SQLite file is a clear refusal (exit 2), never adopted by ``init``;
- ``ledger funds`` judges ME-PRIZES and ME-SUPER-CRIBBAGE on exact amounts, per game too;
- ``deadlines``: a Maine licence whose every game is cancelled needs no application (its
  report stays due);
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, api
from scheduler.ledger.deadlines import deadlines
from scheduler.ledger.funds import funds, funds_html

from builders.plans import ANNUAL, CRIB, TODAY, write_me_plan, write_plan
from builders.scenarios import d

run = CliRunner().invoke


@pytest.fixture
def lg(tmp_path: Path, migrated_sqlite: Callable[[Path], Ledger]) -> Iterator[Ledger]:
    ledger = migrated_sqlite(tmp_path / "tourney-ledger.sqlite")
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


# ------------------------------------------------------------- 3. ME-PRIZES exactly, per game
@pytest.fixture
def me(tmp_path: Path, migrated_sqlite: Callable[[Path], Ledger]) -> Iterator[Ledger]:
    ledger = migrated_sqlite(tmp_path / "me.sqlite")
    api.adopt(ledger, write_me_plan(tmp_path / "plan"), by="ann")
    yield ledger
    ledger.dispose()


def _held(lg: Ledger, ref: str, day: str, fees: str, prizes: str, charity: str) -> None:
    last = "2027-02-21" if ref == "crib#1" else day
    api.record_held(lg, ref, first_day=d(day), last_day=d(last), players=40, entries=40,
                    entry_fees_usd=fees, prizes_usd=prizes, charity_usd=charity, by="ann",
                    today=TODAY)


def test_prizes_of_74_99_percent_are_under_75_and_shown_so(me: Ledger) -> None:
    # 2999.99 / 4000.00 = 74.99975 %: to the cent, rounded down, 74.99 (half up would show
    # 75.00); 299999 < 300000 = under
    _held(me, "holdem#1", "2027-01-16", "4000.00", "2999.99", "0")
    (p,) = funds(me, period="2027-01-16", license_ref=ANNUAL)
    assert p.row()["prizes_pct"] == Decimal("74.99")
    page = funds_html([p])
    assert "74.99 % — under 75 %" in page
    # 3000.00 / 4000.00 = 75 % exactly (February, a period of its own): not under
    _held(me, "holdem#3", "2027-02-13", "4000.00", "3000.00", "0")
    (p,) = funds(me, period="2027-02-13", license_ref=ANNUAL)
    assert str(p.row()["prizes_pct"]) == "75.00"
    assert "under 75 %" not in funds_html([p])


def test_a_game_under_75_marks_its_period_though_the_sum_is_over(me: Ledger) -> None:
    # holdem#1 700/1000 = 70 % (under); holdem#2 7000/9000 = 77.77 %; period 7700/10000 = 77
    _held(me, "holdem#1", "2027-01-16", "1000", "700", "0")
    _held(me, "holdem#2", "2027-01-30", "9000", "7000", "0")
    periods = [p for p in funds(me, license_ref=ANNUAL) if p.row()["games_held"] == 2]
    (p,) = periods
    assert str(p.row()["prizes_pct"]) == "77.00"
    page = funds_html([p])
    assert "77.00 % — under 75 %" in page
    assert ("Hold&#39;em on Sat, Jan 16, 2027 (holdem#1): prizes $700.00 are 70.00 % of entry "
            "fees $1,000.00, under 75 %") in page
    assert "(holdem#2): prizes" not in page


@pytest.mark.parametrize(("charity", "short"), [("449.99", True), ("450.00", False)])
def test_a_super_cribbage_charity_shortfall_is_marked(me: Ledger, charity: str,
                                                      short: bool) -> None:
    # prizes 2700 / 3600 = 75 % (ME-PRIZES met); (3600 - 2700) / 2 = 450.00 to charity
    # required (ME-SUPER-CRIBBAGE): 449.99 is one cent short, 450.00 is enough
    _held(me, "crib#1", "2027-02-20", "3600", "2700", charity)
    (p,) = funds(me, license_ref=CRIB)
    assert p.row()["charity_required_usd"] == Decimal("450.00")
    page = funds_html([p])
    assert ("(crib#1): charity paid $449.99, short of the $450.00 required" in page) is short
    assert ("$450.00 — $449.99 paid, short" in page) is short
    assert "under 75 %" not in page


# --------------------------------------------- 4. a cancelled Maine game needs no application
def test_a_licence_whose_games_are_all_cancelled_needs_no_application(
        me: Ledger, tmp_path: Path) -> None:
    def states(rule: str, licence: str) -> set[str]:
        df = deadlines(tmp_path / "plan", as_of=TODAY, ledger=me)
        return set(df[(df["rule"] == rule) & (df["license_id"] == licence)]["state"])

    # TODAY 2027-12-31 is after every window and report: nothing filed = overdue
    assert states("ME-APPLICATION-WINDOW", CRIB) == {"overdue"}
    api.record_cancelled(me, "crib#1", by="ann")  # the one game CRIB covers
    assert states("ME-APPLICATION-WINDOW", CRIB) == {"not needed"}
    assert states("ME-REPORT", CRIB) == {"overdue"}  # owed also when the game is cancelled
    # ANNUAL covers holdem#1..3: two of three cancelled, the application is still needed
    api.record_cancelled(me, "holdem#1", by="ann")
    api.record_cancelled(me, "holdem#2", by="ann")
    assert states("ME-APPLICATION-WINDOW", ANNUAL) == {"overdue"}
    api.record_cancelled(me, "holdem#3", by="ann")
    assert states("ME-APPLICATION-WINDOW", ANNUAL) == {"not needed"}
    r = run(app, ["deadlines", str(tmp_path / "plan"), "--as-of", "2027-12-31",
                  "--ledger", me.url])
    assert r.exit_code == 1, r.output  # the reports stay overdue
    assert "[not needed]  ME-APPLICATION-WINDOW" in r.output


# ------------------------------------------------------- 5. an occurrence number too large
@pytest.mark.parametrize("ref", ["deep#99999999999999999999", "deep#2147483648"])
def test_an_occurrence_number_too_large_is_refused_clearly(lg: Ledger, ref: str) -> None:
    # 2**31 - 1 = 2147483647 is the largest the column holds; 2147483648 is one more
    r = run(app, ["record", "held", ref, "--first-day", "2026-03-05", "--last-day",
                  "2026-03-07", "--ledger", lg.url])  # days past: the occurrence is judged
    assert r.exit_code == 2, r.output
    assert f"unknown occurrence {ref!r}: no plan numbers an occurrence" in r.output
    assert "internal error" not in r.output
    r = run(app, ["record", "cancelled", "deep#2147483647", "--ledger", lg.url])
    assert r.exit_code == 2, r.output
    assert "unknown occurrence 'deep#2147483647': no adopted plan has it" in r.output
