"""The scenario: the tournaments an operator wants in a year, as frozen, typed values.

:class:`Scenario` holds the operators (:class:`Operator`) and their wanted tournaments
(:class:`Tournament`) with the readings of ambiguous clauses (:class:`Settings`). Its fields
are checked as they are built (``scheduler.core.fields``; problems of rule ``SCENARIO``); the
*input rules* of RULES.md (``MT-ENTRY-CAP``, ...) are the rules' own and run above them, in
:func:`scheduler.inputs.load.load_scenario` and, for a scenario built in Python, in
:func:`scheduler.inputs.load.validate_scenario`, which ``solve()`` and the check call.

Units: dates are ``datetime.date``; times of day are local ``datetime.time`` in the operator's
IANA time zone; ``hours`` are elapsed hours; money is ``Decimal`` US dollars.

The parts (:class:`Settings`, :class:`Operator`, :class:`Tournament`, :class:`Tour`, ...) are
defined in :mod:`scheduler.core.scenario_types` and re-exported here.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import BaseModel, Field, ValidationError, model_validator

from scheduler.core.clock import latest_today
from scheduler.core.fields import Date, DateRange, OneLine, StrictModel, UidDomain
from scheduler.core.frames import frame_rows, relabel
from scheduler.core.jurisdiction import of_type
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.problems import MISSING, InputProblem, ScenarioError, pydantic_problems
from scheduler.core.scenario_types import DEFAULT_TIMEZONE, Operator, Settings, Tour, Tournament
from scheduler.core.workbook.cells import WorkbookError
from scheduler.core.workbook.reader import SHEETS_READ, read_workbook
from scheduler.core.workbook.template import write_workbook

if TYPE_CHECKING:
    import pandas as pd  # start-up time: only DataFrame input imports pandas


class Scenario(StrictModel):
    """A validated scenario. Build it with :func:`scheduler.inputs.load.load_scenario` (a file),
    :meth:`from_frames` (tables) or :func:`parse_scenario` (a mapping)."""

    name: OneLine
    horizon: DateRange
    notice_from: Date
    """The earliest day a notice or application can still be filed (MT-NOTICE,
    ME-APPLICATION-WINDOW). Not given: today in the operators' zones
    (:func:`scheduler.core.clock.latest_today`), never the machine's date in its own zone."""
    as_of: Date | None = None
    """The day the plan is made as of (``tourney solve --as-of``, ``solve(as_of=...)``):
    nothing new is placed whose notice or application is due before the later of ``as_of``
    and ``notice_from`` (:func:`scheduler.core.timing.filing_from`); occurrences before it are
    history. None: not given (``solve`` sets it to :func:`scheduler.core.clock.latest_today` of
    the operators' zones, and the plan records it)."""
    settings: Settings = Settings()
    operators: tuple[Operator, ...] = Field(min_length=1)
    tournaments: tuple[Tournament, ...] = ()
    tours: tuple[Tour, ...] = ()
    """Tours and progressives across venues (TOUR-WHOLE, TOUR-ORDER, TOUR-SPACING)."""
    uid_domain: UidDomain | None = None
    """A domain the organization controls, the right-hand end of every calendar UID
    (RFC 5545 §3.8.4.7, ``scheduler.core.uid``); default ``tourney.invalid``."""

    @model_validator(mode="before")
    @classmethod
    def _notice_from_today(cls, data: Any) -> Any:
        """``notice_from`` not given: today in the operators' zones (the latest of their
        days, :func:`scheduler.core.clock.latest_today`; America/Denver for Montana,
        America/New_York for Maine unless an operator gives ``timezone``)."""
        if not isinstance(data, Mapping) or "notice_from" in data:
            return data
        zones = []
        ops = data.get("operators")
        for op in ops if isinstance(ops, list | tuple) else ():
            if isinstance(op, Operator):
                zones.append(op.tz)
                continue
            if not isinstance(op, Mapping):
                continue
            zone = op.get("timezone") or DEFAULT_TIMEZONE.get(str(op.get("jurisdiction")))
            try:
                zones.append(ZoneInfo(str(zone)))
            except (ZoneInfoNotFoundError, ValueError, OSError):
                continue  # the operator's own field check names it
        return {**data, "notice_from": latest_today(zones)}

    @model_validator(mode="before")
    @classmethod
    def _open_window_ends(cls, data: Any) -> Any:
        """A tournament's ``window`` with only ``start`` (or only ``end``) given runs to the
        horizon's end (from its start), as the workbook's header comment says (WINDOW)."""
        if not isinstance(data, Mapping):
            return data
        horizon, tournaments = data.get("horizon"), data.get("tournaments")
        if not isinstance(horizon, Mapping) or not isinstance(tournaments, list | tuple):
            return data
        filled = []
        for t in tournaments:
            w = t.get("window") if isinstance(t, Mapping) else None
            if isinstance(w, Mapping) and ("start" in w) != ("end" in w):
                side = "end" if "start" in w else "start"
                if side in horizon:
                    t = {**t, "window": {**w, side: horizon[side]}}
            filled.append(t)
        return {**data, "tournaments": filled}

    def operator(self, operator_id: str) -> Operator:
        return self._op_index[operator_id]

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Scenario:
        """pydantic's copy, without the cached id indexes of the original (they would
        point to the original's operators and tournaments)."""
        new = super().model_copy(update=update, deep=deep)
        for key in ("_op_index", "_t_index"):
            new.__dict__.pop(key, None)
        return new

    @cached_property
    def _op_index(self) -> dict[str, Operator]:
        return {o.id: o for o in self.operators}

    @cached_property
    def _t_index(self) -> dict[str, Tournament]:
        return {t.id: t for t in self.tournaments}

    def tournament(self, tournament_id: str) -> Tournament:
        return self._t_index[tournament_id]

    def jurisdiction_of(self, t: Tournament) -> str:
        """The code of the jurisdiction whose type ``t`` has (``MT`` for large-stakes)."""
        return of_type(t.type).code

    def to_yaml(self) -> str:
        """The scenario as YAML text that :func:`scheduler.inputs.load.load_scenario` reads
        back to an equal Scenario."""
        data = self.written_data()
        return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                         sort_keys=False, allow_unicode=True)

    def to_json_yaml(self) -> str:
        """The scenario as :meth:`to_yaml`'s data written as JSON (which YAML reads: JSON
        is a subset of YAML's flow style), each operator and tournament a line, after a
        comment line saying so: what :func:`scheduler.inputs.load.load_scenario` reads back
        to an equal Scenario, written about 10 times faster than :meth:`to_yaml` (0.07
        against 0.79 s CPU for the generated N = 200 scenario), for every plan folder's
        scenario.yaml."""
        data = self.written_data()

        def one(value: Any) -> str:  # json's C encoder (an indent would take the Python one)
            return json.dumps(value, ensure_ascii=False)

        fields = [f" {one(key)}: " + (
            "[\n  " + ",\n  ".join(map(one, value)) + "\n ]" if isinstance(value, list) and value
            else one(value)) for key, value in data.items()]
        return ("# The scenario of this plan, as JSON (which YAML reads): tourney solve reads "
                "this file.\n{\n" + ",\n".join(fields) + "\n}\n")

    def to_xlsx(self) -> bytes:
        """The scenario as an Excel workbook (the layout of ``tourney template``,
        :func:`scheduler.core.workbook.template.write_workbook`) that
        :func:`scheduler.inputs.load.load_scenario`
        reads back to an equal Scenario.

        Returns
        -------
        bytes
            An .xlsx file (sheets Settings, Operators, Tournaments, Sessions (flights: one
            session a row), History and Tours; money in USD, shares as percentages, hours as
            numbers or ``H:MM``); the same scenario gives byte-identical bytes. Write it
            with ``Path("year.xlsx").write_bytes(sc.to_xlsx())``.
        """
        return write_workbook(self._plain_data())

    @classmethod
    def from_excel(cls, path: str | Path) -> Scenario:
        """The scenario of an Excel workbook (``.xlsx``, the layout of ``tourney template``),
        every field checked as :func:`parse_scenario` checks a YAML mapping; the input rules
        of RULES.md run when it is solved or checked (or by
        :func:`scheduler.inputs.load.validate_scenario`;
        :func:`scheduler.inputs.load.load_scenario` of the
        same path does both at once).

        Parameters
        ----------
        path
            An ``.xlsx`` file (the suffix is required), at most
            :func:`scheduler.core.limits.max_input_bytes` (64 MB unless ``TOURNEY_MAX_INPUT_MB``).

        Returns
        -------
        Scenario
            Its fields checked; not yet its input rules.

        Raises
        ------
        ScenarioError
            Each problem naming the sheet, cell and column header (``Tournaments!F7
            (entry_fee)``), rule ``SCENARIO`` and the field checks; a file that is not an
            ``.xlsx`` workbook, cannot be read or is too large (``<file>``).
        """
        data, cells = read_workbook_file(path)
        left_out = cell_problems_of(cells)
        try:
            scenario = parse_scenario(data, lines=cells, file=str(path))
        except ScenarioError as found:
            if not left_out:
                raise
            raise ScenarioError(with_cell_problems(left_out, found.problems),
                                str(path)) from None
        if left_out:
            raise ScenarioError(left_out, str(path))
        return scenario

    # ------------------------------------------------------------------ DataFrames, what-if
    @classmethod
    def from_frames(
        cls, operators: pd.DataFrame, tournaments: pd.DataFrame | None = None, *,
        name: str, horizon_start: dt.date | str, horizon_end: dt.date | str,
        notice_from: dt.date | str | None = None,
        settings: Settings | Mapping[str, Any] | None = None,
        today: dt.date | None = None,
    ) -> Scenario:
        """A scenario from two tables (e.g. spreadsheets read with ``pandas.read_excel``):
        one row per operator and one row per tournament.

        Column names are the YAML field names of ``docs/scenario.md`` (``id``, ``title``,
        ``type``, ``operators``, ``count``, ``weekdays``, ``entry_fee``, ...); a nested field
        is a dotted column (``window.start``, ``window.end``, ``satellite.seat_value``,
        ``held_in_current_permit_year.large_stakes``), and ``window`` may also be one cell
        ``"2027-03-01..2027-05-31"``. An ``id`` index (``df.set_index("id")``) is read as
        the ``id`` column. Cells:

        - empty (NaN, None, NaT, ``""``): the field is not given (its default applies);
          wholly empty rows are skipped;
        - list-valued fields (``operators``, ``weekdays``, ``prefer_weekdays``,
          ``fixed_dates``, ``filed_dates``, ``blackout``, ``held_in_current_permit_year.permits``)
          take a Python list or a string separated by commas, semicolons or spaces
          (``"fri, sat"``, ``"2027-12-24..2027-12-26 2027-07-04"``); ``beneficiaries`` (names
          with spaces) are separated by semicolons or line breaks; ``other_games`` is a list
          of mappings or ``"tue 18:00-22:00; fri 19:00-01:00"``;
        - a whole-number float (a number column with gaps reads as float) is an integer.

        The input rules of RULES.md (``MT-ENTRY-CAP``, ...) are the rules' own: ``solve()``
        and the check refuse a scenario that breaks one
        (:func:`scheduler.inputs.load.validate_scenario`, which a caller may also run first),
        naming the tournament by its position, e.g. ``tournaments[2].entry_fee = 2000: ...
        (MT-ENTRY-CAP, MCA 23-5-317(1)(g))``.

        Parameters
        ----------
        operators
            One row per operator (``id``, ``name``, ``jurisdiction``, ``live_tables``, ...).
        tournaments
            One row per tournament (``id``, ``title``, ``type``, ``operators``, ``count``,
            ``entry_fee`` in USD, ``hours``, ...); None: no tournaments.
        name
            The scenario's name.
        horizon_start, horizon_end
            The first and last day planned (``datetime.date`` or ``YYYY-MM-DD``; inclusive).
        notice_from
            The earliest day a notice or application can still be filed (MT-NOTICE,
            ME-APPLICATION-WINDOW); default ``today``.
        settings
            A :class:`Settings` or a mapping of its fields (the readings, e.g.
            ``month_rule``); None: the defaults.
        today
            ``notice_from`` when it is not given (None: the current date), as in
            :func:`scheduler.inputs.load.load_scenario`.

        Returns
        -------
        Scenario
            Its fields checked (rule ``SCENARIO``); not yet its input rules.

        Raises
        ------
        ScenarioError
            The same field checks and messages as the YAML loader; a problem's path names
            the frame, the row's index label and the column, e.g.
            ``tournaments['sat'].entry_fee = 'x': ...``.
        """
        data: dict[str, Any] = {"name": name,
                                "horizon": {"start": horizon_start, "end": horizon_end}}
        if notice_from is not None:
            data["notice_from"] = notice_from
        if settings is not None:
            data["settings"] = _plain(settings)
        labels: dict[str, list[Any]] = {}
        problems: list[InputProblem] = []
        for key, frame, model in (("operators", operators, Operator),
                                  ("tournaments", tournaments, Tournament)):
            rows, labels[key] = frame_rows(key, frame, model, problems)
            data[key] = rows
        if problems:
            raise ScenarioError(problems)
        if "notice_from" not in data and today is not None:
            data["notice_from"] = today
        try:
            return parse_scenario(data)
        except ScenarioError as err:
            raise ScenarioError([relabel(p, labels) for p in err.problems]) from None

    def replace(self, **changes: Any) -> Scenario:
        """A new scenario with top-level fields changed (``name``, ``horizon``,
        ``notice_from``, ``settings``, ``operators``, ``tournaments``), its fields validated
        like a loaded file's (the input rules run in ``solve()`` and
        :func:`scheduler.inputs.load.validate_scenario`). Values may be models or plain YAML-like
        values (dates as ``datetime.date`` or ISO text)::

            earlier = scenario.replace(notice_from=scenario.notice_from - timedelta(days=14))

        Raises :class:`ScenarioError` (rule ``SCENARIO``), e.g. for an unknown field or a
        value the loader would refuse.
        """
        data = self._plain_data()
        data.update({k: _plain(v) for k, v in changes.items()})
        return parse_scenario(data)

    def with_settings(self, **changes: Any) -> Scenario:
        """A new scenario with readings changed, e.g. ``with_settings(month_rule="start")``
        (ME-MONTHLY-LIMIT), ``tier_coverage="exact"`` (ME-FEES),
        ``reentry_counts_toward_cap=False`` (MT-ENTRY-CAP). Raises :class:`ScenarioError`
        for an unknown setting or value."""
        return self.replace(settings={**self.settings.model_dump(), **changes})

    def with_tournament(self, tournament_id: str, **changes: Any) -> Scenario:
        """A new scenario with fields of one tournament changed, e.g.
        ``with_tournament("fall-charity", charitable=False, charity_share=None)``; a field set
        to ``None`` is not given (its default applies where it has one). Raises
        :class:`ScenarioError` for an unknown id, field or an invalid value."""
        return self._with_item("tournaments", tournament_id, changes)

    def with_operator(self, operator_id: str, **changes: Any) -> Scenario:
        """A new scenario with fields of one operator changed, e.g.
        ``with_operator("room-a", held_in_current_permit_year={"large_stakes": 12})``.
        Raises :class:`ScenarioError` for an unknown id, field or an invalid value."""
        return self._with_item("operators", operator_id, changes)

    def written_data(self) -> dict[str, Any]:
        """The scenario's fields as its files write them (JSON types, defaults left out,
        ``notice_from`` given): what :meth:`to_yaml`, :meth:`to_json_yaml` and the ledger's
        kept scenario hold."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data["notice_from"] = self.notice_from.isoformat()
        return data

    def _plain_data(self) -> dict[str, Any]:
        data = self.model_dump(exclude_defaults=True)
        data["notice_from"] = self.notice_from
        return data

    def _with_item(self, key: str, item_id: str, changes: Mapping[str, Any]) -> Scenario:
        data = self._plain_data()
        items = list(data.get(key, ()))
        ids = [item["id"] for item in items]
        if item_id not in ids:
            near = difflib.get_close_matches(str(item_id), ids, n=1)
            kind = key.removesuffix("s")
            raise ScenarioError([InputProblem(
                key, item_id, "SCENARIO", f"no {kind} has this id" +
                (f"; did you mean {near[0]!r}?" if near else ""))])
        i = ids.index(item_id)
        item = {**items[i], **{k: _plain(v) for k, v in changes.items()}}
        items[i] = {k: v for k, v in item.items() if v is not None}
        data[key] = items
        return parse_scenario(data)


def parse_scenario(data: Mapping[str, Any], *,
                   lines: Mapping[tuple[Any, ...], int | str] | None = None,
                   file: str | None = None) -> Scenario:
    """A :class:`Scenario` from a YAML-like mapping, every field checked (rule ``SCENARIO``);
    not the input rules of RULES.md (:func:`scheduler.inputs.load.validate_scenario` runs them).

    Parameters
    ----------
    data
        The scenario as the YAML file gives it (``docs/scenario.md``).
    lines
        Field path -> 1-based line of the YAML text (or a workbook's cell, e.g.
        ``"Tournaments!F7 (entry_fee)"``), to name where each problem is.
    file
        The file's name, for the messages.

    Raises
    ------
    ScenarioError
        Every field's problem: unknown keys (with the nearest known name), wrong types, bad
        dates, values out of range.
    """
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(pydantic_problems(err, data, Scenario, lines), file) from None


def _plain(value: Any) -> Any:
    """Models as the mappings the loader reads (defaults left out); lists as lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_defaults=True)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value



