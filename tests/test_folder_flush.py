"""A folder flush that fails is reported on POSIX (issue #12 review)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scheduler.core.atomic_files import fsync_dir


@pytest.mark.skipif(os.name == "nt", reason="Windows skips the folder flush")
def test_fsync_dir_of_a_missing_folder_raises(tmp_path: Path) -> None:
    # before: any OSError was swallowed, so a write could be reported done when not on disk
    fsync_dir(tmp_path)  # an existing folder flushes
    with pytest.raises(FileNotFoundError):
        fsync_dir(tmp_path / "gone")
