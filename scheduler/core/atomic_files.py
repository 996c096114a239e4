"""A file written atomically, and the refusals every writer of :mod:`scheduler.core.atomic` shares:
:class:`WriteRefused`, an output that is one of the command's inputs (:func:`refuse_inputs`),
a read-only folder; :func:`shown`, a path as a message prints it.

Import each name from here (``from scheduler.core.atomic_files import write_files``);
:mod:`scheduler.core.atomic`'s docstring says what the writers promise.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import BinaryIO

from scheduler.core.errors import TourneyError


class WriteRefused(TourneyError, OSError):
    """An output that would lose a file (an input, a folder holding other files, a read-only
    folder, a folder another tourney command is writing). Nothing was changed."""

    def format_message(self) -> str:
        return f"tourney: {self}. Nothing was solved or written."


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


def write_synced(path: Path, data: bytes) -> None:
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
        refuse_read_only_parent(out)
    temps: list[tuple[Path, Path]] = []
    try:
        for out, data in zip(targets, files.values(), strict=True):
            out.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
            os.close(fd)
            temps.append((Path(name), out))
            write_synced(Path(name), data)
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


def refuse_read_only_parent(target: Path) -> None:
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


def scratch_file() -> BinaryIO:
    """An unnamed temporary file (``tempfile.TemporaryFile`` in the system's temporary
    folder) for a writer's data that would not fit well in memory: never an output, gone
    when closed or when the process ends, however it ends. The caller closes it."""
    return tempfile.TemporaryFile()  # noqa: SIM115 - the caller closes it
