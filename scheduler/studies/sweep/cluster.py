"""The Dask engine of a sweep: each variant a task of a ``dask.distributed`` cluster (an
embedded ``LocalCluster`` or a running scheduler), with the connection, worker and
heartbeat checks that turn a lost or silent cluster into a :class:`SweepError`."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

from scheduler.engine.objective import SolverError
from scheduler.engine.parts import AuditError
from scheduler.result.plan import Plan
from scheduler.studies.sweep.variants import SweepError, Variant

DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler (and its first worker) before giving up."""

Progress = Callable[[int, int, str], None]
"""``progress(done, total, variant_name)``, called as each variant finishes."""


@dataclass(frozen=True)
class SweepTask:
    seed: int
    deterministic_time: float | None
    workers: int


def failed(name: str, exc: BaseException) -> SweepError:
    if isinstance(exc, SolverError):
        why = f"{exc}; try a larger deterministic time"
    elif isinstance(exc, AuditError):
        why = f"{exc}\nPlease report this."
    elif isinstance(exc, ModuleNotFoundError):
        why = (f"{exc} (is tourney installed, the same version, on every worker of the "
               "cluster?)")
    else:
        why = f"{type(exc).__name__}: {exc}"
    return SweepError(f"variant {name!r} could not be solved: {why}", variant=name)


INSECURE_SCHEMES = ("", "tcp", "ws")
"""Dask address schemes that neither encrypt nor authenticate (a bare ``host:port`` is tcp)."""
TRUSTED_SCHEMES = ("tls", "wss", "inproc")
"""Dask address schemes that may reach another machine: encrypted (``tls``, ``wss``), or
in this process (``inproc``). Every other one (``tcp``, ``ws``, ``ucx``, one a plugin adds)
is treated as :data:`INSECURE_SCHEMES`: a scheduler on this machine only."""


def _local_host(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1); never a DNS name, which is not
    looked up (nothing is sent anywhere before the address is accepted)."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_address(address: str, *, allow_insecure: bool = False,
                  tls_files: bool = False) -> None:
    """Refuse (SweepError, exit 2), before any connection, a Dask scheduler reached without
    encryption (``tcp://``, ``ws://``, ``ucx://``, a bare ``host:port``: any scheme but
    :data:`TRUSTED_SCHEMES`) that is not on this machine
    (``localhost``, 127.0.0.0/8, ::1), unless ``allow_insecure``: a Dask scheduler can run
    any code in this process (Dask's protocol trusts it), and anyone on the network between
    can read or change what it sends. ``tls_files``: TLS files were given, which only a
    ``tls://`` address uses."""
    scheme, sep, rest = address.rpartition("://")
    scheme = scheme.lower()
    if tls_files and scheme != "tls":
        raise SweepError(f"--dask-ca, --dask-cert and --dask-key are for a tls:// scheduler, "
                         f"not {address}", exit_code=2)
    if scheme in TRUSTED_SCHEMES or allow_insecure:
        return
    host = rest.rstrip("/").rpartition(":")[0].strip("[]") if ":" in rest else rest
    if _local_host(host):
        return
    raise SweepError(
        f"--dask {address}: {scheme or 'tcp'}:// to another machine is refused (a Dask "
        "scheduler can run any code here); use tls:// with --dask-ca, --dask-cert and "
        "--dask-key, or --allow-insecure-dask (docs/limits.md)", exit_code=2)


def security(ca: str | None = None, cert: str | None = None, key: str | None = None) -> Any:
    """A ``distributed.security.Security`` for a ``tls://`` scheduler: the CA certificate
    that signed the scheduler's (PEM), and this client's certificate and private key (PEM;
    the key may be in the certificate's file). Encryption is required. Raises SweepError
    (exit 2) for a file that cannot be read or distributed not installed."""
    for option, path in (("--dask-ca", ca), ("--dask-cert", cert), ("--dask-key", key)):
        if path is not None and not os.path.isfile(path):
            raise SweepError(f"{option} {path}: no such file", exit_code=2)
    try:
        from distributed.security import Security  # optional: the dask extra
    except ImportError:
        raise SweepError("--dask needs dask.distributed: pip install 'tourney[dask]'",
                         exit_code=2) from None
    return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)


