"""Issue #17 parts 3 and 4, re-tested: the faults an adversarial tester found in the first fix.

No file is lost: the plan folder is locked and checked *before* solving (a second solve is
refused at once), a file added while writing is never deleted, the manifest is verified
(size, SHA-256, names tourney writes) and a folder holding one of the command's inputs is
never replaced, a read-only parent stops even root. Secrets: click's usage errors and every
URL form (``@``, ``/``, ``#``, ``?`` in the password, IPv6 hosts) are redacted, tourney's own
words never are. Dask: a hung worker and a lost scheduler end in one line, exit 3, bounded.

Every test is bounded (the ``_alarm`` fixture: 120 s; subprocess timeouts); servers listen
on 127.0.0.1 only and are stopped by the test.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scheduler.cli import app
from scheduler.core.manifest import MANIFEST

from builders.caldav import Server, radicale_server
from builders.commands import ROOT, hidden, runner, solve, tiny_scenario, tree, write_tiny_plan
from builders.servers import free_port

pytestmark = pytest.mark.usefixtures("alarm_120s")  # what could hang fails in 120 s


@pytest.fixture
def plan(tmp_path: Path) -> Path:
    """A plan tourney wrote (count 2) in tmp_path/plan."""
    return write_tiny_plan(tmp_path)


# =========================================================================== 1. the lock
_SLOW = textwrap.dedent("""
    # `tourney solve` / `tourney sweep` whose solving waits for a line on stdin (a long
    # solve, made long on purpose), announcing on stdout that it is solving
    import sys
    import scheduler.engine.solver as solver
    import scheduler.studies.sweep as sweep
    real_solve, real_sweep = solver.solve, sweep.sweep
    def wait():
        print("solving", flush=True)
        sys.stdin.readline()
    def solve(*args, **kwargs):
        wait()
        return real_solve(*args, **kwargs)
    def sweep_(*args, **kwargs):
        wait()
        return real_sweep(*args, **kwargs)
    solver.solve, sweep.sweep = solve, sweep_
    from scheduler.cli import main
    sys.argv = ["tourney", *sys.argv[1:]]
    main()
