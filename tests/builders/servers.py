"""Real servers for the tests, on 127.0.0.1: a free port, a PostgreSQL cluster's binaries and
a new database on it. The cluster itself is the session fixture ``postgres`` of
tests/conftest.py.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (as of now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    """The folder of initdb/pg_ctl: Debian's /usr/lib/postgresql/<v>/bin, else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    path = shutil.which("pg_ctl")
    return Path(path).parent if path and shutil.which("initdb") else None


def require_postgres() -> Path:
    """:func:`pg_bin`; without it the test is skipped, or fails under
    ``TOURNEY_REQUIRE_POSTGRES=1``."""
    path = pg_bin()
    if path is None:
        if os.environ.get("TOURNEY_REQUIRE_POSTGRES") == "1":
            pytest.fail("TOURNEY_REQUIRE_POSTGRES=1 but PostgreSQL is not installed "
                        "(apt-get install postgresql)")
        pytest.skip("PostgreSQL is not installed (Debian package postgresql)")
    return path


_DB_COUNTER = iter(range(1, 1_000_000))


def new_database(admin_url: str, template: str | None = None) -> str:
    """A new database on the server of ``admin_url`` (empty, or a copy of ``template``): its
    URL."""
    import psycopg  # optional dependency (tourney[postgres]): only for PostgreSQL tests

    name = f"ledger_{os.getpid()}_{next(_DB_COUNTER)}"
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}"
                     + (f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""))
    return admin_url.rsplit("/", 1)[0] + "/" + name
