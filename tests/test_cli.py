"""The `tourney solve` command: exit codes, atomic output, determinism, no tracebacks."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app

from builders.commands import TINY

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
runner = CliRunner()


def _write(tmp_path: Path, data: dict, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_solve_writes_every_file_and_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert sorted(_digest(out)) == [".tourney-plan", "calendar.ics", "calendars/room.ics",
                                    "deadlines.csv", "licenses.csv", "plan.xlsx",
                                    "scenario.yaml", "schedule.csv", "summary.txt",
                                    "unscheduled.csv"]
    # Saturdays of March 2027: 6, 13, 20, 27; notice_from Feb 20 allows Feb 25 on; the
    # earliest-first tie-break places the first two Saturdays: count 2.
    lines = (out / "schedule.csv").read_text().splitlines()
    assert len(lines) == 1 + 2
    assert lines[1].split(",")[9] == "2027-03-06"  # first_day of occurrence 1
    assert "1 placed" not in res.output and "2 placed of 2 wanted" in res.output
    # one large-stakes permit for the 2026-07-01 permit year: $120 (MT-PERMIT-FEES)
    lic = (out / "licenses.csv").read_text().splitlines()
    assert lic[1].split(",")[3:8] == ["mt-large-stakes-permit", "", "2026-07-01", "2027-06-30",
                                      "120"]


def test_same_input_and_seed_give_identical_bytes(tmp_path: Path) -> None:
    src = EXAMPLES / "maine-legion-post.yaml"
    a, b = tmp_path / "a", tmp_path / "b"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a), "--seed", "7"]).exit_code == 0
    assert runner.invoke(app, ["solve", str(src), "--out", str(b), "--seed", "7"]).exit_code == 0
    assert _digest(a) == _digest(b)


def test_source_date_epoch_sets_dtstamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 1798761600 s after 1970-01-01 = 20819 days = 2027-01-01 00:00:00 UTC
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")
    out = tmp_path / "plan"
    assert runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out",
                               str(out)]).exit_code == 0
    ics = (out / "calendar.ics").read_text()
    assert "DTSTAMP:20270101T000000Z" in ics


def test_invalid_input_exits_2_names_file_line_field_rule_and_writes_nothing(
        tmp_path: Path) -> None:
    bad = {**TINY, "tournaments": [{**TINY["tournaments"][0], "entry_fee": 376, "reentries": 4,
                                    "entry_fe": 1}]}
    src = _write(tmp_path, bad)
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(src), "--out", str(out)])
    assert res.exit_code == 2
    text = res.output
    assert "Traceback" not in text
    assert "did you mean 'entry_fee'" in text
    assert f"{src}:" in text and "tournaments[0].entry_fe" in text
    assert not out.exists()


def test_entry_cap_error_names_rule_value_and_sum(tmp_path: Path) -> None:
    # 376 x (1 + 4 re-entries) = 1,880 > 1,875 (MT-ENTRY-CAP, MCA 23-5-317(1)(g))
    bad = {**TINY, "tournaments": [{**TINY["tournaments"][0], "entry_fee": 376,
                                    "reentries": 4}]}
    res = runner.invoke(app, ["solve", str(_write(tmp_path, bad)), "--out",
                              str(tmp_path / "p")])
    assert res.exit_code == 2
    assert "tournaments[0].entry_fee = 376" in res.output
    assert "$1,880" in res.output and "MT-ENTRY-CAP, MCA 23-5-317(1)(g)" in res.output


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["solve", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2
    assert "cannot read the file" in res.output and "Traceback" not in res.output


def test_required_occurrence_that_cannot_be_placed_exits_1(tmp_path: Path) -> None:
    # A fixed date on 2027-03-02 needs its notice by 2027-02-25 (MT-NOTICE), but notices can
    # be filed only from 2027-02-26 on: 2027-03-02 - 5 days = 2027-02-25 < 2027-02-26.
    data = {**TINY, "notice_from": "2027-02-26",
            "tournaments": [{**TINY["tournaments"][0], "weekdays": None,
                             "fixed_dates": ["2027-03-02"]}]}
    data["tournaments"][0].pop("weekdays")
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_write(tmp_path, data)), "--out", str(out)])
    assert res.exit_code == 1
    assert "MT-NOTICE" in res.output and "2027-03-02" in res.output
    rows = list(csv.DictReader((out / "unscheduled.csv").open()))
    assert [(r["tournament_id"], r["occurrence"], r["rule_ids"]) for r in rows] == [
        ("spring", "2", "MT-NOTICE")]
    assert "its notice was due 2027-02-25" in rows[0]["reason"]


def test_failed_run_keeps_previous_good_plan(tmp_path: Path) -> None:
    out = tmp_path / "plan"
    assert runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out",
                               str(out)]).exit_code == 0
    before = _digest(out)
    bad = _write(tmp_path, {**TINY, "horizon": {"start": "2027-13-01", "end": "2027-12-31"}},
                 "bad.yaml")
    assert runner.invoke(app, ["solve", str(bad), "--out", str(out)]).exit_code == 2
    assert _digest(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".plan")] == []


def test_refuses_to_replace_a_folder_that_is_not_a_plan(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    res = runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out", str(out)])
    assert res.exit_code == 2
    assert (out / "notes.txt").read_text() == "mine"


def test_help_lists_solve() -> None:
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0 and "solve" in res.output


# ---------------------------------------------------------------- what a careless user does
def test_out_folder_with_other_files_is_never_replaced(tmp_path: Path) -> None:
    # a folder that holds a schedule.csv *and* the user's own notes is not a plan folder
    out = tmp_path / "mixed"
    out.mkdir()
    (out / "schedule.csv").write_text("old")
    (out / "notes.txt").write_text("mine")
    res = runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out", str(out)])
    assert res.exit_code == 2 and "notes.txt" in res.output
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "schedule.csv").read_text() == "old"


def test_out_current_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    src = _write(tmp_path, TINY)
    res = runner.invoke(app, ["solve", str(src), "--out", "."])
    assert res.exit_code == 2 and "current folder" in res.output
    assert src.exists()


def test_unquoted_time_is_an_error_not_seconds(tmp_path: Path) -> None:
    # YAML reads `1800` as the integer 1800; it must not become 00:30 (1800 s)
    src = tmp_path / "s.yaml"
    src.write_text(
        "name: og\nhorizon: {start: 2027-01-01, end: 2027-12-31}\nnotice_from: 2026-12-20\n"
        "operators:\n  - {id: post, name: Post, jurisdiction: ME, local_approval: true,\n"
        "     beneficiaries: [X], organized_on: 2000-01-01,\n"
        "     other_games: [{weekday: sat, start: 1800, end: 2200}]}\n"
        "tournaments: []\n")
    res = runner.invoke(app, ["solve", str(src), "--out", str(tmp_path / "p")])
    assert res.exit_code == 2
    assert f"{src}:7: operators[0].other_games[0].start = 1800" in res.output
    assert "in quotes" in res.output


def test_duplicate_key_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "s.yaml"
    src.write_text("name: a\nname: b\n")
    res = runner.invoke(app, ["solve", str(src)])
    assert res.exit_code == 2
    assert "the key 'name' appears twice (first on line 1)" in res.output and ":2:" in res.output


def test_line_breaks_in_names_are_refused_runs_of_spaces_become_one(tmp_path: Path) -> None:
    # a name is one line of printable text (issue 11): a line break is an input error
    data = {**TINY, "name": "Tiny\nroom  2027"}
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_write(tmp_path, data)), "--out", str(out)])
    assert res.exit_code == 2
    assert "name = 'Tiny\\nroom  2027': must be one line of printable text; it holds the " \
           "control character '\\n' (U+000A) at position 5" in res.output
    data = {**TINY, "name": "Tiny room  2027"}
    res = runner.invoke(app, ["solve", str(_write(tmp_path, data)), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "X-WR-CALNAME:Tiny room 2027" in (out / "calendar.ics").read_text()


def test_bad_source_date_epoch_is_a_clear_error(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300800")  # 10000-01-01: past year 9999
    res = runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--out",
                              str(tmp_path / "p")])
    assert res.exit_code == 2 and "SOURCE_DATE_EPOCH" in res.output
    assert not (tmp_path / "p").exists()


def test_seed_out_of_range_is_a_usage_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["solve", str(_write(tmp_path, TINY)), "--seed", "99999999999999"])
    assert res.exit_code == 2


def test_ctrl_c_stops_the_search() -> None:
    """Ctrl-C (KeyboardInterrupt in the main thread) stops CP-SAT promptly and raises
    Interrupted, instead of CP-SAT swallowing the signal and running on."""
    import _thread
    import signal
    import threading
    import time

    from ortools.sat.python import cp_model

    from scheduler.engine.cpsat import Interrupted, solve_interruptibly

    # a Golomb ruler of 13 marks: far too hard to prove within the test
    m = cp_model.CpModel()
    marks = [m.new_int_var(0, 200, f"x{i}") for i in range(13)]
    m.add(marks[0] == 0)
    diffs = []
    for i in range(13):
        for j in range(i + 1, 13):
            diffs.append(marks[j] - marks[i])
            if j == i + 1:
                m.add(marks[j] > marks[i])
    m.add_all_different(diffs)
    m.minimize(marks[-1])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 60
    solver.parameters.num_workers = 1
    # the precondition: Python's own Ctrl-C handler in this process (a full run once saw
    # the interrupt lost after earlier tests; the cause is not known, see the stop-11 note)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(Interrupted):
            solve_interruptibly(solver, m)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - t0 < 10  # stopped, not run to the 60 s limit


def test_help_loads_neither_the_solver_nor_tables_nor_rich() -> None:
    # `tourney --help` must answer at once (issue: under 0.3 s): the solver (ortools), pandas,
    # matplotlib and rich (typer's fancy help) are imported only by the commands that use them;
    # so are the ledger's sqlalchemy and alembic
    import subprocess
    import sys

    code = ("import sys\n"
            "from typer.testing import CliRunner\n"
            "from scheduler.cli import app\n"
            "r = CliRunner().invoke(app, ['--help'])\n"
            "assert r.exit_code == 0 and 'solve' in r.output\n"
            "print(sorted(m for m in ('ortools', 'pandas', 'matplotlib', 'rich', "
            "'sqlalchemy', 'alembic') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def _stopped_after_the_first_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part's search stopped before the preferred-weekday search, as Ctrl-C would."""
    import scheduler.engine.parts as parts

    real = parts.solve_part

    def stopped_after_first_stage(*args: object, **kw: object) -> object:
        began: list[str] = []
        kw["on_stage"] = began.append
        kw["stop"] = lambda: "preferred" in began
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(parts, "solve_part", stopped_after_first_stage)