""")


def _started(args: list[str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", _SLOW, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == b"solving\n", proc.communicate(timeout=60)
    return proc


@pytest.mark.parametrize("command", ["solve", "sweep"])
def test_a_second_command_into_the_same_output_is_refused_while_the_first_solves(
        tmp_path: Path, command: str) -> None:
    # before: the lock was held only while writing, so the second (fast) solve wrote its
    # plan and the first (slow) one then replaced it, both exit 0, no warning
    sc = tiny_scenario(tmp_path)
    vary = tmp_path / "vary.yaml"
    vary.write_text("grid:\n  settings.month_rule: [touch]\n", encoding="utf-8")
    if command == "solve":
        out = tmp_path / "Z"
        args = ["solve", str(sc), "--out", str(out)]
    else:
        out = tmp_path / "z.csv"
        args = ["sweep", str(sc), "--vary", str(vary), "--out", str(out), "--jobs", "1"]
    first = _started(args)
    try:
        start = time.monotonic()
        res = runner.invoke(app, args)
        took = time.monotonic() - start
        assert res.exit_code == 2, res.output
        assert "another tourney command is writing" in res.output, res.output
        assert "Traceback" not in res.output
        assert not out.exists()  # the second changed nothing
        assert took < 20  # refused at once, not after solving
    finally:
        _, err = first.communicate(b"\n", timeout=100)
    assert first.returncode == 0, err.decode()
    assert out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_folder_that_will_be_refused_is_refused_before_solving(tmp_path: Path) -> None:
    # before: "holds files that are not part of a tourney plan" came after the whole solve
    out = tmp_path / "Z"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW, "solve", str(tiny_scenario(tmp_path)), "--out", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    stdout, stderr = proc.communicate(b"\n", timeout=100)
    assert proc.returncode == 2, stderr.decode()
    assert b"solving" not in stdout  # the solver never started
    assert b"notes.txt" in stderr and b"Nothing was changed; nothing was solved" in stderr
    assert (out / "notes.txt").read_text() == "mine\n"


# =========================================================================== 2. added meanwhile
@pytest.mark.parametrize("swap", ["exchange", "two-renames"])
def test_a_file_added_while_writing_is_never_deleted(
        tmp_path: Path, plan: Path, swap: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: after the swap the previous folder was removed without looking again, so a
    # file someone saved into the plan folder while solve was writing was deleted
    import scheduler.core.atomic as atomic

    real = atomic._exchange
    saved: list[bool] = []

    def exchange(a: Path, b: Path) -> bool:
        if not saved:  # someone saves a file into the plan folder just before the swap
            (plan / "notes.txt").write_text("written meanwhile\n", encoding="utf-8")
            saved.append(True)
        return real(a, b) if swap == "exchange" else False

    monkeypatch.setattr(atomic, "_exchange", exchange)
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 2, out
    assert "files appeared in" in out and "notes.txt" in out and "put back" in out
    assert (plan / "notes.txt").read_text() == "written meanwhile\n"
    # the previous plan is back in place, whole (count 2: a header and two occurrences)
    assert len((plan / "schedule.csv").read_text().splitlines()) == 1 + 2
    assert [n for n in hidden(tmp_path) if not n.startswith(".plan.lock")] == []


# =========================================================================== 3. manifest, inputs
def _list(folder: Path, rel: str, data: bytes | None = None) -> None:
    """Append a line for ``rel`` to the folder's manifest: a made-up hash, or ``data``'s."""
    digest = hashlib.sha256(data).hexdigest() if data is not None else "0" * 64
    size = len(data) if data is not None else 9
    with open(folder / MANIFEST, "a", encoding="utf-8") as fh:
        fh.write(f"{digest}  {size}  {rel}\n")


@pytest.mark.parametrize("hashed", [False, True])
def test_a_name_listed_in_the_manifest_that_tourney_never_writes_is_refused(
        tmp_path: Path, plan: Path, hashed: bool) -> None:
    # before: `echo "0000…  9  notes.txt" >> Q/.tourney-plan` made solve delete notes.txt
    (plan / "notes.txt").write_bytes(b"precious\n")
    _list(plan, "notes.txt", b"precious\n" if hashed else None)
    before = tree(plan)
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 2, out
    # with the right hash or a made-up one: tourney never writes a notes.txt into a plan
    assert "notes.txt (listed in .tourney-plan, but tourney never writes such a file)" in out
    assert "Nothing was changed" in out
    assert tree(plan) == before


def test_a_folder_holding_the_scenario_is_never_replaced(tmp_path: Path, plan: Path) -> None:
    # before: `solve Q/S.yaml --out Q` with S.yaml listed in the manifest deleted the input
    sc = tiny_scenario(plan, "S.yaml", count=1)
    _list(plan, "S.yaml", sc.read_bytes())
    before = tree(plan)
    code, out = solve(sc, plan)
    assert code == 2, out
    assert "an input of this command" in out and "S.yaml" in out
    assert tree(plan) == before


@pytest.mark.parametrize("how", ["named-like-a-product", "hard-link"])
def test_a_folder_without_manifest_holding_the_scenario_is_never_replaced(
        tmp_path: Path, how: str) -> None:
    # before: `solve L/summary.txt --out L` (no manifest) overwrote the scenario
    folder = tmp_path / "L"
    folder.mkdir()
    if how == "named-like-a-product":
        sc = tiny_scenario(folder, "summary.txt", count=1)
    else:  # the scenario elsewhere, a hard link to it in the folder under a plan's name
        sc = tiny_scenario(tmp_path, "s.yaml", count=1)
        os.link(sc, folder / "schedule.csv")
    before = {**tree(folder), "scenario": sc.read_bytes()}
    code, out = solve(sc, folder)
    assert code == 2, out
    assert "an input of this command" in out
    assert {**tree(folder), "scenario": sc.read_bytes()} == before


def test_replanning_in_place_from_the_folder_itself_still_works(
        tmp_path: Path, plan: Path) -> None:
    # --previous PLAN --out PLAN is the documented re-plan: read whole before solving
    res = runner.invoke(app, ["solve", str(tiny_scenario(tmp_path, "t.yaml", count=2)),
                              "--previous", str(plan), "--out", str(plan)])
    assert res.exit_code == 0, res.output


# =========================================================================== 9. smaller
@pytest.mark.parametrize("command", ["solve", "sweep"])
def test_a_read_only_parent_folder_is_respected_even_by_root(
        tmp_path: Path, command: str) -> None:
    # before: as root, `chmod a-w .` did not stop the plan (or sweep.csv) being written there
    parent = tmp_path / "ro"
    parent.mkdir()
    sc = tiny_scenario(tmp_path)
    (tmp_path / "vary.yaml").write_text("grid:\n  settings.month_rule: [touch]\n",
                                        encoding="utf-8")
    mode = parent.stat().st_mode
    parent.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        if command == "solve":
            code, out = solve(sc, parent / "plan")
        else:
            res = runner.invoke(app, ["sweep", str(sc), "--vary", str(tmp_path / "vary.yaml"),
                                      "--out", str(parent / "out.csv"), "--jobs", "1"])
            code, out = res.exit_code, res.output
    finally:
        parent.chmod(mode)
    assert code == 2, out
    assert "is read-only" in out and "Traceback" not in out
    assert list(parent.iterdir()) == []  # not even a lock file


def test_file_names_in_messages_never_carry_control_characters(
        tmp_path: Path, plan: Path) -> None:
    # before: a file name with an escape sequence went raw to the terminal
    (plan / "evil\x1b[2J.txt").write_text("x", encoding="utf-8")
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 2, out
    assert "\x1b" not in out and "'evil\\x1b[2J.txt'" in out


# =========================================================================== 4. secrets
ODD = "p@ss/w#rd?x"
"""A password holding every character that ends a URL's user information early."""


