"""Write a plan's files into a directory atomically.

Everything is first written into a temporary sibling directory; only when every file is
complete is it swapped into place (:func:`scheduler.core.atomic.replace_dir`). A failed or
interrupted run never leaves a half-written plan, and a previous good plan in the same
directory is replaced only by a complete new one; a folder holding files tourney did not
write is never replaced.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, Protocol

from scheduler.core.atomic import FolderSink, claim, replace_dir
from scheduler.core.atomic_files import WriteRefused, write_files
from scheduler.core.clock import source_date_epoch
from scheduler.core.manifest import MANIFEST
from scheduler.export.deadlines import deadlines_pieces, plan_deadlines
from scheduler.export.ical import calendar_files, render_pieces
from scheduler.export.ical_text import PRODID
from scheduler.export.summary import summary_text
from scheduler.export.tables import csv_tables
from scheduler.export.xlsx import write_plan_xlsx
from scheduler.inputs.replan.read import holds_plan
from scheduler.result.plan import Plan
from scheduler.result.usage import limit_usage


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


XLSX_FILE = "plan.xlsx"
"""The plan as a workbook (:func:`scheduler.export.xlsx.plan_xlsx`), in every plan folder."""
SUMMARY_FILE = "summary.txt"
"""The plan's summary (:func:`scheduler.export.summary.summary_text`), in every plan folder;
``tourney solve`` prints it as written."""
REPORT_FILE = "report.html"
"""The report page ``tourney solve --report`` adds to a plan folder."""


class Sink(Protocol):
    """Where :func:`write_files_of` puts a plan's files (:class:`scheduler.core.atomic.FolderSink`
    writes each to disk as it is made; :func:`plan_files` keeps them in memory)."""

    def write(self, rel: str, data: bytes | Iterable[bytes]) -> None:
        """The file ``rel`` (relative POSIX path) holding ``data`` (bytes, or its pieces)."""

    def open(self, rel: str) -> contextlib.AbstractContextManager[BinaryIO]:
        """The file ``rel`` open for writing, complete when the block ends."""


class _Memory:
    """A :class:`Sink` keeping every file's bytes (:func:`plan_files`)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def write(self, rel: str, data: bytes | Iterable[bytes]) -> None:
        self.files[rel] = data if isinstance(data, bytes) else b"".join(data)

    @contextlib.contextmanager
    def open(self, rel: str) -> Iterator[BinaryIO]:
        buf = io.BytesIO()
        yield buf
        self.files[rel] = buf.getvalue()


def plan_files(plan: Plan, *, report: bool = False,
               alternatives: Sequence[Plan] | None = None) -> dict[str, bytes]:
    """Every output file of a plan, by relative path (deadlines.csv and scenario.yaml among
    them);
    ``report.html`` too when ``report``
    (:func:`scheduler.export.report.report_html`, with ``alternatives`` beside the plan).
    The bytes :func:`write_plan` writes (it writes each file as it is made, holding none)."""
    sink = _Memory()
    write_files_of(plan, sink, report=report, alternatives=alternatives)
    return sink.files


