"""Hostile input read within bounds (issue 17 parts 1, 2 and 5, after a tester's review):
rules that never match, calendars of a million dates, aliases of long strings, time zones that are
folders, sweeps of billions of variants, forged event kinds, format characters, CSV cells of
``check``, messages.

Every test that parses something built to take memory or time (rules that never match, a
million dates, aliases of long text, billions of variants, a device or a FIFO) runs
``tourney`` in a child process under a memory limit and a timeout (:func:`bounded_run`), so a
regression fails fast instead of hanging CI; a wrong value refused with a message (a time
zone, a forged kind, a format character, a formula in a name) runs in this process
(:func:`in_process`). Calendar facts (2027): Jan 1 is a Friday; Jan 6 is a Wednesday.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from builders.commands import room_large, room_scenario, tourney

ROOT = Path(__file__).resolve().parent.parent
TOURNEY = [sys.executable, "-c", "from scheduler.cli import main; main()"]
MEMORY_LIMIT = 1536 * 1024 * 1024  # 1.5 GB of address space
TIMEOUT = 60.0  # seconds; each input below takes well under 10 s once fixed


def _limit_memory() -> None:  # runs in the child before exec
    import resource  # only the child needs it, before exec

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def bounded_run(args: list[str], cwd: Path, timeout: float = TIMEOUT,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in a child limited to :data:`MEMORY_LIMIT` bytes and ``timeout``
    seconds (a hang fails the test with TimeoutExpired, never hangs CI)."""
    return subprocess.run([*TOURNEY, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limit_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def in_process(args: list[str], cwd: Path, timeout: float = TIMEOUT
               ) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in this process, in folder ``cwd`` (:func:`builders.commands.tourney`),
    for an input that takes neither memory nor time; ``timeout`` as :func:`bounded_run`'s,
    checked after the run."""
    start = time.monotonic()
    res = tourney(*args, cwd=cwd)
    assert time.monotonic() - start < timeout
    return res


def write_yaml(folder: Path, data: Any, name: str = "scenario.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    return path


def calendar(folder: Path, events: list[str], name: str = "cal.ics") -> Path:
    """A calendar file of ``events`` (each the lines between BEGIN:VEVENT and END:VEVENT)."""
    body = "".join(f"BEGIN:VEVENT\r\n{ev}END:VEVENT\r\n" for ev in events)
    path = folder / name
    path.write_bytes(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\n" + body
                      + "END:VCALENDAR\r\n").encode())
    return path


def never_event(i: int, freq: str = "MINUTELY") -> str:
    """A recurring event whose rule never matches (February has no 30th)."""
    return (f"UID:x{i}@y\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:Occ\r\n"
            "DTSTART:20270106T190000Z\r\nDTEND:20270106T230000Z\r\n"
            f"RRULE:FREQ={freq};BYMONTH=2;BYMONTHDAY=30\r\n")


# ------------------------------------------------------------- 1. rules that never match
class TestRuleThatNeverMatches:
    """dateutil walks such a rule to the year 9999 yielding nothing (27 s an event before):
    the walk is bounded by date (the window's end) and, per file, by 24,000 months without an
    instance (MAX_RULE_EMPTY_MONTHS)."""

    def test_check_minutely_and_daily(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        calendar(tmp_path, [never_event(i) for i in range(4)]
                 + [never_event(i + 4, "DAILY") for i in range(4)])
        # window: horizon 2027 and a year either side, to 2028-12-31: from DTSTART
        # (2027-01) about 24 months per rule, 8 rules: well under a second of walking
        res = bounded_run(["check", sc.name, "cal.ics"], tmp_path, timeout=30)
        assert res.returncode in (1, 2), res.stderr
        assert "internal error" not in res.stderr

    def test_previous_budget_of_empty_months(self, tmp_path: Path) -> None:
        # --previous reads the years 1900-2199: from 2027-01 to 2200-01 is 173 * 12 = 2,076
        # months (+3) per rule; 30 rules would walk 62,000 months without an instance, more
        # than 24,000 (the 12th rule runs out): refused with exit 2, in bounded time
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        calendar(tmp_path, [never_event(i) for i in range(30)])
        res = bounded_run(["solve", sc.name, "--previous", "cal.ics", "-o", "plan",
                           "--deterministic-time", "0.5"], tmp_path, timeout=40)
        assert res.returncode == 2, res.stderr
        assert "without finding an instance" in res.stderr
        assert "BYMONTH=2;BYMONTHDAY=30" in res.stderr

    def test_previous_few_rules_read(self, tmp_path: Path) -> None:
        # 4 rules: 4 * 2,079 = 8,316 months, within the budget; the plan is written
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        calendar(tmp_path, [never_event(i) for i in range(4)])
        res = bounded_run(["solve", sc.name, "--previous", "cal.ics", "-o", "plan",
                           "--deterministic-time", "0.5"], tmp_path, timeout=40)
        assert res.returncode in (0, 1), res.stderr
        assert (tmp_path / "plan" / "schedule.csv").is_file()


# ------------------------------------------------- 2. calendars of very many dates
class TestCalendarCountedBeforeParsing:
    """icalendar parses about 4 s a megabyte: a 29.7 MB file of 1.1 million RDATE lines took
    more than a minute. Dates and properties are counted on the raw lines first."""

    def test_million_rdate_lines_refused_fast(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        head = ("UID:x@y\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:Occ\r\n"
                "DTSTART;VALUE=DATE:20270106\r\nDTEND;VALUE=DATE:20270107\r\n")
        # 1,000,000 lines of 26 bytes: 26 MB, under the 64 MB size limit
        calendar(tmp_path, [head + "RDATE;VALUE=DATE:20270106\r\n" * 1_000_000])
        res = bounded_run(["check", sc.name, "cal.ics"], tmp_path, timeout=30)
        assert res.returncode == 2, res.stderr
        # the 1,001st property of the event: lines 1-3 the calendar's, 4 BEGIN:VEVENT, 5
        # properties of head, then the 996th RDATE is the event's 1,001st property, on line
        # 4 + 1,001 = 1,005
        assert "line 1,005: one component" in res.stderr
        assert "more than 1,000 properties" in res.stderr

    def test_dates_counted_across_commas(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        head = ("UID:x{}@y\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:Occ\r\n"
                "DTSTART;VALUE=DATE:20270106\r\nDTEND;VALUE=DATE:20270107\r\n")
        # 3 events, each EXDATE of 7,000 values: 21,000 > 20,000, refused on the third
        # event's EXDATE line: 3 calendar lines + 3 * (BEGIN + 5 + 1 + END) - 1 = 26
        values = ",".join(["20270106"] * 7_000)
        calendar(tmp_path, [head.format(i) + f"EXDATE;VALUE=DATE:{values}\r\n"
                            for i in range(3)])
        res = bounded_run(["check", sc.name, "cal.ics"], tmp_path, timeout=30)
        assert res.returncode == 2, res.stderr
        assert "line 26: the calendar lists more than 20,000 dates" in res.stderr

    def test_at_the_limit_read(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        head = ("UID:x{}@y\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:Occ\r\n"
                "DTSTART;VALUE=DATE:20270106\r\nDTEND;VALUE=DATE:20270107\r\n")
        # 2 events of 10,000 EXDATE values each: exactly 20,000, read (exit 0 or 1)
        values = ",".join(["20270106"] * 10_000)
        calendar(tmp_path, [head.format(i) + f"EXDATE;VALUE=DATE:{values}\r\n"
                            for i in range(2)])
        res = bounded_run(["check", sc.name, "cal.ics"], tmp_path, timeout=30)
        assert res.returncode in (0, 1), res.stderr


# ------------------------------------------------------ 3. aliases of long strings
class TestAliasesOfLongText:
    """Aliases were counted as nodes only: one long string aliased many times passed the
    node count (each alias is one node) and expanded to gigabytes of text."""

    def test_long_string_aliased_in_scenario(self, tmp_path: Path) -> None:
        # 200,000 characters aliased 20,000 times: 4,000,000,000 characters (4 GB) of text
        # repeated from a file of about 300 KB; at most 1,000,000 may be repeated
        (tmp_path / "s.yaml").write_text(
            'name: &s "' + "x" * 200_000 + '"\nbeneficiaries: [' + ", ".join(["*s"] * 20_000)
            + "]\n", encoding="utf-8")
        res = bounded_run(["solve", "s.yaml", "-o", "plan"], tmp_path, timeout=30)
        assert res.returncode == 2, res.stderr
        # 20,000 aliases * 200,000 characters = 4,000,000,000 repeated
        assert "aliases (*name) repeat 4,000,000,000 characters" in res.stderr
        assert "at most 1,000,000" in res.stderr

    def test_long_variant_name_aliased_in_vary_file(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        # 300,000 characters aliased by 10 variants: 3,000,000 > 1,000,000
        (tmp_path / "vary.yaml").write_text(
            'v: &v "' + "z" * 300_000 + '"\nvariants:\n' + "".join(
                f"  - {{name: *v, set: {{tournaments.night.priority: {i}}}}}\n"
                for i in range(1, 11)), encoding="utf-8")
        res = bounded_run(["sweep", sc.name, "--vary", "vary.yaml", "-o", "sweep.csv"],
                          tmp_path, timeout=30)
        assert res.returncode == 2, res.stderr
        assert "aliases (*name) repeat 3,000,000 characters" in res.stderr

    def test_small_aliases_still_read(self, tmp_path: Path) -> None:
        # one alias of an 11-character title ("night title"): 11 characters repeated, allowed
        data = room_scenario([room_large("night"), room_large("day")])
        text = yaml.safe_dump(data, sort_keys=False).replace(
            "title: night title", "title: &t night title").replace("title: day title",
                                                                     "title: *t")
        (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
        res = in_process(["solve", "s.yaml", "-o", "plan", "--deterministic-time", "0.5"],
                         tmp_path, timeout=60)
        assert res.returncode in (0, 1), res.stderr


# --------------------------------------------------------- 4. time zones that are folders
class TestTimeZoneNames:
    """zoneinfo opens a file named by the zone's key: "America" is a folder of the zone
    database (IsADirectoryError) and a 300-character key is too long for a file name
    (OSError): both were exit 3 and showed the path of the installation."""

    def test_folder_and_long_name_in_scenario(self, tmp_path: Path) -> None:
        for tz in ("America", "A" * 300):
            data = room_scenario([room_large("night")])
            data["operators"][0]["timezone"] = tz
            write_yaml(tmp_path, data)
            res = in_process(["solve", "scenario.yaml", "-o", "plan"], tmp_path)
            assert res.returncode == 2, res.stderr
            assert "operators[0].timezone" in res.stderr
            assert "unknown IANA time zone" in res.stderr
            assert "site-packages" not in res.stderr and "Errno" not in res.stderr

    def test_folder_in_sweep_variant(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        write_yaml(tmp_path, {"variants": [{"name": "tz", "set": {
            "operators.room.timezone": "America"}}]}, "vary.yaml")
        res = in_process(["sweep", sc.name, "--vary", "vary.yaml", "-o", "sweep.csv"],
                         tmp_path)
        assert res.returncode == 2, res.stderr
        assert "unknown IANA time zone 'America'" in res.stderr

    def test_tzid_folder_in_calendar(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        # line 8: VCALENDAR, VERSION, PRODID, BEGIN:VEVENT, UID, DTSTAMP, SUMMARY, DTSTART
        calendar(tmp_path, ["UID:x@y\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:night title\r\n"
                            "DTSTART;TZID=America:20270102T120000\r\n"
                            "DTEND;TZID=America:20270102T220000\r\n"])
        for args in (["check", sc.name, "cal.ics"],
                     ["solve", sc.name, "--previous", "cal.ics", "-o", "plan"]):
            res = in_process(args, tmp_path)
            assert res.returncode == 2, res.stderr
            assert "line 8: TZID='America' is not a known time zone" in res.stderr
            assert "BEGIN:VCALENDAR" not in res.stderr and "site-packages" not in res.stderr


# --------------------------------------------------------- 5. --max-variants has a ceiling
def test_max_variants_has_a_ceiling(tmp_path: Path) -> None:
    # a grid of 10 keys of 10 values: 10**10 variants; --max-variants 10,000,000,000 used to
    # let it build until MemoryError (3 GB); the option's ceiling is 100,000
    sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
    grid = {f"tournaments.x{k}.count": list(range(1, 11)) for k in range(10)}
    write_yaml(tmp_path, {"grid": grid}, "vary.yaml")
    res = bounded_run(["sweep", sc.name, "--vary", "vary.yaml", "--max-variants",
                       "10000000000", "-o", "sweep.csv"], tmp_path, timeout=30)
    assert res.returncode == 2, res.stderr
    assert "--max-variants" in res.stderr and "100000" in res.stderr
    assert "Traceback" not in res.stderr
    # at the ceiling the grid is counted and refused, before any variant is built
    res = bounded_run(["sweep", sc.name, "--vary", "vary.yaml", "--max-variants", "100000",
                       "-o", "sweep.csv"], tmp_path, timeout=30)
    assert res.returncode == 2, res.stderr
    assert "makes 10,000,000,000 variants" in res.stderr


# ------------------------------------------------- 6. a game dressed as a deadline
def solve_into(tmp_path: Path, data: dict[str, Any]) -> Path:
    """Solve ``data`` into ``tmp_path/plan`` (a small scenario: in process)."""
    from typer.testing import CliRunner  # only the tests that solve in process need it

    from scheduler.cli import app  # the CLI in process: a small, trusted scenario

    sc = write_yaml(tmp_path, data)
    res = CliRunner().invoke(app, ["solve", str(sc), "-o", str(tmp_path / "plan"),
                                   "--deterministic-time", "1"])
    assert res.exit_code == 0, res.output
    return tmp_path / "plan"


def saturday_game(tmp_path: Path) -> bytes:
    """The calendar of a plan of one required Saturday-only tournament in January 2027."""
    t = room_large("night", weekdays=["sat"], window={"start": "2027-01-01", "end": "2027-01-31"},
              required=1)
    return (solve_into(tmp_path, room_scenario([t])) / "calendar.ics").read_bytes()


def edit_game(ics: bytes, edit: Any) -> bytes:
    """``ics`` with its one game (X-TOURNEY-KIND occurrence) passed through ``edit`` (an
    icalendar event, changed in place)."""
    from icalendar import Calendar  # parsing a trusted calendar the test wrote

    cal = Calendar.from_ical(ics)
    [ev] = [e for e in cal.walk("VEVENT") if e.get("X-TOURNEY-KIND") == "occurrence"]
    edit(ev)
    return bytes(cal.to_ical())


class TestForgedKind:
    """X-TOURNEY-KIND:notice on a game made check list it as "not checked" and exit 0 though
    it had moved from its Saturday to Tuesday Jan 5, 2027."""

    @staticmethod
    def move_and_forge(ev: Any, drop: tuple[str, ...] = (), uid: str | None = None) -> None:
        import datetime as dt  # dates of the edit

        del ev["DTSTART"], ev["DTEND"]
        ev.add("dtstart", dt.date(2027, 1, 5))  # Tuesday
        ev.add("dtend", dt.date(2027, 1, 6))
        ev["X-TOURNEY-KIND"] = "notice"
        for name in drop:
            del ev[name]
        if uid is not None:
            ev["UID"] = uid

    def check(self, tmp_path: Path, ics: bytes) -> subprocess.CompletedProcess[str]:
        (tmp_path / "edited.ics").write_bytes(ics)
        return in_process(["check", "scenario.yaml", "edited.ics"], tmp_path)

    def test_with_play_times(self, tmp_path: Path) -> None:
        ics = edit_game(saturday_game(tmp_path), self.move_and_forge)
        res = self.check(tmp_path, ics)
        assert res.returncode == 1, res.stderr
        assert "WEEKDAYS" in res.stdout  # the move is caught
        assert "says X-TOURNEY-KIND notice, but it has X-TOURNEY-PLAY" in res.stderr

    def test_with_a_game_uid(self, tmp_path: Path) -> None:
        ics = edit_game(saturday_game(tmp_path),
                        lambda ev: self.move_and_forge(ev, ("X-TOURNEY-PLAY",)))
        res = self.check(tmp_path, ics)
        assert res.returncode == 1, res.stderr
        assert "WEEKDAYS" in res.stdout
        assert "its UID is that of a game (occurrence of night)" in res.stderr

    def test_without_deadline_property(self, tmp_path: Path) -> None:
        ics = edit_game(saturday_game(tmp_path),
                        lambda ev: self.move_and_forge(ev, ("X-TOURNEY-PLAY",), "hand@made"))
        res = self.check(tmp_path, ics)
        assert res.returncode == 1, res.stderr
        assert "WEEKDAYS" in res.stdout  # matched by X-TOURNEY-TOURNAMENT night
        assert "it has no X-TOURNEY-DEADLINE" in res.stderr

    def test_genuine_notices_still_not_checked(self, tmp_path: Path) -> None:
        ics = saturday_game(tmp_path)
        res = self.check(tmp_path, ics)
        assert res.returncode == 0, res.stderr
        assert "says X-TOURNEY-KIND" not in res.stderr

    def test_cancelled_game_is_not_placed(self, tmp_path: Path) -> None:
        # the one required occurrence cancelled: 0 placed, 1 required
        ics = edit_game(saturday_game(tmp_path),
                        lambda ev: ev.add("status", "CANCELLED"))
        res = self.check(tmp_path, ics)
        assert res.returncode == 1, res.stderr + res.stdout
        assert "cancelled (STATUS:CANCELLED)" in res.stdout + res.stderr
        assert "night must be placed 1 times (required) but is placed 0 times" in res.stdout


# ------------------------------------------------- 7. a property written twice
def test_two_kinds_named_and_not_matched(tmp_path: Path) -> None:
    # used to print "[vunknown(b'occurrence'), vunknown(b'notice')]"
    ics = saturday_game(tmp_path).replace(
        b"X-TOURNEY-KIND:occurrence\r\n", b"X-TOURNEY-KIND:occurrence\r\nX-TOURNEY-KIND:notice\r\n")
    (tmp_path / "edited.ics").write_bytes(ics)
    res = in_process(["check", "scenario.yaml", "edited.ics"], tmp_path)
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "two X-TOURNEY-KIND values (occurrence, notice): not checked" in out
    assert "vunknown" not in out and "b'" not in out
    # the game not read: the required occurrence is missing
    assert "night must be placed 1 times (required) but is placed 0 times" in res.stdout


# ------------------------------------------------- 8. invisible format characters
class TestFormatCharacters:
    """U+202E shows a title backwards, U+200B and U+FEFF make two names look alike: all were
    accepted and written raw into every output."""

    @staticmethod
    def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
        from scheduler.core.problems import ScenarioError
        from scheduler.inputs.load import load_scenario  # the loader in process

        try:
            load_scenario(data)
        except ScenarioError as err:
            return [(p.path, p.message) for p in err.problems]
        return []

    def test_refused_in_titles_and_names(self) -> None:
        for ch, code in (("\u202e", "U+202E"), ("\u200b", "U+200B"), ("\ufeff", "U+FEFF")):
            data = room_scenario([room_large("night", title=f"Night{ch}Game")])
            data["operators"][0]["name"] = f"{ch}Room"
            data["name"] = f"plan{ch}"
            found = dict(self.problems(data))
            # "Night" is 5 characters: the format character is the 6th
            assert f"({code}) at position 6" in found["tournaments[0].title"]
            assert f"({code}) at position 1" in found["operators[0].name"]
            assert f"({code}) at position 5" in found["name"]  # "plan" + 1

    def test_empty_and_blank_titles_refused(self) -> None:
        for title in ("", "   "):
            found = dict(self.problems(room_scenario([room_large("night", title=title)])))
            assert "is empty" in found["tournaments[0].title"]

    def test_joiner_inside_an_emoji_allowed(self) -> None:
        # the rainbow flag: U+1F3F3 (So), U+FE0F (Mn), U+200D (ZWJ), U+1F308 (So)
        flag = "\U0001f3f3\ufe0f\u200d\U0001f308"
        assert self.problems(room_scenario([room_large("night", title=f"Pride {flag} night")])) \
            == []
        # a joiner between two letters hides nothing useful: refused
        found = dict(self.problems(room_scenario([room_large("night", title="ni\u200dght")])))
        assert "(U+200D) at position 3" in found["tournaments[0].title"]

    def test_refused_in_variant_names(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        write_yaml(tmp_path, {"variants": [
            {"name": "a\u202eb", "set": {"tournaments.night.priority": 2}},
            {"name": " ", "set": {"tournaments.night.priority": 3}}]}, "vary.yaml")
        res = in_process(["sweep", sc.name, "--vary", "vary.yaml", "-o", "sweep.csv"],
                         tmp_path)
        assert res.returncode == 2, res.stderr
        assert "invisible format character '\\u202e' (U+202E)" in res.stderr
        assert "is empty" in res.stderr


# ------------------------------------------------- 9. check --format csv is spreadsheet-safe
def test_check_csv_cells_are_spreadsheet_safe(tmp_path: Path) -> None:
    # a calendar named like a formula: its name starts the message cells of unmatched
    # events; every cell starting with = + - @ gets a leading ' (as schedule.csv)
    import csv  # reading the output back
    import io

    sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
    name = '=HYPERLINK("http:evil";"x").ics'
    calendar(tmp_path, ["UID:hand@made\r\nDTSTAMP:20261220T000000Z\r\nSUMMARY:other\r\n"
                        "DTSTART;VALUE=DATE:20270102\r\nDTEND;VALUE=DATE:20270103\r\n"], name)
    res = in_process(["check", sc.name, name, "--format", "csv"], tmp_path)
    assert res.returncode == 1, res.stderr
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    unmatched = [r for r in rows if r["rule"] == "UNMATCHED"]
    assert unmatched and all(r["message"].startswith("'=HYPERLINK(") for r in unmatched)
    assert not any(v[:1] in ("=", "+", "-", "@") for r in rows for v in r.values())


# ------------------------------------------------- 10. messages
class TestMessages:
    def test_previous_not_a_regular_file(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        os.mkfifo(tmp_path / "fifo")
        for target in ("/dev/zero", "fifo"):
            res = bounded_run(["solve", sc.name, "--previous", target, "-o", "plan"],
                              tmp_path, timeout=30)
            assert res.returncode == 2, res.stderr
            assert "not a regular file" in res.stderr and "no such file" not in res.stderr

    def test_previous_yaml_is_not_a_plan(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        # a YAML file whose 5th line has more commas than the first: pandas' "Error
        # tokenizing data ... Expected 2 fields in line 5, saw 4" with a newline, before
        (tmp_path / "small.yaml").write_text("a: 1, 2\nb: 2\nc: 3\nd: 4\ne: [1, 2, 3, 4]\n",
                                             encoding="utf-8")
        res = in_process(["solve", sc.name, "--previous", "small.yaml", "-o", "plan"],
                         tmp_path, timeout=30)
        assert res.returncode == 2, res.stderr
        assert "small.yaml: not a plan folder, a schedule.csv or an .ics calendar" \
            in res.stderr
        assert "tokenizing" not in res.stderr and len(res.stderr.strip().splitlines()) == 1

    @staticmethod
    def problems(**fields: Any) -> list[tuple[str, str]]:
        from scheduler.core.problems import ScenarioError
        from scheduler.inputs.load import load_scenario  # the loader in process

        try:
            load_scenario(room_scenario([room_large("night", **fields)]))
        except ScenarioError as err:
            return [(p.path, p.message) for p in err.problems]
        return []

    def test_field_maximum_is_its_own(self) -> None:
        # min_gap_days is at most MAX_HORIZON_DAYS = 3,660, not the general 1,000,000
        assert self.problems(min_gap_days=10_000_000) == [
            ("tournaments[0].min_gap_days", "at most 3,660 is allowed")]
        assert self.problems(min_gap_days=3_661) == [
            ("tournaments[0].min_gap_days", "at most 3,660 is allowed")]

    def test_count_true_is_one_problem(self) -> None:
        assert self.problems(count=True) == [
            ("tournaments[0].count", "expected a whole number, not true/false (or 'all')")]

    def test_float_and_hex_refused(self, tmp_path: Path) -> None:
        # 2.0 is a number with a decimal point; 0x10 was read by YAML 1.1 as 16
        [(path, msg)] = self.problems(count=2.0)
        assert path == "tournaments[0].count" and "not 2.0" in msg
        [(path, msg)] = self.problems(players=2.0)
        assert path == "tournaments[0].players" and "not 2.0" in msg
        from scheduler.core.problems import ScenarioError
        from scheduler.inputs.load import load_scenario  # the loader in process

        text = yaml.safe_dump(room_scenario([room_large("night", count=1)]), sort_keys=False)
        (tmp_path / "s.yaml").write_text(text.replace("count: 1", "count: 0x10"),
                                         encoding="utf-8")
        try:
            load_scenario(tmp_path / "s.yaml")
        except ScenarioError as err:
            [p] = err.problems
            assert (p.path, p.value) == ("tournaments[0].count", "0x10")
            assert "in decimal digits" in p.message
        else:
            raise AssertionError("count: 0x10 was accepted")


# ------------------------------------------------- 11. --previous warns of a cut series
def test_previous_warns_of_a_cut_series(tmp_path: Path) -> None:
    # an hourly series of 2,000,000,000 instances: only the first 5,000 are read
    # (MAX_SERIES_INSTANCES); docs/limits.md says such an event is reported: a warning
    sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
    calendar(tmp_path, ["UID:night-1@room.tourney\r\nDTSTAMP:20261220T000000Z\r\n"
                        "SUMMARY:night title\r\nX-TOURNEY-TOURNAMENT:night\r\n"
                        "DTSTART:20270102T190000Z\r\nDTEND:20270102T230000Z\r\n"
                        "RRULE:FREQ=HOURLY;COUNT=2000000000\r\n"])
    res = bounded_run(["solve", sc.name, "--previous", "cal.ics", "-o", "plan",
                       "--deterministic-time", "0.5"], tmp_path)
    assert res.returncode in (0, 1), res.stderr
    assert "tourney: warning: cal.ics: event 'night title'" in res.stderr
    assert "repeats more than 5,000 times" in res.stderr


def test_diff_and_publish_read_calendars_within_the_limits(tmp_path: Path) -> None:
    # a plan whose calendar.ics gained 20,001 EXDATE values (the limit is 20,000 RDATE/EXDATE
    # values per file, docs/limits.md): `tourney diff` refuses it (DiffError, exit 2) and
    # publish refuses to read its operator calendar (PublishError), before icalendar parses
    from scheduler.export.caldav.calendars import read_plan_calendars
    from scheduler.export.caldav.redaction import PublishError
    from scheduler.export.diff import DiffError, diff_plans  # the engine in process

    plan = solve_into(tmp_path, room_scenario([room_large("night", weekdays=["sat"])]))
    flood = "".join(f"EXDATE;VALUE=DATE:2027{1 + k % 12:02d}{1 + k % 28:02d}\r\n"
                    for k in range(20_001)).encode()
    for ics in (plan / "calendar.ics", *sorted((plan / "calendars").glob("*.ics"))):
        data = ics.read_bytes()
        at = data.index(b"END:VEVENT")
        ics.write_bytes(data[:at] + flood + data[at:])
    # (the first limit met is 1,000 properties in one event)
    with pytest.raises(DiffError, match="limits.md"):
        diff_plans(plan, plan)
    with pytest.raises(PublishError, match="limits.md"):
        read_plan_calendars(plan)
