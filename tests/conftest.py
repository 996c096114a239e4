"""Small generic builders shared by the rule tests (test_montana.py, test_common_rules.py,
test_maine.py). Import them with ``from conftest import scenario, problems, ...``.

Everything here is jurisdiction-neutral: a scenario dict builder, the (rule, path) pairs of a
ScenarioError, a small deterministic solve and what it placed, a Placed occurrence built from
the scenario's own timing, and the rule IDs the independent checker reports for an Audit.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from constraints.base import Audit, License, Occurrence
from constraints.registry import check
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.result.plan import Plan

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


def d(text: str) -> dt.date:
    """``d("2027-01-15")`` → ``datetime.date(2027, 1, 15)``."""
    return dt.date.fromisoformat(text)


def scenario(**overrides: Any) -> dict[str, Any]:
    """A scenario dict: a one-year horizon (2027), ``notice_from`` fixed, no operators or
    tournaments unless given. Any top-level key may be overridden."""
    data: dict[str, Any] = {
        "name": "test",
        "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-01",
        "operators": [],
        "tournaments": [],
    }
    data.update(overrides)
    return data


def load(**overrides: Any) -> Scenario:
    """``load_scenario(scenario(**overrides))``."""
    return load_scenario(scenario(**overrides))


def problems(data: dict[str, Any]) -> set[tuple[str, str]]:
    """The (rule, path) pairs of the ScenarioError that loading ``data`` raises."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return {(p.rule, p.path) for p in exc.value.problems}


def placed(sc: Scenario, tid: str, first_day: str | dt.date, occurrence: int = 1) -> Occurrence:
    """An occurrence of tournament ``tid`` starting on ``first_day``, timed as the model
    times it (scheduler.core.timing.timing in the first operator's zone)."""
    t = sc.tournament(tid)
    day = d(first_day) if isinstance(first_day, str) else first_day
    tm = timing(t, tournament_tz(sc, t), day)
    assert tm is not None, f"{tid} cannot start on {day}"
    return Occurrence(t, occurrence, tm)


def violations(sc: Scenario, occurrences: Iterable[Occurrence],
               licenses: Iterable[License] = ()) -> list[tuple[str, str, str]]:
    """(rule, operator_id, dates) of every violation the checker finds (no solver)."""
    audit = Audit(sc, list(occurrences), list(licenses))
    return [(v.rule, v.operator_id, v.dates) for v in check(audit)]


def violated(sc: Scenario, occurrences: Iterable[Occurrence],
             licenses: Iterable[License] = ()) -> list[str]:
    """The rule IDs of every violation the checker finds, in report order."""
    return [r for r, _, _ in violations(sc, occurrences, licenses)]


def run(sc: Scenario) -> Plan:
    """Solve a tiny scenario deterministically (one worker, seed 0); it must be proven optimal."""
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    assert plan.status == "OPTIMAL"
    return plan


def firsts(plan: Plan, tid: str | None = None) -> list[dt.date]:
    """Sorted first days of the placed occurrences (one per occurrence, not per operator)."""
    seen = {(r.tournament_id, r.occurrence): r.first_day for r in plan.rows
            if tid is None or r.tournament_id == tid}
    return sorted(seen.values())


def missing(plan: Plan, tid: str | None = None) -> list[tuple[str, ...]]:
    """The rule IDs given for each unscheduled occurrence (of ``tid``, or of all)."""
    return [u.rule_ids for u in plan.unscheduled_list if tid is None or u.tournament_id == tid]


def mt_room(oid: str = "room-a", **kw: Any) -> dict[str, Any]:
    """A Montana card room with two permitted live tables."""
    return {"id": oid, "name": oid.title(), "jurisdiction": "MT", "live_tables": 2, **kw}


def mt_large(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    """A one-day large-stakes tournament, 12:00 for 10 h (ends 22:00, one calendar day)."""
    return {"id": tid, "title": tid, "type": "large-stakes", "operators": list(ops),
            "start_time": "12:00", "hours": 10, **kw}


# ---------------------------------------------------------------- the ledger's databases
# One PostgreSQL cluster per test session (session scope, here only: a fixture imported into
# several test modules would start one cluster each); ``url`` and ``ledger`` give each ledger
# test a SQLite file and a new PostgreSQL database (tests/test_ledger*.py).
def _pg_bin() -> Path | None:
    """The folder of initdb/pg_ctl: Debian's /usr/lib/postgresql/<v>/bin, else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    path = shutil.which("pg_ctl")
    return Path(path).parent if path and shutil.which("initdb") else None


def _require_postgres() -> Path:
    path = _pg_bin()
    if path is None:
        if os.environ.get("TOURNEY_REQUIRE_POSTGRES") == "1":
            pytest.fail("TOURNEY_REQUIRE_POSTGRES=1 but PostgreSQL is not installed "
                        "(apt-get install postgresql)")
        pytest.skip("PostgreSQL is not installed (Debian package postgresql)")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A PostgreSQL server for this test session: its admin URL (database ``postgres``)."""
    bindir = _require_postgres()
    root = Path(tempfile.mkdtemp(prefix="tourney-pg-"))
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    port = _free_port()
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


_DB_COUNTER = iter(range(1, 1_000_000))


def _new_database(admin_url: str) -> str:
    """A new, empty database on the server of ``admin_url``: its URL."""
    import psycopg  # optional dependency (tourney[postgres]): only for PostgreSQL tests

    name = f"ledger_{os.getpid()}_{next(_DB_COUNTER)}"
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    return _new_database(request.getfixturevalue("postgres"))


@pytest.fixture
def ledger(url: str) -> Iterator[Ledger]:
    lg = Ledger(url)
    api.init(lg)
    yield lg
    lg.dispose()
