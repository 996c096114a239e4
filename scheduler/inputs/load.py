"""Read a scenario file and check it against every input rule: the loader.

``load_scenario(path)`` reads the YAML file described in ``docs/scenario.md`` (within the
limits of ``docs/limits.md``, with the line of every field) and returns a frozen, typed
:class:`~scheduler.core.scenario.Scenario`. Every problem is collected and raised together as one
:class:`~scheduler.core.problems.ScenarioError`, each naming the file, the line, the field path,
the value and the rule ID (e.g. ``MT-ENTRY-CAP``, ``SCENARIO`` for format errors).

The types below (``scheduler.core.scenario``) check each field and the scenario's shape; the input
rules (``constraints.registry.validate_terms``) import those types, so they run here, above
the rules: in :func:`load_scenario`, and in :func:`validate_scenario` for a scenario built in
Python, which ``solve()`` and the check call (docs/architecture.md).
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import warnings
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from constraints.common import REFERENCES
from constraints.registry import validate_terms
from scheduler.core.limits import LimitError
from scheduler.core.problems import (
    MISSING,
    InputProblem,
    ScenarioError,
    nearest_line,
    path_str,
    pydantic_problems,
    value_at,
)
from scheduler.core.scenario import (
    Scenario,
    cell_problems_of,
    read_workbook_file,
    with_cell_problems,
)
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.timing import made_as_of
from scheduler.core.workbook.reader import SHEETS_READ
from scheduler.inputs.yaml_reader import (
    NotYaml,
    line_index,
    parse_yaml,
    parse_yaml_data,
    read_yaml_text,
)


# --------------------------------------------------------------------------- loading
class WorkbookNote(UserWarning):
    """What reading a workbook accepted but its operator should know (a sheet named in other
    letter case, a sheet that is not read); ``tourney`` prints each as a warning line."""


def load_scenario(
    source: str | Path | Mapping[str, Any], *, today: dt.date | None = None
) -> Scenario:
    """Load and validate a scenario.

    Parameters
    ----------
    source
        A path to a YAML file (``docs/scenario.md``), an Excel workbook (``.xlsx``, the
        layout of ``tourney template``: its problems name the sheet, cell and column header)
        or an already-parsed mapping.
    today
        ``notice_from`` when the input gives none (default: the current date).

    Returns
    -------
    Scenario
        The frozen, typed scenario; it breaks no input rule.

    Raises
    ------
    ScenarioError
        Listing every problem found: YAML syntax, unknown keys (with the nearest known name),
        wrong types, unknown operator ids, bad dates (rule ``SCENARIO``), and every *input*
        rule of RULES.md (``MT-ENTRY-CAP``, ``ME-PLAYER-CAP``, …).
    """
    file: str | None = None
    lines: Mapping[tuple[Any, ...], int | str] = {}
    tab_problem: InputProblem | None = None  # a tab indentation, when the rest still parses
    if isinstance(source, Mapping):
        data: Any = dict(source)
    elif str(source).lower().endswith(".xlsx"):  # a workbook: cells in place of lines
        file = str(source)
        data, lines = read_workbook_file(source)
        for note in getattr(lines, "notes", ()):  # a sheet read in other case, one not read
            warnings.warn(f"{file}: {note}", WorkbookNote, stacklevel=2)
    else:
        file = str(source)
        text = read_yaml_text(source, lambda msg: ScenarioError(
            [InputProblem("<file>", MISSING, "SCENARIO", msg)], file))
        node_of: Callable[[], yaml.Node | None] = lambda: None  # noqa: E731
        try:
            data, node_of = parse_yaml_data(text)
        except LimitError as exc:
            raise ScenarioError([InputProblem("<yaml>", MISSING, "SCENARIO",
                                              f"refused: {exc}")], file) from None
        except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
            raise ScenarioError([InputProblem("<yaml>", MISSING, "SCENARIO",
                                              "a value cannot be read: "
                                              f"{str(exc).split(';')[0][:200]}")],
                                file) from None
        except NotYaml as exc:
            tab = _tab_indented(text, exc.line) if exc.line is not None else None
            first = InputProblem(
                path_str(exc.path) if exc.path else "<yaml>", MISSING, "SCENARIO",
                tab or f"not valid YAML: {exc.problem}",
                exc.line + 1 if exc.line is not None else None)
            detabbed = _detabbed(text) if tab else None
            if detabbed is None:
                raise ScenarioError([first], file) from None
            node, data = detabbed  # the tab first, then the problems of the detabbed copy
            node_of = lambda: node  # noqa: E731
            tab_problem = first
        lines = _LazyLines(node_of)
    cell_problems = cell_problems_of(lines)
    if not cell_problems:
        return _validated(data, lines, file, tab_problem, today)
    try:  # cells the workbook's reading left out: with the fields' problems, in one pass
        _validated(data, lines, file, tab_problem, today)
    except ScenarioError as found:
        raise ScenarioError(by_position(with_cell_problems(cell_problems, found.problems)),
                            file) from None
    raise ScenarioError(by_position(cell_problems), file)


def _validated(data: Any, lines: Mapping[tuple[Any, ...], int | str], file: str | None,
               tab_problem: InputProblem | None, today: dt.date | None) -> Scenario:
    """``data`` (a YAML document or a workbook's mapping) as a scenario that breaks no input
    rule, or every problem in one :class:`ScenarioError` (``tab_problem`` first)."""
    tab_problem_list = [tab_problem] if tab_problem is not None else []
    if not isinstance(data, dict):
        raise ScenarioError([*tab_problem_list, InputProblem(
            "<top>", MISSING, "SCENARIO", "expected a mapping with name, horizon, operators, "
            "tournaments")], file)
    if "notice_from" not in data and today is not None:
        data = {**data, "notice_from": today}
    try:
        checked = _checked(Scenario.model_validate(data), data, lines, file)
    except ScenarioError as found:
        if tab_problem is None:
            raise
        raise ScenarioError([tab_problem, *found.problems], file) from None
    except ValidationError as err:
        problems = pydantic_problems(err, data, Scenario, lines)
        sound = _sound_part(data, err)
    else:
        if tab_problem is not None:
            raise ScenarioError([tab_problem], file)
        return _passed(checked)
    if sound is not None:
        scenario, ops_at, ts_at, mended = sound
        broken_ids = {str(o["id"]).strip() for i, o in enumerate(data["operators"])
                      if i not in ops_at and isinstance(o, Mapping)
                      and isinstance(o.get("id"), str)}
        problems += [p for p in _one_pass_terms(scenario, data, lines, ops_at, ts_at,
                                                broken_ids)
                     if not _about_mended(p.path, mended)]
    problems += _duplicate_ids(data, lines)
    raise ScenarioError(tab_problem_list + by_position(problems), file)


class _LazyLines(dict[tuple[Any, ...], int]):
    """The line of every field path (:func:`line_index`), indexed only when an error needs
    one (a valid statewide file has millions of nodes): ``node_of()`` gives the node tree
    (:func:`scheduler.inputs.yaml_reader.parse_yaml_data`: composed only then)."""

    def __init__(self, node_of: Callable[[], yaml.Node | None]) -> None:
        super().__init__()
        self._node_of: Callable[[], yaml.Node | None] | None = node_of
        self._done = False

    def _fill(self) -> None:
        if not self._done and self._node_of is not None:
            self._done = True
            self.update(line_index(self._node_of()))
            self._node_of = None

    def __contains__(self, key: object) -> bool:
        self._fill()
        return super().__contains__(key)

    def __getitem__(self, key: tuple[Any, ...]) -> int:
        self._fill()
        return super().__getitem__(key)

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        self._fill()
        return super().get(key, default)


def validate_scenario(scenario: Scenario) -> Scenario:
    """Check ``scenario`` against every *input* rule of RULES.md, as :func:`load_scenario`
    checks a file.

    A scenario built in Python (:meth:`~scheduler.core.scenario.Scenario.from_frames`,
    ``replace``, ``with_*``, ``Scenario.model_validate``) has had its fields checked only;
    ``solve()``, the check (:func:`scheduler.check.auditing.audit`) and the sweep's variants run
    this
    first, so no such scenario skips the legal input rules. A scenario that passed once (the
    same object) is not checked again.

    Parameters
    ----------
    scenario
        The scenario to check.

    Returns
    -------
    Scenario
        ``scenario`` itself (the same object) when it breaks no input rule: ``MT-ENTRY-CAP``,
        ``ME-PLAYER-CAP``, ... and the cross references (rule ``SCENARIO``).

    Raises
    ------
    ScenarioError
        Every input problem, each naming the field path, the value given (when it was given)
        and the rule ID with its citation.
    """
    if _PASSED.get(id(scenario)) is scenario:
        return scenario  # this very object passed already (loaded, or solved before)
    return _passed(_checked(scenario, scenario.model_dump(exclude_unset=True), {}, None))


_PASSED: weakref.WeakValueDictionary[int, Scenario] = weakref.WeakValueDictionary()
"""The scenarios (by object identity) that broke no input rule: a scenario is frozen, so
:func:`validate_scenario` of one the loader (or an earlier call) passed need not run the
rules again (``tourney solve`` loads, then ``solve()`` validates). An entry goes when its
scenario is collected, so a reused ``id`` never matches another object."""


def made_as_of_passed(scenario: Scenario, as_of: dt.date | None = None) -> Scenario:
    """:func:`scheduler.core.timing.made_as_of` of ``scenario``, its copy remembered as
    passing the input rules when ``scenario`` passed them (no input rule reads the as-of
    day, tests/test_validate_once.py), so :func:`validate_scenario` does not run them again
    (``tourney solve --as-of`` loads, sets the day, then ``solve()`` validates)."""
    copy = made_as_of(scenario, as_of)
    if copy is not scenario and _PASSED.get(id(scenario)) is scenario:
        _passed(copy)
    return copy


def _passed(scenario: Scenario) -> Scenario:
    _PASSED[id(scenario)] = scenario
    return scenario


def _checked(scenario: Scenario, data: Any, lines: Mapping[tuple[Any, ...], int | str],
             file: str | None) -> Scenario:
    """``scenario`` (its fields all valid) when it breaks no input rule; else raise every
    problem of :func:`_one_pass_terms`, in file order."""
    n_ops, n_ts = len(scenario.operators), len(scenario.tournaments)
    problems = _one_pass_terms(scenario, data, lines, list(range(n_ops)),
                               list(range(n_ts)), set())
    if problems:
        raise ScenarioError(by_position(problems), file)
    return scenario


# --------------------------------------------------------------------------- one pass
_REFERENCE_RULES = frozenset(rule.id for rule in REFERENCES)
_RECORDS = ("operators", "tournaments")
_SHEET_ORDER = SHEETS_READ
"""The sheets of a scenario workbook in the order ``tourney template`` writes them."""


def _sound_part(data: Mapping[str, Any], err: ValidationError
                ) -> tuple[Scenario, list[int], list[int], dict[tuple[str, int], set[str]]] | None:
    """The scenario of the records of ``data`` whose fields are all valid (pydantic's
    ``err`` names the others), with the original index of each kept operator and
    tournament; None when a field outside the records is wrong (the horizon, the notice
    date, a setting, the lists themselves), on which every input rule depends. A wrong
    ``name``, ``uid_domain`` or unknown top-level key stands aside: no rule reads them.

    A record whose wrong fields can be left out (an unknown key such as ``entry_fe``, a
    value of the wrong type; not a required field) is kept without them, so that its other
    fields are checked in the same pass (an unknown operator id beside a misspelt key): the
    fourth item maps (records key, index) to the fields left out and the known fields their
    unknown keys most likely meant, whose problems the caller drops (they are said
    already)."""
    broken: dict[str, set[int]] = {key: set() for key in _RECORDS}
    fields: dict[tuple[str, int], set[str]] = {}
    drop: set[str] = set()
    for e in err.errors():
        loc = tuple(e["loc"])
        if len(loc) >= 2 and loc[0] in broken and isinstance(loc[1], int):
            broken[loc[0]].add(loc[1])
            bad = fields.setdefault((str(loc[0]), loc[1]), set())
            bad.add(str(loc[2]) if len(loc) >= 3 else "")  # "": the record as a whole
        elif loc and (loc[0] in ("name", "uid_domain")
                      or (len(loc) == 1 and e["type"] == "extra_forbidden")):
            drop.add(str(loc[0]))
        elif not (loc == ("operators",) and e["type"] == "too_short"):
            return None  # e.g. the horizon: every rule reads it
    mended: dict[tuple[str, int], set[str]] = {}
    for (key, i), bad in fields.items():
        record = data[key][i] if isinstance(data.get(key), list) else None
        if "" in bad or not isinstance(record, Mapping):
            continue
        rest = {k: v for k, v in record.items() if k not in bad}
        model = Operator if key == "operators" else Tournament
        try:
            model.model_validate(rest)
        except ValidationError:
            continue  # a required field is wrong: the record cannot be read without it
        known = list(model.model_fields)
        near = {n for b in bad for n in difflib.get_close_matches(b, known, n=1)}
        mended[(key, i)] = bad | near | {f"={d}" for b in bad | near
                                         for d in _READ_WITH.get(b, ())}
        broken[key].discard(i)
        data = {**data, key: [rest if k == i else r for k, r in enumerate(data[key])]}
    kept = {key: [i for i in range(len(data.get(key) or ())) if i not in broken[key]]
            for key in _RECORDS}
    sound = {k: v for k, v in data.items() if k not in drop}
    sound["name"] = "-" if "name" in drop else sound.get("name")
    for key in _RECORDS:
        if key in data:
            sound[key] = [data[key][i] for i in kept[key]]
    try:
        return (Scenario.model_validate(sound), kept["operators"], kept["tournaments"],
                mended)
    except ValidationError:  # e.g. no operator is valid: the rules have nothing to read
        return None


_READ_WITH = {"count": ("required", "fixed_dates")}
"""A tournament's fields judged against another (``required`` exceeds ``count``, more
``fixed_dates`` than ``count``): when the other was left out as unreadable, that problem
(of the field as a whole, not of one of its items) would judge its default, not the value
written, so it is not said (the unreadable field's own problem is)."""


def _about_mended(path: str, mended: Mapping[tuple[str, int], set[str]]) -> bool:
    """True when ``path`` (``tournaments[2].entry_fee``) is a field :func:`_sound_part` left
    out of its record, or one a misspelt key of it most likely meant: its problem is said."""
    m = re.match(r"^(\w+)\[(\d+)\]\.(\w+)", path)
    if m is None:
        return False
    fields = mended.get((m.group(1), int(m.group(2))), set())
    return m.group(3) in fields or (m.end() == len(path) and f"={m.group(3)}" in fields)


def _one_pass_terms(scenario: Scenario, data: Any,
                    lines: Mapping[tuple[Any, ...], int | str], ops_at: list[int],
                    ts_at: list[int], broken_ids: set[str]) -> list[InputProblem]:
    """Every input problem of the sound records of a scenario in one pass.

    ``scenario`` holds the records whose fields are valid: its ``operators[k]`` is the
    input's ``operators[ops_at[k]]``, its ``tournaments[k]`` the input's
    ``tournaments[ts_at[k]]``; ``broken_ids`` are the ids of operator records left out
    (a tournament's reference to one is dropped, not reported: its record has its own
    problem). The cross references (``SCENARIO``, ``CLOCK-CHANGE``) run first; a record
    they find wrong is left out in turn (and references to it) and the rules' input checks
    (``MT-ENTRY-CAP``, ...: :func:`constraints.registry.validate_terms`) run on the rest, so
    an unknown operator id in one tournament does not hide an entry fee over the cap in
    another. Paths name the input's records; values are those ``data`` gives, lines those
    of ``lines``.
    """
    ops = list(zip(ops_at, scenario.operators, strict=True))
    ts = list(zip(ts_at, scenario.tournaments, strict=True))
    left_out = set(broken_ids)
    # the fixed dates kept of each tournament (input index -> the input's date indexes): a
    # reference problem of one fixed date (outside the horizon) leaves that date out, not
    # the tournament, so its other fields still meet the rules (an entry fee over the cap)
    dates: dict[int, list[int]] = {i: list(range(len(t.fixed_dates))) for i, t in ts}
    found: list[InputProblem] = []
    # the rounds: references, then (the records or fixed dates they name left out) again,
    # until the references are sound and the rules have run; each round leaves one out
    for _ in range(len(ops) + len(ts) + sum(map(len, dates.values())) + 1):
        if not ops:
            break
        gone = left_out - {o.id for _, o in ops}  # a duplicate id left out still resolves
        cur: list[tuple[int, Any, list[int]]] = []
        for i, t in ts:
            keep = [j for j, oid in enumerate(t.operators) if oid not in gone]
            if keep:
                update: dict[str, Any] = {}
                if len(keep) < len(t.operators):
                    update["operators"] = tuple(t.operators[j] for j in keep)
                if len(dates[i]) < len(t.fixed_dates):
                    update["fixed_dates"] = tuple(t.fixed_dates[k] for k in dates[i])
                cur.append((i, t.model_copy(update=update) if update else t, keep))
        sc = scenario.model_copy(update={"operators": tuple(o for _, o in ops),
                                         "tournaments": tuple(t for _, t, _ in cur)})
        ops_back = [i for i, _ in ops]
        ts_back = [(i, keep) for i, _, keep in cur]
        terms = [(_original_loc(p.loc, ops_back, ts_back, dates), p)
                 for p in validate_terms(sc)]
        found += [InputProblem(path_str(loc), value_at(data, loc), p.rule, p.message,
                               nearest_line(lines, loc)) for loc, p in terms]
        refs = [loc for loc, p in terms if p.rule in _REFERENCE_RULES]
        if not refs or any(not (len(loc) >= 2 and loc[0] in _RECORDS
                                and isinstance(loc[1], int)) for loc in refs):
            break  # the rules ran, or a reference outside the records (the horizon) is wrong
        wrong = {(loc[0], loc[1]) for loc in refs if not _a_fixed_date(loc)}
        for loc in refs:
            if _a_fixed_date(loc) and ("tournaments", loc[1]) not in wrong:
                dates[loc[1]] = [k for k in dates[loc[1]] if k != loc[3]]
        left_out |= {o.id for i, o in ops if ("operators", i) in wrong}
        ops = [(i, o) for i, o in ops if ("operators", i) not in wrong]
        ts = [(i, t) for i, t in ts if ("tournaments", i) not in wrong]
    return _unique(found)


def _a_fixed_date(loc: tuple[Any, ...]) -> bool:
    """Whether ``loc`` is the path of one of a tournament's fixed dates."""
    return len(loc) >= 4 and loc[0] == "tournaments" and loc[2] == "fixed_dates" \
        and isinstance(loc[3], int)


def _original_loc(loc: tuple[Any, ...], ops_at: list[int],
                  ts_at: list[tuple[int, list[int]]],
                  dates: Mapping[int, list[int]] | None = None) -> tuple[Any, ...]:
    """A field path of the scenario of the kept records as a path of the input: operator
    ``k`` is the input's ``ops_at[k]``; tournament ``k`` is the input's ``ts_at[k][0]``,
    its ``operators[j]`` the input's ``operators[ts_at[k][1][j]]`` and its
    ``fixed_dates[j]`` the input's ``fixed_dates[dates[i][j]]`` (all kept without
    ``dates``)."""
    if len(loc) >= 2 and loc[0] == "operators" and isinstance(loc[1], int):
        return ("operators", ops_at[loc[1]], *loc[2:])
    if len(loc) >= 2 and loc[0] == "tournaments" and isinstance(loc[1], int):
        i, keep = ts_at[loc[1]]
        rest = loc[2:]
        if len(rest) >= 2 and rest[0] == "operators" and isinstance(rest[1], int):
            rest = ("operators", keep[rest[1]], *rest[2:])
        if len(rest) >= 2 and rest[0] == "fixed_dates" and isinstance(rest[1], int) \
                and dates is not None and i in dates:
            rest = ("fixed_dates", dates[i][rest[1]], *rest[2:])
        return ("tournaments", i, *rest)
    return loc


def _duplicate_ids(data: Mapping[str, Any],
                   lines: Mapping[tuple[Any, ...], int | str]) -> list[InputProblem]:
    """An id used twice among the operator (tournament) records of the input, whatever the
    other fields of those records: a record whose fields fail still holds its id, so a second
    record of that id is reported (rule ``SCENARIO``, the message the cross references give
    when both records are sound)."""
    out = []
    for key in _RECORDS:
        records = data.get(key)
        if not isinstance(records, list):
            continue
        seen: set[str] = set()
        for i, record in enumerate(records):
            rid = record.get("id") if isinstance(record, Mapping) else None
            if not isinstance(rid, str):
                continue
            if rid.strip() in seen:
                loc = (key, i, "id")
                out.append(InputProblem(path_str(loc), rid, "SCENARIO",
                                        f"{key.removesuffix('s')} id is used twice",
                                        nearest_line(lines, loc)))
            seen.add(rid.strip())
    return out


def _unique(problems: list[InputProblem]) -> list[InputProblem]:
    """``problems`` without repeats (one path, rule and message), in their order."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for p in problems:
        if (p.path, p.rule, p.message) not in seen:
            seen.add((p.path, p.rule, p.message))
            out.append(p)
    return out


def by_position(problems: list[InputProblem]) -> list[InputProblem]:
    """``problems`` without repeats, in file order: by YAML line, or by a workbook's sheet (in
    the template's order), row and column; problems of no line (the file as a whole, a
    scenario built in Python) first, by the scenario's fields in their order and the
    record's index (``operators[0]`` before ``tournaments[0]`` before ``tournaments[1]``);
    problems of one place in the order found."""
    def key(p: InputProblem) -> tuple[int, int, int, int]:
        if isinstance(p.line, int):
            return (1, p.line, 0, 0)
        if isinstance(p.line, str):
            m = re.match(r"^(\w+)(?:!([A-Z]+)(\d+)| row (\d+))?", p.line)
            if m:
                sheet = (_SHEET_ORDER.index(m.group(1)) if m.group(1) in _SHEET_ORDER
                         else len(_SHEET_ORDER))
                column = 0
                for ch in m.group(2) or "":
                    column = column * 26 + ord(ch) - ord("A") + 1
                return (2, sheet, int(m.group(3) or m.group(4) or 0), column)
            return (2, len(_SHEET_ORDER), 0, 0)
        m = re.match(r"^(\w+)(?:\[(\d+)\])?", p.path)  # no file: the fields' order
        order = list(Scenario.model_fields)
        first = m.group(1) if m else ""
        return (0, order.index(first) if first in order else -1,
                int(m.group(2)) if m and m.group(2) else -1, 0)
    return sorted(_unique(problems), key=key)


def _tab_indented(text: str, line: int) -> str | None:
    """When the 0-based ``line`` of ``text`` (where the YAML parser stopped) is indented with
    a tab, say so in the operator's words; else None."""
    rows = text.splitlines()
    if not 0 <= line < len(rows):
        return None
    row = rows[line]
    if "\t" not in row[:len(row) - len(row.lstrip())]:
        return None
    more = sum(1 for r in rows[line + 1:] if "\t" in r[:len(r) - len(r.lstrip())])
    return (f"line {line + 1} is indented with a tab; use spaces (YAML does not allow tabs "
            "in indentation)" + (f"; {more} more line(s) below start with a tab too"
                                 if more else ""))


def _detabbed(text: str) -> tuple[yaml.Node | None, Any] | None:
    """(node, data) of ``text`` with the tabs of each line's indentation made spaces (a tab
    as 4, 2 or 8 columns, the first width that parses), so that a tab does not hide the
    file's other problems; None when no width parses. Lines keep their numbers."""
    rows = text.splitlines(keepends=True)
    for width in (4, 2, 8):
        copy = "".join(
            r[:len(r) - len(r.lstrip(" \t"))].expandtabs(width) + r.lstrip(" \t")
            for r in rows)
        try:
            return parse_yaml(copy)
        except (NotYaml, LimitError, ValueError, RecursionError):
            continue
    return None
