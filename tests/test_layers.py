"""Issue #12, phase A: one solve for Python and the CLI, one CP-SAT parameter builder, clear
errors for unreadable previous calendars, and imports that run one way.

The layers themselves are checked by ``lint-imports`` (pyproject.toml, ``make test``); the
last test here keeps imports inside functions to the two reasons allowed for them.
"""

from __future__ import annotations

import ast
import datetime as dt
import re
from pathlib import Path

import icalendar
import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.engine.cpsat import DETERMINISTIC_TIME, Options, new_solver
from scheduler.engine.solver import solve, solve_alternatives
from scheduler.export.diff import DiffError, diff_plans
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.previous import PreviousError
from scheduler.inputs.replan.read import Previous, read_previous

from builders.commands import march_room_scenario

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]




def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


def _cancelled(data: bytes) -> list[tuple[str, dt.date]]:
    out = []
    for ev in icalendar.Calendar.from_ical(data).walk("VEVENT"):
        if str(ev.get("STATUS", "")) == "CANCELLED":
            start = ev.decoded("DTSTART")
            day = start.date() if isinstance(start, dt.datetime) else start
            out.append((str(ev.get("SUMMARY", "")), day))
    return sorted(out, key=lambda x: (x[1], x[0]))




def test_python_replan_writes_the_calendars_the_cli_writes(tmp_path: Path,
                                                           first_plan: Path) -> None:
    # v1: Saturdays Mar 6, 13, 20 (the earliest 3) and Friday Mar 5. v2 drops fri, wants 2
    # Saturdays and blacks out Mar 13: Mar 6 and 20 stay, Mar 13 and the Friday are dropped.
    # Both calendars cancel the 2 dropped occurrences and their MT notices (due 5 days
    # before the first day, MCA 23-5-317(1)(d)): Mar 13 - 5 = Mar 8, Mar 5 - 5 = Feb 28.
    v2 = march_room_scenario(tmp_path, "v2", drop_friday=True)
    cli = tmp_path / "cli"
    res = runner.invoke(app, ["solve", str(v2), "--previous", str(first_plan), "--out",
                              str(cli), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    sc = load_scenario(v2)
    plan = solve(sc, previous=read_previous(sc, first_plan))
    write_plan(plan, tmp_path / "py")
    assert _files(tmp_path / "py") == _files(cli)
    days = [d for _, d in _cancelled((cli / "calendar.ics").read_bytes())]
    assert days == [dt.date(2027, 2, 28), dt.date(2027, 3, 5), dt.date(2027, 3, 8),
                    dt.date(2027, 3, 13)]
    # the folder itself as ``previous`` is the same re-plan
    write_plan(solve(sc, previous=first_plan), tmp_path / "path")
    assert _files(tmp_path / "path") == _files(cli)


def test_python_replan_alternatives_cancel_like_the_best_plan(tmp_path: Path,
                                                              first_plan: Path) -> None:
    # --alternatives 2: alternative-2/ is a re-plan of the same previous plan, so its
    # calendars too cancel what it drops of what v1 published (before: nothing at all)
    v2 = march_room_scenario(tmp_path, "v2", drop_friday=True)
    cli = tmp_path / "cli"
    res = runner.invoke(app, ["solve", str(v2), "--previous", str(first_plan), "--out",
                              str(cli), "--jobs", "1", "--alternatives", "2"])
    assert res.exit_code == 0, res.output
    sc = load_scenario(v2)
    plans = solve_alternatives(sc, 2, previous=read_previous(sc, first_plan))
    assert [p.rank for p in plans] == [1, 2]
    write_plan(plans[0], tmp_path / "py", alternatives=plans[1:])
    assert _files(tmp_path / "py") == _files(cli)
    # alternative-2 keeps one of Mar 6 / Mar 20 (a tie the solver breaks) and moves another
    # Saturday to Mar 27: 2 placed, so 1 of the 3 announced Saturdays is cancelled with its
    # notice (5 days before), and the Friday (Mar 5) with its notice (Feb 28): 4 in all
    days = [d for _, d in _cancelled((cli / "alternative-2" / "calendar.ics").read_bytes())]
    assert len(days) == 4 and days[0] == dt.date(2027, 2, 28) and dt.date(2027, 3, 5) in days
    saturday = next(d for d in days if d.weekday() == 5)
    assert saturday in (dt.date(2027, 3, 6), dt.date(2027, 3, 13), dt.date(2027, 3, 20))
    assert saturday - dt.timedelta(days=5) in days


def test_read_previous_carries_what_the_calendars_published(first_plan: Path,
                                                             tmp_path: Path) -> None:
    # v1's calendar.ics: 4 occurrences (Mar 5, 6, 13, 20) and 4 MT notices = 8 events,
    # stamped at midnight UTC of notice_from (2027-02-01) unless SOURCE_DATE_EPOCH is set
    sc = load_scenario(march_room_scenario(tmp_path, "v2", drop_friday=True))
    prev = read_previous(sc, first_plan)
    assert isinstance(prev, Previous)
    assert len(prev) == 4 and len(prev.events) == 8
    assert prev.dtstamp is not None


def test_a_corrupt_previous_calendar_is_an_error_not_a_silent_no_cancel(
        first_plan: Path, tmp_path: Path) -> None:
    # Before: an unreadable calendars/room.ics was skipped, so the re-plan cancelled none
    # of the events it had published. Now the re-plan stops, naming the file (exit 2).
    bad = first_plan / "calendars" / "room.ics"
    bad.write_bytes(b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:not a date\r\n")
    v2 = march_room_scenario(tmp_path, "v2", drop_friday=True)
    sc = load_scenario(v2)
    cut = "room.ics: ends at line 3 before END:VCALENDAR: the file is cut short"
    with pytest.raises(PreviousError, match=re.escape(cut)):
        read_previous(sc, first_plan)
    res = runner.invoke(app, ["solve", str(v2), "--previous", str(first_plan), "--out",
                              str(tmp_path / "out")])
    assert res.exit_code == 2
    assert cut in res.output
    assert not (tmp_path / "out").exists()


def test_diff_with_an_unreadable_calendar_is_an_error(first_plan: Path, tmp_path: Path) -> None:
    # Before: an unreadable calendar.ics of NEW counted as "cancels nothing".
    other = tmp_path / "other"
    res = runner.invoke(app, ["solve", str(march_room_scenario(tmp_path, "v2", drop_friday=True)),
                              "--previous", str(first_plan), "--out", str(other)])
    assert res.exit_code == 0, res.output
    (other / "calendar.ics").write_bytes(b"BEGIN:VCALENDAR\r\nnonsense\r\n")
    with pytest.raises(DiffError, match=r"calendar\.ics: not a readable iCalendar file"):
        diff_plans(first_plan, other)
    res = runner.invoke(app, ["diff", str(first_plan), str(other)])
    assert res.exit_code == 2
    assert "not a readable iCalendar file" in res.output


def test_every_solver_stops_on_deterministic_time() -> None:
    # the stage solver: 30 deterministic units by default, no wall-clock limit, one
    # presolve pass; the conflict explanation's: CP-SAT's presolve rounds, same limits
    stage = Options().solver().parameters
    assert (stage.max_deterministic_time, stage.random_seed, stage.num_workers) == (
        DETERMINISTIC_TIME, 0, 1) == (30.0, 0, 1)
    assert stage.max_time_in_seconds == float("inf")  # CP-SAT's default: no wall clock
    assert (stage.linearization_level, stage.max_presolve_iterations) == (2, 0)
    explain = new_solver(time_limit=None, deterministic_time=10.0, seed=7,
                         repeated_presolve=True).parameters
    assert (explain.max_deterministic_time, explain.random_seed) == (10.0, 7)
    assert explain.max_time_in_seconds == float("inf")
    assert explain.max_presolve_iterations == 3  # CP-SAT's default rounds
    both = new_solver(time_limit=5.0, deterministic_time=1.0, seed=0, workers=2).parameters
    assert (both.max_time_in_seconds, both.num_workers, both.interleave_search) == (5.0, 2, True)


_REASONS = ("start-up time", "optional")
"""The only reasons for an import inside a function (or under TYPE_CHECKING)."""


def _nested_imports(path: Path) -> list[tuple[int, int, str]]:
    """Each import inside a function or under TYPE_CHECKING: its first and last line
    (1-based) and the module it names."""
    tree = ast.parse(path.read_text())
    out: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if nested and isinstance(child, ast.Import | ast.ImportFrom):
                name = (child.module if isinstance(child, ast.ImportFrom)
                        else child.names[0].name) or ""
                out.append((child.lineno, child.end_lineno or child.lineno, name))
            visit(child, inner)

    visit(tree, False)
    return out


def _reason_text(lines: list[str], first: int, last: int) -> str:
    """The import on lines ``first``..``last`` (1-based) with the line right above it when
    that line is a comment or the ``if TYPE_CHECKING:`` holding it: the one place its
    reason may be written (a comment further up, over a block of imports, names the
    reason of the first import only; the ``if TYPE_CHECKING:`` line names it for every
    import of its block)."""
    above = lines[first - 2].strip() if first > 1 else ""
    own = " ".join(lines[first - 1:last])
    up = first - 2
    while up > 0 and lines[up].strip().startswith(("from ", "import ")):
        up -= 1
    block = lines[up].strip() if up >= 0 else ""
    if block.startswith("if TYPE_CHECKING"):
        own += " " + block
    return own + (" " + above if above.startswith(("#", "if TYPE_CHECKING")) else "")


def test_imports_inside_functions_say_why() -> None:
    # every import inside a function (or under TYPE_CHECKING) has a comment on its own line
    # or on the line right above it giving one of _REASONS; none points up a layer
    # (lint-imports)
    for path in sorted([*(ROOT / "scheduler").rglob("*.py"), *(ROOT / "constraints").rglob(
            "*.py")]):
        rel = str(path.relative_to(ROOT))
        lines = path.read_text().splitlines()
        for first, last, module in _nested_imports(path):
            near = _reason_text(lines, first, last).lower()
            assert any(r in near for r in _REASONS), f"{rel}:{first}: import {module} " \
                "inside a function without a comment on its line or the line above saying " \
                "why (start-up time, optional)"


def test_a_reason_over_a_block_covers_only_its_first_import() -> None:
    # the second import of a block under one comment has no reason of its own; the
    # TYPE_CHECKING line's comment covers the import right below it
    lines = ["def f():", "    # start-up time: pandas", "    import pandas",
             "    import numpy", "if TYPE_CHECKING:  # start-up time: x", "    import x",
             "    from y import (", "        z,  # optional: y", "    )"]
    assert "start-up time" in _reason_text(lines, 3, 3)
    assert not any(r in _reason_text(lines, 4, 4) for r in _REASONS)
    assert "start-up time" in _reason_text(lines, 6, 6)
    assert "optional" in _reason_text(lines, 7, 9)
