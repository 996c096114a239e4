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
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

MANIFEST = ".tourney-plan"
"""The manifest a written folder holds: a comment line, then one line per file,
``<sha256 hex>  <size in bytes>  <relative path>``, sorted by path."""
_MANIFEST_HEAD = "# tourney: the files written into this folder (sha256, bytes, path)\n"


class WriteRefused(OSError):
    """An output that would lose a file (an input, a folder holding other files, a read-only
    folder, a folder another tourney command is writing). Nothing was changed."""


def unwritable(out: str | Path) -> str | None:
    """Why the file ``out`` cannot be written, checked before a long run (a sweep), else None.

    Returns
    -------
    str or None
        ``"it is a folder; ..."`` when ``out`` is a folder, ``"<folder> is not writable"``
        when the nearest existing folder above it is not writable, else None.
    """
    out = Path(out)
    if out.is_dir():
        return "it is a folder; give a file name such as results.csv"
    parent = out.parent if str(out.parent) else Path(".")
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not os.access(parent, os.W_OK):
        return f"{parent} is not writable"
    return None


def shown(path: str | Path) -> str:
    """A path or name for a message: as it is when every character is printable, else its
    ``repr`` (no raw control character or escape sequence reaches the terminal)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


# --------------------------------------------------------------------------- files
def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (new names, renames) to disk; a no-op on Windows, where
    folders cannot be opened.

    Raises
    ------
    OSError
        On POSIX, when the folder cannot be opened or flushed (a write that may not be on
        disk is not reported as done).
    """
    if os.name == "nt":  # Windows: os.open on a folder fails; NTFS orders metadata itself
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def write_files(files: Mapping[Path, bytes], *, mode: int = 0o644) -> list[Path]:
    """Write each ``path -> bytes`` atomically (temporary file in the same folder, fsync,
    rename over the target, fsync of the folder); missing parent folders are created. When
    one cannot be written none is replaced. Returns the paths in the order given.

    Raises ``IsADirectoryError`` when a target is a folder, :class:`WriteRefused` when its
    folder is read-only (mode bits: root too), ``OSError`` when the disk refuses."""
    targets = [Path(p) for p in files]
    for out in targets:
        if out.is_dir():
            raise IsADirectoryError(f"{shown(out)} is a folder; give a file name")
        _refuse_read_only_parent(out)
    temps: list[tuple[Path, Path]] = []
    try:
        for out, data in zip(targets, files.values(), strict=True):
            out.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
            os.close(fd)
            temps.append((Path(name), out))
            _write_synced(Path(name), data)
            os.chmod(name, mode)
        for tmp, out in temps:
            os.replace(tmp, out)
        for parent in {out.parent for out in targets}:
            fsync_dir(parent)
    finally:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
    return targets


