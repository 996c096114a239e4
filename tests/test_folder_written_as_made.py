"""A folder written file by file as each is made (issue #27): the same files and manifest as
written from bytes in memory, and a write that fails half-way changes nothing (the previous
folder stays, no temporary folder is left)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scheduler.core.atomic import FolderSink, ForkedWriterError, replace_dir
from scheduler.core.errors import InterruptedAfterWriting
from scheduler.core.manifest import MANIFEST, manifest_text


def _nothing_else(out: Path) -> list[str]:
    return []


FILES = {"a.txt": b"first\n", "sub/b.bin": bytes(range(256)) * 3, "sub/c.ics": b""}


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_files_written_as_made_make_the_folder_that_bytes_make(tmp_path: Path) -> None:
    def fill(sink: FolderSink) -> None:
        sink.write("sub/c.ics", b"")
        sink.write("a.txt", [b"fir", b"st\n"])  # in pieces, never joined
        with sink.open("sub/b.bin") as fh:
            fh.write(FILES["sub/b.bin"])

    made = replace_dir(tmp_path / "made", fill, legacy=_nothing_else)
    given = replace_dir(tmp_path / "given", FILES, legacy=_nothing_else)
    assert _tree(made) == _tree(given) == {**FILES, MANIFEST: manifest_text(FILES)}
    # the manifest lists each file's size: a.txt 6 bytes, sub/b.bin 3 * 256 = 768, c.ics 0
    sizes = {line.split("  ")[2]: int(line.split("  ")[1])
             for line in (made / MANIFEST).read_text().splitlines()[1:]}
    assert sizes == {"a.txt": 6, "sub/b.bin": 768, "sub/c.ics": 0}


def test_a_write_failing_half_way_leaves_the_previous_folder(tmp_path: Path) -> None:
    out = replace_dir(tmp_path / "plan", FILES, legacy=_nothing_else)
    before = _tree(out)

    def fill(sink: FolderSink) -> None:
        sink.write("a.txt", b"second\n")  # on disk in the temporary folder
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        replace_dir(out, fill, legacy=_nothing_else)
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]  # no .plan.tmp-* left


def test_a_file_written_twice_is_refused(tmp_path: Path) -> None:
    def fill(sink: FolderSink) -> None:
        sink.write("a.txt", b"1")
        sink.write("a.txt", b"2")

    with pytest.raises(ValueError, match="a.txt written twice"):
        replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
    assert list(tmp_path.iterdir()) == []


def _writes_b(sink: FolderSink) -> None:
    with sink.open("sub/b.bin") as fh:
        fh.write(FILES["sub/b.bin"])


def test_a_file_written_beside_by_a_forked_process_is_the_file_written_here(
        tmp_path: Path) -> None:
    def fill(fork: bool) -> Callable[[FolderSink], None]:
        def files(sink: FolderSink) -> None:
            with sink.beside(_writes_b, fork=fork):
                sink.write("a.txt", FILES["a.txt"])
                sink.write("sub/c.ics", b"")
        return files

    forked = replace_dir(tmp_path / "forked", fill(True), legacy=_nothing_else)
    here = replace_dir(tmp_path / "here", fill(False), legacy=_nothing_else)
    assert _tree(forked) == _tree(here) == {**FILES, MANIFEST: manifest_text(FILES)}


def _fails(sink: FolderSink) -> None:
    with sink.open("sub/b.bin") as fh:
        fh.write(b"half")
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "here"])
def test_a_file_whose_writer_fails_beside_leaves_the_previous_folder(
        tmp_path: Path, fork: bool) -> None:
    out = replace_dir(tmp_path / "plan", FILES, legacy=_nothing_else)
    before = _tree(out)

    def fill(sink: FolderSink) -> None:
        with sink.beside(_fails, fork=fork):
            sink.write("a.txt", b"second\n")

    # forked: the words come back from the other process, which prints nothing itself
    with pytest.raises(OSError, match="No space left on device"):
        replace_dir(out, fill, legacy=_nothing_else)
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]  # no .plan.tmp-* left


def test_the_forked_writer_is_stopped_when_the_rest_fails(tmp_path: Path) -> None:
    def fill(sink: FolderSink) -> None:
        with sink.beside(_writes_b, fork=True):
            raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
    assert list(tmp_path.iterdir()) == []


def _bug(sink: FolderSink) -> None:
    sink.write("sub/b.bin", _boom())  # the failure named by the file being written


def _boom() -> Iterator[bytes]:
    yield b"half"
    raise ValueError("boom in the writer")


def test_a_writer_bug_beside_is_not_taken_for_a_disk_refusal(tmp_path: Path) -> None:
    # a bug is an internal error (the CLI: exit 3), a disk's refusal an OSError (exit 2)
    out = replace_dir(tmp_path / "plan", FILES, legacy=_nothing_else)
    before = _tree(out)

    def fill(fork: bool) -> Callable[[FolderSink], None]:
        def files(sink: FolderSink) -> None:
            with sink.beside(_bug, fork=fork):
                sink.write("a.txt", b"second\n")
        return files

    with pytest.raises(ForkedWriterError, match="sub/b.bin: ValueError: boom in the writer"):
        replace_dir(out, fill(True), legacy=_nothing_else)
    with pytest.raises(ValueError, match="boom in the writer"):
        replace_dir(out, fill(False), legacy=_nothing_else)
    assert not issubclass(ForkedWriterError, OSError)
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]


def _interrupted_then_writes_b(sink: FolderSink) -> None:
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C reaching the writer alone
    _writes_b(sink)


def test_ctrl_c_reaching_only_the_forked_writer_leaves_it_writing(tmp_path: Path) -> None:
    # the terminal sends Ctrl-C to the whole process group: the parent takes it (below);
    # a SIGINT to the forked writer alone is ignored there, so the file is still written
    def fill(sink: FolderSink) -> None:
        with sink.beside(_interrupted_then_writes_b, fork=True):
            sink.write("a.txt", FILES["a.txt"])
            sink.write("sub/c.ics", b"")

    out = replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
    assert _tree(out) == {**FILES, MANIFEST: manifest_text(FILES)}


def _slow(sink: FolderSink) -> None:
    time.sleep(60)
    _writes_b(sink)


def test_ctrl_c_while_waiting_for_the_forked_writer_stops_it_and_keeps_the_folder(
        tmp_path: Path) -> None:
    out = replace_dir(tmp_path / "plan", FILES, legacy=_nothing_else)
    before = _tree(out)

    def fill(sink: FolderSink) -> None:
        with sink.beside(_slow, fork=True):
            sink.write("a.txt", b"second\n")
        # the block is done: this process now waits for the writer, and Ctrl-C comes
        # half a second into the wait

    # Ctrl-C raises KeyboardInterrupt here as in a terminal (a pytest-xdist worker ignores
    # SIGINT otherwise)
    before_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            replace_dir(out, fill, legacy=_nothing_else)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, before_handler)
    assert time.monotonic() - started < 30  # stopped, not waited for (it sleeps 60 s)
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]  # no .plan.tmp-* left


def test_a_file_written_both_beside_and_here_is_refused(tmp_path: Path) -> None:
    def fill(sink: FolderSink) -> None:
        with sink.beside(_writes_b, fork=True):
            sink.write("sub/b.bin", b"here too")

    with pytest.raises(ValueError, match="sub/b.bin written twice"):
        replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_the_folder_is_put_in_place_finishes_it_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C comes as the previous folder is being discarded (after the swap): the swap is
    # not cut in two; the new folder stands, complete, the old one is gone, and the
    # interrupt comes after, as InterruptedAfterWriting naming the folder (a Ctrl-C)
    import scheduler.core.atomic as atomic

    out = replace_dir(tmp_path / "plan", {"old.txt": b"old\n"}, legacy=_nothing_else)
    real = atomic._discard

    def ctrl_c_then_discard(*args: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic, "_discard", ctrl_c_then_discard)
    before_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(InterruptedAfterWriting) as caught:
            replace_dir(out, FILES, legacy=_nothing_else)
    finally:
        signal.signal(signal.SIGINT, before_handler)
    assert isinstance(caught.value, KeyboardInterrupt) and caught.value.path == out
    assert _tree(out) == {**FILES, MANIFEST: manifest_text(FILES)}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]  # nothing left beside


def _killed(sink: FolderSink) -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # the system's out-of-memory killer, say


def test_a_forked_writer_killed_is_named_with_its_files_and_signal(tmp_path: Path) -> None:
    out = replace_dir(tmp_path / "plan", FILES, legacy=_nothing_else)
    before = _tree(out)

    def fill(sink: FolderSink) -> None:
        with sink.beside(_killed, fork=True, names="sub/b.bin, sub/d.bin"):
            sink.write("a.txt", b"second\n")

    with pytest.raises(OSError, match=r"^sub/b\.bin, sub/d\.bin could not be written: the "
                                      r"process writing them stopped \(killed by signal 9 "
                                      r"\(SIGKILL; out of memory\?\)\)$"):
        replace_dir(out, fill, legacy=_nothing_else)
    assert _tree(out) == before


def _too_large() -> Iterator[bytes]:
    yield b"half"
    raise OSError(27, "File too large")  # as `ulimit -f` makes write() say, naming no file


def test_a_disk_error_naming_no_file_is_named_with_the_file_written(tmp_path: Path) -> None:
    def fill(sink: FolderSink) -> None:
        sink.write("sub/c.ics", _too_large())

    with pytest.raises(OSError, match=r"^\[Errno 27\] File too large \(writing sub/c\.ics\)$"
                       ) as caught:
        replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
    assert caught.value.errno == 27  # the same error: "the disk is full" words still apply
    assert list(tmp_path.iterdir()) == []


def _writes_b_then_fails(sink: FolderSink) -> None:
    _writes_b(sink)
    raise ValueError("boom between files")


def test_a_writer_failing_between_its_files_is_named_by_what_it_writes(tmp_path: Path) -> None:
    # sub/b.bin was written whole: the failure is not its, so the words name the writer's
    # files (names), not the last file it finished
    def fill(sink: FolderSink) -> None:
        with sink.beside(_writes_b_then_fails, fork=True, names="sub/b.bin, sub/d.bin"):
            sink.write("a.txt", b"second\n")

    with pytest.raises(ForkedWriterError,
                       match=r"^sub/b\.bin, sub/d\.bin: ValueError: boom between files$"):
        replace_dir(tmp_path / "plan", fill, legacy=_nothing_else)
