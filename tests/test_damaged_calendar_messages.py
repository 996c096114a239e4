"""`tourney check` of a damaged .ics file says what is wrong with it, in one line (exit 2):

- cut short (no END:VCALENDAR): "ends at line N before END:VCALENDAR ... (truncated?)",
  not "has no events";
- a NUL byte: "holds a NUL byte", not "should start with BEGIN:VCALENDAR";
- UTF-16 (with or without a byte order mark): "is UTF-16 text, not UTF-8", not "more than
  1,000 properties"; bytes that are not UTF-8 (Windows-1252): the byte and its offset.

RFC 5545 §3.1.4: an iCalendar file is UTF-8. Each file is written here, byte by byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app

from builders.commands import tiny_scenario

runner = CliRunner()
WHOLE = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hand//EN\r\nBEGIN:VEVENT\r\n"
         "UID:a@example.org\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270110T190000\r\n"
         "DTEND:20270110T230000\r\nSUMMARY:Café night\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def _check(tmp_path: Path, data: bytes) -> str:
    ics = tmp_path / "cal.ics"
    ics.write_bytes(data)
    res = runner.invoke(app, ["check", str(tiny_scenario(tmp_path)), str(ics)])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1
    return res.output.strip().removeprefix(f"tourney: {ics}: ")


def test_a_calendar_cut_short_says_it_ends_before_end_vcalendar(tmp_path: Path) -> None:
    # cut after line 7 (DTSTART): 7 lines, the last one not END:VCALENDAR
    cut = "".join(WHOLE.splitlines(keepends=True)[:7]).encode("utf-8")
    assert _check(tmp_path, cut) == ("ends at line 7 before END:VCALENDAR: the file is cut "
                                     "short (truncated?); copy or export it again")


def test_a_nul_byte_says_it_is_not_a_text_file(tmp_path: Path) -> None:
    data = WHOLE.encode("utf-8")
    at = data.index(b"SUMMARY")  # on line 9: 8 line breaks before it
    damaged = data[:at] + b"\x00" + data[at:]
    assert _check(tmp_path, damaged) == (f"line 9: holds a NUL byte (offset {at:,}): not a "
                                         "text file (damaged, or not an iCalendar file)")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_calendar_is_named_as_utf16_not_as_too_many_properties(
        tmp_path: Path, encoding: str) -> None:
    message = _check(tmp_path, WHOLE.encode(encoding))  # "utf-16": with a byte order mark
    assert message.startswith("is UTF-16 text"), message
    assert message.endswith("not UTF-8: an iCalendar file is UTF-8 (RFC 5545); save it "
                            "again as UTF-8")


def test_a_windows_1252_calendar_names_the_byte_that_is_not_utf8(tmp_path: Path) -> None:
    data = WHOLE.encode("cp1252")  # é is 0xE9, alone: not UTF-8
    at = data.index(b"\xe9")
    assert _check(tmp_path, data) == (
        f"line 9: byte 0xE9 (offset {at:,}) is not UTF-8: an iCalendar file is UTF-8 "
        "(RFC 5545); save it again as UTF-8 (it may be Windows-1252 or Latin-1)")
