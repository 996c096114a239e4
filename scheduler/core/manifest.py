"""What tourney wrote into a folder (its :data:`MANIFEST`) and whether the folder may be
replaced: :func:`unlisted` (what was not written by tourney, or changed since) and
:func:`check_folder` (that, the command's own inputs and anything read-only).

:mod:`scheduler.core.atomic` re-exports every public name here and writes the folders
(:func:`scheduler.core.atomic.replace_dir`, :func:`scheduler.core.atomic.claim`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from scheduler.core.atomic_files import WriteRefused, refuse_read_only_parent, shown

MANIFEST = ".tourney-plan"
"""The manifest a written folder holds: a comment line, then one line per file,
``<sha256 hex>  <size in bytes>  <relative path>``, sorted by path."""
_MANIFEST_HEAD = "# tourney: the files written into this folder (sha256, bytes, path)\n"


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
    return listed_text({rel: (len(data), hashlib.sha256(data).hexdigest())
                        for rel, data in files.items()})


def listed_text(listed: Mapping[str, tuple[int, str]]) -> bytes:
    """The :data:`MANIFEST` of a folder holding files of ``listed`` (relative path -> (size
    in bytes, SHA-256 hex)): :func:`manifest_text` of files already written."""
    lines = [f"{digest}  {size}  {rel}\n" for rel, (size, digest) in sorted(listed.items())]
    return (_MANIFEST_HEAD + "".join(lines)).encode("utf-8")


def walk(folder: Path) -> Iterator[tuple[str, Path]]:
    """Every entry under ``folder`` (relative POSIX path, path), not following links."""
    for entry in sorted(folder.iterdir()):
        rel = entry.relative_to(folder).as_posix()
        yield rel, entry
        if entry.is_dir() and not entry.is_symlink():
            for sub, p in walk(entry):
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
    for rel, p in walk(folder):
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


def manifest_home(folder: Path) -> tuple[Path, str]:
    """Where the files of ``folder`` are listed: ``(folder, "")`` when it has a
    :data:`MANIFEST` (or neither it nor its parent has one), ``(parent, "NAME/")`` when it
    has none and its parent has one (an ``alternative-<k>/`` of ``tourney solve
    --alternatives``, listed by its plan folder's manifest; a list damaged or cut down is
    then refused, not the check skipped). ``folder`` is resolved first: ``.`` and a
    symbolic link are the folder they name."""
    real = folder.resolve()  # "." and a link name the folder they lead to
    if (real / MANIFEST).exists():
        return folder, ""
    if (real.parent / MANIFEST).exists():
        # listed there or not (a list damaged, or cut: changed_since_written refuses what
        # it does not list), a folder inside a plan folder is held to the plan's list
        return real.parent, f"{real.name}/"
    return folder, ""


def changed_since_written(folder: Path, read: Names) -> list[str]:
    """Of the files a command reads in ``folder`` (``read``: whether a relative POSIX path is
    one), each that differs from the folder's :data:`MANIFEST`: ``"X (changed since tourney
    wrote it)"``, ``"X (not written by tourney)"`` (present, not listed), ``"X (missing;
    tourney wrote it)"`` (listed, gone); ``".tourney-plan (not the list tourney wrote)"``
    when the manifest is there but cannot be read as one. Empty when all match, or when the
    folder has no manifest (written by an earlier version: nothing to compare with)."""
    if not (folder / MANIFEST).exists():
        return []
    listed = read_manifest(folder)
    if listed is None:
        return [f"{MANIFEST} (not the list tourney wrote)"]
    out = []
    for rel, p in walk(folder):
        if not read(rel) or p.is_dir():
            continue
        if rel not in listed:
            out.append(f"{shown(rel)} (not written by tourney)")
        elif not _matches(p, *listed[rel]):
            out.append(f"{shown(rel)} (changed since tourney wrote it)")
    out += [f"{shown(rel)} (missing; tourney wrote it)" for rel in sorted(listed)
            if read(rel) and not (folder / rel).exists()]
    return out


def _parents(rel: str) -> Iterator[str]:
    parts = rel.split("/")
    for i in range(1, len(parts)):
        yield "/".join(parts[:i])


def _read_only(folder: Path) -> str | None:
    """The first entry of ``folder`` (or the folder) a person made read-only (no write bit
    for its owner), or None. Checked by mode bits, so the same for root."""
    for p in [folder, *(p for _, p in walk(folder))]:
        if p.is_symlink():
            continue
        if not p.stat().st_mode & stat.S_IWUSR:
            return str(p)
    return None


def holding(folder: Path, inputs: Iterable[str | Path | None]) -> str | None:
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
        for _, p in walk(folder):
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
    ``inputs`` (the command's own input files, at any depth: :func:`holding`), only what
    tourney wrote there unchanged (:func:`unlisted`), and nothing read-only."""
    refuse_read_only_parent(out)
    inputs = list(inputs)
    if not out.exists() and not out.is_symlink():
        return
    if out.is_symlink() or not out.is_dir():
        raise WriteRefused(f"{shown(out)} is a file; give a folder for the {what}")
    held = holding(out, inputs)
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