@pytest.fixture(scope="module")
def odd_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Radicale on 127.0.0.1 (a free port), user alice with the password :data:`ODD`;
    stopped at the end of the module."""
    with radicale_server(tmp_path_factory.mktemp("radicale-odd"), "alice", ODD) as srv:
        yield srv


def _publish(plan: Path, url: str, password: str, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[int, str]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost,::1")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost,::1")
    monkeypatch.setenv("TOURNEY_CALDAV_PASSWORD", password)
    res = runner.invoke(app, ["publish", str(plan), "--caldav", url, "--user", "alice",
                              "--timeout", "10"])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_usage_errors_never_show_url_credentials(plan: Path) -> None:
    # before: "Error: Got unexpected extra argument(s) (http://alice:secret@127.0.0.1:5232/)"
    proc = subprocess.run(
        [sys.executable, "-m", "scheduler.cli", "publish", str(plan),
         "http://alice:secret@127.0.0.1:5232/", "--user", "alice", "--caldav",
         "http://127.0.0.1:5232/"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "Got unexpected extra argument(s) (http://***@127.0.0.1:5232/)" in proc.stderr
    assert "secret" not in proc.stderr + proc.stdout
    res = runner.invoke(app, ["http://bob:hunter2@h.example/"])  # not even a command
    assert res.exit_code == 2 and "hunter2" not in res.output
    assert "No such command 'http://***@h.example/'" in res.output


def test_redact_ends_the_user_information_at_its_last_at() -> None:
    from scheduler.export.caldav.redaction import redact

    # before: 'http://***@ss@127.0.0.1:5232/' ('@' in the password) and the whole URL
    # shown for '/', '#' or '?' in the password
    for pw in ["p@ss", "my/secret", "a#b", "a?b", ODD]:
        assert redact(f"at 'http://at:{pw}@127.0.0.1:5232/x' now") == \
            "at 'http://***@127.0.0.1:5232/x' now", pw
    assert redact("http://alice:secret@[::1/") == "http://***@[::1/"  # does not parse
    assert redact("http://alice:secret@[::1]:5232/") == "http://***@[::1]:5232/"
    # no user information: an '@' in the path is left alone
    assert redact("https://h.example/dav/alice@example.org/x/") == \
        "https://h.example/dav/alice@example.org/x/"
    assert redact("https://[::1]:5232/alice@x/") == "https://[::1]:5232/alice@x/"
    # a password only as a whole word: never inside another word
    assert redact("wrong password; wrongly", ["wrong"]) == "*** password; wrongly"


def test_a_password_with_at_slash_hash_and_question_mark_is_hidden_on_success(
        odd_server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: 'http://***@ss/w#rd?x@127.0.0.1:PORT/' (the rest of the password shown)
    url = odd_server.url.replace("http://", f"http://alice:{ODD}@")
    code, out = _publish(plan, url, ODD, monkeypatch)
    assert code == 0, out
    assert f"Published 1 calendar(s) to {odd_server.url.replace('http://', 'http://***@')}" \
        in out
    for part in ["p@ss", "ss/w", "w#rd", "rd?x"]:
        assert part not in out, out


def test_a_wrong_password_that_is_a_word_leaves_tourneys_sentence_whole(
        server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: "(HTTP 401: *** user name or password? ...)" for the password "wrong"
    code, out = _publish(plan, server.url, "wrong", monkeypatch)
    assert code == 2, out
    assert "(HTTP 401: wrong user name or password?" in out and "***" not in out


def test_ipv6_caldav_urls_keep_their_brackets_and_never_crash(
        plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: '[::1/' was exit 3 "internal error (ValueError: Invalid IPv6 URL)" and
    # '[::1]:PORT' failed "Failed to parse: http://::1:PORT/" (brackets lost)
    code, out = _publish(plan, "http://alice:secret@[::1/", "pw-123", monkeypatch)
    assert code == 2 and "must be an http:// or https:// URL" in out, out
    assert "secret" not in out
    port = free_port()  # nothing listens there
    code, out = _publish(plan, f"http://alice:secret@[::1]:{port}/", "pw-123", monkeypatch)
    assert code == 2, out
    assert "Failed to parse" not in out and "secret" not in out
    assert f"cannot reach the CalDAV server at http://***@[::1]:{port}/" in out


# =========================================================================== 4. Dask
_SLOW_TASK = textwrap.dedent("""
    # a worker preload: the variant's task announces it started, then takes a minute (a
    # busy worker: it still sends its heartbeats)
    import os, pathlib, time
    import scheduler.studies.sweep as sweep
    def _slow(*args, **kwargs):
        pathlib.Path(os.environ["TOURNEY_TEST_MARK"]).write_text("started")
        time.sleep(60)
    sweep._solve_variant = _slow