# --------------------------------------------------------------------------- inputs
def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file: equal once symbolic links are resolved, or the same
    inode (a hard link). A path that does not exist is the same only by name."""
    pa, pb = Path(a), Path(b)
    if pa.resolve() == pb.resolve():
        return True
    try:
        return os.path.samefile(pa, pb)
    except OSError:
        return False


def refuse_inputs(outputs: Iterable[str | Path], inputs: Iterable[str | Path | None]) -> None:
    """Raise :class:`WriteRefused` when an output would be written over one of the inputs
    (:func:`same_file`: the same path, a symbolic link to it, or a hard link)."""
    ins = [Path(i) for i in inputs if i is not None]
    for out in outputs:
        for inp in ins:
            if same_file(out, inp):
                raise WriteRefused(
                    f"{shown(out)} is the input file {shown(inp)}: writing there would "
                    "destroy it; give another --out")


# --------------------------------------------------------------------------- folders
_HELD: dict[tuple[Path, int], int] = {}
"""Lock files this process holds (with the thread holding each), with how many :func:`lock`
blocks hold each."""


@contextlib.contextmanager
def lock(target: Path) -> Iterator[Path]:
    """Hold ``.<name>.lock`` beside ``target`` (an exclusive ``flock``, released when the
    process ends, even by kill -9; the file is removed when done) while writing ``target``;
    missing parent folders are created. Re-entrant within one thread (a write under
    :func:`claim` takes it again). Raises :class:`WriteRefused` at once when another process
    or thread holds it, or when the folder it goes in is read-only (mode bits: root too).
    Where ``fcntl`` is missing (Windows), no lock."""

    path = target.parent / f".{target.name}.lock"
    key = (path, threading.get_ident())
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield path
        finally:
            _HELD[key] -= 1
        return
    _refuse_read_only_parent(target)
    try:
        import fcntl  # optional: POSIX only (no lock on Windows)
    except ImportError:  # pragma: no cover - Windows
        yield path
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(100):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise WriteRefused(
                f"another tourney command is writing {shown(target)} (it holds "
                f"{shown(path)}); wait for it to finish, or give another --out") from None
        try:  # the holder before us may have removed the file: lock the one at the path
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    else:  # pragma: no cover - a hundred writers in a row
        raise WriteRefused(f"cannot lock {path}; try again")
    _HELD[key] = 1
    try:
        yield path
    finally:
        del _HELD[key]
        with contextlib.suppress(OSError):
            path.unlink()  # before the lock goes: a newcomer then locks a new file
        os.close(fd)  # releases the lock


def read_manifest(folder: Path) -> dict[str, tuple[int, str]] | None:
    """``relative path -> (size, sha256)`` from a folder's :data:`MANIFEST`; None when it
    has none (or it cannot be read as one)."""
    path = folder / MANIFEST
    if not path.is_file() or path.is_symlink():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found: dict[str, tuple[int, str]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        parts = line.split("  ", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            return None
        found[parts[2]] = (int(parts[1]), parts[0])
    return found


def manifest_text(files: Mapping[str, bytes]) -> bytes:
    """The :data:`MANIFEST` of a folder holding ``files`` (relative path -> bytes)."""
    lines = [f"{hashlib.sha256(data).hexdigest()}  {len(data)}  {rel}\n"
             for rel, data in sorted(files.items())]
    return (_MANIFEST_HEAD + "".join(lines)).encode("utf-8")


def _walk(folder: Path) -> Iterator[tuple[str, Path]]:
    """Every entry under ``folder`` (relative POSIX path, path), not following links."""
    for entry in sorted(folder.iterdir()):
        rel = entry.relative_to(folder).as_posix()
        yield rel, entry
        if entry.is_dir() and not entry.is_symlink():
            for sub, p in _walk(entry):
                yield f"{rel}/{sub}", p


Names = Callable[[str], bool]
"""Whether a relative POSIX path is a file name tourney writes into such a folder."""


def _matches(path: Path, size: int, digest: str) -> bool:
    """Whether the file at ``path`` has ``size`` bytes and SHA-256 ``digest``."""
    try:
        if path.stat().st_size != size:
            return False
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return False
    return h.hexdigest() == digest


def unlisted(folder: Path, legacy: Callable[[Path], list[str]],
             product: Names | None = None) -> list[str]:
    """What in ``folder`` was not written by tourney, or changed since: with a
    :data:`MANIFEST`, every file, folder or link (at any depth) the manifest does not list,
    every listed file whose size or SHA-256 differs from the manifest's, and every listed
    name ``product`` says tourney never writes; without one (a folder written by an earlier
    version), what ``legacy(folder)`` returns. Empty: the folder may be replaced."""
    listed = read_manifest(folder)
    if listed is None:
        return legacy(folder)
    dirs = {str(Path(rel).parent.as_posix()) for rel in listed}
    dirs |= {d for rel in dirs for d in _parents(rel)}
    others = []
    for rel, p in _walk(folder):
        if rel == MANIFEST:
            continue
        if p.is_symlink():
            others.append(f"{shown(rel)} (a link)")
        elif p.is_dir():
            if rel not in dirs:
                others.append(f"{shown(rel)}/")
        elif rel not in listed:
            others.append(shown(rel))
        elif product is not None and not product(rel):
            others.append(f"{shown(rel)} (listed in {MANIFEST}, but tourney never writes "
                          "such a file)")
        elif not _matches(p, *listed[rel]):
            others.append(f"{shown(rel)} (changed since tourney wrote it)")
    return others


def _parents(rel: str) -> Iterator[str]:
    parts = rel.split("/")
    for i in range(1, len(parts)):
        yield "/".join(parts[:i])


def _read_only(folder: Path) -> str | None:
    """The first entry of ``folder`` (or the folder) a person made read-only (no write bit
    for its owner), or None. Checked by mode bits, so the same for root."""
    for p in [folder, *(p for _, p in _walk(folder))]:
        if p.is_symlink():
            continue
        if not p.stat().st_mode & stat.S_IWUSR:
            return str(p)
    return None


def _refuse_read_only_parent(target: Path) -> None:
    """Raise :class:`WriteRefused` when the folder ``target`` would be written in (its
    nearest existing parent) has no write bit for its owner: by mode bits, so root is
    refused too."""
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    try:
        mode = parent.stat().st_mode
    except OSError:
        return  # the write itself says why
    if not mode & stat.S_IWUSR:
        raise WriteRefused(f"{shown(parent)} is read-only: {shown(target)} is not written "
                           "there; make it writable (chmod u+w) or give another --out")


def _holding(folder: Path, inputs: Iterable[str | Path | None]) -> str | None:
    """The first of ``inputs`` that lies in ``folder`` at any depth (by resolved path, or a
    file there that is the same inode: a hard link), or None."""
    real = folder.resolve()
    ids: dict[tuple[int, int], str | Path] = {}
    for inp in inputs:
        if inp is None:
            continue
        where = Path(inp).resolve()
        if where == real or real in where.parents:
            return shown(inp)
        with contextlib.suppress(OSError):
            st = os.stat(inp)
            ids[(st.st_dev, st.st_ino)] = inp
    if ids and folder.is_dir():
        for _, p in _walk(folder):
            with contextlib.suppress(OSError):
                st = p.lstat()
                if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) in ids:
                    return f"{shown(ids[(st.st_dev, st.st_ino)])} (as {shown(p)})"
    return None


def _refusal(out: Path, others: list[str], what: str) -> WriteRefused:
    more = f" and {len(others) - 5} more" if len(others) > 5 else ""
    return WriteRefused(
        f"{shown(out)} holds files that are not part of a tourney {what} "
        f"({', '.join(others[:5])}{more}); give a new or empty folder, or move them away")


def check_folder(out: Path, *, legacy: Callable[[Path], list[str]],
                 product: Names | None = None, inputs: Iterable[str | Path | None] = (),
                 what: str = "folder") -> None:
    """Raise :class:`WriteRefused` unless ``out`` may be made or replaced: its parent is
    writable (mode bits), and ``out`` is missing, or a folder that holds none of
    ``inputs`` (the command's own input files, at any depth: :func:`_holding`), only what
    tourney wrote there unchanged (:func:`unlisted`), and nothing read-only."""
    _refuse_read_only_parent(out)
    inputs = list(inputs)
    if not out.exists() and not out.is_symlink():
        return
    if out.is_symlink() or not out.is_dir():
        raise WriteRefused(f"{shown(out)} is a file; give a folder for the {what}")
    held = _holding(out, inputs)
    if held:
        raise WriteRefused(f"{shown(out)} holds {held}, an input of this command: replacing "
                           "the folder would destroy it; give another --out")
    others = unlisted(out, legacy, product)
    if others:
        raise _refusal(out, others, what)
    frozen = _read_only(out)
    if frozen:
        raise WriteRefused(f"{shown(frozen)} is read-only: {shown(out)} is not replaced; "
                           "make it writable (chmod u+w) or give another --out")


@contextlib.contextmanager
def claim(out: Path, *, legacy: Callable[[Path], list[str]], product: Names | None = None,
          inputs: Iterable[str | Path | None] = (), what: str = "folder") -> Iterator[Path]:
    """Hold the :func:`lock` of ``out`` (resolved; yielded) for the whole block, having
    recovered a killed run's leftovers and checked ``out`` (:func:`check_folder`) first:
    taken before a long computation, so a second writer, or a folder that would be refused,
    is refused at once. :func:`replace_dir` inside the block checks again.

    Raises :class:`WriteRefused` (nothing changed) or ``OSError``."""
    out = Path(out).resolve()
    _refuse_read_only_parent(out)
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
    return [rel for rel, _ in _walk(folder)]


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


def replace_dir(out: Path, files: Mapping[str, bytes], *,
                legacy: Callable[[Path], list[str]], what: str = "folder",
                product: Names | None = None,
                inputs: Iterable[str | Path | None] = ()) -> Path:
    """Make the folder ``out`` hold exactly ``files`` (relative POSIX path -> bytes) and a
    :data:`MANIFEST` of them, atomically, under :func:`lock`. ``out`` must be new, empty, or
    hold only files tourney wrote there, unchanged, none of them read-only and none of
    ``inputs`` (:func:`check_folder`, with ``legacy`` judging a folder without a manifest
    and ``product`` the names listed in one); after the swap the previous folder is checked
    again (a file added meanwhile: swapped back, refused) and only what was checked is
    removed. Returns ``out`` (resolved).

    Raises :class:`WriteRefused` (nothing changed) or ``OSError`` (nothing changed)."""
    out = Path(out).resolve()
    inputs = list(inputs)
    _refuse_read_only_parent(out)

    def again(previous: Path) -> tuple[list[str], list[str]]:
        """The previous folder (moved to ``previous``): its entries, and what is wrong."""
        entries = _snapshot(previous)
        held = _holding(previous, inputs)
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
            made = {tmp}
            for rel, data in sorted({**files, MANIFEST: manifest_text(files)}.items()):
                path = tmp / rel
                if path.parent not in made:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    made |= {path.parent, *path.parent.parents}
                _write_synced(path, data)
            for d in sorted(made & {tmp, *(p for p in made if tmp in p.parents)},
                            key=lambda p: -len(p.parts)):
                fsync_dir(d)
            os.chmod(tmp, 0o755)
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
    return out
