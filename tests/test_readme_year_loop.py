"""The README's year loop runs as written (issue #22, "Done when"): the ```sh block under
"## The year's loop" of README.md, each command as it is there, in a folder holding the
README's own YAML example as ``my-year.yaml``; the default ledger ``./tourney-ledger.sqlite``
of that folder; ``publish`` to a real Radicale in place of https://cal.example.org/dav/.

The YAML example (Big Sky Casino, MT): Spring Deepstack, 4 Fridays, 21 days apart, 3 days
each (12:00 for 14 h a day, so play ends at 02:00 on the 4th calendar day), notice_from
2026-12-20. By hand: MT-NOTICE (MCA 23-5-317(1)(d)) allows a first day from 2026-12-20 + 5
= Fri Dec 25, before the horizon (2027-01-01): the first Friday is Fri 2027-01-01, then
+21 days: Jan 22, Feb 12, Mar 5. #1 is held Jan 1-4; #2 (Jan 22) is cancelled; re-planned
as of 2027-03-01, #2 is not placed again and a 4th Friday is found after Mar 1 + 5 days.
"""

from __future__ import annotations

import csv
import re
import shlex
from pathlib import Path

import icalendar
import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.caldav.server import PASSWORD_ENV

from builders.caldav import Server, calendar_of

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLE_URL, EXAMPLE_USER = "https://cal.example.org/dav/", "alice"


def _block(heading: str, lang: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    found = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert found, f"no ```{lang} block under {heading}"
    return found.group(1)


def readme_commands() -> list[list[str]]:
    """The year's loop as argument lists (``tourney`` dropped): continuation lines joined,
    comments dropped, ``a && b`` as two commands."""
    text = _block("## The year's loop", "sh").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)  # a comment, as sh reads one (not a#1)
        for part in line.split("&&"):
            words = shlex.split(part)
            if words:
                assert words[0] == "tourney", line
                out.append(words[1:])
    return out


def test_the_block_is_about_ten_commands() -> None:
    cmds = readme_commands()
    assert 8 <= len(cmds) <= 14
    # every command whose answer depends on the day is given one
    for words in cmds:
        if words[0] in ("solve", "deadlines", "publish", "check") or words[:2] in (
                ["record", "filed"], ["record", "held"]):
            assert "--as-of" in words, words


def csv_rows(folder: Path) -> list[tuple[str, str, str]]:
    with (folder / "schedule.csv").open(encoding="utf-8") as f:
        return [(r["occurrence"], r["first_day"], r["status"]) for r in csv.DictReader(f)]


def test_the_readme_year_loop_runs_as_written(tmp_path: Path, server: Server,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOURNEY_LEDGER", raising=False)
    (tmp_path / "my-year.yaml").write_text(_block("## A first plan", "yaml"), encoding="utf-8")
    runner = CliRunner()
    monkeypatch.setenv(PASSWORD_ENV, server.password)
    for words in readme_commands():
        if words[0] == "publish":  # the only substitution: a local calendar server
            words = [server.url if w == EXAMPLE_URL else
                     server.user if w == EXAMPLE_USER else w for w in words]
        res = runner.invoke(app, words)
        assert res.exit_code == 0, f"tourney {' '.join(words)}:\n{res.output}"
        assert "Traceback" not in res.output and "warning" not in res.stderr, res.output
    # plan-v1: Fridays Jan 1, Jan 22, Feb 12, Mar 5 (by hand, above)
    assert csv_rows(tmp_path / "plan-v1") == [
        ("1", "2027-01-01", "new"), ("2", "2027-01-22", "new"),
        ("3", "2027-02-12", "new"), ("4", "2027-03-05", "new")]
    v2 = csv_rows(tmp_path / "plan-v2")
    # #1 held as recorded; the cancelled Jan 22 is not back; Feb 12 (passed, not
    # recorded) and Mar 5 (notice due Feb 28, before Mar 1) stay pinned; the 4th is new,
    # on or after Mar 1 + 5 = Sat Mar 6, a Friday: Mar 12 at the earliest
    assert v2[0] == ("1", "2027-01-01", "held")
    assert "2027-01-22" not in {day for _, day, _ in v2}
    assert [(day, st) for _, day, st in v2[1:3]] == [("2027-02-12", "filed"),
                                                     ("2027-03-05", "filed")]
    assert v2[3][2] == "new" and v2[3][1] >= "2027-03-12"
    # the server holds the cancellation, as plan-v2's calendar does
    ev = {str(o.icalendar_component["UID"]): o.icalendar_component
          for o in calendar_of(server, "big-sky").search(event=True)}
    want = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(
        (tmp_path / "plan-v2" / "calendars" / "big-sky.ics").read_bytes()).walk("VEVENT")}
    assert set(ev) == set(want)
    cancelled = [u for u, e in ev.items() if str(e.get("STATUS", "")) == "CANCELLED"]
    assert any(u.startswith("spring-deepstack-2@") for u in cancelled), cancelled
