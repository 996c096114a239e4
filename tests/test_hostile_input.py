"""Hostile and careless input (issue 17 parts 1, 2 and 5; issue 11 part 5): an audit that
cannot be bypassed, every read bounded, input errors instead of internal errors, text that
cannot break a file.

Tests that parse something an attacker wrote run ``tourney`` in a child process under a
memory limit (``RLIMIT_AS``) and a timeout (:func:`bounded_run`), so a regression fails fast
instead of hanging CI or eating the machine's memory; a value refused with a message (a
folder, a date far away, a NUL) runs ``tourney`` in this process (:func:`in_process`). The
limits themselves are in ``scheduler/core/limits.py`` and ``docs/limits.md``.

Calendar facts used below (2027): Jan 1 is a Friday, so Saturdays are Jan 2, 9, ... and
Jan 5 is a Tuesday; Montana (America/Denver) is UTC-7 until Mar 14.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from icalendar import Calendar
from typer.testing import CliRunner

from scheduler.check.kinds import event_kind
from scheduler.check.read import read_schedule
from scheduler.cli import app
from scheduler.core.limits import (
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SERIES_INSTANCES,
    variants_count,
)
from scheduler.core.problems import ScenarioError
from scheduler.core.text import cell, uncell
from scheduler.engine.decompose import model_size
from scheduler.inputs.load import load_scenario

from builders.commands import room_large, room_scenario, tourney
from builders.strategies import ci_examples

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "data" / "examples"
TOURNEY = [sys.executable, "-c", "from scheduler.cli import main; main()"]
MEMORY_LIMIT = 1536 * 1024 * 1024  # 1.5 GB of address space: far below what a bomb takes
TIMEOUT = 60.0  # seconds: each refused input takes well under 5 s

runner = CliRunner()


# ------------------------------------------------------------------------------ helpers
def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def bounded_run(args: list[str], cwd: Path, env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in a child process limited to :data:`MEMORY_LIMIT` bytes and
    :data:`TIMEOUT` seconds (a hang or a memory blow-up fails the test, never CI)."""
    return subprocess.run([*TOURNEY, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT, preexec_fn=_limit_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})






