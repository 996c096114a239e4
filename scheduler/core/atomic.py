"""Every file and folder tourney writes goes through here, so that no file is ever lost.

- :func:`write_files`: files (the sweep's CSVs, a generated scenario) each written into a
  temporary file beside it, flushed to disk (``fsync``), then renamed over the target: a
  reader sees the old file or the new one, never half of one; when one cannot be written,
  none is replaced.
- :func:`refuse_inputs`: an output that is one of the command's input files (the same path,
  through a symbolic link, or a hard link to the same inode) is refused before anything is
  solved or written.
- :func:`replace_dir`: a folder (a plan) written complete into a hidden sibling, fsynced, and
  swapped into place while a lock (``.<name>.lock`` beside it) keeps a second writer out.
  On Linux the swap is one atomic ``renameat2(RENAME_EXCHANGE)``; elsewhere it takes two
  renames, and a run killed between them leaves the previous folder in ``.<name>.old-PID``,
  which the next run into the same folder puts back before doing anything else (then removes
  what the interrupted run left). A folder it writes holds a manifest (:data:`MANIFEST`: the
  relative path, size and SHA-256 of every file); a folder holding anything the manifest does
  not list, at any depth, a listed file whose size or SHA-256 differs (changed since), a
  listed name tourney never writes, one of the command's own inputs, or anything read-only
  (the folder beside it too), is never replaced. The previous folder is checked again after
  the swap (a file added while writing puts it back and refuses) and only the files checked
  are removed.
- :func:`claim`: the same lock and checks taken *before* a long computation (``tourney solve``
  holds them from before solving to the end), so a second writer is refused at once and a
  folder that will be refused is refused before any work.

Errors: :class:`WriteRefused` (an ``OSError``) for every refusal, with a message naming the
path and what to do; other ``OSError`` when the disk refuses. Nothing is changed in either
case.

This module writes the folders (:func:`lock`, :func:`claim`, :func:`recover`,
:func:`replace_dir`); the files and the refusals every writer shares are in
:mod:`scheduler.core.atomic_files`, the manifest and the checks of a folder in
:mod:`scheduler.core.manifest`.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import multiprocessing
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from filelock import FileLock, Timeout

from scheduler.core.atomic_files import (
    WriteRefused,
    fsync_dir,
    refuse_read_only_parent,
    shown,
    write_synced,
)
from scheduler.core.errors import InterruptedAfterWriting
from scheduler.core.manifest import (
    MANIFEST,
    Names,
    check_folder,
    holding,
    listed_text,
    unlisted,
    walk,
)

# --------------------------------------------------------------------------- folders


@contextlib.contextmanager
def lock(target: Path) -> Iterator[Path]:
    """Hold ``.<name>.lock`` beside ``target`` (a :class:`filelock.FileLock`: an exclusive
    ``flock`` on POSIX, released when the process ends, even by kill -9; the file is removed
    when done) while writing ``target``; missing parent folders are created. Re-entrant within
    one thread (a write under :func:`claim` takes it again). Raises :class:`WriteRefused` at
    once when another process or thread holds it, or when the folder it goes in is read-only
    (mode bits: root too)."""
    path = target.parent / f".{target.name}.lock"
    refuse_read_only_parent(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # one instance per path (re-entrant in its thread; another thread's hold is its own)
    held = FileLock(path, timeout=0, is_singleton=True)
    try:
        held.acquire()
    except Timeout:
        raise WriteRefused(
            f"another tourney command is writing {shown(target)} (it holds "
            f"{shown(path)}); wait for it to finish, or give another --out") from None
    try:
        yield path
    finally:
        if held.lock_counter == 1:  # the outermost hold: the file goes before the lock
            with contextlib.suppress(OSError):
                path.unlink()  # a newcomer then locks a new file (filelock checks)
        held.release()


@contextlib.contextmanager
def claim(out: Path, *, legacy: Callable[[Path], list[str]], product: Names | None = None,
          inputs: Iterable[str | Path | None] = (), what: str = "folder") -> Iterator[Path]:
    """Hold the :func:`lock` of ``out`` (resolved; yielded) for the whole block, having
    recovered a killed run's leftovers and checked ``out`` (:func:`check_folder`) first:
    taken before a long computation, so a second writer, or a folder that would be refused,
    is refused at once. :func:`replace_dir` inside the block checks again.

    Raises :class:`WriteRefused` (nothing changed) or ``OSError``."""
    out = Path(out).resolve()
    refuse_read_only_parent(out)
    with lock(out):
        recover(out, legacy, product)
        check_folder(out, legacy=legacy, product=product, inputs=inputs, what=what)
        yield out


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``). False when the system cannot (then nothing changed); raises
    ``OSError`` for other failures."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(a))




def _leftovers(out: Path) -> list[Path]:
    """Hidden siblings an interrupted write into ``out`` may have left."""
    tmp, old = f".{out.name}.tmp-", f".{out.name}.old-"
    try:
        return sorted(p for p in out.parent.iterdir()
                      if p.name.startswith((tmp, old)) and p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def _discard(folder: Path, entries: Iterable[str]) -> None:
    """Remove ``entries`` (relative paths found in ``folder`` when it was checked), then the
    folders they leave empty; anything that appeared since stays (with its folders)."""
    for rel in sorted(entries, key=lambda r: (-r.count("/"), r), reverse=False):
        p = folder / rel
        with contextlib.suppress(OSError):
            if p.is_dir() and not p.is_symlink():
                p.rmdir()
            else:
                p.unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def _snapshot(folder: Path) -> list[str]:
    return [rel for rel, _ in walk(folder)]


def recover(out: Path, legacy: Callable[[Path], list[str]],
            product: Names | None = None) -> None:
    """Undo what a killed write into ``out`` left (call with the :func:`lock` held): when
    ``out`` is missing and a previous folder waits in ``.<name>.old-PID``, put it back; then
    remove the hidden ``.tmp-``/``.old-`` siblings that hold only tourney's files (anything
    else is left alone)."""
    rest = _leftovers(out)
    if not out.exists() and not out.is_symlink():
        olds = [p for p in rest if p.name.startswith(f".{out.name}.old-")]
        if olds:
            newest = max(olds, key=lambda p: p.stat().st_mtime)
            newest.rename(out)
            fsync_dir(out.parent)
            rest.remove(newest)
    for p in rest:
        entries = _snapshot(p)
        if not unlisted(p, legacy, product):
            _discard(p, entries)


@contextlib.contextmanager
def _naming(rel: str) -> Iterator[None]:
    """An ``OSError`` of writing the file ``rel`` that names no file (a disk's "File too
    large", "Input/output error") names it: the same error number, its reason, ``(writing
    REL)`` after it."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        raise OSError(exc.errno, f"{exc.strerror or exc} (writing {rel})") from exc