def write_files_of(plan: Plan, sink: Sink, *, report: bool = False,
                   alternatives: Sequence[Plan] | None = None, prefix: str = "",
                   jobs: int = 1) -> None:
    """Write every output file of a plan (:func:`plan_files`) into ``sink``, each as soon as
    it is made, under ``prefix`` (``alternative-<k>/`` for an alternative). With ``jobs``
    above 1 and a :class:`scheduler.core.atomic.FolderSink`, plan.xlsx, summary.txt,
    deadlines.csv and scenario.yaml are written by a forked process while this one writes
    the CSVs and calendars (the same bytes; the two halves take about as long)."""
    plan_deadlines(plan)  # once, for deadlines.csv, the calendars and plan.xlsx (a fork too)

    def beside(into: Sink) -> None:  # what does not need the calendars' identities
        use = limit_usage(plan)  # once, for plan.xlsx's Limits sheet and the summary
        with into.open(prefix + XLSX_FILE) as fh:
            write_plan_xlsx(plan, fh, source_date_epoch(), use)
        into.write(prefix + SUMMARY_FILE, summary_text(plan, use).encode("utf-8"))
        into.write(prefix + DEADLINES_FILE, deadlines_pieces(plan))
        into.write(prefix + SCENARIO_FILE, plan.scenario.to_json_yaml().encode("utf-8"))

    names = ", ".join(prefix + n for n in (XLSX_FILE, SUMMARY_FILE, DEADLINES_FILE,
                                           SCENARIO_FILE))
    with sink.beside(beside, fork=jobs > 1, names=names) if isinstance(sink, FolderSink) \
            else contextlib.nullcontext():
        calendars, identity = render_pieces(plan, dtstamp(plan))
        for rel, rows in csv_tables(plan, identity):  # a few thousand rows at a time
            sink.write(prefix + rel, rows)
        del identity
        for rel, pieces in calendars:  # every VEVENT held once, each file never whole
            sink.write(prefix + rel, pieces())
        del calendars
    if not isinstance(sink, FolderSink):
        beside(sink)
    for alt in alternatives or []:
        # each alternative's tables, calendars and summary in alternative-<rank>/
        write_files_of(alt, sink, prefix=f"{prefix}{ALTERNATIVE}{alt.rank}/", jobs=jobs)
    if report:
        # start-up time: the report (and matplotlib) only when asked for
        from scheduler.export.report import report_html

        sink.write(prefix + REPORT_FILE,
                   report_html(plan, list(alternatives or []), jobs=jobs).encode("utf-8"))


DEADLINES_FILE = "deadlines.csv"
"""What to file or do by when (:func:`scheduler.export.deadlines.deadlines_csv`, written in
pieces: :func:`scheduler.export.deadlines.deadlines_pieces`), in every
plan folder (and every ``alternative-<k>/``)."""

SCENARIO_FILE = "scenario.yaml"
"""The scenario that made the plan (:meth:`scheduler.core.scenario.Scenario.to_json_yaml`: its
tournaments, tours, settings and operators' terms, ``notice_from`` and ``as_of`` given), in
every plan folder (and every ``alternative-<k>/``): ``tourney ledger adopt`` keeps it with
the plan version, so what ``tourney record`` judges at once reads the plan's own rules
(MT-PROGRESSIVE's first round, ``surcharge_cap``, ``settings.closed_days``)."""

ALTERNATIVE = "alternative-"
"""``tourney solve --alternatives K`` writes plan k of K (k ≥ 2) into ``alternative-<k>/``."""

PLAN_ENTRIES = frozenset({"schedule.csv", "licenses.csv", "unscheduled.csv", "calendar.ics",
                          "calendars", SUMMARY_FILE, DEADLINES_FILE, REPORT_FILE,
                          XLSX_FILE, SCENARIO_FILE})
"""What a plan directory holds; a directory with anything else is never replaced."""


def _legacy_unlisted(out: Path) -> list[str]:
    """What in a folder without a manifest (written by a version before it, or by hand) is
    not a tourney plan: anything but the plan's own file names at the top, ``calendars/``
    holding only calendars tourney wrote (their PRODID), and ``alternative-<k>/`` folders
    holding the same; links anywhere. Conservative: when in doubt, it is not a plan."""
    return _legacy_entries(out, top=True)


