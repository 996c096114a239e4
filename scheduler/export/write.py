"""Write a plan's files into a directory atomically.

Everything is first written into a temporary sibling directory; only when every file is
complete is it renamed into place. A failed or interrupted run never leaves a half-written
plan, and a previous good plan in the same directory is replaced only by a complete new one.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from pathlib import Path

from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.export.tables import csv_files
from scheduler.plan import Plan


def dtstamp(plan: Plan) -> dt.datetime:
    """DTSTAMP for the calendars: SOURCE_DATE_EPOCH when set (reproducible builds), else
    midnight UTC of the plan's ``notice_from`` (the day the plan is made as of), so the same
    input and seed give byte-identical files."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC)
    nf = plan.scenario.notice_from
    return dt.datetime(nf.year, nf.month, nf.day, tzinfo=dt.UTC)


def plan_files(plan: Plan) -> dict[str, bytes]:
    """Every output file of a plan, by relative path."""
    files = csv_files(plan)
    files.update(calendar_files(plan, dtstamp(plan)))
    files["summary.txt"] = summary_text(plan).encode("utf-8")
    return files


def write_plan(plan: Plan, out_dir: str | Path) -> Path:
    """Write ``plan`` into ``out_dir`` atomically; return the directory.

    Raises ``OSError`` when the directory cannot be written (nothing is changed then).
    """
    out = Path(out_dir).resolve()
    if out.exists() and (not out.is_dir() or (any(out.iterdir())
                                              and not (out / "schedule.csv").exists())):
        raise FileExistsError(f"{out} exists and is not a tourney plan directory; "
                              "choose a new or empty directory")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        for rel, data in sorted(plan_files(plan).items()):
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
        os.chmod(tmp, 0o755)
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(old)
        try:
            tmp.rename(out)
        except OSError:
            if old is not None:
                old.rename(out)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