""")


class _Cluster:
    """A Dask scheduler on 127.0.0.1 (a free port) and, unless ``workers`` is 0, one
    worker whose task is :data:`_SLOW_TASK`; a sweep of one variant against it. Every
    process is killed by :meth:`stop`."""

    def __init__(self, tmp_path: Path, workers: int = 1) -> None:
        self.tmp = tmp_path
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.mark = tmp_path / "started"
        self.log = open(tmp_path / "dask.log", "wb")  # noqa: SIM115  (closed by stop)
        self.procs: list[subprocess.Popen[Any]] = []
        self.scheduler = self._start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                      "--port", self.address.rsplit(":", 1)[1],
                                      "--no-dashboard"])
        preload = tmp_path / "slow_task.py"
        preload.write_text(_SLOW_TASK, encoding="utf-8")
        self.worker = None
        if workers:
            self.worker = self._start(["distributed.cli.dask_worker", self.address,
                                       "--no-nanny", "--nthreads", "1", "--preload",
                                       str(preload), "--no-dashboard"])

    def _start(self, args: list[str]) -> subprocess.Popen[Any]:
        env = {**os.environ, "TOURNEY_TEST_MARK": str(self.mark)}
        proc = subprocess.Popen([sys.executable, "-m", *args], stdout=self.log,
                                stderr=self.log, cwd=ROOT, env=env)
        self.procs.append(proc)
        return proc

    def sweep(self, timeout: str) -> subprocess.Popen[str]:
        vary = self.tmp / "vary.yaml"
        vary.write_text("grid:\n  settings.month_rule: [touch]\n", encoding="utf-8")
        proc = subprocess.Popen(
            [sys.executable, "-m", "scheduler.cli", "sweep", str(tiny_scenario(self.tmp)),
             "--vary", str(vary), "--out", str(self.tmp / "out.csv"), "--dask",
             self.address, "--timeout", timeout],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.procs.append(proc)
        return proc

    def wait_started(self, sweeper: subprocess.Popen[str]) -> None:
        end = time.monotonic() + 60
        while not self.mark.exists():  # the worker is solving the variant
            assert time.monotonic() < end and sweeper.poll() is None, \
                (sweeper.communicate(timeout=10), (self.tmp / "dask.log").read_text())
            time.sleep(0.2)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                with contextlib.suppress(OSError):
                    os.kill(p.pid, signal.SIGCONT)
                p.kill()
            p.wait()
        self.log.close()


def test_a_hung_dask_worker_is_bounded_by_timeout(tmp_path: Path) -> None:
    # before: a worker stopped with SIGSTOP hung the sweep past 90 s despite --timeout
    cluster = _Cluster(tmp_path)
    try:
        sweeper = cluster.sweep(timeout="3")
        cluster.wait_started(sweeper)
        time.sleep(3 + 3)  # busy longer than --timeout, but alive: not given up on
        assert sweeper.poll() is None, sweeper.communicate(timeout=10)
        assert cluster.worker is not None
        os.kill(cluster.worker.pid, signal.SIGSTOP)  # hung: no heartbeat, no answer
        start = time.monotonic()
        _, err = sweeper.communicate(timeout=60)
        took = time.monotonic() - start
    finally:
        cluster.stop()
    assert sweeper.returncode == 3, err
    assert "no variant finished in 3 s and no worker of the Dask cluster at" in err
    assert "0 of 1 variant(s) were solved. Nothing was written." in err
    # the line announcing the sweep, then one line
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 + 1, err
    assert took < 30 and not (tmp_path / "out.csv").exists()


def test_a_dask_scheduler_killed_mid_sweep_is_one_line(tmp_path: Path) -> None:
    # before: two `distributed.client - ERROR` tracebacks (37 lines), then "internal error
    # (FuturesCancelledError ...)"
    cluster = _Cluster(tmp_path)
    try:
        sweeper = cluster.sweep(timeout="3")
        cluster.wait_started(sweeper)
        cluster.scheduler.kill()
        start = time.monotonic()
        _, err = sweeper.communicate(timeout=60)
        took = time.monotonic() - start
    finally:
        cluster.stop()
    assert sweeper.returncode == 3, err
    assert f"lost the connection to the Dask scheduler at {cluster.address}" in err
    assert "0 of 1 variant(s) were solved. Nothing was written." in err
    assert "Traceback" not in err and "ERROR" not in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1 + 1, err  # "Solving ...", then one line
    assert took < 30 and not (tmp_path / "out.csv").exists()


def test_a_dask_scheduler_without_workers_says_so(tmp_path: Path) -> None:
    # before: "cannot reach the Dask scheduler ...: Only 0/1 workers arrived after 2s"
    cluster = _Cluster(tmp_path, workers=0)
    try:
        _, err = cluster.sweep(timeout="2").communicate(timeout=60)
    finally:
        cluster.stop()
    assert f"the Dask scheduler at {cluster.address} has no worker (none joined within 2 s" \
        in err
    assert "cannot reach" not in err and "Traceback" not in err