class FolderSink:
    """Where :func:`replace_dir` writes a folder's files one at a time (its ``files`` given
    as a function of a sink): each file goes to disk as it is made (flushed, ``fsync``) and
    is let go; its size and SHA-256 are kept for the :data:`MANIFEST`. Nothing is visible
    at the folder's name until every file is written."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.listed: dict[str, tuple[int, str]] = {}
        self.made: set[Path] = {root}
        self.writing: str | None = None  # the file being written now (named by a failure)

    def _path(self, rel: str) -> Path:
        if rel in self.listed or rel == MANIFEST:
            raise ValueError(f"{rel} written twice into one folder")
        self.writing = rel
        path = self.root / rel
        if path.parent not in self.made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.made |= {path.parent, *path.parent.parents}
        return path

    def write(self, rel: str, data: bytes | Iterable[bytes]) -> None:
        """Write the file ``rel`` (a relative POSIX path) holding ``data``: bytes, or pieces
        of bytes written one after another (never joined in memory)."""
        path = self._path(rel)
        digest, size = hashlib.sha256(), 0
        with _naming(rel), open(path, "wb") as fh:
            for piece in (data,) if isinstance(data, bytes) else data:
                fh.write(piece)
                digest.update(piece)
                size += len(piece)
            fh.flush()
            os.fsync(fh.fileno())
        self.listed[rel] = (size, digest.hexdigest())
        self.writing = None

    @contextlib.contextmanager
    def open(self, rel: str) -> Iterator[BinaryIO]:
        """The file ``rel`` open for a writer that writes it itself (a zip file); flushed
        to disk and listed when the block ends."""
        path = self._path(rel)
        with _naming(rel), open(path, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        self._list(rel, path)
        self.writing = None

    def _list(self, rel: str, path: Path) -> None:
        digest, size = hashlib.sha256(), 0
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
                size += len(block)
        self.listed[rel] = (size, digest.hexdigest())

    @contextlib.contextmanager
    def beside(self, writer: Callable[[FolderSink], None], *, fork: bool,
               names: str = "the files written beside") -> Iterator[None]:
        """Write some of the folder's files by ``writer(sink)`` while the block writes the
        others: in a forked process when ``fork`` (and the system forks; the same bytes:
        the fork writes into its copy of this sink, and its files are listed here when it
        is done), else in this process when the block ends. The forked writer is stopped
        when the block raises (Ctrl-C included); its ``OSError`` raises ``OSError`` naming
        the file it was writing and the writer's words (no traceback), anything else
        :class:`ForkedWriterError`; one killed (or gone without a word) raises ``OSError``
        naming ``names`` (what the writer writes, for the words) and the signal. The forked
        writer ignores Ctrl-C (SIGINT): this process takes it, as the terminal sends it to
        both, and stops the writer."""
        if not fork or "fork" not in multiprocessing.get_all_start_methods():
            yield
            writer(self)
            return
        context = multiprocessing.get_context("fork")
        words, told = context.Pipe(duplex=False)
        proc = context.Process(target=_write_forked, args=(self, writer, told), daemon=True)
        proc.start()
        told.close()
        try:
            yield
            said = words.recv()  # what the writer listed, or its words (below)
            proc.join()
        except EOFError:  # it stopped saying nothing (killed)
            proc.join()
            code = proc.exitcode or 0
            how = (f"killed by signal {-code} ({signal.Signals(-code).name}"
                   f"{'; out of memory?' if -code == signal.SIGKILL else ''})"
                   if code < 0 and -code in signal.valid_signals() else f"exit code {code}")
            said = (True, "", f"the process writing them stopped ({how})")
        except BaseException:  # Ctrl-C (here or while waiting) included: the writer stops
            proc.kill()  # SIGKILL: stops a writer stopped (SIGSTOP) too, which SIGTERM waits on
            proc.join()
            raise
        finally:
            words.close()
        if isinstance(said, dict):
            twice = sorted(said.keys() & self.listed.keys())
            if twice:
                raise ValueError(f"{twice[0]} written twice into one folder")
            self.listed.update(said)
            return
        disk, rel, what = said
        if not disk:  # a bug of the writer, not the disk's refusal: as if raised here
            raise ForkedWriterError(f"{rel or names}: {what}")
        raise OSError(f"{rel or names} could not be written: {what}")


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[list[bool]]:
    """A block Ctrl-C (SIGINT) does not cut short: one that comes meanwhile is kept (the
    yielded list gets ``True``) for the caller to act on when the block is done. Outside
    the main thread (where Python takes signals) the block runs as is."""
    came: list[bool] = []
    try:
        before = signal.signal(signal.SIGINT, lambda *_: came.append(True))
    except ValueError:  # not the main thread: signals are not ours to take here
        yield came
        return
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, before)


class ForkedWriterError(RuntimeError):
    """The writer of :meth:`FolderSink.beside` failed in the forked process with anything but
    ``OSError`` (a bug: the CLI says "internal error", exit 3); its words are the exception's
    type and message."""


def _write_forked(sink: FolderSink, writer: Callable[[FolderSink], None], told: Any) -> None:
    """The forked side of :meth:`FolderSink.beside`: ``writer(sink)`` into this process's
    copy of the sink, whose new listed files are sent back; a failure is sent back as
    words (the file being written, if any) and the process exits 1 (never a traceback on
    the terminal). Ctrl-C is the parent's to take (it stops this process)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    before = set(sink.listed)
    try:
        writer(sink)
        told.send({rel: v for rel, v in sink.listed.items() if rel not in before})
    except BaseException as exc:
        rel = sink.writing
        with contextlib.suppress(BaseException):
            told.send((True, rel, str(exc) or type(exc).__name__) if isinstance(exc, OSError)
                      else (False, rel, f"{type(exc).__name__}: {exc}"))
        os._exit(1)


