"""Issue #12: a previous calendar that is not UTF-8 is an error, not an empty calendar
(``scheduler.result.publishing.replaced_events``), and Ctrl-C at ``tourney publish``'s password
prompt ends as Ctrl-C (exit 130, "interrupted"), not as "no password"."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.previous import PreviousError
from scheduler.result.publishing import replaced_events

runner = CliRunner()
TOURNEY = Path(sys.executable).with_name("tourney")

# a calendar whose 4th line holds a Latin-1 "é" (byte 0xE9), as an editor saving in
# Windows-1252 would write "Café"
LATIN1 = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
          b"X-WR-CALNAME:Caf\xe9 Room\r\nEND:VCALENDAR\r\n")


def _room(tmp: Path) -> Path:
    """March 2027, one Montana room, a large-stakes tournament twice on Saturdays."""
    data = {"name": "Room 2027", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01",
            "operators": [{"id": "room", "name": "Room", "jurisdiction": "MT",
                           "live_tables": 1}],
            "tournaments": [{"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
                             "operators": ["room"], "weekdays": ["sat"], "count": 2}]}
    path = tmp / "room.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _latin1_plan(tmp: Path) -> Path:
    folder = tmp / "plan"
    folder.mkdir()
    (folder / "calendar.ics").write_bytes(LATIN1)
    return folder


class TestNotUtf8:
    def test_replaced_events_names_file_line_and_byte(self, tmp_path: Path) -> None:
        folder = _latin1_plan(tmp_path)
        with pytest.raises(PreviousError) as exc:
            replaced_events(folder, "any")
        text = str(exc.value)
        # the 0xE9 is after 3 line ends: line 4
        assert text.startswith(f"{folder / 'calendar.ics'}: not a readable iCalendar file")
        assert "line 4 is not UTF-8: byte 0xE9" in text

    def test_no_calendar_is_no_events(self, tmp_path: Path) -> None:
        # a plan of schedule.csv only published no calendar: nothing to contradict
        folder = tmp_path / "plan"
        folder.mkdir()
        (folder / "schedule.csv").write_text("tournament_id\n", encoding="utf-8")
        assert replaced_events(folder, "any") == ({}, None)

    @staticmethod
    def _solved_then_latin1(tmp: Path) -> tuple[Path, Path, int]:
        """A plan written by ``tourney solve``, its calendar.ics then saved with a Latin-1
        "ä" by hand: (scenario, folder, the line of that byte)."""
        scenario, folder = _room(tmp), tmp / "plan"
        res = runner.invoke(app, ["solve", str(scenario), "--out", str(folder), "--jobs", "1"])
        assert res.exit_code == 0, res.output
        ics = folder / "calendar.ics"
        data = ics.read_bytes()
        at = data.index(b"Saturday Stack")
        ics.write_bytes(data[:at] + b"Saturday St\xe4ck" + data[at + len(b"Saturday Stack"):])
        return scenario, folder, data.count(b"\n", 0, at) + 1

    def test_solve_from_python_refuses(self, tmp_path: Path) -> None:
        # before: the calendar read as holding no events, so a changed event kept SEQUENCE 0
        scenario, folder, line = self._solved_then_latin1(tmp_path)
        with pytest.raises(PreviousError) as exc:
            solve(load_scenario(scenario), replacing=folder)
        assert str(exc.value).startswith(
            f"{folder / 'calendar.ics'}: not a readable iCalendar file (line {line} is not "
            f"UTF-8: byte 0xE4")

    def test_cli_exit_2_and_nothing_written(self, tmp_path: Path) -> None:
        # the CLI refuses a folder whose calendar.ics changed since tourney wrote it, first
        scenario, folder, _ = self._solved_then_latin1(tmp_path)
        before = {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
        res = runner.invoke(app, ["solve", str(scenario), "--out", str(folder), "--jobs", "1"])
        assert res.exit_code == 2, res.output
        assert "calendar.ics (changed since tourney wrote it)" in res.output
        assert {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} == before


# ------------------------------------------------------------------- the password prompt
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_CALDAV_PASSWORD"}
    env["PYTHONUNBUFFERED"] = "1"
    return env


PUBLISH = ["publish", "plan", "--caldav", "https://cal.example.org/dav/", "--user", "ann"]


def test_end_of_input_is_no_password() -> None:
    # standard input closed without a line: no password, exit 2 (not an interruption)
    res = runner.invoke(app, PUBLISH, input="", env={"TOURNEY_CALDAV_PASSWORD": None})
    assert res.exit_code == 2, res.output
    assert "no password" in res.output


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_ctrl_c_at_the_terminal_prompt_is_interrupted(tmp_path: Path) -> None:
    # a real terminal (a pty): the prompt is shown, ^C typed at it is SIGINT to the command
    pid, fd = pty.fork()
    if pid == 0:  # the child: tourney publish at the terminal
        os.chdir(tmp_path)
        # Ctrl-C as at a shell's prompt, whatever this run inherited (a background job
        # ignores SIGINT, and an ignored signal stays ignored across exec)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execve(str(TOURNEY), [str(TOURNEY), *PUBLISH], _env())
    out = b""
    deadline = time.monotonic() + 120
    while b"CalDAV password for ann" not in out and time.monotonic() < deadline:
        out += os.read(fd, 1024)
    assert b"CalDAV password for ann" in out, out
    time.sleep(0.2)  # the prompt is written before the terminal stops echoing
    os.write(fd, b"\x03")  # Ctrl-C
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 130, out
    assert b"interrupted at the password prompt; nothing was published." in out
    assert b"no password" not in out


def _ctrl_c_as_at_a_shell() -> None:
    """In the child before exec: SIGINT to its default, whatever this run inherited (a
    background job ignores SIGINT, and an ignored signal stays ignored across exec)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _reading_stdin(pid: int) -> bool:
    """Whether process ``pid`` waits in read(2) on its standard input (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        pytest.skip("no /proc/<pid>/syscall here")
    # x86_64 read is 0, aarch64 read is 63; the first argument is the file descriptor
    return len(fields) > 1 and fields[0] in ("0", "63") and int(fields[1], 16) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_while_the_password_is_read_from_a_pipe_is_interrupted(
        tmp_path: Path) -> None:
    proc = subprocess.Popen([str(TOURNEY), *PUBLISH], cwd=tmp_path, env=_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_ctrl_c_as_at_a_shell)
    try:
        deadline = time.monotonic() + 120
        while not _reading_stdin(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _reading_stdin(proc.pid)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.decode() == "tourney: interrupted at the password prompt; nothing was published.\n"