def cell_problems_of(lines: Any) -> list[InputProblem]:
    """The problems of the cells a workbook's reading left out (:class:`Cells`' ``problems``:
    a Sessions row naming no tournament, a date cell showing a number, a formula with no
    saved value, ...), rule SCENARIO; [] for a YAML file's lines."""
    return [InputProblem("<file>", MISSING if value is None else value, "SCENARIO", message,
                         where)
            for where, value, message in getattr(lines, "problems", ())]


def with_cell_problems(cells: list[InputProblem], found: Sequence[InputProblem]
                       ) -> list[InputProblem]:
    """``cells`` (:func:`cell_problems_of`) and the fields' problems ``found``, but those of
    a cell ``cells`` names already (its value was left out: a "required field is missing" of
    it would say less), in the order of the sheets, rows and columns."""
    named = {p.line for p in cells}
    return sorted([*cells, *(p for p in found if p.line not in named)],
                  key=_position)


def _position(p: InputProblem) -> tuple[int, int, int, int]:
    """A problem's place in a workbook: (sheet in the template's order, row, column)."""
    order = SHEETS_READ
    line = p.line if isinstance(p.line, str) else ""
    m = re.match(r"^(\w+)(?:!([A-Z]+)(\d+)| row (\d+))?", line)
    if not m:
        return (-1, 0, 0, 0)
    column = 0
    for ch in m.group(2) or "":
        column = column * 26 + ord(ch) - ord("A") + 1
    return (order.index(m.group(1)) if m.group(1) in order else len(order),
            int(m.group(3) or m.group(4) or 0), column, 0)


def read_workbook_file(path: str | Path) -> tuple[dict[str, Any], dict[tuple[Any, ...], str]]:
    """The raw scenario mapping of the workbook at ``path`` and where each field is (field
    path -> ``"Sheet!A1 (header)"``), within the size limits of
    :func:`scheduler.core.limits.read_bounded`.

    Raises
    ------
    ScenarioError
        When the file is not an ``.xlsx`` workbook, is too large, or its layout is wrong
        (a sheet or header missing), naming the sheet and cell.
    """
    file = str(path)
    if not file.lower().endswith(".xlsx"):
        raise ScenarioError([InputProblem("<file>", MISSING, "SCENARIO",
                                          "expected an Excel workbook (.xlsx)")], file)
    try:
        return read_workbook(read_bounded(path))
    except (LimitError, WorkbookError) as exc:
        found = exc.problems if isinstance(exc, WorkbookError) else [("<file>", str(exc))]
        raise ScenarioError([InputProblem("<file>", MISSING, "SCENARIO", msg, cell)
                             for cell, msg in found], file) from None
