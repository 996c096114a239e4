"""Text from the ledger and from plan folders on its way to a terminal or a spreadsheet.

- to a terminal: every control character but the line break (ESC of an escape sequence,
  BEL, CR) goes through the one sanitizer (:func:`scheduler.core.limits.for_terminal`), shown as
  ``\\x1b``; a CSV printed into a pipe or a file stays the bytes recorded;
- to a spreadsheet: every CSV writer (``ledger export``, the plan's CSVs, ``funds.csv``)
  writes a cell that starts with ``=``, ``+``, ``-``, ``@``, TAB or CR with a leading ``'``
  (:func:`scheduler.core.text.csv_cells`), and ``ledger import`` reads it back as recorded.

A real SQLite ledger; a real pseudo-terminal for what a person sees.
"""

from __future__ import annotations

import csv
import io
import os
import pty
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.limits import NotText, csv_text, for_terminal
from scheduler.core.text import csv_cells
from scheduler.ledger import Ledger, api

from builders.plans import write_plan

REPO = Path(__file__).resolve().parents[1]
ESC = "\x1b"
TITLE_SET = "\x1b]0;pwned\x07"  # sets the terminal window's title
CLEAR = "\x1b[2J"  # clears the screen
runner = CliRunner()


@pytest.fixture
def ledger_path(tmp_path: Path, migrated_sqlite: Callable[[Path], Ledger]) -> Path:
    path = tmp_path / "ledger.sqlite"
    lg = migrated_sqlite(path)
    plan = write_plan(tmp_path / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    # an organization's name with an escape code is refused at adoption (next test), as a
    # note with one is now; the escape codes a ledger keeps are in who recorded, and in
    # notes of a ledger written before they were checked (or by hand: set here in SQL)
    api.adopt(lg, plan, organization="Big Sky Tour", by=f"ann{TITLE_SET}")
    api.record_cancelled(lg, "deep#1", note="snowed in", by=f"{CLEAR}bob")
    lg.dispose()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE held SET note = ?", (f"snowed in{TITLE_SET}",))
    db.close()
    return path


def test_for_terminal_shows_control_characters_as_escapes_and_keeps_line_breaks() -> None:
    assert for_terminal(f"a{ESC}[31mred\tb\r\nc\x07\u202e") == \
        "a\\x1b[31mred b\\r\nc\\x07\\u202e"
    # a TAB is one space, never a literal backslash-t (psycopg indents its hints with one)
    assert for_terminal("connection refused\n\tIs the server running?") == \
        "connection refused\n Is the server running?"
    assert for_terminal("Café — 10 € ✓") == "Café — 10 € ✓"  # printable: as it is


def test_ledger_commands_print_no_escape_sequence_from_the_ledger(
        ledger_path: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "plan2", deep_first="2026-03-12", deep_last="2026-03-14")
    r = runner.invoke(app, ["ledger", "adopt", str(plan), "--ledger", str(ledger_path),
                            "--organization", f"Big Sky{CLEAR} Tour"])
    assert r.exit_code == 2, r.output  # a name must be one line of printable text
    assert ESC not in r.output
    assert "Big Sky\\x1b[2J Tour" in r.output
    r = runner.invoke(app, ["ledger", "adopt", str(plan), "--ledger", str(ledger_path),
                            "--organization", "Big Sky Tour"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["record", "held", "deep#1", "--first-day", "2026-03-12",
                            "--last-day", "2026-03-14", "--note", TITLE_SET, "--by", CLEAR,
                            "--lineage", "0123456789", "--ledger", str(ledger_path)])
    # refused (deep#1 is recorded cancelled already); who recorded that, shown escaped
    assert r.exit_code == 2 and ESC not in r.output
    assert "by \\x1b[2Jbob at" in r.output


def test_deadlines_print_no_escape_sequence_from_a_plan_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOURNEY_LEDGER", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./tourney-ledger.sqlite: no ledger
    plan = write_plan(tmp_path / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    schedule = plan / "schedule.csv"
    schedule.write_text(schedule.read_text(encoding="utf-8").replace(
        "Deepstack", f"Deep{CLEAR}stack"), encoding="utf-8")
    r = runner.invoke(app, ["deadlines", str(plan), "--as-of", "2026-01-01"])
    assert ESC not in r.output, r.output
    assert "Deep\\x1b[2Jstack" in r.output


def _on_a_terminal(*args: str) -> str:
    """``tourney ARGS`` with standard output on a pseudo-terminal: what a person sees."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "scheduler.cli", *args], cwd=REPO,
                            stdout=child, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(child)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    return seen.decode("utf-8")


def test_ledger_export_shows_escapes_on_a_terminal_and_the_bytes_in_a_pipe(
        ledger_path: Path) -> None:
    seen = _on_a_terminal("ledger", "export", "--ledger", str(ledger_path))
    assert ESC not in seen and "\x07" not in seen
    assert "snowed in\\x1b]0;pwned\\x07" in seen
    piped = subprocess.run([sys.executable, "-m", "scheduler.cli", "ledger", "export",
                            "--ledger", str(ledger_path)], cwd=REPO, capture_output=True,
                           timeout=120)
    assert piped.returncode == 0, piped.stderr
    rows = list(csv.DictReader(io.StringIO(piped.stdout.decode("utf-8"), newline="")))
    held = [r for r in rows if r["table"] == "held"]
    assert held[0]["note"] == f"snowed in{TITLE_SET}"  # the data, as recorded


def test_every_csv_writer_neutralises_formula_cells_through_one_helper() -> None:
    for text in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"):
        assert csv_cells(text) == "'" + text
    assert csv_cells("snowed in") == "snowed in"
    assert csv_cells(-1) == -1  # a number is a number, not a formula


def test_ledger_export_writes_formula_cells_with_a_quote_and_import_reads_them_back(
        tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    lg = Ledger(path)
    api.init(lg)
    plan = write_plan(tmp_path / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    api.adopt(lg, plan, organization="@Tour", by="ann")
    formula = '=HYPERLINK("http://evil.example","refund")'
    api.record_cancelled(lg, "deep#1", note=formula, by="+bob")
    lg.dispose()
    out = tmp_path / "export.csv"
    r = runner.invoke(app, ["ledger", "export", "--out", str(out), "--ledger", str(path)])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    held = next(r for r in rows if r["table"] == "held")
    org = next(r for r in rows if r["table"] == "organizations")
    assert held["note"] == "'" + formula and held["recorded_by"] == "'+bob"
    assert org["name"] == "'@Tour"
    again = tmp_path / "again.sqlite"
    r = runner.invoke(app, ["ledger", "init", "--ledger", str(again)])
    r = runner.invoke(app, ["ledger", "import", str(out), "--ledger", str(again)])
    assert r.exit_code == 0, r.output
    lg = Ledger(again)
    try:
        back = lg.held()
        assert list(back["note"]) == [formula] and list(back["recorded_by"]) == ["+bob"]
    finally:
        lg.dispose()


def _cafe_tour_exported(tmp_path: Path, note: str | None = None) -> tuple[Path, Path]:
    """A SQLite ledger with a plan adopted by "Café Tour" (and deep#1 cancelled with
    ``note`` when given), and its `ledger export` CSV: (ledger, export)."""
    path = tmp_path / "ledger.sqlite"
    lg = Ledger(path)
    api.init(lg)
    plan = write_plan(tmp_path / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    api.adopt(lg, plan, organization="Café Tour", by="ann")
    if note is not None:
        api.record_cancelled(lg, "deep#1", note=note, by="bob")
    lg.dispose()
    out = tmp_path / "export.csv"
    r = runner.invoke(app, ["ledger", "export", "--out", str(out), "--ledger", str(path)])
    assert r.exit_code == 0, r.output
    return path, out


def test_ledger_import_reads_a_csv_saved_by_excel_on_windows(tmp_path: Path) -> None:
    # Excel on Windows saves "CSV (Comma delimited)" in Windows-1252: the dash of
    # "snowed in — roads shut" is the one byte 0x97 there (E2 80 94 in UTF-8)
    path, out = _cafe_tour_exported(tmp_path, note="snowed in — roads shut")
    windows = tmp_path / "windows.csv"
    windows.write_bytes(out.read_text(encoding="utf-8").encode("cp1252"))
    assert b"in \x97 roads" in windows.read_bytes() and b"Caf\xe9" in windows.read_bytes()
    again = tmp_path / "again.sqlite"
    runner.invoke(app, ["ledger", "init", "--ledger", str(again)])
    r = runner.invoke(app, ["ledger", "import", str(windows), "--ledger", str(again)])
    assert r.exit_code == 0, r.output
    lg = Ledger(again)
    try:
        assert list(lg.held()["note"]) == ["snowed in — roads shut"]
    finally:
        lg.dispose()
    # 0x81 is one of the five bytes Windows-1252 leaves out: not text in either encoding
    windows.write_bytes(windows.read_bytes().replace(b"\x97", b"\x81"))
    r = runner.invoke(app, ["ledger", "import", str(windows), "--ledger", str(again)])
    assert r.exit_code == 2
    assert (f"cannot read {windows}: it is not a text file (neither UTF-8 nor "
            "Windows-1252)") in " ".join(r.output.split())


def test_csv_text_reads_what_spreadsheets_save() -> None:
    # "café — ok": é is C3 A9 and — E2 80 94 in UTF-8; E9 and 97 in Windows-1252
    assert csv_text(b"caf\xc3\xa9 \xe2\x80\x94 ok") == "café — ok"
    assert csv_text(b"\xef\xbb\xbfcaf\xc3\xa9") == "\ufeffcafé"  # BOM kept for the caller
    assert csv_text(b"caf\xe9 \x97 ok") == "café — ok"                # Windows-1252
    assert csv_text("café — ok".encode("utf-16")) == "café — ok"       # with its BOM
    # UTF-8 on line 1, one Windows-1252 byte (0x97) on line 3: decoding it all as
    # Windows-1252 would turn line 1's é into "Ã©"; refused, naming line 3 and the byte
    with pytest.raises(NotText, match=r"^line 3 is not UTF-8 \(byte 0x97\) though the "
                       r"rest of the file is: save it from the spreadsheet as \"CSV UTF-8\"$"):
        csv_text(b"caf\xc3\xa9\nok\nsnow \x97 ice\n")
    # 0x81 is one of the five bytes Windows-1252 leaves out; b"\xff\xfe" and one byte is
    # UTF-16's mark and half a character
    for data in (b"\x81", b"\xff\xfeA"):
        with pytest.raises(NotText, match=r"^it is not a text file \(neither UTF-8 nor "
                           r"Windows-1252\): save it from the spreadsheet as \"CSV UTF-8\"$"):
            csv_text(data)


def test_ledger_import_refuses_a_csv_mixing_utf8_and_windows_1252(tmp_path: Path) -> None:
    path, out = _cafe_tour_exported(tmp_path)
    lines = out.read_bytes().split(b"\n")
    lines.append(b"held,x,2027-01-01,snow \x97 ice")  # a line pasted from a Windows file
    mixed = tmp_path / "mixed.csv"
    mixed.write_bytes(b"\n".join(lines))
    r = runner.invoke(app, ["ledger", "import", str(mixed), "--ledger", str(path)])
    assert r.exit_code == 2
    assert (f"cannot read {mixed}: line {len(lines):,} is not UTF-8 (byte 0x97) though the "
            "rest of the file is") in " ".join(r.output.split())


def test_ledger_export_to_a_workbook_shows_a_kept_control_character_as_its_escape(
        ledger_path: Path, tmp_path: Path) -> None:
    # the fixture's note "snowed in" + ESC ] 0 ; pwned BEL (kept from before notes were
    # checked): a workbook cell (XML) cannot hold ESC or BEL, so they are shown as escapes
    import openpyxl

    out = tmp_path / "ledger.xlsx"
    r = runner.invoke(app, ["ledger", "export", "--out", str(out), "--ledger", str(ledger_path)])
    assert r.exit_code == 0, r.output
    ws = openpyxl.load_workbook(out)["Held"]
    notes = [c.value for c in next(ws.iter_cols(
        min_col=[h.value for h in ws[1]].index("note") + 1, min_row=2))]
    assert notes == ["snowed in\\x1b]0;pwned\\x07"]
