"""The fixtures of the test suite (pytest finds them here; a test module never imports this
file). The builders they use, and the tests use, are plain functions in tests/builders/.

Servers are real and started once per test session (per xdist worker): a PostgreSQL cluster
(``postgres``) and a Radicale CalDAV server (``radicale``), on which each test module gets a
user of its own (``server``).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, api

from builders.caldav import EXAMPLES, OPERATOR, Server, radicale_server
from builders.commands import march_room_scenario, write_tiny_plan
from builders.plans import write_plan
from builders.servers import free_port, new_database, require_postgres

# Hypothesis profiles: `ci` is bounded and derandomized (make test / .ci/run), `default` for
# a local `pytest`, `long` for a soak: HYPOTHESIS_PROFILE=long pytest -m slow.
settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile("long", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Every command not given --as-of runs as of this day (scheduler.core.clock, TOURNEY_AS_OF): the
# suite's dates were written as of 2026-12-01 and do not expire as the clock moves. A test of
# the default (today in the operator's zone) removes it with monkeypatch.delenv.
os.environ.setdefault("TOURNEY_AS_OF", "2026-12-01")

runner = CliRunner()


# ---------------------------------------------------------------- the ledger's databases
# One PostgreSQL cluster per test session (session scope); ``url`` and ``ledger`` give each
# ledger test a SQLite file and a new PostgreSQL database (tests/test_ledger*.py).
@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A PostgreSQL server for this test session: its admin URL (database ``postgres``)."""
    bindir = require_postgres()
    root = Path(tempfile.mkdtemp(prefix="tourney-pg-"))
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    port = free_port()
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--no-sync"], check=True,
                   capture_output=True, timeout=120)
    opts = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off")
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"),
                    "-o", opts, "-w", "start"], check=True, capture_output=True, timeout=120)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    return new_database(request.getfixturevalue("postgres"))


@pytest.fixture
def ledger(url: str) -> Iterator[Ledger]:
    lg = Ledger(url)
    api.init(lg)
    yield lg
    lg.dispose()


@pytest.fixture
def plan(tmp_path: Path) -> Path:
    """The ledger tests' plan folder (:func:`builders.plans.write_plan`) in tmp_path/plan."""
    return write_plan(tmp_path / "plan")


@pytest.fixture
def adopted(ledger: Ledger, plan: Path) -> Ledger:
    """``ledger`` with ``plan`` adopted by organization Big Sky Tour."""
    api.adopt(ledger, plan, organization="Big Sky Tour", by="ann")
    return ledger


# ---------------------------------------------------------------- CalDAV: a real Radicale
@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Talk to 127.0.0.1 directly even where a proxy is configured."""
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def radicale(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One Radicale server for the session (each xdist worker has its own), on 127.0.0.1."""
    with radicale_server(tmp_path_factory.mktemp("radicale")) as srv:
        yield srv


_USERS = itertools.count(1)


@pytest.fixture(scope="module")
def server(radicale: Server) -> Server:
    """A user of its own on the session's Radicale server, for one test module: with rights
    ``owner_only`` it sees only its own collections, as on a server of its own (Radicale
    reads its htpasswd file at each login)."""
    user = f"user{next(_USERS)}"
    with (radicale.storage.parent / "users").open("a", encoding="utf-8") as f:
        f.write(f"{user}:{radicale.password}\n")
    return dataclasses.replace(radicale, user=user)


@pytest.fixture(scope="module")
def plan_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plan of data/examples/maine-legion-post.yaml, solved once per module."""
    out = tmp_path_factory.mktemp("solve") / "plan"
    res = runner.invoke(app, ["solve", str(EXAMPLES / "maine-legion-post.yaml"),
                              "--out", str(out)])
    assert res.exit_code in (0, 1), res.output  # 1: optional games left out is still a plan
    assert (out / "calendars" / f"{OPERATOR}.ics").is_file()
    return out


# ---------------------------------------------------------------- plans the CLI wrote
@pytest.fixture
def tiny_plan(tmp_path: Path) -> Path:
    """A plan tourney wrote in tmp_path/plan (:func:`builders.commands.write_tiny_plan`)."""
    return write_tiny_plan(tmp_path)


@pytest.fixture
def first_plan(tmp_path: Path) -> Path:
    """tmp_path/v1: the plan of :func:`builders.commands.march_room_scenario` (with ``fri``)."""
    v1 = tmp_path / "v1"
    res = runner.invoke(app, ["solve", str(march_room_scenario(tmp_path, "v1",
                                                               drop_friday=False)),
                              "--out", str(v1), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    return v1


# ---------------------------------------------------------------- a bound on hanging
class Hung(Exception):
    """A test ran past its bound (:func:`alarm_120s`)."""


@pytest.fixture
def alarm_120s() -> Iterator[None]:
    """The test ends within 120 s, even when what it tests hangs."""
    def ring(_sig: int, _frame: FrameType | None) -> None:
        raise Hung("the test ran past its 120 s bound: something hangs")
    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(120)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
