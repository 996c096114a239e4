"""A CalDAV server's reply is read within a bound, decompressed (issue 24, "Memory and
time"): a server answering with a huge body or a gzip bomb took ``publish`` to 6.4-7.9 GB or
exit 3. Now a reply is read as a stream, at most 64 MB once decompressed
(``TOURNEY_MAX_RESPONSE_MB``), and a larger one is refused (exit 2) naming the bound: at the
default bound in the slow run, at a bound of 4 MB in every run.
``publish`` runs in a child limited to 1 GB of address space; the fake server stops by
itself after 60 s.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GB = 1024 ** 3

_SERVER = textwrap.dedent("""
    import gzip, socket, sys, threading, time, zlib
    how, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024  # decompressed
    srv = socket.create_server(("127.0.0.1", 0))
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(1)
    if how == "gzip":
        z = zlib.compressobj(9, zlib.DEFLATED, 31)
        chunk = b" " * (1 << 20)
        bomb = b"".join(z.compress(chunk) for _ in range(size >> 20)) + z.flush()
    def serve(conn):
        try:
            conn.recv(65536)
            if how == "gzip":
                conn.sendall(b"HTTP/1.1 207 Multi-Status\\r\\nContent-Type: text/xml\\r\\n"
                             b"Content-Encoding: gzip\\r\\nContent-Length: "
                             + str(len(bomb)).encode() + b"\\r\\n\\r\\n" + bomb)
            elif how == "declared":
                conn.sendall(b"HTTP/1.1 207 Multi-Status\\r\\nContent-Type: text/xml\\r\\n"
                             b"Content-Length: 10737418240\\r\\n\\r\\n<x>")
                time.sleep(5)
            else:  # a body with no length: until the connection closes
                conn.sendall(b"HTTP/1.1 207 Multi-Status\\r\\nContent-Type: text/xml\\r\\n"
                             b"Connection: close\\r\\n\\r\\n")
                chunk = b" " * (1 << 20)
                for _ in range(size >> 20):
                    conn.sendall(chunk)
        except OSError:
            pass
        finally:
            conn.close()
    end = time.monotonic() + 60  # bounded: the server stops by itself
    while time.monotonic() < end:
        try:
            conn, _ = srv.accept()
        except OSError:
            continue
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
""")


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


# (the bound in MB, what the server sends in MB): the default bound, 64 MB, against 256 MB
# (slow); the same behaviour at a bound of 4 MB against 16 MB in every run
SIZES = [pytest.param(None, 256, marks=pytest.mark.slow, id="64-of-256MB"),
         pytest.param(4, 16, id="4-of-16MB")]


@pytest.mark.parametrize("bound, size", SIZES)
@pytest.mark.parametrize("how", ["gzip", "endless", "declared"])
def test_a_huge_or_bombed_reply_is_refused_within_memory(tiny_plan: Path, how: str,
                                                         bound: int | None, size: int) -> None:
    said = ("answered with 10,240.0 MB" if how == "declared" else
            f"more than {bound or 64} MB (decompressed)")
    server = subprocess.Popen([sys.executable, "-c", _SERVER, how, str(size)],
                              stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        env = {**os.environ, "TOURNEY_CALDAV_PASSWORD": "pw-xyz", "PYTHONPATH": str(ROOT),
               "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}
        if bound is not None:
            env["TOURNEY_MAX_RESPONSE_MB"] = str(bound)
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "scheduler.cli", "publish", str(tiny_plan), "--caldav",
             f"http://127.0.0.1:{port}/", "--user", "alice", "--timeout", "30"],
            capture_output=True, text=True, timeout=120, env=env, cwd=ROOT,
            preexec_fn=_limit_memory)
        took = time.monotonic() - start
    finally:
        server.kill()
        server.wait()
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert said in proc.stderr and "TOURNEY_MAX_RESPONSE_MB" in proc.stderr, proc.stderr[-2000:]
    assert "pw-xyz" not in proc.stderr and took < 60
