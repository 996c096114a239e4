"""Scenario files and plan folders made through the command line, for the tests of the
commands (solve, sweep, check, publish): a tiny Montana room solved by ``tourney solve``, a
sweep in a child process under a memory bound, ``tourney`` run in this process as a child
would be (:func:`tourney`), the bytes of every file of a folder, and where Chromium is.
"""

from __future__ import annotations

import contextlib
import gc
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


# --------------------------------------------------------------------------- the tiny room
TINY = {
    "name": "Tiny room",
    "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
    "notice_from": "2027-02-20",
    "operators": [{"id": "room", "name": "Tiny Room", "jurisdiction": "MT", "live_tables": 1}],
    "tournaments": [{"id": "spring", "title": "Spring Stack", "type": "large-stakes",
                     "operators": ["room"], "count": 2, "weekdays": ["sat"]}],
}
"""One Montana room, March 2027, ``spring``: 2 large-stakes Saturdays."""


def tiny_scenario(folder: Path, name: str = "s.yaml", count: int = 2) -> Path:
    """:data:`TINY` (``count`` Saturdays) written to ``folder/name``."""
    data = {**TINY, "tournaments": [{**TINY["tournaments"][0], "count": count}]}
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``: relative POSIX path -> bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def hidden(folder: Path, name: str = "plan") -> list[str]:
    """The hidden siblings ``.name.*`` (a plan folder's staging and old copies)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


def solve(scenario: Path, out: Path) -> tuple[int, str]:
    """``tourney solve SCENARIO --out OUT`` in process: (exit code, output), no traceback."""
    res = runner.invoke(app, ["solve", str(scenario), "--out", str(out)])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def write_tiny_plan(folder: Path) -> Path:
    """``folder/plan``: the plan tourney writes for :func:`tiny_scenario` (count 2)."""
    out = folder / "plan"
    code, text = solve(tiny_scenario(folder), out)
    assert code == 0, text
    return out


# --------------------------------------------------------------------------- in process
def tourney(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
            input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` run in this process, answered as a child process's run is: exit code,
    stdout and stderr apart. For a test of a command's output or message, not of the process
    (a signal, a kill, a memory bound, a lock another process holds: those keep a child).

    ``env`` is set for the command and removed after it (typer's ``CliRunner``); what the
    command may change for the rest of its process is put back: the working folder, the
    SIGINT handler, the garbage collector's frozen objects. An exception the command lets
    through (a real ``tourney`` would end it in exit 3 with one line) fails the test."""
    before = os.getcwd(), signal.getsignal(signal.SIGINT), gc.isenabled()
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        try:
            res = runner.invoke(app, list(args), env=env, input=input)
        finally:
            os.chdir(before[0])
            signal.signal(signal.SIGINT, before[1])
            if before[2]:
                gc.enable()
            gc.unfreeze()
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    assert "Traceback" not in res.stderr, res.stderr
    return subprocess.CompletedProcess(["tourney", *args], res.exit_code, res.stdout,
                                       res.stderr)


# --------------------------------------------------------------------------- sweep, child
def sweep(tmp: Path, *args: str, timeout: float = 90
          ) -> tuple[subprocess.CompletedProcess[str], float]:
    """``tourney sweep`` of :func:`tiny_scenario` over one value of month_rule, in a child
    process bounded to 2 GiB of address space: (the process, seconds it took)."""
    vary = tmp / "vary.yaml"
    vary.write_text("grid:\n  settings.month_rule: [touch]\n", encoding="utf-8")

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "scheduler.cli", "sweep", str(tiny_scenario(tmp)),
                        "--vary", str(vary), "--out", str(tmp / "out.csv"), *args],
                       capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                       preexec_fn=limits)
    return r, time.monotonic() - start


def sweep_in_process(tmp: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """What :func:`sweep` runs, in this process (:func:`tourney`), for a sweep refused on its
    arguments before it solves or connects: (the run, seconds it took)."""
    vary = tmp / "vary.yaml"
    vary.write_text("grid:\n  settings.month_rule: [touch]\n", encoding="utf-8")
    start = time.monotonic()
    r = tourney("sweep", str(tiny_scenario(tmp)), "--vary", str(vary), "--out",
                str(tmp / "out.csv"), *args)
    return r, time.monotonic() - start


def last_line(r: subprocess.CompletedProcess[str]) -> str:
    """The last line a child wrote on stderr (it wrote no traceback)."""
    assert "Traceback" not in r.stderr, r.stderr
    return r.stderr.strip().splitlines()[-1]


# --------------------------------------------------------------------------- one room, 2027
def room_scenario(tournaments: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """One Montana card room and ``tournaments`` in 2027 (notices from Dec 1, 2026)."""
    return {"name": "hostile test", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-12-01",
            "operators": [{"id": "room", "name": "Bitterroot Card Room", "jurisdiction": "MT",
                           "live_tables": 2}],
            "tournaments": tournaments, **top}


def room_large(tid: str, **kw: Any) -> dict[str, Any]:
    """One large-stakes tournament at ``room``: 12:00 for 10 h, $375 entry."""
    return {"id": tid, "title": f"{tid} title", "type": "large-stakes", "operators": ["room"],
            "start_time": "12:00", "hours": 10, "count": 1, "entry_fee": 375, **kw}


# --------------------------------------------------------------------------- March at a room
LAYERS_ROOM = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}


def march_room_scenario(tmp: Path, name: str, *, drop_friday: bool) -> Path:
    """March 2027 at one Montana room: ``sat`` (large-stakes, Saturdays 6, 13, 20, 27) and,
    unless dropped, ``fri`` (large-stakes, one Friday). Version 2 drops ``fri``, wants 2
    Saturdays instead of 3 and blacks out Mar 13."""
    sat = {"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
           "operators": ["room"], "weekdays": ["sat"], "count": 2 if drop_friday else 3}
    fri = {"id": "fri", "title": "Friday Fifty", "type": "large-stakes",
           "operators": ["room"], "weekdays": ["fri"], "count": 1}
    room = {**LAYERS_ROOM, "blackout": ["2027-03-13"]} if drop_friday else LAYERS_ROOM
    data = {"name": "Room 2027", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01", "operators": [room],
            "tournaments": [sat] if drop_friday else [sat, fri]}
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


# --------------------------------------------------------------------------- Chromium
CHROMIUM = "/usr/bin/chromium"


def chromium() -> str:
    """The path of Chromium; without it the test is skipped, or fails under
    ``TOURNEY_REQUIRE_CHROMIUM=1``."""
    path = shutil.which("chromium") or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    if path is None:
        if os.environ.get("TOURNEY_REQUIRE_CHROMIUM") == "1":
            pytest.fail("TOURNEY_REQUIRE_CHROMIUM=1 but chromium is not installed "
                        "(apt-get install chromium)")
        pytest.skip("chromium is not installed (Debian package chromium)")
    return path