def _ours_ics(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(512)
    except OSError:
        return False
    return head.startswith(b"BEGIN:VCALENDAR") and b"PRODID:-//tourney//" in head


def _legacy_entries(folder: Path, *, top: bool, prefix: str = "") -> list[str]:
    others: list[str] = []
    for p in sorted(folder.iterdir()):
        rel = prefix + p.name
        if p.is_symlink():
            others.append(f"{rel} (a link)")
        elif p.name == "calendars" and p.is_dir():
            others += [f"{rel}/{c.name}" for c in sorted(p.iterdir())
                       if c.is_symlink() or not c.is_file() or c.suffix != ".ics"
                       or not _ours_ics(c)]
        elif p.name in PLAN_ENTRIES and p.name != "calendars" and p.is_file():
            if p.suffix == ".ics" and not _ours_ics(p):
                others.append(rel)
        elif (top and p.is_dir() and p.name.startswith(ALTERNATIVE)
              and p.name[len(ALTERNATIVE):].isdigit()):
            others += _legacy_entries(p, top=False, prefix=f"{rel}/")
        else:
            others.append(rel + ("/" if p.is_dir() else ""))
    return others


def plan_product(rel: str) -> bool:
    """Whether ``rel`` (a relative POSIX path) is a file name :func:`plan_files` writes: a
    top-level plan file, ``calendars/<operator>.ics``, or either inside
    ``alternative-<k>/``. A plan folder's manifest listing any other name is not trusted."""
    parts = rel.split("/")
    top = True
    if (len(parts) > 1 and parts[0].startswith(ALTERNATIVE)
            and parts[0][len(ALTERNATIVE):].isdigit()):
        parts, top = parts[1:], False
    if len(parts) == 1:
        return (parts[0] in PLAN_ENTRIES and parts[0] != "calendars"
                and (top or parts[0] != REPORT_FILE))
    return (len(parts) == 2 and parts[0] == "calendars" and parts[1].endswith(".ics")
            and len(parts[1]) > len(".ics") and parts[1].isprintable()
            and not parts[1].startswith("."))


@contextlib.contextmanager
def claim_plan_folder(out_dir: str | Path,
                      inputs: Iterable[str | Path | None] = ()) -> Iterator[Path]:
    """Hold the plan folder ``out_dir`` (its lock, :func:`scheduler.core.atomic.claim`) for the
    block, having checked that a plan may be written there (not the current folder, none of
    ``inputs`` inside it, only an unchanged plan tourney wrote): ``tourney solve`` takes it
    before solving, so a second solve into the same folder, or a folder that would be
    refused, is refused at once. Yields the resolved folder.

    Raises ``OSError`` (:class:`scheduler.core.atomic.WriteRefused` for a refusal)."""
    out = Path(out_dir).resolve()
    _refuse_unsafe(out)
    with claim(out, legacy=_legacy_unlisted, product=plan_product, inputs=inputs,
               what="plan") as held:
        yield held


def _refuse_unsafe(out: Path) -> None:
    """Raise FileExistsError when ``out`` is the current folder or holds it (the rest is
    checked by :func:`scheduler.core.atomic.replace_dir`, under its lock)."""
    cwd = Path.cwd().resolve()
    if out == cwd or out in cwd.parents:
        raise FileExistsError(f"{out} is the current folder (or holds it); give a new folder "
                              "for the plan, e.g. --out plan")


def _refuse_unreplaced(out: Path, plans: Sequence[Plan]) -> None:
    """Raise :class:`WriteRefused` when ``out`` holds a plan and one of ``plans`` is neither a
    re-plan nor solved to replace it (``Plan.replaced_folder``)."""
    if not holds_plan(out):
        return
    for p in plans:
        if not p.replanned and p.replaced_folder != str(out):
            which = "this plan" if p.rank == 1 else f"alternative {p.rank}"
            raise WriteRefused(
                f"{out} holds an earlier plan, and {which} was not solved to replace it: "
                f"solve with replacing={str(out)!r} or previous={str(out)!r}, or write to "
                f"another folder (docs/api.md). Nothing was written")


def write_plan(plan: Plan, out_dir: str | Path, *, report: bool = False,
               alternatives: Sequence[Plan] | None = None,
               inputs: Iterable[str | Path | None] = (), jobs: int = 1) -> Path:
    """Write ``plan`` into the folder ``out_dir``, atomically: all of it or nothing.

    The files (:func:`plan_files`): schedule.csv, licenses.csv, unscheduled.csv,
    deadlines.csv, calendar.ics and ``calendars/<operator_id>.ics``, summary.txt (as
    :func:`scheduler.export.summary.summary_text`), scenario.yaml (the plan's scenario,
    :data:`SCENARIO_FILE`), plan.xlsx, the manifest
    ``.tourney-plan``; each alternative's in ``alternative-<rank>/``; report.html when
    ``report``. The same plan gives byte-identical files (DTSTAMP from
    ``SOURCE_DATE_EPOCH`` when set, else midnight UTC of ``notice_from``).

    The folder must be new, empty, or hold only a plan tourney wrote there: every file listed
    in its manifest ``.tourney-plan`` (written with the plan) with the size and SHA-256 listed
    and a name a plan has (:func:`plan_product`), or, for a folder without one, only the
    plan's own files; never one of ``inputs`` (the scenario file, ...) at any depth (see
    :func:`scheduler.core.atomic.replace_dir`: fsync, lock beside the folder, recovery of a run
    killed mid-way, read-only folders and parents left alone). A previous plan's report.html
    is replaced (or dropped when ``report`` is false) with the rest of the folder.

    A folder that holds a plan (:func:`scheduler.inputs.replan.read.holds_plan`) is written only
    with a
    re-plan (``solve(..., previous=...)``) or a plan solved to replace that plan
    (``solve(..., replacing=out_dir)``, as ``tourney solve --out`` does; the same for each of
    ``alternatives``): another plan's calendars would restart every event's SEQUENCE and
    DTSTAMP, and subscribers would keep the earlier copies of changed events (RFC 5545
    §3.8.7.4).

    Parameters
    ----------
    plan
        The solved plan (:func:`scheduler.engine.solver.solve`).
    out_dir
        The plan folder (created, or replaced whole).
    report
        Also write ``report.html`` (one self-contained page, ``alternatives`` shown beside
        the plan).
    alternatives
        The other plans of :func:`scheduler.engine.solver.solve_alternatives` (ranks 2, 3, ...),
        each written into ``alternative-<rank>/``.
    inputs
        Files the folder must not hold (the scenario, a vary file, ...; None is skipped).
    jobs
        Processes writing at once: above 1, plan.xlsx, summary.txt, deadlines.csv and
        scenario.yaml are written by a forked process while this one writes the CSVs and
        calendars (``tourney solve`` passes its ``--jobs``); the same bytes.

    Returns
    -------
    Path
        The folder written, resolved.

    Raises
    ------
    WriteRefused
        (:class:`scheduler.core.atomic.WriteRefused`, an ``OSError``) the folder must not be
        replaced: it holds anything but a plan, one of ``inputs``, or another run holds
        its lock, or it holds a plan that ``plan`` was not solved to replace (below).
        Nothing is changed.
    FileExistsError
        ``out_dir`` is the current folder or holds it.
    OSError
        The folder cannot be written (nothing is changed then).
    """
    out = Path(out_dir).resolve()
    _refuse_unreplaced(out, [plan, *(alternatives or [])])
    _refuse_unsafe(out)

    def fill(sink: FolderSink) -> None:  # each file to disk as it is made (issue #27)
        write_files_of(plan, sink, report=report, alternatives=alternatives, jobs=jobs)

    return replace_dir(out, fill, legacy=_legacy_unlisted, what="plan", product=plan_product,
                       inputs=inputs)


def to_ics(plan: Plan, path: str | Path, operator_id: str | None = None) -> Path:
    """Write one calendar of ``plan`` to the file ``path``, atomically.

    The bytes are those :func:`write_plan` writes to the plan folder: DTSTAMP from
    ``SOURCE_DATE_EPOCH`` when set, else midnight UTC of ``notice_from`` (:func:`dtstamp`).

    Parameters
    ----------
    plan : Plan
        The solved plan.
    path : str or Path
        The file to write: new, or a calendar this function wrote before (its PRODID
        tourney's), which is replaced; never a file inside a plan folder (write_plan's),
        nor any other file (a scenario, a calendar of another program).
    operator_id : str, optional
        None: calendar.ics, every operator's events; an operator id: that operator's
        ``calendars/<operator_id>.ics``.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    KeyError
        For an operator without events (unknown, or none placed there).
    WriteRefused
        When ``path`` is inside a plan folder, or exists and is not a calendar tourney
        wrote (nothing is changed).
    OSError
        When the file cannot be written.
    """
    target = Path(path)
    for folder in (target.parent, target.parent.parent):
        if (folder / MANIFEST).exists():
            raise WriteRefused(f"{target} is inside the plan folder {folder}: its files are "
                               "written only by write_plan (tourney solve); give a path "
                               "outside it")
    if target.exists() or target.is_symlink():
        try:
            with open(target, "rb") as f:
                head = f.read(4096)
        except OSError:
            head = b""
        if target.is_symlink() or not target.is_file() or \
                f"PRODID:{PRODID}".encode() not in head:
            raise WriteRefused(f"{target} exists and is not a calendar tourney wrote: it is "
                               "never replaced; give a new file name")
    files = calendar_files(plan, dtstamp(plan))
    key = "calendar.ics" if operator_id is None else f"calendars/{operator_id}.ics"
    if key not in files:
        raise KeyError(f"no calendar for operator {operator_id!r} (unknown, or it has no "
                       "events)")
    return write_files({Path(path): files[key]})[0]
