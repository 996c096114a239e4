"""The ledger keeps what was committed and says in one line why it cannot be used.

- a SQLite ledger is checkpointed at the end of every write: the ``.sqlite`` file alone (what
  people copy as a backup) holds an entry even when the command that recorded it was killed
  before it exited (its ``-wal`` file not copied);
- ``tourney ledger backup FILE`` copies it with SQLite's backup API, never over a file; a
  PostgreSQL ledger gets the ``pg_dump`` advice (exit 2);
- a ledger locked past the wait (``TOURNEY_LEDGER_WAIT``, default 30 s), a read-only
  ``-shm`` file, a PostgreSQL URL that does not parse and a count or id too large for the
  database each end with exit 2 and one line, never a traceback (exit 3).

Real SQLite files and a real PostgreSQL server (tests/conftest.py); child processes for
what a command does when killed, locked out or without the right to write (and one run of
``ledger backup`` as a child); the other messages from ``tourney`` run in this process
(:func:`builders.commands.tourney`).
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scheduler.ledger import Ledger, api

from builders.commands import tourney
from builders.plans import write_plan

REPO = Path(__file__).resolve().parents[1]


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120,
         drop_privileges: bool = False) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in a child process limited to 1 GB of memory. ``drop_privileges``:
    without the capabilities of root (file modes then bind it as any user)."""
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        if drop_privileges and os.geteuid() == 0:
            libc = ctypes.CDLL(None, use_errno=True)
            for cap in range(64):  # PR_CAPBSET_DROP: gone from the bounding set at exec
                libc.prctl(24, cap, 0, 0, 0)

    return subprocess.run([sys.executable, "-m", "scheduler.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "TOURNEY_USER": "ann", **(env or {})},
                          preexec_fn=limits)


def _in_process(*args: str, env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in this process, as :func:`_cli` runs it (TOURNEY_USER=ann)."""
    return tourney(*args, env={"TOURNEY_USER": "ann", **(env or {})})


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture
def sqlite_ledger(tmp_path: Path, migrated_sqlite: Callable[[Path], Ledger]) -> Path:
    """A SQLite ledger with the plan of builders.plans.write_plan adopted, closed (checkpointed)."""
    path = tmp_path / "ledger.sqlite"
    lg = migrated_sqlite(path)
    plan = write_plan(tmp_path / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    api.adopt(lg, plan, organization="Big Sky Tour", by="ann")
    lg.dispose()
    return path


# ------------------------------------------------------------------ durability
def test_an_entry_of_a_command_killed_after_it_committed_is_in_the_sqlite_file_alone(
        sqlite_ledger: Path, tmp_path: Path) -> None:
    code = ("import sys, time; from scheduler.ledger import Ledger, api; "
            "lg = Ledger(sys.argv[1]); "
            "api.record_cancelled(lg, 'deep#1', note='snowed in', by='ann'); "
            "print('recorded', flush=True); time.sleep(120)")
    child = subprocess.Popen([sys.executable, "-c", code, str(sqlite_ledger)], cwd=REPO,
                             text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line == "recorded\n", child.stderr.read() if child.stderr else ""
    finally:
        child.send_signal(signal.SIGKILL)  # before it exits: its connection never closed
        child.wait()
    copy = tmp_path / "copy" / "ledger.sqlite"
    copy.parent.mkdir()
    shutil.copyfile(sqlite_ledger, copy)  # the .sqlite file only, not its -wal
    lg = Ledger(copy)
    try:
        held = lg.held()
        assert list(held["outcome"]) == ["cancelled"]
        assert list(held["note"]) == ["snowed in"]
    finally:
        lg.dispose()


def test_ledger_backup_copies_every_entry_and_never_replaces_a_file(
        sqlite_ledger: Path, tmp_path: Path) -> None:
    r = _in_process("record", "cancelled", "deep#1", "--ledger", str(sqlite_ledger))
    assert r.returncode == 0, r.stderr
    target = tmp_path / "backup.sqlite"
    r = _in_process("ledger", "backup", str(target), "--ledger", str(sqlite_ledger))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"Backed up {sqlite_ledger} to {target} (")
    lg = Ledger(target)
    try:
        assert list(lg.held()["outcome"]) == ["cancelled"]
        assert len(lg.events()) == 4  # the adopted plan's occurrence rows came along
    finally:
        lg.dispose()
    before = target.read_bytes()
    r = _in_process("ledger", "backup", str(target), "--ledger", str(sqlite_ledger))
    assert r.returncode == 2
    assert _one_line(r) == (f"tourney: {target} exists: a backup never replaces a file; "
                            "give a new file name. Nothing was written.")
    assert target.read_bytes() == before


def test_ledger_backup_of_a_postgresql_ledger_advises_pg_dump(postgres: str,
                                                              tmp_path: Path) -> None:
    from builders.servers import new_database

    url = new_database(postgres)
    lg = Ledger(url)
    api.init(lg)
    lg.dispose()
    target = tmp_path / "backup.sqlite"
    r = _cli("ledger", "backup", str(target), "--ledger", url)
    assert r.returncode == 2
    line = _one_line(r)
    assert "is a PostgreSQL database: back it up with PostgreSQL's own tool, e.g. pg_dump " \
           "--format=custom --file=ledger.dump 'postgresql://" in line
    assert not target.exists()


# ------------------------------------------------------------------ refusals
def test_a_ledger_locked_longer_than_the_wait_is_exit_2_in_one_line(
        sqlite_ledger: Path) -> None:
    holder = sqlite3.connect(sqlite_ledger, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another command writing, and not finishing
    try:
        start = time.monotonic()
        r = _cli("record", "cancelled", "deep#1", "--ledger", str(sqlite_ledger),
                 env={"TOURNEY_LEDGER_WAIT": "1"})
        took = time.monotonic() - start
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == 2
    assert _one_line(r) == (
        f"tourney: the ledger {sqlite_ledger} is locked: another command has been writing it "
        "for more than 1 s (database is locked); try again when it is done, or wait longer "
        "with TOURNEY_LEDGER_WAIT=120. Nothing was recorded.")
    assert took < 30  # waited 1 s (and started Python), not the default 30 s
    r = _in_process("record", "cancelled", "deep#1", "--ledger", str(sqlite_ledger),
                    env={"TOURNEY_LEDGER_WAIT": "soon"})
    assert r.returncode == 2
    assert _one_line(r) == ("tourney: TOURNEY_LEDGER_WAIT='soon' is not a number of seconds "
                            "from 0 to 86400. Nothing was recorded.")


def test_a_read_only_shm_file_is_exit_2_in_one_line_and_no_trace_once_writable(
        sqlite_ledger: Path) -> None:
    other = sqlite3.connect(sqlite_ledger)  # keeps the -shm file while it is open
    other.execute("SELECT count(*) FROM organizations").fetchall()
    shm = Path(f"{sqlite_ledger}-shm")
    try:
        assert shm.exists()
        shm.chmod(0o444)
        r = _cli("ledger", "export", "--ledger", str(sqlite_ledger), drop_privileges=True)
        assert r.returncode == 2
        line = _one_line(r)
        assert line.startswith(f"tourney: cannot write the ledger {sqlite_ledger}: it is "
                               "read-only (attempt to write a readonly database); check that "
                               f"you may write {sqlite_ledger}, {sqlite_ledger}-wal, "
                               f"{sqlite_ledger}-shm and their folder")
        shm.chmod(0o644)
        r = _cli("ledger", "export", "--ledger", str(sqlite_ledger), drop_privileges=True)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("table,key,recorded_at,recorded_by,")
    finally:
        other.close()


def test_a_postgresql_url_that_does_not_parse_is_exit_2_without_its_password() -> None:
    r = _in_process("ledger", "export", "--ledger",
             "postgresql+psycopg://ann:hunter2@db.example:notaport/ledger")
    assert r.returncode == 2
    line = _one_line(r)
    assert "hunter2" not in line and "ann:" not in line
    assert line == ("tourney: --ledger 'postgresql+psycopg://***@db.example:notaport/ledger' "
                    "is neither a file name nor a database URL (sqlite:///PATH, "
                    "postgresql+psycopg://USER@HOST:PORT/DB). Nothing was written.")


def test_players_and_corrects_too_large_for_the_database_are_exit_2(
        sqlite_ledger: Path) -> None:
    huge = str(10**20)  # more than SQLite's 8-byte INTEGER (9.2e18), PostgreSQL's (2.1e9)
    r = _in_process("record", "held", "deep#1", "--first-day", "2026-03-05", "--last-day",
                    "2026-03-07", "--players", huge, "--ledger", str(sqlite_ledger))
    assert r.returncode == 2
    assert _one_line(r) == (f"tourney: --players: {huge} is more than 1,000,000. Nothing was "
                            "recorded.")
    # the boundary: 1,000,000 players is recorded, 1,000,001 is not
    r = _in_process("record", "held", "deep#1", "--first-day", "2026-03-05", "--last-day",
                    "2026-03-07", "--entries", "1000001", "--ledger", str(sqlite_ledger))
    assert r.returncode == 2 and "--entries: 1000001 is more than 1,000,000" in r.stderr
    r = _in_process("record", "held", "deep#1", "--first-day", "2026-03-05", "--last-day",
                    "2026-03-07", "--players", "1000000", "--ledger", str(sqlite_ledger))
    assert r.returncode == 0, r.stderr
    for corrects in (huge, str(2**31)):  # 2**31 - 1 is PostgreSQL's largest INTEGER
        r = _in_process("record", "cancelled", "deep#1", "--corrects", corrects,
                        "--ledger", str(sqlite_ledger))
        assert r.returncode == 2
        assert _one_line(r) == (f"tourney: --corrects {corrects} is not an entry id (a whole "
                                "number from 1 to 2,147,483,647). Nothing was recorded.")
    r = _in_process("record", "cancelled", "deep#1", "--corrects", str(2**31 - 1),
                    "--ledger", str(sqlite_ledger))
    assert r.returncode == 2 and "no entry #2147483647 in held" in r.stderr

