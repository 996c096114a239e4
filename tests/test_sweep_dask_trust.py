"""`tourney sweep --dask ADDRESS`: which Dask schedulers tourney trusts.

A Dask scheduler can run any code in the process of its client (Dask's protocol trusts the
scheduler). So a scheduler reached over ``tcp://`` (unencrypted, unauthenticated) must be on
this machine; another machine's is refused before any connection unless
``--allow-insecure-dask``; ``tls://`` is used with the certificates given by ``--dask-ca``,
``--dask-cert`` and ``--dask-key`` (Dask's ``Security``).

Real Dask schedulers on 127.0.0.1 (one over TCP, one over TLS with certificates made by
``openssl`` for the test); the sweeps that connect in child processes limited to 2 GB of
memory, those refused on their arguments before any connection in this process
(:func:`builders.commands.sweep_in_process`).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from builders.commands import last_line, sweep, sweep_in_process
from builders.servers import free_port


@contextlib.contextmanager
def _scheduler(tmp: Path, *args: str, protocol: str = "tcp") -> Iterator[str]:
    """A real Dask scheduler on 127.0.0.1 (no worker), its address once it listens."""
    port = free_port()
    with open(tmp / f"scheduler-{port}.log", "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                 "--host", "127.0.0.1", "--port", str(port), "--protocol",
                                 protocol, "--no-dashboard", *args], stdout=log,
                                stderr=subprocess.STDOUT, cwd=tmp)
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(OSError), socket.create_connection(
                        ("127.0.0.1", port), timeout=1):
                    break
                assert proc.poll() is None and time.monotonic() < deadline, \
                    (tmp / f"scheduler-{port}.log").read_text(errors="replace")
                time.sleep(0.2)
            yield f"{protocol}://127.0.0.1:{port}"
        finally:
            proc.kill()
            proc.wait()


def test_a_tcp_scheduler_of_another_machine_is_refused_before_any_connection(
        tmp_path: Path) -> None:
    # 192.0.2.1 (TEST-NET-1, RFC 5737) routes nowhere: a connection would wait --timeout
    r, took = sweep_in_process(tmp_path, "--dask", "tcp://192.0.2.1:8786", "--timeout", "20")
    assert r.returncode == 2
    assert last_line(r) == (
        "tourney: --dask tcp://192.0.2.1:8786: tcp:// to another machine is refused (a Dask "
        "scheduler can run any code here); use tls:// with --dask-ca, --dask-cert and "
        "--dask-key, or --allow-insecure-dask (docs/limits.md). Nothing was written.")
    assert took < 20  # refused at once, not after trying to connect for --timeout
    assert not (tmp_path / "out.csv").exists()
    for address in ("scheduler.example.org:8786", "tcp://[2001:db8::1]:8786",
                    "ws://10.0.0.5:8786"):
        r, _ = sweep_in_process(tmp_path, "--dask", address, "--timeout", "20")
        assert r.returncode == 2 and "to another machine is refused" in r.stderr
    # with --allow-insecure-dask it is tried (and, here, not reached within --timeout)
    r, took = sweep(tmp_path, "--dask", "tcp://192.0.2.1:8786", "--timeout", "2",
                     "--allow-insecure-dask")
    assert r.returncode == 2 and "refused for" not in r.stderr, r.stderr
    assert "192.0.2.1:8786" in last_line(r)


def test_a_tcp_scheduler_on_this_machine_is_used(tmp_path: Path) -> None:
    with _scheduler(tmp_path) as address:
        r, _ = sweep(tmp_path, "--dask", address, "--timeout", "2")
    assert r.returncode == 2  # reached: it has no worker, which is what it says
    assert last_line(r).startswith(f"tourney: the Dask scheduler at {address} has no worker "
                                    "(none joined within 2 s")


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _certificates(folder: Path) -> None:
    """ca.pem/ca.key, and scheduler.pem/.key and client.pem/.key signed by it."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
             "ca.pem", "-days", "2", "-subj", "/CN=tourney test CA", cwd=folder)
    for name in ("scheduler", "client"):
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out",
                 f"{name}.csr", "-subj", f"/CN={name}", "-addext",
                 "subjectAltName=IP:127.0.0.1,DNS:localhost", cwd=folder)
        _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                 "-CAcreateserial", "-out", f"{name}.pem", "-days", "2", "-copy_extensions",
                 "copy", cwd=folder)


def test_a_tls_scheduler_is_used_with_the_certificates_given(tmp_path: Path) -> None:
    certs = tmp_path / "certs"
    certs.mkdir()
    _certificates(certs)
    tls = ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert",
           str(certs / "scheduler.pem"), "--tls-key", str(certs / "scheduler.key")]
    with _scheduler(tmp_path, *tls, protocol="tls") as address:
        r, _ = sweep(tmp_path, "--dask", address, "--timeout", "3", "--dask-ca",
                      str(certs / "ca.pem"), "--dask-cert", str(certs / "client.pem"),
                      "--dask-key", str(certs / "client.key"))
        assert r.returncode == 2
        # connected over TLS (the handshake passed): the scheduler has no worker
        assert last_line(r).startswith(f"tourney: the Dask scheduler at {address} has no "
                                        "worker (none joined within 3 s"), r.stderr
        # without the TLS files: said at once
        r, _ = sweep_in_process(tmp_path, "--dask", address, "--timeout", "3")
        assert r.returncode == 2
        assert last_line(r) == (f"tourney: --dask {address} needs this client's TLS files: "
                                 "--dask-ca (the CA that signed the scheduler's certificate), "
                                 "--dask-cert and --dask-key"), r.stderr
    r, _ = sweep_in_process(tmp_path, "--dask", "tcp://127.0.0.1:1", "--dask-ca",
                            str(certs / "ca.pem"))
    assert r.returncode == 2
    assert last_line(r) == ("tourney: --dask-ca, --dask-cert and --dask-key are for a tls:// "
                             "scheduler, not tcp://127.0.0.1:1. Nothing was written.")
