"""A previous plan read for a re-plan: its schedule.csv or calendar.ics, and what its
calendars published (:class:`Previous`), of the scenario's operators only."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pandas as pd

from scheduler.core.limits import regular_file_problem
from scheduler.core.scenario import Scenario
from scheduler.core.text import uncell
from scheduler.core.timing import made_day
from scheduler.inputs.replan.previous import (
    PreviousError,
    PreviousEvent,
    PreviousSeries,
    PublishedOccurrence,
    from_ics,
    previous_dtstamp,
    previous_events,
    previous_operators,
    previous_series,
)


def holds_plan(folder: str | Path) -> bool:
    """Whether ``folder`` holds a plan written by ``tourney solve`` (its calendar.ics or
    schedule.csv)."""
    p = Path(folder)
    return p.is_dir() and ((p / "calendar.ics").is_file() or (p / "schedule.csv").is_file())


class Previous(list[PublishedOccurrence]):
    """A previous plan as :func:`read_previous` reads it: its occurrences (this list of
    :class:`PublishedOccurrence`), and what its calendars published, which a re-plan's
    calendars must
    update or cancel: ``series`` (weekly series, :func:`previous_series`), ``events`` (every
    event, :func:`previous_events`) and ``dtstamp`` (the latest DTSTAMP,
    :func:`previous_dtstamp`; the re-plan's calendars are stamped later); ``foreign``: the
    ids of the previous plan's operators that are not in the scenario (venues that left:
    their occurrences are not re-planned), ``departed`` the same with their names (id ->
    name, the id when the plan does not name it) and ``departed_events`` the events only
    they showed (cancelled from the day the plan is made as of on, on their calendars,
    :func:`scheduler.inputs.replan.cancel.departed`); ``notes``: a line for each recurring
    event of its calendar cut at a limit of :func:`scheduler.core.calendar_limits.expand_events`
    (e.g. an
    hourly series: only its first 5,000 instances were read), for a warning.

    ``scheduler.engine.solver.solve(..., previous=...)`` copies these onto every plan it returns, so
    the calendars a Python caller writes are those ``tourney solve --previous`` writes. A
    plain list of :class:`PublishedOccurrence` is refused there (``TypeError``: it holds none
    of this); ``Previous(occurrences)`` made by hand re-plans from those occurrences but
    publishes no cancellation of events it does not know."""

    def __init__(self, announced: Iterable[PublishedOccurrence] = (), *,
                 series: Iterable[PreviousSeries] = (), events: Iterable[PreviousEvent] = (),
                 dtstamp: dt.datetime | None = None, foreign: Iterable[str] = (),
                 notes: Iterable[str] = (), departed: dict[str, str] | None = None,
                 departed_events: Iterable[PreviousEvent] = ()) -> None:
        super().__init__(announced)
        self.departed = dict(departed or {})
        self.departed_events = list(departed_events)
        self.notes = list(notes)  # recurring events cut at a limit (docs/limits.md)
        self.series = list(series)
        self.events = list(events)
        self.dtstamp = dtstamp
        self.foreign = list(foreign)


def read_previous(scenario: Scenario, path: str | Path) -> Previous:
    """The occurrences of a previous plan: ``schedule.csv`` of a plan directory (or the file
    itself), or an ``.ics`` calendar (events with X-TOURNEY-TOURNAMENT or a product UID).
    Occurrences of tournaments no longer in the scenario are kept (they will be cancelled).
    With them, what its calendars published (:class:`Previous`), of the scenario's operators
    only (:func:`own_previous`). Raises :class:`PreviousError`, also when one of its calendars
    cannot be read, or when the plan is of other operators than the scenario's."""
    notes: list[str] = []
    occurrences = _announced(scenario, Path(path), notes)
    announced, foreign = own_previous(scenario, path, occurrences)
    ids = {o.id for o in scenario.operators}

    def ours(operators: tuple[str, ...]) -> bool:
        # an event of venues that all left the scenario is theirs: cancelled on their
        # calendars (scheduler.inputs.replan.cancel.departed), not re-planned
        return not operators or bool(set(operators) & ids)

    events = previous_events(path, made_day(scenario))
    names = previous_operators(path, occurrences) if foreign else {}
    return Previous(announced, series=[s for s in previous_series(path) if ours(s.operators)],
                    events=[e for e in events if ours(e.operators)],
                    dtstamp=previous_dtstamp(path), foreign=foreign, notes=notes,
                    departed={o: names.get(o) or o for o in foreign},
                    departed_events=[e for e in events if not ours(e.operators)])