def test_ctrl_c_keeps_a_folder_s_plan_rather_than_write_one_cut_short(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a plan folder already there (a whole plan): the search cut short is not written over
    # it, byte for byte; exit 130, and the words say the folder keeps its plan
    src, out = str(EXAMPLES / "montana-card-room.yaml"), tmp_path / "plan"
    assert CliRunner().invoke(app, ["solve", src, "--out", str(out), "--jobs", "1"]
                              ).exit_code == 0
    before = _digest(out)
    _stopped_after_the_first_search(monkeypatch)
    result = CliRunner().invoke(app, ["solve", src, "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 130
    assert f"interrupted; {out} keeps its plan" in result.output
    assert _digest(out) == before


def test_ctrl_c_once_the_folder_is_written_says_it_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C while the summary is printed (a pager not reading, say): the folder is in
    # place, complete, and the words say so (not "nothing was written")
    import scheduler.cli.solve as solve_cli

    def ctrl_c(*args: object, **kw: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cli, "_said_after_writing", ctrl_c)
    out = tmp_path / "plan"
    result = CliRunner().invoke(app, ["solve", str(EXAMPLES / "montana-card-room.yaml"),
                                      "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 130
    assert f"interrupted; {out} was already written, complete." in result.output
    assert (out / ".tourney-plan").exists() and "nothing was written" not in result.output


def test_ctrl_c_writes_the_best_plan_found_and_exits_130(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The search is stopped before the preferred-weekday search (as Ctrl-C would): the plan
    # of the first search (placed and fees) is legal, written whole, and the summary and the
    # exit code (130) say it was interrupted.
    _stopped_after_the_first_search(monkeypatch)
    out = tmp_path / "plan"
    result = CliRunner().invoke(app, ["solve", str(EXAMPLES / "montana-card-room.yaml"),
                                      "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 130
    assert "interrupted" in result.output and "Interrupted:" in result.output
    assert (out / "schedule.csv").exists() and (out / "calendar.ics").exists()
    assert "Interrupted:" in (out / "summary.txt").read_text()
