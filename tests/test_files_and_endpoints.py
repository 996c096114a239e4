"""Issue #17 parts 3 and 4: no file is lost, no secret is shown, no endpoint hangs a command.

Part 3: an output is never written over an input (by name, symbolic or hard link); a plan
folder holding files tourney did not write is never replaced, at any depth; a run killed
between the two renames of a plan folder is recovered by the next run; two writers into one
folder cannot interleave; a read-only folder is left alone.

Part 4: credentials in a CalDAV URL never appear in output; calendar file names cannot steer
publish into another collection; plain http:// is refused unless asked for; a server that
trickles bytes, a Dask endpoint that is silent, answers garbage or loses its only worker
each end the command with exit 2 or 3 in bounded time.

Every server here is on 127.0.0.1, started by the test, and stops by itself; every test that
could hang runs under an alarm or a subprocess timeout, so a regression fails fast.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app

from builders.caldav import Server
from builders.commands import ROOT, hidden, solve, tiny_scenario, tree, write_tiny_plan
from builders.servers import free_port

runner = CliRunner()

VARY = "grid:\n  settings.month_rule: [touch, start]\n"
pytestmark = pytest.mark.usefixtures("alarm_120s")  # what could hang fails in 120 s


@pytest.fixture
def plan(tmp_path: Path) -> Path:
    """A plan tourney wrote (count 2) in tmp_path/plan."""
    return write_tiny_plan(tmp_path)


# =========================================================================== 3. no file lost
# --------------------------------------------------------------------------- inputs
@pytest.mark.parametrize("target", ["scenario", "vary", "symlink", "hardlink", "usage"])
def test_sweep_never_writes_over_an_input(tmp_path: Path, target: str) -> None:
    # before: `sweep S.yaml --out S.yaml` replaced the scenario with the sweep's CSV
    sc = tiny_scenario(tmp_path)
    vary = tmp_path / ("mine.usage.csv" if target == "usage" else "vary.yaml")
    vary.write_text(VARY, encoding="utf-8")
    out = {"scenario": sc, "vary": vary, "usage": tmp_path / "mine.csv",
           "symlink": tmp_path / "link.yaml", "hardlink": tmp_path / "hard.csv"}[target]
    if target == "symlink":
        out.symlink_to(sc)
    if target == "hardlink":
        os.link(vary, out)
    before = tree(tmp_path)
    res = runner.invoke(app, ["sweep", str(sc), "--vary", str(vary), "--out", str(out),
                              "--jobs", "1"])
    assert res.exit_code == 2, res.output
    assert "is the input file" in res.stderr and "writing there would destroy it" in res.stderr
    assert "Nothing was solved or written" in res.stderr
    assert tree(tmp_path) == before  # every byte of every input still there


def test_write_files_is_atomic_and_same_file_sees_links(tmp_path: Path) -> None:
    from scheduler.core.atomic_files import same_file, write_files

    a = tmp_path / "a.csv"
    write_files({a: b"one\n", tmp_path / "sub" / "b.csv": b"two\n"})
    assert a.read_bytes() == b"one\n" and (tmp_path / "sub" / "b.csv").read_bytes() == b"two\n"
    # a folder among the targets: nothing is replaced, no temporary file is left
    with pytest.raises(IsADirectoryError):
        write_files({a: b"new\n", tmp_path / "sub": b"x"})
    assert a.read_bytes() == b"one\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "sub"]
    (tmp_path / "l.csv").symlink_to(a)
    os.link(a, tmp_path / "h.csv")
    assert same_file(a, tmp_path / "l.csv") and same_file(a, tmp_path / "h.csv")
    assert same_file(a, tmp_path / "sub" / ".." / "a.csv")
    assert not same_file(a, tmp_path / "sub" / "b.csv")
    assert not same_file(a, tmp_path / "missing.csv")


# --------------------------------------------------------------------------- foreign files
@pytest.mark.parametrize("extra", ["alternative-2/notes.txt", "calendars/mine.ics",
                                   "calendars/deep/x.ics", "alternative-2/calendars/bob.ics",
                                   "photos/me.jpg", ".secret"])
def test_plan_folder_with_foreign_files_is_refused_at_every_depth(
        tmp_path: Path, plan: Path, extra: str) -> None:
    # before: anything inside alternative-*/ and extra calendars/*.ics went with the old plan
    path = plan / extra
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"BEGIN:VCALENDAR\r\nmine\r\n")
    before = tree(plan)
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 2, out
    assert "holds files that are not part of a tourney plan" in out and extra in out
    assert "Nothing was changed" in out
    assert tree(plan) == before and hidden(tmp_path) == []


def test_a_plan_written_by_tourney_is_replaced_whole(tmp_path: Path, plan: Path) -> None:
    from scheduler.core.manifest import MANIFEST, read_manifest

    listed = read_manifest(plan)
    assert listed is not None
    files = {rel: data for rel, data in tree(plan).items() if rel != MANIFEST}
    assert set(listed) == set(files)
    assert all(listed[rel][0] == len(data) for rel, data in files.items())
    # a file tourney wrote but someone edited since (its SHA-256 is not the manifest's) is
    # someone's work: refused (#17 re-test); moved away, the rest is replaced whole
    (plan / "schedule.csv").write_text("edited\n", encoding="utf-8")
    before = tree(plan)
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 2 and "schedule.csv (changed since tourney wrote it)" in out, out
    assert tree(plan) == before
    (plan / "schedule.csv").rename(tmp_path / "my-schedule.csv")
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 0, out
    # count 1: a header line and one placed occurrence
    assert len((plan / "schedule.csv").read_text().splitlines()) == 1 + 1
    assert hidden(tmp_path) == []


def test_plan_folder_of_an_earlier_version_without_manifest(tmp_path: Path, plan: Path) -> None:
    from scheduler.core.manifest import MANIFEST

    (plan / MANIFEST).unlink()  # as written before the manifest existed
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 0, out
    assert (plan / MANIFEST).is_file()
    # without a manifest, a calendar tourney did not write (no tourney PRODID) is foreign
    (plan / MANIFEST).unlink()
    (plan / "calendars" / "bob.ics").write_bytes(b"BEGIN:VCALENDAR\r\nPRODID:-//Bob//\r\n")
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=2), plan)
    assert code == 2 and "calendars/bob.ics" in out, out
    assert (plan / "calendars" / "bob.ics").is_file()


# --------------------------------------------------------------------------- kill -9
_KILL = textwrap.dedent("""
    import os, shutil, signal, sys
    import scheduler.core.atomic as atomic
    where = sys.argv[1]
    if where == "between-renames":  # the two-rename path (no renameat2 exchange)
        atomic._exchange = lambda a, b: False
        real = os.rename
        def rename(src, dst, *args, **kwargs):
            real(src, dst, *args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)  # right after the first: out moved away
        os.rename = rename
    else:  # "after-swap": killed before the previous plan is removed
        def discard(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
        atomic._discard = discard
    from scheduler.cli import main
    sys.argv = ["tourney", "solve", sys.argv[2], "--out", sys.argv[3]]
    main()
""")


def _killed_solve(where: str, scenario: Path, out: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", _KILL, where, str(scenario), str(out)],
                          capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()


def test_killed_between_the_two_renames_the_next_run_recovers(
        tmp_path: Path, plan: Path) -> None:
    from scheduler.core.atomic import recover
    from scheduler.export.write import _legacy_unlisted

    before = tree(plan)
    new = tiny_scenario(tmp_path, "t.yaml", count=1)
    _killed_solve("between-renames", new, plan)
    # what the issue found: no plan folder, the previous one hidden beside it
    # (and the lock file of the killed run: the kernel released its lock)
    assert not plan.exists()
    assert [n.split("-")[0] for n in hidden(tmp_path)] == [".plan.lock", ".plan.old",
                                                            ".plan.tmp"]
    recover(plan, _legacy_unlisted)  # what every write into the folder does first
    assert tree(plan) == before and hidden(tmp_path) == [".plan.lock"]
    # again, and this time the next `tourney solve` itself recovers, then writes
    _killed_solve("between-renames", new, plan)
    code, out = solve(new, plan)
    assert code == 0, out
    assert len((plan / "schedule.csv").read_text().splitlines()) == 1 + 1  # count 1
    assert hidden(tmp_path) == []


def test_killed_after_the_swap_the_next_run_cleans_up(tmp_path: Path, plan: Path) -> None:
    new = tiny_scenario(tmp_path, "t.yaml", count=1)
    _killed_solve("after-swap", new, plan)
    assert len((plan / "schedule.csv").read_text().splitlines()) == 1 + 1  # the new plan
    left = hidden(tmp_path)  # the killed run's lock file, and the previous plan
    assert len(left) == 2 and left[0] == ".plan.lock" and left[1].startswith(".plan.tmp-")
    code, out = solve(tiny_scenario(tmp_path), plan)
    assert code == 0, out
    assert hidden(tmp_path) == []


# --------------------------------------------------------------------------- lock, read-only
_HOLD = textwrap.dedent("""
    # hold a folder's lock (as a tourney command writing it does) until a line on stdin
    import sys
    from pathlib import Path
    from scheduler.core.atomic import lock
    with lock(Path(sys.argv[1]).resolve()):
        print("held", flush=True)
        sys.stdin.readline()
""")


def test_a_second_writer_is_refused_while_the_first_holds_the_folder(
        tmp_path: Path, plan: Path) -> None:
    before = tree(plan)
    holder = subprocess.Popen(  # another process, as a first `tourney solve` does
        [sys.executable, "-c", _HOLD, str(plan)], stdout=subprocess.PIPE, stdin=subprocess.PIPE,
        cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
        assert code == 2, out
        assert "another tourney command is writing" in out and "Nothing was changed" in out
        assert tree(plan) == before and plan.is_dir()
    finally:
        holder.communicate(b"\n", timeout=60)
    assert hidden(tmp_path) == []  # the lock file goes with the lock
    code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    assert code == 0, out


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_read_only_plan_is_not_replaced(tmp_path: Path, plan: Path, what: str) -> None:
    before = tree(plan)
    frozen = plan if what == "folder" else plan / "summary.txt"
    mode = frozen.stat().st_mode
    frozen.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        code, out = solve(tiny_scenario(tmp_path, "t.yaml", count=1), plan)
    finally:
        frozen.chmod(mode)
    assert code == 2, out
    assert f"{frozen.resolve()} is read-only" in out and "Nothing was changed" in out
    assert tree(plan) == before and hidden(tmp_path) == []


def test_generate_and_sweep_csv_go_through_the_one_writer() -> None:
    # one atomic writer for every output: no other module renames or makes temporary files
    for path in (ROOT / "scheduler").rglob("*.py"):
        if path.name in ("atomic.py", "atomic_files.py"):
            continue
        text = path.read_text(encoding="utf-8")
        for needle in ("os.replace(", "tempfile.", ".rename(out", "mkdtemp"):
            assert needle not in text, f"{path.relative_to(ROOT)} uses {needle}"


# =========================================================================== 4. secrets


def _publish(plan: Path, url: str, password: str, monkeypatch: pytest.MonkeyPatch,
             *extra: str, user: str = "alice") -> tuple[int, str]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("TOURNEY_CALDAV_PASSWORD", password)
    res = runner.invoke(app, ["publish", str(plan), "--caldav", url, "--user", user, *extra])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_redact_hides_url_credentials_and_the_password() -> None:
    from scheduler.export.caldav.redaction import redact

    assert redact("at https://alice:hunter2@cal.example.org/dav/ now") == \
        "at https://***@cal.example.org/dav/ now"
    assert redact("http://tok3n@h:8080/x and HTTP://a:b@h/") == \
        "http://***@h:8080/x and HTTP://***@h/"
    # the password itself, as typed and percent-encoded, wherever it appears
    assert redact("sent s3cret pass, s3cret%20pass", ["s3cret pass"]) == "sent ***, ***"
    assert redact("mail alice@example.org") == "mail alice@example.org"  # not a URL


def test_log_records_of_the_http_libraries_are_redacted() -> None:
    import logging

    from scheduler.export.caldav.redaction import Redacting

    record = logging.LogRecord("urllib3", logging.DEBUG, __file__, 1,
                               "GET %s with %s", ("https://bob:pw-123@h/x", "pw-123"), None)
    assert Redacting(["pw-123"]).filter(record)
    assert record.getMessage() == "GET https://***@h/x with ***"


def test_credentials_in_the_url_never_appear_in_errors(
        tmp_path: Path, plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: "cannot reach the CalDAV server at http://alice:hunter2@127.0.0.1:PORT/"
    port = free_port()  # nothing listens there: connection refused
    code, out = _publish(plan, f"http://alice:hunter2@127.0.0.1:{port}/", "pw-xyz",
                         monkeypatch)
    assert code == 2 and "connection refused" in out, out
    assert "hunter2" not in out and f"http://***@127.0.0.1:{port}/" in out
    code, out = _publish(plan, "ftp://alice:hunter2@127.0.0.1/", "pw-xyz", monkeypatch)
    assert code == 2 and "must be an http:// or https:// URL" in out
    assert "hunter2" not in out


def test_credentials_in_the_url_never_appear_on_success(
        server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: "Published 1 calendar(s) to http://alice:s3cret%20pass@127.0.0.1:PORT/"
    url = server.url.replace("http://", f"http://{server.user}:s3cret%20pass@")
    code, out = _publish(plan, url, server.password, monkeypatch, user=server.user)
    assert code == 0, out
    assert "Published 1 calendar(s) to http://***@127.0.0.1:" in out
    assert "s3cret" not in out


def test_calendar_file_names_cannot_reach_another_collection(
        server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before: calendars/%2e%2e%2fbob%2fx.ics was published as collection ../bob/x
    evil = plan / "calendars" / "%2e%2e%2fbob%2fx.ics"
    shutil.copy(plan / "calendars" / "room.ics", evil)
    before = sorted(p.relative_to(server.storage).as_posix()
                    for p in server.storage.rglob("*")) if server.storage.exists() else []
    code, out = _publish(plan, server.url, server.password, monkeypatch)
    assert code == 2, out
    assert "%2e%2e%2fbob%2fx.ics" in out and "is not a calendar tourney wrote" in out
    assert "Nothing was published" in out
    after = sorted(p.relative_to(server.storage).as_posix()
                   for p in server.storage.rglob("*")) if server.storage.exists() else []
    assert after == before  # the server was not even asked


def test_resource_hrefs_outside_the_collection_are_never_touched() -> None:
    from scheduler.export.caldav.server import CalDAVServer

    srv = CalDAVServer("https://cal.example.org/dav/", "alice", "pw")  # no request made
    coll = "https://cal.example.org/dav/alice/room/"
    assert srv._inside(coll + "a.ics", coll)
    assert not srv._inside("https://cal.example.org/dav/bob/room/a.ics", coll)
    assert not srv._inside(coll + "%2e%2e/%2e%2e/bob/x.ics", coll)
    assert not srv._inside(coll + "sub/a.ics", coll)
    assert not srv._inside("https://evil.example.org/dav/alice/room/a.ics", coll)
    assert not srv._inside(coll + "..", coll)


def test_plain_http_to_another_machine_is_refused_without_the_flag(
        plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scheduler.export.caldav.redaction import PublishError
    from scheduler.export.caldav.server import check_url

    code, out = _publish(plan, "http://alice:pw@cal.example.org/dav/", "pw-xyz",
                         monkeypatch)
    assert code == 2, out
    assert "plain http" in out and "unencrypted" in out and "--allow-insecure-http" in out
    assert "http://***@cal.example.org/dav/" in out
    # with the flag, or to this machine, the URL is accepted
    assert check_url("http://cal.example.org/", allow_insecure_http=True)
    for host in ("localhost", "127.0.0.1", "127.0.0.9", "[::1]"):
        assert check_url(f"http://{host}:5232/")
    with pytest.raises(PublishError, match="plain http"):  # a DNS name, not this machine
        check_url("http://127.example.org/")
    assert check_url("https://cal.example.org/")


_TRICKLE = textwrap.dedent("""
    import socket, sys, time
    srv = socket.create_server(("127.0.0.1", 0))
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(60)
    conn, _ = srv.accept()
    conn.recv(65536)
    conn.sendall(b"HTTP/1.1 207 Multi-Status\\r\\nContent-Type: text/xml\\r\\n"
                 b"Content-Length: 100000\\r\\n\\r\\n")
    end = time.monotonic() + 60  # bounded: the server stops by itself
    while time.monotonic() < end:
        try:
            conn.sendall(b" ")  # one byte every 0.2 s: no read ever waits 30 s
        except OSError:
            break
        time.sleep(0.2)
""")


def test_a_trickling_server_cannot_hang_publish(plan: Path) -> None:
    import time

    trickle = subprocess.Popen([sys.executable, "-c", _TRICKLE], stdout=subprocess.PIPE)
    try:
        assert trickle.stdout is not None
        port = int(trickle.stdout.readline())
        env = {**os.environ, "TOURNEY_CALDAV_PASSWORD": "pw-xyz",
               "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "scheduler.cli", "publish", str(plan), "--caldav",
             f"http://127.0.0.1:{port}/", "--user", "alice", "--timeout", "2"],
            capture_output=True, text=True, timeout=90, env=env, cwd=ROOT)
        took = time.monotonic() - start
    finally:
        trickle.kill()
        trickle.wait()
    assert proc.returncode == 2, proc.stderr
    assert "did not answer in full within 2 s (--timeout)" in proc.stderr
    assert took < 30  # 2 s of deadline, plus starting Python; before: 60 s, the server's end


# =========================================================================== 4. Dask endpoints
_FAKE = textwrap.dedent("""
    import socket, sys, time
    srv = socket.create_server(("127.0.0.1", 0))
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(1)
    end = time.monotonic() + 60  # bounded: the server stops by itself
    conns = []
    while time.monotonic() < end:
        try:
            conn, _ = srv.accept()
        except OSError:
            continue
        conns.append(conn)  # kept open
        if sys.argv[1] == "garbage":
            conn.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Length: 0\\r\\n\\r\\n")
""")


def _sweep_cli(tmp_path: Path, address: str,
               timeout: str = "2") -> tuple[subprocess.CompletedProcess[str], float]:
    import time

    sc = tiny_scenario(tmp_path)
    vary = tmp_path / "vary.yaml"
    vary.write_text("grid:\n  settings.month_rule: [touch]\n", encoding="utf-8")
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "scheduler.cli", "sweep", str(sc), "--vary", str(vary),
         "--out", str(tmp_path / "out.csv"), "--dask", address, "--timeout", timeout],
        capture_output=True, text=True, timeout=100, cwd=ROOT)
    return proc, time.monotonic() - start


@pytest.mark.parametrize("mode", ["silent", "garbage"])
def test_dask_endpoint_that_is_not_dask_is_exit_2_in_bounded_time(
        tmp_path: Path, mode: str) -> None:
    # before: a silent endpoint hung despite --timeout; one answering HTTP made Dask try to
    # allocate 3 EiB (MemoryError, exit 3 "internal error")
    fake = subprocess.Popen([sys.executable, "-c", _FAKE, mode], stdout=subprocess.PIPE)
    try:
        assert fake.stdout is not None
        port = int(fake.stdout.readline())
        proc, took = _sweep_cli(tmp_path, f"tcp://127.0.0.1:{port}")
    finally:
        fake.kill()
        fake.wait()
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    if mode == "silent":
        assert "accepts connections but does not answer as a Dask scheduler within 2 s" \
            in proc.stderr
    else:
        assert "answers, but not as a Dask scheduler (it sent 'HTTP/1.1 400 Bad')" \
            in proc.stderr
    assert "Nothing was written" in proc.stderr and not (tmp_path / "out.csv").exists()
    assert took < 40  # 2 s of --timeout plus starting Python


_SLOW_TASK = textwrap.dedent("""
    # a worker preload: the variant's task announces it started, then takes a minute
    import os, pathlib, time
    import scheduler.studies.sweep as sweep
    def _slow(*args, **kwargs):
        pathlib.Path(os.environ["TOURNEY_TEST_MARK"]).write_text("started")
        time.sleep(60)
    sweep._solve_variant = _slow
""")


def test_dask_sweep_whose_only_worker_dies_is_exit_3(tmp_path: Path) -> None:
    # before: the sweep waited for ever for a worker (the README promises exit 3)
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    preload = tmp_path / "slow_task.py"
    preload.write_text(_SLOW_TASK, encoding="utf-8")
    mark = tmp_path / "started"
    env = {**os.environ, "TOURNEY_TEST_MARK": str(mark)}
    (tmp_path / "vary.yaml").write_text("grid:\n  settings.month_rule: [touch]\n",
                                        encoding="utf-8")
    log = open(tmp_path / "dask.log", "wb")  # noqa: SIM115  (closed below)
    procs = []
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", str(port), "--no-dashboard"], stdout=log, stderr=log, cwd=ROOT))
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
             "--nthreads", "1", "--preload", str(preload), "--no-dashboard"],
            stdout=log, stderr=log, cwd=ROOT, env=env)
        procs.append(worker)
        sweeper = subprocess.Popen(
            [sys.executable, "-m", "scheduler.cli", "sweep", str(tiny_scenario(tmp_path)),
             "--vary", str(tmp_path / "vary.yaml"), "--out", str(tmp_path / "out.csv"),
             "--dask", address, "--timeout", "3"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        procs.append(sweeper)
        end = time.monotonic() + 60
        while not mark.exists():  # the worker is solving the variant
            assert time.monotonic() < end and sweeper.poll() is None, \
                (sweeper.communicate(timeout=10), (tmp_path / "dask.log").read_text())
            time.sleep(0.2)
        worker.kill()  # kill -9: the only worker dies mid-sweep
        start = time.monotonic()
        _, err = sweeper.communicate(timeout=60)
        took = time.monotonic() - start
    finally:
        for p in procs:
            p.kill()
            p.wait()
        log.close()
    assert sweeper.returncode == 3, err
    assert "the Dask cluster has had no worker for 3 s" in err
    assert "0 of 1 variant(s) were solved" in err and "Traceback" not in err
    assert took < 40 and not (tmp_path / "out.csv").exists()