def _announced(scenario: Scenario, p: Path, notes: list[str] | None = None
               ) -> list[PublishedOccurrence]:
    if p.is_dir():
        ics = p / "calendar.ics"
        earlier = [a for a in from_ics(ics, notes) if a.cancelled] if ics.is_file() else []
        return sorted([*_announced(scenario, p / "schedule.csv"), *earlier],
                      key=lambda a: (a.tournament_id, a.first_day, a.uid))
    problem = regular_file_problem(p)  # missing, a device or FIFO (would block), too large
    if problem:
        raise PreviousError(f"{p}: {problem.removeprefix('cannot read the file: ')} (give "
                            "the previous plan's folder, its schedule.csv or its calendar.ics)")
    if p.suffix.lower() == ".ics":
        return from_ics(p, notes)
    what = (f"{p}: not a plan folder, a schedule.csv or an .ics calendar (give the previous "
            "plan's folder, its schedule.csv or its calendar.ics)")
    try:
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        raise PreviousError(f"{what}; it cannot be read as CSV: {first}" if p.suffix.lower()
                            == ".csv" else what) from None
    missing = {"tournament_id", "first_day", "uid"} - set(df.columns)
    if missing:
        raise PreviousError(f"{p}: missing column(s) {', '.join(sorted(missing))}"
                            if p.suffix.lower() == ".csv" else what)
    out: dict[tuple[str, str], PublishedOccurrence] = {}
    hosts: dict[tuple[str, str], list[str]] = {}
    for i, r in df.iterrows():
        rid = str(r.get("recurrence_id", "") or "")
        key = (r["uid"], rid)
        try:
            seq = int(r["sequence"]) if r.get("sequence", "") else 0
            day = dt.date.fromisoformat(rid or r["first_day"])
            out.setdefault(key, PublishedOccurrence(
                r["tournament_id"], day, r["uid"], seq,
                title=uncell(r.get("title", "")),
                span=f"{r['start']}|{r['end']}" if r.get("start") and r.get("end") else "",
                night=bool(rid)))
        except ValueError as exc:
            raise PreviousError(f"{p}:{int(str(i)) + 2}: {exc}") from None
        if r.get("operator_id"):
            hosts.setdefault(key, []).append(r["operator_id"])
    found = [replace(a, operators=tuple(hosts.get(k, ()))) for k, a in out.items()]
    return sorted(found, key=lambda a: (a.tournament_id, a.first_day, a.uid))


def own_previous(scenario: Scenario, path: str | Path, previous: list[PublishedOccurrence]
                 ) -> tuple[list[PublishedOccurrence], list[str]]:
    """The previous plan's occurrences a re-plan of ``scenario`` manages, and the ids of the
    previous plan's operators that are not in the scenario (their events are left alone:
    neither kept nor cancelled). Raises :class:`PreviousError` when the previous plan has no
    operator in common with the scenario (the same id, and the same name where the plan
    names it): another organization's plan, whose lineage a re-plan would take over and
    whose events it would cancel."""
    theirs = previous_operators(path, previous)
    if not theirs:
        return previous, []
    mine = {o.id: o.name for o in scenario.operators}
    common = [o for o, name in theirs.items() if o in mine
              and (name is None or name.strip().casefold() == mine[o].strip().casefold())]
    if not common:
        def show(ops: dict[str, str | None]) -> str:
            return ", ".join(f"{o} ({n})" if n else o for o, n in sorted(ops.items()))

        raise PreviousError(
            f"{path} is a plan of other operators ({show(theirs)}) than this scenario's "
            f"({show(dict(mine))}): give this organization's previous plan, or none "
            f"(docs/planning.md)")
    gone = sorted(o for o in theirs if o not in mine)
    kept = [a for a in previous if not a.operators or set(a.operators) & mine.keys()]
    return kept, gone
