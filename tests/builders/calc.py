"""LibreOffice Calc, headless, for the tests that re-save the product's workbooks and CSVs as a
user's spreadsheet does (issue #26): ``soffice --headless --convert-to``, so dates, booleans,
number formats and byte-order marks drift as they do for users. No mock: the real program.

Without ``soffice`` the tests that need it are skipped, unless ``TOURNEY_REQUIRE_LIBREOFFICE=1``
(``.ci/run`` sets it): then they fail. Each conversion has its own user profile (a temporary
folder), so tests running at once do not share LibreOffice's profile lock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CSV_UTF8_BOM = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false"
"""The CSV filter LibreOffice writes Excel's "CSV UTF-8" with: comma, double quotes, UTF-8
(76), values as shown; the byte-order mark is added by :func:`resave` (LibreOffice's own
option for it varies by version)."""


def soffice() -> str:
    """The path of ``soffice``; skips the test when there is none (fails when
    ``TOURNEY_REQUIRE_LIBREOFFICE=1``)."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        if os.environ.get("TOURNEY_REQUIRE_LIBREOFFICE") == "1":
            pytest.fail("LibreOffice (soffice) is required: apt-get install "
                        "libreoffice-calc")
        pytest.skip("LibreOffice (soffice) is not installed")
    return found


def resave(path: Path, out_dir: Path, to: str = "xlsx") -> Path:
    """``path`` opened and saved by LibreOffice Calc as ``to`` (``xlsx``, or
    :data:`CSV_UTF8_BOM` for a CSV with a UTF-8 byte-order mark) into ``out_dir``; returns
    the file written (for a CSV of a workbook: its first sheet)."""
    exe = soffice()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as profile:
        r = subprocess.run(
            [exe, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", to,
             "--outdir", str(out_dir), str(path)],
            capture_output=True, text=True, timeout=300, check=False)
    suffix = "csv" if to.startswith("csv") else to
    written = out_dir / f"{path.stem}.{suffix}"
    if r.returncode != 0 or not written.exists():
        raise AssertionError(f"soffice failed ({r.returncode}): {r.stdout}\n{r.stderr}")
    if suffix == "csv":
        data = written.read_bytes()
        if not data.startswith(b"\xef\xbb\xbf"):
            written.write_bytes(b"\xef\xbb\xbf" + data)  # Excel's "CSV UTF-8"
    return written
