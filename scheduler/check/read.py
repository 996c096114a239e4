"""``tourney check``'s reader: a ``schedule.csv``, a ``plan.xlsx`` or a calendar (``.ics``), the
``licenses.csv`` beside a CSV, and whose calendar it is."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from icalendar import Calendar

from scheduler.check.ics import read_ics
from scheduler.check.schedule import ReadSchedule, ScheduleError
from scheduler.check.schedule_csv import read_licenses, read_schedule_csv
from scheduler.check.schedule_xlsx import read_plan_xlsx
from scheduler.core.calendar_limits import read_calendar
from scheduler.core.limits import regular_file_problem
from scheduler.core.scenario import Scenario


def read_schedule(scenario: Scenario, path: str | Path,
                  operator: str | None = None, as_of: dt.date | None = None) -> ReadSchedule:
    """Read a schedule to audit: a plan's ``schedule.csv`` or an ``.ics`` calendar.

    Parameters
    ----------
    scenario
        The scenario the schedule claims to follow (its tournaments are matched by id, or
        by title for calendar events).
    path
        The file: ``schedule.csv`` (the columns tourney writes), ``plan.xlsx`` (its Schedule
        and Licences sheets, also after editing in a spreadsheet) or an ``.ics`` file; at
        most :func:`scheduler.core.limits.max_input_bytes`.
    operator
        An operator id: the file is audited as that operator's schedule. None: an ``.ics``
        file says whose it is by its content (:func:`calendar_operator`), never by its file
        name, and any other file is the whole scenario's.
    as_of
        The day the schedule is read as of: a row or event whose ``status`` is ``held`` must
        have begun on or before it (a tournament is recorded held once played). None: not
        judged.

    Returns
    -------
    ReadSchedule
        ``placed``: the occurrences matched to tournaments; ``unmatched``: the events that
        matched none; ``licenses``: the licences of the ``licenses.csv`` in the same
        folder, or of plan.xlsx's Licences sheet (None: there is none, so the cost rules
        are not audited); ``operators``:
        whose schedule it is (None: every operator's); ``not_checked``: events read but not
        checked, with the reason.

    Raises
    ------
    ScheduleError
        ``operator`` is not an operator of the scenario, or the file cannot be read
        (missing, a folder, too large, empty, a row or event at fault, ``held`` after
        ``as_of``): the message names the file, the row or event and the field (exit 2 in
        the CLI).
    """
    p = Path(path)
    ids = {o.id for o in scenario.operators}
    if operator is not None and operator not in ids:
        raise ScheduleError(f"--operator {operator!r} is not an operator of the scenario "
                            f"(operators: {', '.join(sorted(ids))})")
    problem = regular_file_problem(p)
    if problem:
        raise ScheduleError(f"{p}: {problem.removeprefix('cannot read the file: ')}" + (
            "; give schedule.csv or a calendar (.ics) file" if p.is_dir() else ""))
    with open(p, "rb") as fh:
        head = fh.read(512).lstrip(b"\xef\xbb\xbf \r\n\t")
    if not head:
        raise ScheduleError(f"{p}: the file is empty")
    is_ics = p.suffix.lower() in (".ics", ".ical", ".icalendar") or head.startswith(
        b"BEGIN:VCALENDAR")
    is_xlsx = p.suffix.lower() == ".xlsx" or head.startswith(b"PK\x03\x04")
    if is_xlsx:  # plan.xlsx: its Schedule and Licences sheets
        read = read_plan_xlsx(scenario, p)
    else:
        read = read_ics(scenario, p) if is_ics else read_schedule_csv(scenario, p)
        lic = p.with_name("licenses.csv")
        if lic.is_file():
            read.licenses = read_licenses(lic)
    for where, ref, first in read.held:
        if as_of is not None and first > as_of:
            raise ScheduleError(
                f"{where}: status 'held', but {ref} begins {first}, after the day of the "
                f"check ({as_of}; --as-of, default today): a tournament is held once played, "
                "and a held one is not judged again on notice (MT-NOTICE, "
                "ME-APPLICATION-WINDOW); write filed (its notice or application is filed) or "
                "leave the status empty")
    owner = operator or (calendar_operator(scenario, p) if is_ics else None)
    if owner is not None:
        read.operators = frozenset({owner})  # one operator's calendar
    return read


def calendar_operator(scenario: Scenario, path: Path) -> str | None:
    """Whose calendar an .ics file is, from its content: the X-TOURNEY-OPERATOR property
    tourney writes into each ``calendars/<operator_id>.ics``, else an X-WR-CALNAME (or NAME)
    equal to the per-operator calendar's name (``<scenario> — <operator name>``), the
    operator's name or its id; None when it names no single operator (a whole plan's
    calendar, or one edited by hand)."""
    try:
        cals = Calendar.from_ical(read_calendar(path), multiple=True)
    except Exception:  # unreadable or over a limit: _read_ics says why
        return None
    ids = {o.id for o in scenario.operators}
    found = {str(c.get("X-TOURNEY-OPERATOR", "")).strip() for c in cals} - {""}
    if found:
        return found.pop() if len(found) == 1 and found <= ids else None
    names = {str(c.get(k, "")).strip().lower() for c in cals for k in ("X-WR-CALNAME", "NAME")}
    names.discard("")
    hits = {o.id for o in scenario.operators
            if names & {f"{scenario.name} — {o.name}".lower(), o.name.lower(), o.id}}
    return hits.pop() if len(hits) == 1 else None