def in_process(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in this process, in folder ``cwd`` (:func:`builders.commands.tourney`),
    for an input that takes neither memory nor time."""
    return tourney(*args, cwd=cwd)


def write_yaml(folder: Path, data: dict[str, Any], name: str = "scenario.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    return path


def load_problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, message) of every problem loading ``data`` raises."""
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    return [(p.path, p.message) for p in err.value.problems]


def solve_into(tmp_path: Path, data: dict[str, Any], name: str = "plan") -> Path:
    sc = write_yaml(tmp_path, data)
    res = runner.invoke(app, ["solve", str(sc), "-o", str(tmp_path / name),
                              "--deterministic-time", "1"])
    assert res.exit_code == 0, res.output
    return tmp_path / name


BOMB = textwrap.dedent("""\
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
    """)
"""A "billion laughs": 9 strings, each level 9 references to the one before: 9**9 =
387,420,489 strings (plus the lists) from about 400 bytes."""


# ============================================================================== 17.1 audit
class TestAuditCannotBeBypassed:
    def test_a_tournament_called_report_night_is_checked(self, tmp_path: Path) -> None:
        # the Saturday-only tournament moved to Tuesday Jan 5 in the calendar: before, its
        # UID "report-night-1@room.tourney" started with "report-" and the event was skipped
        t = room_large("report-night", weekdays=["sat"], window={"start": "2027-01-01",
                                                             "end": "2027-01-31"})
        plan = solve_into(tmp_path, room_scenario([t]))
        cal = Calendar.from_ical((plan / "calendar.ics").read_bytes())
        [ev] = [e for e in cal.walk("VEVENT") if e.get("X-TOURNEY-KIND") == "occurrence"]
        assert str(ev["UID"]).startswith("report-night")
        assert ev.decoded("DTSTART").weekday() == 5  # placed on a Saturday
        del ev["DTSTART"], ev["DTEND"]
        ev.add("dtstart", dt.date(2027, 1, 5))
        ev.add("dtend", dt.date(2027, 1, 6))
        edited = tmp_path / "edited.ics"
        edited.write_bytes(cal.to_ical())
        res = runner.invoke(app, ["check", str(tmp_path / "scenario.yaml"), str(edited),
                                  "--format", "json"])
        assert res.exit_code == 1, res.output
        found = {(v["rule"], v["tournament_id"]) for v in json.loads(res.stdout)}
        assert ("WEEKDAYS", "report-night") in found

    @pytest.mark.parametrize("tid", ["report-night", "notice", "application-x", "report"])
    def test_ids_like_the_deadline_grammar_are_games(self, tid: str) -> None:
        ev = Calendar.from_ical(
            f"BEGIN:VEVENT\r\nUID:{tid}-1@room.tourney\r\nSUMMARY:x\r\nEND:VEVENT\r\n")
        assert event_kind(ev) is None  # no X-TOURNEY-KIND: a game, matched and checked

    @pytest.mark.parametrize(("uid", "kind"), [
        ("notice-deep-1@room-a.tourney-room-a", "notice"),
        ("application-opens-post/per-tournament/2027-02-06/1", "application"),
        ("application-due-post/monthly/2027-02-01", "application"),
        ("report-post/annual/2027-01-01-2027-03", "report"),
    ])
    def test_old_calendars_deadlines_by_their_whole_uid(self, uid: str, kind: str) -> None:
        ev = Calendar.from_ical(f"BEGIN:VEVENT\r\nUID:{uid}\r\nSUMMARY:x\r\nEND:VEVENT\r\n")
        assert event_kind(ev) == kind

    def test_every_event_has_a_kind_and_every_event_is_accounted_for(
            self, tmp_path: Path) -> None:
        data = yaml.safe_load((EXAMPLES / "combined.yaml").read_text(encoding="utf-8"))
        data["notice_from"] = "2026-12-01"
        plan = solve_into(tmp_path, data)
        cal = Calendar.from_ical((plan / "calendar.ics").read_bytes())
        events = list(cal.walk("VEVENT"))
        kinds = [str(ev.get("X-TOURNEY-KIND", "")) for ev in events]
        assert "" not in kinds
        assert set(kinds) <= {"occurrence", "series", "notice", "application", "report"}
        read = read_schedule(load_scenario(tmp_path / "scenario.yaml"), plan / "calendar.ics")
        # every VEVENT is either a checked game or listed as a deadline not checked
        deadlines = sum(k in ("notice", "application", "report") for k in kinds)
        assert len(read.not_checked) == deadlines
        assert all("deadline, not a game (X-TOURNEY-KIND)" in n for n in read.not_checked)
        assert read.unmatched == []

    def test_unknown_kind_is_reported_not_skipped(self, tmp_path: Path) -> None:
        t = room_large("night", weekdays=["sat"], window={"start": "2027-01-01",
                                                      "end": "2027-01-31"})
        plan = solve_into(tmp_path, room_scenario([t]))
        ics = (plan / "calendar.ics").read_bytes()
        edited = tmp_path / "edited.ics"
        edited.write_bytes(ics.replace(b"X-TOURNEY-KIND:occurrence", b"X-TOURNEY-KIND:party"))
        res = runner.invoke(app, ["check", str(tmp_path / "scenario.yaml"), str(edited)])
        assert res.exit_code == 1
        assert "X-TOURNEY-KIND party" in res.stderr and "not checked" in res.stderr


# ============================================================================== 17.2 bounds
class TestEveryReadIsBounded:
    def test_yaml_alias_bomb_scenario(self, tmp_path: Path) -> None:
        (tmp_path / "bomb.yaml").write_text(BOMB, encoding="utf-8")
        res = bounded_run(["solve", "bomb.yaml", "-o", "out"], tmp_path)
        assert res.returncode == 2, res.stderr
        # 9 + 9 * (9 + 1) ... : the message counts the values the aliases would make
        assert "aliases (*name) expand the document" in res.stderr
        assert not (tmp_path / "out").exists()

    def test_yaml_alias_bomb_vary_file(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        (tmp_path / "vary.yaml").write_text(BOMB, encoding="utf-8")
        res = bounded_run(["sweep", sc.name, "--vary", "vary.yaml"], tmp_path)
        assert res.returncode == 2, res.stderr
        assert "aliases (*name) expand the document" in res.stderr

    def test_alias_loop_and_deep_nesting(self, tmp_path: Path) -> None:
        (tmp_path / "loop.yaml").write_text("a: &a [*a]\n", encoding="utf-8")
        (tmp_path / "deep.yaml").write_text("a: " + "[" * 150 + "]" * 150 + "\n",
                                            encoding="utf-8")
        for name in ("loop.yaml", "deep.yaml"):
            res = bounded_run(["solve", name], tmp_path)
            assert res.returncode == 2, res.stderr
            assert "Traceback" not in res.stderr

    def test_a_few_aliases_are_fine(self, tmp_path: Path) -> None:
        path = tmp_path / "aliases.yaml"
        path.write_text(textwrap.dedent("""\
            name: aliases
            horizon: {start: 2027-01-01, end: 2027-12-31}
            notice_from: 2026-12-01
            operators: [{id: &room room, name: Room, jurisdiction: MT, live_tables: 2}]
            tournaments:
              - {id: a, title: A, type: large-stakes, operators: &ops [*room]}
              - {id: b, title: B, type: large-stakes, operators: *ops}
            """), encoding="utf-8")
        assert [t.operators for t in load_scenario(path).tournaments] == [("room",), ("room",)]

    def test_dev_zero_and_folders_are_refused(self, tmp_path: Path) -> None:
        res = bounded_run(["solve", "/dev/zero"], tmp_path)
        assert res.returncode == 2
        assert "not a regular file" in res.stderr
        res = in_process(["solve", str(tmp_path)], tmp_path)
        assert res.returncode == 2 and "it is a folder" in res.stderr
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        res = in_process(["check", sc.name, str(tmp_path)], tmp_path)
        assert res.returncode == 2
        assert "it is a folder; give schedule.csv or a calendar (.ics) file" in res.stderr
        assert "no such file" not in res.stderr
        res = bounded_run(["check", sc.name, "/dev/zero"], tmp_path)
        assert res.returncode == 2 and "not a regular file" in res.stderr

    def test_input_size_limit(self, tmp_path: Path) -> None:
        # TOURNEY_MAX_INPUT_MB=1: 1,048,576 bytes; the file is 1,048,577
        path = tmp_path / "big.yaml"
        path.write_text("#" * (1024 * 1024) + "\n", encoding="utf-8")
        res = bounded_run(["solve", path.name], tmp_path, {"TOURNEY_MAX_INPUT_MB": "1"})
        assert res.returncode == 2
        assert "larger than the 1 MB an input may be" in res.stderr
        assert "TOURNEY_MAX_INPUT_MB" in res.stderr

    def hourly_calendar(self, folder: Path, freq: str, start: str = "20270102") -> Path:
        """A ~300-byte calendar: the tournament's event repeating every hour (or minute,
        second) without end, as the issue's attacker wrote it."""
        path = folder / "hourly.ics"
        path.write_bytes(
            b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\n"
            b"UID:night-1@room.tourney\r\nDTSTAMP:20270101T000000Z\r\n"
            b"DTSTART:" + start.encode() + b"T190000Z\r\nDTEND:20270103T050000Z\r\n"
            b"SUMMARY:night title\r\n"
            b"RRULE:FREQ=" + freq.encode() + b"\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        return path

    def test_secondly_rule_from_1900(self, tmp_path: Path) -> None:
        # from 1900 every second: 3.9 billion instances before the window (2025-12-31);
        # more than MAX_RULE_SCAN (100,000) are not looked at, and the event is reported
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        self.hourly_calendar(tmp_path, "SECONDLY", start="19000101")
        res = bounded_run(["check", sc.name, "hourly.ics"], tmp_path)
        assert res.returncode == 1, res.stderr
        assert "repeats more than 100,000 times before 2028-12-31" in res.stderr

    @pytest.mark.parametrize("freq", ["HOURLY", "MINUTELY", "SECONDLY"])
    def test_unbounded_rrule_in_check(self, tmp_path: Path, freq: str) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        self.hourly_calendar(tmp_path, freq)
        res = bounded_run(["check", sc.name, "hourly.ics"], tmp_path)
        assert res.returncode == 1, res.stderr
        # the first MAX_SERIES_INSTANCES (5,000) instances are read, the event is named
        assert f"repeats more than {MAX_SERIES_INSTANCES:,} times" in res.stderr
        # violations summarised: at most 200 lines and one counting the rest
        assert len(res.stdout) + len(res.stderr) < 100_000
        assert "more violation(s)" in res.stdout

    def test_unbounded_rrule_in_previous(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        self.hourly_calendar(tmp_path, "MINUTELY")
        res = bounded_run(["solve", sc.name, "--previous", "hourly.ics", "-o", "plan",
                           "--deterministic-time", "0.5"], tmp_path)
        assert res.returncode in (0, 1, 2), res.stderr
        assert "internal error" not in res.stderr

    def test_vary_grid_counted_before_building(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        grid = {"tournaments.night.priority": list(range(1, 11))}
        grid.update({"operators.room.max_concurrent": list(range(1, 11))})
        grid.update({f"tournaments.x{k}.count": list(range(1, 11)) for k in range(8)})
        write_yaml(tmp_path, {"grid": grid}, "vary.yaml")
        res = bounded_run(["sweep", sc.name, "--vary", "vary.yaml"], tmp_path)
        assert res.returncode == 2, res.stderr
        # 10 keys of 10 values: 10**10 combinations
        assert "makes 10,000,000,000 variants" in res.stderr
        assert "--max-variants" in res.stderr

    def test_max_variants_boundary(self, tmp_path: Path) -> None:
        from scheduler.studies.sweep.variants import VaryError
        from scheduler.studies.sweep.vary import read_vary

        sc = load_scenario(room_scenario([room_large("night")]))
        vary = write_yaml(tmp_path, {"grid": {"tournaments.night.priority": [1, 2, 3]}},
                          "vary.yaml")
        assert len(read_vary(vary, sc, max_variants=3)) == 3
        with pytest.raises(VaryError, match="makes 3 variants"):
            read_vary(vary, sc, max_variants=2)

    def test_variants_count(self) -> None:
        assert variants_count([[1, 2], [1, 2, 3]], "product") == 6  # 2 x 3
        assert variants_count([[1, 2, 3], [4, 5, 6]], "zip") == 3

    @pytest.mark.parametrize(("n", "ok"), [(MAX_ID_LENGTH, True), (MAX_ID_LENGTH + 1, False)])
    def test_id_length(self, n: int, ok: bool) -> None:
        data = room_scenario([room_large("a" * n)])
        if ok:
            assert len(load_scenario(data).tournaments[0].id) == 64
        else:
            [(path, msg)] = load_problems(data)
            assert path == "tournaments[0].id" and "at most 64 characters" in msg

    @pytest.mark.parametrize(("n", "ok"), [(MAX_NAME_LENGTH, True), (MAX_NAME_LENGTH + 1, False)])
    def test_title_and_name_length(self, n: int, ok: bool) -> None:
        data = room_scenario([room_large("night", title="t" * n)])
        data["operators"][0]["name"] = "n" * n
        if ok:
            assert len(load_scenario(data).tournaments[0].title) == 200
        else:
            assert load_problems(data) == [
                ("operators[0].name", "is 201 characters long; at most 200 are allowed"),
                ("tournaments[0].title", "is 201 characters long; at most 200 are allowed")]

    def test_model_size_estimate(self) -> None:
        # Saturdays of 2027 in a one-year horizon: Jan 2 .. Dec 25 = 52; a second tournament
        # without weekdays in March: 31 days; 52 + 31 = 83 cells in the room's one part
        sc = load_scenario(room_scenario([
            room_large("sat", weekdays=["sat"], count=10),
            room_large("march", window={"start": "2027-03-01", "end": "2027-03-31"})]))
        cells, where = model_size(sc)
        assert cells == 83
        assert "sat (52 days)" in where and "march (31 days)" in where

    def test_enormous_model_refused_before_building(self, tmp_path: Path) -> None:
        # one tournament, every day of 2027: 365 cells; --max-model 364 refuses, 365 solves
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        res = runner.invoke(app, ["solve", str(sc), "-o", str(tmp_path / "p"),
                                  "--max-model", "364"])
        assert res.exit_code == 2
        assert "365 candidate (tournament, first day) pairs" in res.stderr
        assert "--max-model" in res.stderr and not (tmp_path / "p").exists()
        res = runner.invoke(app, ["solve", str(sc), "-o", str(tmp_path / "p"),
                                  "--max-model", "365", "--deterministic-time", "0.5"])
        assert res.exit_code == 0, res.output

    def test_enormous_variant_refused_before_solving(self, tmp_path: Path) -> None:
        # the base: Saturdays of 2027 = 52 cells; the variant without weekdays: 365 cells
        sc = write_yaml(tmp_path, room_scenario([room_large("night", weekdays=["sat"])]))
        write_yaml(tmp_path, {"variants": [{"name": "every day", "set": {
            "tournaments.night.weekdays": None}}]}, "vary.yaml")
        res = runner.invoke(app, ["sweep", str(sc), "--vary", str(tmp_path / "vary.yaml"),
                                  "--out", str(tmp_path / "s.csv"), "--max-model", "364"])
        assert res.exit_code == 2
        assert "variant 'every day': the model would have 365 candidate" in res.stderr
        assert not (tmp_path / "s.csv").exists()

    def test_statewide_scenario_is_within_the_limits(self, tmp_path: Path) -> None:
        from scheduler.core.limits import MAX_MODEL_CELLS_DEFAULT
        from scheduler.studies.generate import scenario_text

        path = tmp_path / "state.yaml"
        path.write_text(scenario_text(50, 0, year=2027), encoding="utf-8")
        cells, _ = model_size(load_scenario(path))
        assert 0 < cells < MAX_MODEL_CELLS_DEFAULT


# ============================================================================== 17.5 values
class TestCarelessValues:
    @pytest.mark.parametrize(("field", "value", "message"), [
        ("min_gap_days", 10_000_000, "at most 3,660 is allowed"),
        ("min_gap_days", 3661, "at most 3,660 is allowed"),
        ("entry_fee", 10**30, "at most $10,000,000 is allowed"),
        ("entry_fee", "NaN", "finite number"),
        ("entry_fee", "1E+999999999", "at most $10,000,000 is allowed"),
        ("count", True, "expected a whole number, not true/false"),
        ("players", 10**12, "at most 1,000,000 is allowed"),
        ("hours", 0.0001, "expected from 0.25 hours (15 minutes) to 120 hours (5 days)"),
        ("hours", 120.01, "expected from 0.25 hours (15 minutes) to 120 hours (5 days)"),
        ("fixed_dates", ["9999-12-31"], "a date in the years 1900 to 2199"),
    ])
    def test_tournament_field(self, field: str, value: Any, message: str) -> None:
        problems = load_problems(room_scenario([room_large("night", **{field: value})]))
        assert any(path.startswith(f"tournaments[0].{field}") and message in msg
                   for path, msg in problems), problems

    @pytest.mark.parametrize(("hours", "ok"), [(0.25, True), (0.24, False)])
    def test_hours_boundaries(self, hours: float, ok: bool) -> None:
        data = room_scenario([room_large("night", hours=hours,
                                    type="small-stakes", entry_fee=60)])
        if ok:
            load_scenario({**data, "operators": data["operators"]})
        else:
            assert ("tournaments[0].hours",
                    "expected from 0.25 hours (15 minutes) to 120 hours (5 days)") in \
                load_problems(data)

    def test_notice_from_and_horizon_years(self) -> None:
        assert load_problems(room_scenario([], notice_from="9999-12-31")) == [
            ("notice_from", "a date in the years 1900 to 2199 is expected, got 9999-12-31")]
        problems = load_problems(room_scenario(
            [], horizon={"start": "2027-01-01", "end": "2040-01-01"}))
        # 2027-01-01 .. 2040-01-01: 13 years + 4 leap days (2028, 32, 36) = 4,748 days
        assert problems == [("horizon", "2027-01-01 to 2040-01-01 is 4,749 days; at most "
                                        "3,660 (about ten years) are allowed")]

    def test_blackout_range_years_checked_before_expanding(self) -> None:
        data = room_scenario([])
        data["operators"][0]["blackout"] = ["0001-01-01..9999-12-31"]
        [(path, msg)] = load_problems(data)
        assert path == "operators[0].blackout" and "1900 to 2199" in msg

    def test_bool_is_not_a_whole_number_anywhere(self) -> None:
        data = room_scenario([room_large("night", required=True)])
        data["operators"][0]["max_concurrent"] = True
        assert {p for p, _ in load_problems(data)} == {"operators[0].max_concurrent",
                                                       "tournaments[0].required"}

    def test_workers_and_jobs_are_bounded(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        for option in (["--workers", "100000"], ["--jobs", "100000"],
                       ["--alternatives", "100000"]):
            res = runner.invoke(app, ["solve", str(sc), *option])
            assert res.exit_code == 2, option
            assert "model is invalid" not in res.output

    def test_csv_dates_far_away(self, tmp_path: Path) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        header = ("tournament_id,occurrence,operator_id,jurisdiction,type,charitable,title,"
                  "start,end,first_day,last_day,notice_due,permit_year,counted,players,"
                  "license_id,uid\n")
        for first in ("9999-12-31", "0001-01-01"):
            row = (f"night,1,room,MT,large-stakes,false,t,{first}T12:00:00-07:00,"
                   f"{first}T22:00:00-07:00,{first},{first},,,true,,,night-1@room.tourney\n")
            path = tmp_path / f"s{first[:4]}.csv"
            path.write_text(header + row, encoding="utf-8")
            res = in_process(["check", sc.name, path.name], tmp_path)
            assert res.returncode == 2, res.stderr
            assert f"{path.name}:2: column start = '{first}T12:00:00-07:00': a date in the " \
                   "years 1900 to 2199 is expected" in res.stderr

    @pytest.mark.parametrize("fee", ["NaN", "1E+999999999", "inf"])
    def test_licence_fee_not_a_number(self, tmp_path: Path, fee: str) -> None:
        t = room_large("night", weekdays=["sat"], window={"start": "2027-01-01",
                                                      "end": "2027-01-31"})
        plan = solve_into(tmp_path, room_scenario([t]))
        lic = (plan / "licenses.csv").read_text(encoding="utf-8").splitlines()
        rows = list(csv.DictReader(io.StringIO("\n".join(lic) + "\n")))
        assert rows, "the plan buys a permit"
        rows[0]["fee_usd"] = fee
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        (plan / "licenses.csv").write_text(out.getvalue(), encoding="utf-8")
        res = bounded_run(["check", "scenario.yaml", str(plan / "schedule.csv")], tmp_path)
        assert res.returncode == 2, res.stderr
        assert f"licenses.csv:2: column fee_usd = {fee!r} is not an amount in USD" in res.stderr

    def test_error_message_is_capped(self) -> None:
        # 400 tournaments with a bad type: 400 problems; 30 are shown and the rest counted
        data = room_scenario([room_large(f"t{k}", type="poker") for k in range(400)])
        with pytest.raises(ScenarioError) as err:
            load_scenario(data)
        text = err.value.render()
        assert len(err.value.problems) == 400
        assert "... and 370 more problem(s)" in text
        assert len(text) < 8_000

    def test_a_huge_value_is_cut_in_messages(self) -> None:
        [(path, _)] = load_problems(room_scenario([room_large("night", type="x" * 1_000_000)]))
        with pytest.raises(ScenarioError) as err:
            load_scenario(room_scenario([room_large("night", type="x" * 1_000_000)]))
        assert path == "tournaments[0].type"
        assert "(1,000,000 characters)" in err.value.render()
        assert len(err.value.render()) < 2_000


# ============================================================================== text
class TestTextCannotBreakAFile:
    @pytest.mark.parametrize("bad", ["a\rb", "a\nb", "a\x0cb", "\x1b[31mred", "a\x7f",
                                     "a\x00b", "a\tb", "a\x85b", "a\u2028b"])
    def test_control_characters_are_refused_in_titles_and_names(self, bad: str) -> None:
        data = room_scenario([room_large("night", title=bad)], name=bad)
        data["operators"][0]["name"] = bad
        problems = dict(load_problems(data))
        assert set(problems) == {"name", "operators[0].name", "tournaments[0].title"}
        ch = next(c for c in bad if not c.isprintable())
        assert problems["tournaments[0].title"].startswith(
            "must be one line of printable text; it holds the control character "
            f"{ch!r} (U+{ord(ch):04X})")

    def test_the_message_shows_the_value_escaped(self) -> None:
        with pytest.raises(ScenarioError) as err:
            load_scenario(room_scenario([room_large("night", title="\x1b[2Jgone")]))
        text = err.value.render()
        assert "\x1b" not in text and "'\\x1b[2Jgone'" in text

    def test_nul_in_a_yaml_file(self, tmp_path: Path) -> None:
        path = write_yaml(tmp_path, room_scenario([room_large("night", title="a\x00b")]))
        res = in_process(["solve", path.name], tmp_path)
        assert res.returncode == 2 and "\x00" not in res.stderr

    def test_formula_cells_are_neutralised_and_read_back(self, tmp_path: Path) -> None:
        title = '=HYPERLINK("http://x.example","click")'
        t = room_large("night", title=title, weekdays=["sat"],
                  window={"start": "2027-01-01", "end": "2027-01-31"})
        plan = solve_into(tmp_path, room_scenario([t]))
        rows = list(csv.DictReader(io.StringIO(
            (plan / "schedule.csv").read_text(encoding="utf-8"))))
        assert [r["title"] for r in rows] == ["'" + title]
        # check reads the CSV back (exit 0, nothing unmatched) ...
        res = runner.invoke(app, ["check", str(tmp_path / "scenario.yaml"),
                                  str(plan / "schedule.csv")])
        assert res.exit_code == 0, res.output
        # ... and --previous reads the title back unchanged
        from scheduler.inputs.replan.read import read_previous

        sc = load_scenario(tmp_path / "scenario.yaml")
        assert [a.title for a in read_previous(sc, plan)] == [title]

    @pytest.mark.parametrize(("text", "written"), [
        ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
        ("'=x", "''=x"), ("'Tis the season", "'Tis the season"), ("Deep Stack", "Deep Stack"),
        ("", ""),
    ])
    def test_cell(self, text: str, written: str) -> None:
        assert cell(text) == written
        assert uncell(written) == text

    def test_variant_names_and_values_cannot_drive_the_terminal(self, tmp_path: Path
                                                                ) -> None:
        sc = write_yaml(tmp_path, room_scenario([room_large("night")]))
        write_yaml(tmp_path, {
            "variants": [{"name": "\x1b[2J\x1b[31mpwned", "set": {
                "tournaments.night.priority": 2}}],
            "grid": {"tournaments.night.title": ["\x1b]0;title\x07x"]}}, "vary.yaml")
        res = runner.invoke(app, ["sweep", str(sc), "--vary", str(tmp_path / "vary.yaml")])
        assert res.exit_code == 2
        assert "\x1b" not in res.stderr and "\x07" not in res.stderr
        assert "variants[0].name = '\\x1b[2J\\x1b[31mpwned': must be one line of " \
               "printable text" in res.stderr

    def test_sweep_csv_cells(self) -> None:
        import pandas as pd

        from scheduler.studies.sweep.table import spreadsheet_safe

        df = pd.DataFrame({"variant": ["=cmd|' /C calc'!A0", "ok"], "placed": [-1, 2]})
        out = spreadsheet_safe(df)
        assert list(out["variant"]) == ["'=cmd|' /C calc'!A0", "ok"]
        assert list(out["placed"]) == [-1, 2]  # numbers are not text: unchanged

    def test_backslash_n_stays_a_backslash_n(self, tmp_path: Path) -> None:
        t = room_large("night", title=r"Deep \N Stack", weekdays=["sat"],
                  window={"start": "2027-01-01", "end": "2027-01-31"})
        plan = solve_into(tmp_path, room_scenario([t]))
        raw = (plan / "calendar.ics").read_bytes()
        assert b"SUMMARY:Deep \\\\N Stack\r\n" in raw  # RFC 5545: a backslash is \\
        cal = Calendar.from_ical(raw)
        [ev] = [e for e in cal.walk("VEVENT") if e.get("X-TOURNEY-KIND") == "occurrence"]
        assert str(ev["SUMMARY"]) == r"Deep \N Stack"

    def test_calendar_name_with_a_comma_read_by_vobject(self, tmp_path: Path) -> None:
        import vobject

        data = yaml.safe_load((EXAMPLES / "combined.yaml").read_text(encoding="utf-8"))
        data["notice_from"] = "2026-12-01"
        plan = solve_into(tmp_path, data)
        post = next(o for o in data["operators"] if o["name"].endswith("Saco Bay"))
        text = (plan / "calendars" / f"{post['id']}.ics").read_bytes().decode("utf-8")
        cal = vobject.readOne(text)
        want = f"{data['name']} — American Legion Post 88, Saco Bay"
        assert cal.contents["x-wr-calname"][0].value == want
        assert cal.contents["name"][0].value == want


# ============================================================================== fuzzing
NASTY = ["true", "NaN", "1E+999999999", "9999-12-31", "0001-01-01", "-1", "10000000",
         "0.0001", "'=HYPERLINK(1)'", '"\\x1b[31m"', '"a\\rb"', '"\\0"', "[]", "{}", "''",
         "*nope", "&a [*a]", "!!python/object:os.system", "'" + "x" * 5000 + "'",
         "2027-02-30", "\"25:99\"", "[[[[[[[[]]]]]]]]", "1" * 5000, "~", "'all'"]
"""Values a careless or hostile person puts in a scenario, as YAML text."""
EXAMPLE_TEXTS = {p.name: p.read_text(encoding="utf-8")
                 for p in sorted(EXAMPLES.glob("*.yaml"))}


class _Timeout(Exception):
    pass


def _within(seconds: float) -> Any:
    """A context manager that raises :class:`_Timeout` after ``seconds`` (SIGALRM): a run
    that hangs fails the test instead of hanging CI."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def guard() -> Any:
        def fire(signum: int, frame: Any) -> None:
            raise _Timeout(f"no answer within {seconds} s")
        old = signal.signal(signal.SIGALRM, fire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    return guard()


def mutate(text: str, edits: list[tuple[int, float, int]]) -> str:
    """``text`` with ``edits`` applied: (what, where as a fraction of the lines, which nasty
    value): 0 replaces a line's value, 1 deletes a line, 2 duplicates it, 3 inserts a nasty
    value as a new key, 4 cuts the text there."""
    lines = text.splitlines()
    for what, where, value in edits:
        if not lines:
            break
        i = min(int(where * len(lines)), len(lines) - 1)
        nasty = NASTY[value % len(NASTY)]
        if what == 0 and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            lines[i] = f"{key}: {nasty}"
        elif what == 1:
            del lines[i]
        elif what == 2:
            lines.insert(i, lines[i])
        elif what == 3:
            lines.insert(i, f"{' ' * (len(lines[i]) - len(lines[i].lstrip()))}x: {nasty}")
        elif what == 4:
            lines = lines[:i]
    return "\n".join(lines) + "\n"


def assert_clean_exit(res: Any, *, limit: int = 8_000) -> None:
    """Exit 0, 1 or 2 (never 3, never an exception), messages under ``limit`` characters."""
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code in (0, 1, 2), res.output[-2000:]
    assert len(res.stderr) < limit + 200, res.stderr[:500]
    assert len(res.stdout) < 100_000


@pytest.fixture(scope="module")
def example_plan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled Montana example solved once: its folder (schedule.csv, calendar.ics)."""
    folder = tmp_path_factory.mktemp("fuzz")
    res = runner.invoke(app, ["solve", str(EXAMPLES / "montana-card-room.yaml"), "-o",
                              str(folder / "plan"), "--deterministic-time", "0.5"])
    assert res.exit_code == 0, res.output
    return folder / "plan"


EDITS = st.lists(st.tuples(st.integers(0, 4), st.floats(0, 1), st.integers(0, 1000)),
                 min_size=1, max_size=4)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow], max_examples=ci_examples(12))
@given(name=st.sampled_from(sorted(EXAMPLE_TEXTS)), edits=EDITS)
def test_fuzz_check_with_mutated_scenarios(example_plan: Path, name: str,
                                           edits: list[tuple[int, float, int]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.yaml"
        path.write_text(mutate(EXAMPLE_TEXTS[name], edits), encoding="utf-8")
        for schedule in ("schedule.csv", "calendar.ics"):
            with _within(60):
                res = runner.invoke(app, ["check", str(path), str(example_plan / schedule)])
            assert_clean_exit(res)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow], max_examples=ci_examples(12))
@given(name=st.sampled_from(sorted(EXAMPLE_TEXTS)), edits=EDITS)
def test_fuzz_solve_with_mutated_scenarios(name: str,
                                           edits: list[tuple[int, float, int]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.yaml"
        path.write_text(mutate(EXAMPLE_TEXTS[name], edits), encoding="utf-8")
        with _within(120):
            res = runner.invoke(app, ["solve", str(path), "-o", str(Path(tmp) / "plan"),
                                      "--deterministic-time", "0.2"])
        assert_clean_exit(res)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=3000), suffix=st.sampled_from([".yaml", ".csv", ".ics"]))
def test_fuzz_random_bytes(example_plan: Path, data: bytes, suffix: str) -> None:
    import tempfile

    scenario = EXAMPLES / "montana-card-room.yaml"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input{suffix}"
        path.write_bytes(data)
        with _within(60):
            if suffix == ".yaml":
                res = runner.invoke(app, ["solve", str(path), "-o", str(Path(tmp) / "p")])
                assert_clean_exit(res)
                res = runner.invoke(app, ["check", str(path), str(example_plan /
                                                                  "schedule.csv")])
            else:
                res = runner.invoke(app, ["check", str(scenario), str(path)])
        assert_clean_exit(res)
        assert res.exit_code != 0 or not data.strip()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text())
def test_cell_round_trip(text: str) -> None:
    assert uncell(cell(text)) == text
    assert not cell(text).startswith(("=", "+", "-", "@", "\t", "\r"))