Fill = Callable[[FolderSink], None]
"""A function writing a folder's files into the :class:`FolderSink` it is given."""


def replace_dir(out: Path, files: Mapping[str, bytes] | Fill, *,
                legacy: Callable[[Path], list[str]], what: str = "folder",
                product: Names | None = None,
                inputs: Iterable[str | Path | None] = ()) -> Path:
    """Make the folder ``out`` hold exactly ``files`` (relative POSIX path -> bytes, or a
    function writing them into a :class:`FolderSink`, each file to disk as it is made) and
    a :data:`MANIFEST` of them, atomically, under :func:`lock`. ``out`` must be new, empty, or
    hold only files tourney wrote there, unchanged, none of them read-only and none of
    ``inputs`` (:func:`check_folder`, with ``legacy`` judging a folder without a manifest
    and ``product`` the names listed in one); after the swap the previous folder is checked
    again (a file added meanwhile: swapped back, refused) and only what was checked is
    removed. Returns ``out`` (resolved).

    Raises :class:`WriteRefused` (nothing changed) or ``OSError`` (nothing changed)."""
    out = Path(out).resolve()
    inputs = list(inputs)
    refuse_read_only_parent(out)

    def again(previous: Path) -> tuple[list[str], list[str]]:
        """The previous folder (moved to ``previous``): its entries, and what is wrong."""
        entries = _snapshot(previous)
        held = holding(previous, inputs)
        return entries, ([f"{held} (an input of this command)"] if held else []) + unlisted(
            previous, legacy, product)

    def added(others: list[str]) -> WriteRefused:
        more = f" and {len(others) - 5} more" if len(others) > 5 else ""
        return WriteRefused(
            f"files appeared in {shown(out)} while it was being written "
            f"({', '.join(others[:5])}{more}); it was put back as it was; give a new or "
            "empty folder, or move them away")

    with lock(out):
        recover(out, legacy, product)
        check_folder(out, legacy=legacy, product=product, inputs=inputs, what=what)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
        ours: Path | None = tmp  # a folder holding only what this run wrote
        try:
            sink = FolderSink(tmp)
            if callable(files):
                files(sink)
            else:
                for rel, data in sorted(files.items()):
                    sink.write(rel, data)
            write_synced(tmp / MANIFEST, listed_text(sink.listed))
            made = sink.made
            for d in sorted(made & {tmp, *(p for p in made if tmp in p.parents)},
                            key=lambda p: -len(p.parts)):
                fsync_dir(d)
            os.chmod(tmp, 0o755)
            with interrupts_deferred() as stopped:  # the swap is never cut in two
                if out.exists() and _exchange(tmp, out):
                    ours = None  # tmp holds the previous folder now
                    entries, others = again(tmp)
                    if others:
                        if _exchange(tmp, out):
                            ours = tmp
                        raise added(others)
                    fsync_dir(out.parent)
                    _discard(tmp, entries)
                else:
                    old = None
                    if out.exists():
                        old = out.with_name(f".{out.name}.old-{os.getpid()}")
                        out.rename(old)
                        entries, others = again(old)
                        if others:
                            old.rename(out)
                            raise added(others)
                    try:
                        tmp.rename(out)
                    except OSError:
                        if old is not None:
                            old.rename(out)
                        raise
                    ours = None
                    fsync_dir(out.parent)
                    if old is not None:
                        _discard(old, entries)
        finally:
            if ours is not None:
                shutil.rmtree(ours, ignore_errors=True)
    if stopped:
        raise InterruptedAfterWriting(out)
    return out
