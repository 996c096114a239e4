"""Issue #12 phase B, the CLI layer: one table from exception to exit code and message
(scheduler/cli/errors.py), applied by one wrapper; the engine work the CLI did (model size,
writability) in its own layer."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.check.schedule import ScheduleError
from scheduler.cli import app
from scheduler.cli.errors import BUILTINS, CommandError, in_words, outcome, reading_input
from scheduler.core.atomic_files import WriteRefused, unwritable
from scheduler.core.errors import InterruptedAfterWriting, TourneyError
from scheduler.core.problems import ScenarioError
from scheduler.engine.cpsat import Interrupted
from scheduler.engine.decompose import ModelTooLarge, check_model_size
from scheduler.engine.objective import SolverError
from scheduler.engine.parts import AuditError
from scheduler.export.caldav.redaction import PublishError
from scheduler.export.diff import DiffError
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.previous import PreviousError
from scheduler.ledger.store import LedgerError
from scheduler.studies.sweep.variants import SweepError, VaryError

from builders.commands import TINY

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def _tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(TINY, sort_keys=False), encoding="utf-8")
    return path


def test_every_failure_is_a_tourney_error_or_a_builtin() -> None:
    # tourney's own failures carry their exit code and message; the table words only
    # Ctrl-C (before or once a folder was written), a closed standard output and a bug
    assert set(BUILTINS) == {KeyboardInterrupt, InterruptedAfterWriting, BrokenPipeError,
                             Exception}
    for cls in (ScenarioError, VaryError, ModelTooLarge, PreviousError, DiffError,
                ScheduleError, WriteRefused, PublishError, LedgerError, SweepError,
                SolverError, AuditError, Interrupted, CommandError):
        assert issubclass(cls, TourneyError), cls


def test_exit_codes_are_the_readmes() -> None:
    # README: 2 invalid input (nothing written), 3 internal failure, 130 Ctrl-C (128 + 2)
    assert {cls.exit_code for cls in (ScenarioError, VaryError, ModelTooLarge, PreviousError,
                                      DiffError, ScheduleError, WriteRefused,
                                      PublishError)} == {2}
    assert SolverError.exit_code == AuditError.exit_code == BUILTINS[Exception][0] == 3
    assert BUILTINS[KeyboardInterrupt][0] == Interrupted.exit_code == 130
    # their own exit code: a sweep's engine that cannot be used is 2, a variant unsolved 3
    assert outcome(SweepError("no scheduler", exit_code=2))[1:] == (  # type: ignore[index]
        2, "tourney: no scheduler. Nothing was written.")
    assert outcome(SweepError("variant 'a' failed"))[1] == 3  # type: ignore[index]
    assert LedgerError.exit_code == CommandError("x").exit_code == 2


def test_the_most_specific_class_wins() -> None:
    # PreviousError is a ValueError: its own entry, not the catch-all (a bug, exit 3)
    assert outcome(PreviousError("x.ics: not a readable iCalendar file")) == (
        PreviousError, 2,
        "tourney: x.ics: not a readable iCalendar file. Nothing was written.")
    assert outcome(ValueError("boom"))[:2] == (Exception, 3)  # type: ignore[index]
    # typer's own exits are not the table's: click ends those
    assert outcome(SystemExit(1)) is None


def test_a_plain_value_error_is_input_only_while_reading_input() -> None:
    with pytest.raises(CommandError) as caught, reading_input():
        raise ValueError("SOURCE_DATE_EPOCH='x' is not a time")
    assert (caught.value.exit_code, caught.value.message) == (
        2, "tourney: SOURCE_DATE_EPOCH='x' is not a time")
    with pytest.raises(ScenarioError), reading_input():  # its own entry: render()ed
        raise ScenarioError([])


def test_a_bad_source_date_epoch_is_exit_2_before_solving(tmp_path: Path) -> None:
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_tiny(tmp_path)), "--out", str(out)],
                        env={"SOURCE_DATE_EPOCH": "yesterday"})
    assert res.exit_code == 2
    assert "tourney: SOURCE_DATE_EPOCH='yesterday' is not a time" in res.output
    assert "internal error" not in res.output and not out.exists()


def test_model_size_boundary(tmp_path: Path) -> None:
    # March 2027 starts on a Monday: its Saturdays are the 6th, 13th, 20th and 27th, so the
    # one tournament (Saturdays only) has 4 candidate first days: 4 cells in one part
    sc = load_scenario(_tiny(tmp_path))
    check_model_size(sc, 4)  # at the limit: allowed
    with pytest.raises(ModelTooLarge, match=r"^the model would have 4 candidate \(tournament, "
                       r"first day\) pairs in one part \(1 tournament\(s\) of room; largest: "
                       r"spring \(4 days\)\); at most 3 are allowed\."):
        check_model_size(sc, 3)
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_tiny(tmp_path)), "--out", str(out),
                              "--max-model", "3"])
    assert res.exit_code == 2
    assert "tourney: the model would have 4 candidate" in res.output
    assert res.output.rstrip().endswith("(see docs/limits.md). Nothing was written.")
    assert not out.exists()


def test_unwritable(tmp_path: Path) -> None:
    assert unwritable(tmp_path) == "it is a folder; give a file name such as results.csv"
    assert unwritable(tmp_path / "new" / "deeper" / "results.csv") is None  # made on write


def test_python_dash_m_runs_the_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "scheduler.cli", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "solve" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "scheduler.cli", "check", "nope.yaml",
                           "nope.csv", "--format", "xml"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "tourney: --format must be table, csv or json, not 'xml'"


def test_solve_out_under_a_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder\n")
    out = tmp_path / "afile" / "sub" / "plan"
    res = runner.invoke(app, ["solve", str(_tiny(tmp_path)), "--out", str(out)])
    assert res.exit_code == 2
    assert (f"tourney: cannot write {out}: {tmp_path / 'afile'} is a file, not a folder. "
            "Nothing was changed; nothing was solved.") in " ".join(res.output.split())
    assert "Errno" not in res.output
    assert (tmp_path / "afile").read_text() == "not a folder\n"


def test_the_usual_refusals_in_words() -> None:
    assert in_words(OSError(errno.ENOSPC, "No space left on device")) == "the disk is full"
    assert in_words(OSError(errno.EROFS, "Read-only file system")) == "the disk is read-only"
    assert in_words(PermissionError(errno.EACCES, "Permission denied", "/srv/plan")) == (
        "permission denied on /srv/plan")
    assert in_words(OSError(errno.EIO, "Input/output error")) is None  # the system's words