def run_dask(variants: Sequence[Variant], task: SweepTask,
              solve_one: Callable[..., Plan], *, address: str | None,
              client: Any, jobs: int, timeout: float, cluster_kwargs: Mapping[str, Any] | None,
              progress: Progress | None, security: Any = None,
              allow_insecure: bool = False) -> list[Plan]:
    try:
        from dask.distributed import Client, LocalCluster  # optional: the dask extra
    except ImportError:
        raise SweepError("--dask needs dask.distributed: pip install 'tourney[dask]'",
                         exit_code=2) from None

    with ExitStack() as stack:
        if client is None:
            if address is None:
                kw: dict[str, Any] = {"n_workers": jobs, "threads_per_worker": 1,
                                      "processes": True, "dashboard_address": None,
                                      "silence_logs": logging.ERROR}
                kw.update(cluster_kwargs or {})
                try:
                    with _sigint_ignored():  # inherited by the worker processes
                        cluster = stack.enter_context(LocalCluster(**kw))
                except Exception as exc:
                    raise SweepError(f"cannot start a local Dask cluster: {exc}",
                                     exit_code=2) from None
                client = stack.enter_context(Client(cluster))
            else:
                check_address(address, allow_insecure=allow_insecure)
                _probe(address, timeout)
                stack.enter_context(_quiet_distributed())
                try:
                    client = stack.enter_context(Client(address, timeout=f"{timeout}s",
                                                        security=security))
                except (OSError, TimeoutError, ValueError) as exc:
                    raise SweepError(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}", exit_code=2) from None
                except Exception as exc:  # an endpoint that is not Dask (MemoryError, ...)
                    raise SweepError(f"{address} does not answer as a Dask scheduler "
                                     f"({type(exc).__name__}); check the address (a Dask "
                                     "scheduler usually listens on port 8786)",
                                     exit_code=2) from None
                try:
                    client.wait_for_workers(1, timeout=timeout)
                except (OSError, TimeoutError) as exc:
                    if isinstance(exc, TimeoutError) and client.status == "running":
                        raise SweepError(
                            f"the Dask scheduler at {address} has no worker (none joined "
                            f"within {timeout:g} s, --timeout); start one (dask worker "
                            f"{address}) or check that its workers can reach it",
                            exit_code=2) from None
                    raise SweepError(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}", exit_code=2) from None
        stack.enter_context(_quiet_distributed())  # no logged tracebacks when it is lost
        futures = client.map(solve_one, [v.scenario for v in variants], task=task,
                             pure=False)
        where = f" at {address}" if address else ""
        try:
            for done, i in enumerate(_finished(client, futures, timeout, where), start=1):
                v, f = variants[i], futures[i]
                if f.status in ("cancelled", "lost"):  # tourney cancels none: the scheduler
                    raise _lost(where, f"the scheduler {f.status} variant {v.name!r}",
                                sum(g.status == "finished" for g in futures), len(futures))
                if f.status != "finished":
                    err = (f.exception() if f.status == "error" else
                           RuntimeError(f"the task was {f.status} by the cluster"))
                    raise failed(v.name, err)
                if progress is not None:
                    progress(done, len(variants), v.name)
            try:
                return [f.result(timeout=max(timeout, POLL_SECONDS)) for f in futures]
            except Exception as exc:  # the scheduler went between the last wait and here
                raise _lost(where, exc, sum(g.status == "finished" for g in futures),
                            len(futures)) from None
        except BaseException:
            with contextlib.suppress(Exception):
                client.cancel(futures)
            raise
    raise AssertionError("unreachable")  # pragma: no cover - for mypy


POLL_SECONDS = 1.0
"""How often a Dask sweep checks that its cluster still has a worker while it waits."""


def _lost(where: str, why: str | BaseException, solved: int, total: int) -> SweepError:
    """The one line for a scheduler that went away: ``why`` in a few words (nothing for
    Dask's own multi-line "Futures cancelled" text)."""
    if isinstance(why, BaseException):
        why = "" if "Cancelled" in type(why).__name__ else _reason(why).splitlines()[0]
    why = f" ({why})" if why else ""
    return SweepError(f"lost the connection to the Dask scheduler{where}{why}; {solved} of "
                      f"{total} variant(s) were solved")


