"""The fixtures of the test suite (pytest finds them here; a test module never imports this
file). The builders they use, and the tests use, are plain functions in tests/builders/.

Servers are real and started once per test session (per xdist worker): a PostgreSQL cluster
(``postgres``) and a Radicale CalDAV server (``radicale``), on which each test module gets a
user of its own (``server``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, api

from builders.caldav import EXAMPLES, OPERATOR, Server, new_user, radicale_server
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
    """An empty database: a SQLite file, or a new database on the PostgreSQL server (for a
    test that asks for ``ledger`` too, the ledger's copy of the migrated one)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    # for the fixture ledger, a copy of the migrated template (ledger copies SQLite's)
    template = (request.getfixturevalue("postgres_template")
                if "ledger" in request.fixturenames else None)
    return new_database(request.getfixturevalue("postgres"), template)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite ledger file migrated to the newest schema revision, once per session."""
    path = tmp_path_factory.mktemp("template") / "ledger.sqlite"
    lg = Ledger(path)
    api.init(lg)
    lg.dispose()  # the last connection closed: the -wal file is folded in and removed
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(scope="session")
def postgres_template(postgres: str) -> str:
    """The name of a PostgreSQL database migrated to the newest schema revision, once per
    session; ``CREATE DATABASE ... TEMPLATE`` copies it."""
    url = new_database(postgres)
    lg = Ledger(url)
    api.init(lg)
    lg.dispose()  # a template must have no connection while it is copied
    return url.rsplit("/", 1)[1]


@pytest.fixture
def migrated_sqlite(sqlite_template: Path) -> Callable[[Path], Ledger]:
    """Make a SQLite ledger at a path, at the newest schema revision: a copy of
    ``sqlite_template`` (what ``tourney ledger init`` makes there)."""
    def make(path: Path) -> Ledger:
        shutil.copyfile(sqlite_template, path)
        lg = Ledger(path)
        lg.ready()
        return lg
    return make


@pytest.fixture
def ledger(url: str, request: pytest.FixtureRequest) -> Iterator[Ledger]:
    """A ledger at the newest schema revision in the database of ``url``: a copy of one
    ``tourney ledger init`` made once per session (tests/test_ledger.py runs the migrations
    themselves on empty databases)."""
    if url.startswith("sqlite:///"):  # PostgreSQL: url made the copy
        shutil.copyfile(request.getfixturevalue("sqlite_template"),
                        url.removeprefix("sqlite:///"))
    lg = Ledger(url)
    lg.ready()  # what api.init made: the newest revision
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


@pytest.fixture(scope="module")
def server(radicale: Server) -> Server:
    """A user of its own on the session's Radicale server, for one test module
    (:func:`builders.caldav.new_user`)."""
    return new_user(radicale)


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
