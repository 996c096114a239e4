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
from collections.abc import Sequence
from pathlib import Path

from scheduler.export.ical import render
from scheduler.export.summary import summary_text
from scheduler.export.tables import csv_files
from scheduler.plan import Plan


def source_date_epoch() -> dt.datetime | None:
    """SOURCE_DATE_EPOCH as a UTC time; None when unset. Raises ValueError when it is not a
    whole number of seconds between 1970 and 9999."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    try:
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC)
    except (ValueError, OverflowError, OSError):
        raise ValueError(f"SOURCE_DATE_EPOCH={epoch!r} is not a time (whole seconds since "
                         "1970-01-01 UTC)") from None


def dtstamp(plan: Plan) -> dt.datetime:
    """DTSTAMP for the calendars: SOURCE_DATE_EPOCH when set (reproducible builds), else
    midnight UTC of the plan's ``notice_from`` (the day the plan is made as of), so the same
    input and seed give byte-identical files; a re-plan is stamped at least one second after
    the previous calendar."""
    stamp = source_date_epoch()
    if stamp is None:
        nf = plan.scenario.notice_from
        stamp = dt.datetime(nf.year, nf.month, nf.day, tzinfo=dt.UTC)
    before = plan.previous_dtstamp
    if before is not None and stamp <= before:
        # a re-plan made as of the same day: still newer than what subscribers hold
        stamp = before.astimezone(dt.UTC) + dt.timedelta(seconds=1)
    return stamp


REPORT_FILE = "report.html"
"""The report page ``tourney solve --report`` adds to a plan folder."""


def plan_files(plan: Plan, *, report: bool = False,
               alternatives: Sequence[Plan] | None = None) -> dict[str, bytes]:
    """Every output file of a plan, by relative path; ``report.html`` too when ``report``
    (:func:`scheduler.export.report.report_html`, with ``alternatives`` beside the plan)."""
    calendars, identity = render(plan, dtstamp(plan))
    files = csv_files(plan, identity)
    files.update(calendars)
    files["summary.txt"] = summary_text(plan).encode("utf-8")
    for alt in alternatives or []:
        # each alternative's tables, calendars and summary in alternative-<rank>/
        sub = plan_files(alt)
        files.update({f"{ALTERNATIVE}{alt.rank}/{rel}": data for rel, data in sub.items()})
    if report:
        from scheduler.export.report import report_html  # imports matplotlib: only when asked

        files[REPORT_FILE] = report_html(plan, list(alternatives or [])).encode("utf-8")
    return files


ALTERNATIVE = "alternative-"
"""``tourney solve --alternatives K`` writes plan k of K (k ≥ 2) into ``alternative-<k>/``."""

PLAN_ENTRIES = frozenset({"schedule.csv", "licenses.csv", "unscheduled.csv", "calendar.ics",
                          "calendars", "summary.txt", REPORT_FILE})
"""What a plan directory holds; a directory with anything else is never replaced."""


def _refuse_unsafe(out: Path) -> None:
    """Raise FileExistsError unless ``out`` is new, empty, or holds only a previous plan."""
    cwd = Path.cwd().resolve()
    if out == cwd or out in cwd.parents:
        raise FileExistsError(f"{out} is the current folder (or holds it); give a new folder "
                              "for the plan, e.g. --out plan")
    if not out.exists():
        return
    if not out.is_dir():
        raise FileExistsError(f"{out} is a file; give a folder for the plan")
    others = sorted(p.name for p in out.iterdir() if p.name not in PLAN_ENTRIES
                    and not (p.name.startswith(ALTERNATIVE) and p.is_dir()))
    calendars = out / "calendars"
    if calendars.is_dir():
        others += [f"calendars/{p.name}" for p in calendars.iterdir()
                   if p.suffix != ".ics" or not p.is_file()]
    elif calendars.exists():
        others.append("calendars")
    if others:
        raise FileExistsError(f"{out} holds files that are not part of a tourney plan "
                              f"({', '.join(others[:5])}); give a new or empty folder")


def write_plan(plan: Plan, out_dir: str | Path, *, report: bool = False,
               alternatives: Sequence[Plan] | None = None) -> Path:
    """Write ``plan`` into ``out_dir`` atomically; return the directory.

    ``report``: also write ``report.html`` (one self-contained page; ``alternatives`` shown
    beside the plan). A previous plan's report.html is replaced (or dropped when ``report`` is
    false) with the rest of the folder.

    Raises ``OSError`` when the directory cannot be written (nothing is changed then).
    """
    out = Path(out_dir).resolve()
    files = plan_files(plan, report=report, alternatives=alternatives)
    _refuse_unsafe(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
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