def _finished(client: Any, futures: Sequence[Any], timeout: float,
              where: str = "") -> Iterator[int]:
    """The indices of ``futures`` as they finish (in order within a batch). Raises
    SweepError (exit 3) when the cluster has had no worker for ``timeout`` seconds (the
    last one died or left: the tasks would wait for ever), when for ``timeout`` seconds no
    variant finished and no worker sent its heartbeat (a worker hung or stopped: a busy
    worker still sends them), or when the scheduler is lost (``where``: " at ADDRESS")."""
    from dask.distributed import wait  # optional: the dask extra (only with --dask)

    index = {f.key: i for i, f in enumerate(futures)}
    pending = set(futures)
    no_worker_since: float | None = None
    quiet_since = time.monotonic()  # the last sign of life: a variant done or a heartbeat
    beats: dict[str, Any] = {}

    def lost(why: str | BaseException) -> SweepError:
        return _lost(where, why, len(futures) - len(pending), len(futures))

    while pending:
        try:
            finished = set(wait(list(pending), timeout=POLL_SECONDS,
                                return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            finished = set()
        except Exception as exc:  # the scheduler went away (its futures cancelled)
            raise lost(exc) from None
        now = time.monotonic()
        if finished:
            pending -= finished
            quiet_since = now
            yield from sorted(index[f.key] for f in finished)
            continue
        try:
            info = client.sync(client.scheduler.identity, n_workers=-1,
                               callback_timeout=max(timeout, POLL_SECONDS))
            workers = dict(info.get("workers") or {})
        except Exception as exc:  # closed, refused, or no answer within the timeout
            raise lost(exc) from None
        if client.status not in ("running", "newly-created"):
            raise lost(f"the client is {client.status}")
        seen = {addr: w.get("last_seen") for addr, w in workers.items()}
        if any(beats.get(addr) != t for addr, t in seen.items()):
            quiet_since = now
        beats = seen
        if workers:
            no_worker_since = None
        elif no_worker_since is None:
            no_worker_since = now
        elif now - no_worker_since >= timeout:
            raise SweepError(f"the Dask cluster has had no worker for {timeout:g} s (the "
                             "last one died or left while solving); "
                             f"{len(futures) - len(pending)} of {len(futures)} variant(s) "
                             "were solved")
        if workers and now - quiet_since >= timeout:
            raise SweepError(f"no variant finished in {timeout:g} s and no worker of the Dask "
                             f"cluster{where} answered in that time (--timeout; is a worker "
                             "hung or stopped?); "
                             f"{len(futures) - len(pending)} of {len(futures)} variant(s) "
                             "were solved")


@contextmanager
def _quiet_distributed() -> Iterator[None]:
    """Silence the loggers of ``distributed`` (and tornado) for the block: a lost scheduler
    or worker is told in one line by tourney, not by their logged tracebacks."""

    names = [n for n in list(logging.root.manager.loggerDict)
             if n.split(".")[0] in ("distributed", "tornado")]
    names += [n for n in ("distributed", "tornado") if n not in names]
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


def _probe(address: str, timeout: float) -> None:
    """Check, within ``timeout`` seconds, that a Dask scheduler answers at a ``tcp://``
    (or bare ``host:port``) address: it sends its handshake first, one message of frames
    whose 8-byte size header is small. Raises SweepError (exit 2) for an endpoint that is
    unreachable, silent, closes the connection, or answers something else (an HTTP server
    would make Dask try to allocate exabytes). Other schemes (``tls://``) are left to
    Dask."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port_text = rest.rstrip("/").rpartition(":")
    host = host.strip("[]")
    if not host or not port_text.isdigit():
        return  # Dask explains a malformed address itself
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, int(port_text)), timeout=timeout)
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}",
                         exit_code=2) from None
    head = b""
    try:
        with sock:
            while len(head) < 16:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(16 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise SweepError(f"{address} accepts connections but does not answer as a Dask "
                         f"scheduler within {timeout:g} s (--timeout); check the address (a "
                         "Dask scheduler usually listens on port 8786)", exit_code=2) from None
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}",
                         exit_code=2) from None
    if len(head) == 16:
        total, frames = struct.unpack("<QQ", head)
        if 16 <= total <= 1 << 20 and 1 <= frames <= 1024 and 8 + 8 * frames <= total:
            return
    shown = head[:16].decode("ascii", "replace").encode("unicode_escape").decode("ascii")
    raise SweepError(f"{address} answers, but not as a Dask scheduler (it sent "
                     f"{shown!r}{'' if head else ', nothing'}); check the address (a Dask "
                     "scheduler usually listens on port 8786)", exit_code=2)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes are started: they inherit it and leave Ctrl-C
    to this process, which cancels the tasks and closes the cluster (no worker prints a
    traceback). Outside the main thread, nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _reason(exc: BaseException) -> str:
    msg = str(exc) or type(exc).__name__
    if isinstance(exc, TimeoutError) and "worker" not in msg.lower():
        msg = f"no worker joined within the time limit ({msg})"
    return msg
