"""Read a scenario file and check it against every input rule: the loader.

``load_scenario(path)`` reads the YAML file described in ``docs/scenario.md`` (within the
limits of ``docs/limits.md``, with the line of every field) and returns a frozen, typed
:class:`~scheduler.scenario.Scenario`. Every problem is collected and raised together as one
:class:`~scheduler.problems.ScenarioError`, each naming the file, the line, the field path,
the value and the rule ID (e.g. ``MT-ENTRY-CAP``, ``SCENARIO`` for format errors).

The types below (``scheduler.scenario``) check each field and the scenario's shape; the input
rules (``constraints.registry.validate_terms``) import those types, so they run here, above
the rules: in :func:`load_scenario`, and in :func:`validate_scenario` for a scenario built in
Python, which ``solve()`` and the check call (docs/architecture.md).
"""

from __future__ import annotations

import datetime as dt
import re
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from constraints.registry import validate_terms
from scheduler.limits import LimitError, check_yaml_node, read_bounded
from scheduler.problems import (
    MISSING,
    InputProblem,
    ScenarioError,
    nearest_line,
    path_str,
    value_at,
)
from scheduler.scenario import Scenario, parse_scenario, read_workbook_file


# --------------------------------------------------------------------------- loading
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
    if isinstance(source, Mapping):
        data: Any = dict(source)
    elif str(source).lower().endswith(".xlsx"):  # a workbook: cells in place of lines
        file = str(source)
        data, lines = read_workbook_file(source)
    else:
        file = str(source)
        text = read_yaml_text(source, lambda msg: ScenarioError(
            [InputProblem("<file>", MISSING, "SCENARIO", msg)], file))
        loader = _Loader(text)
        node = None
        try:
            node = loader.get_single_node()
            check_yaml_node(node)
            data = loader.construct_document(node) if node is not None else None
        except LimitError as exc:
            raise ScenarioError([InputProblem("<yaml>", MISSING, "SCENARIO",
                                              f"refused: {exc}")], file) from None
        except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
            raise ScenarioError([InputProblem("<yaml>", MISSING, "SCENARIO",
                                              "a value cannot be read: "
                                              f"{str(exc).split(';')[0][:200]}")],
                                file) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = _path_of_mark(node, mark) if mark is not None else None
            raise ScenarioError([InputProblem(
                path_str(where) if where else "<yaml>", MISSING, "SCENARIO",
                f"not valid YAML: {getattr(exc, 'problem', exc)}",
                mark.line + 1 if mark else None)], file) from None
        finally:
            loader.dispose()
        lines = _LazyLines(node)
    if not isinstance(data, dict):
        raise ScenarioError([InputProblem("<top>", MISSING, "SCENARIO",
                                          "expected a mapping with name, horizon, operators, "
                                          "tournaments")], file)
    if "notice_from" not in data and today is not None:
        data = {**data, "notice_from": today}
    scenario = parse_scenario(data, lines=lines, file=file)
    problems = _term_problems(scenario, data, lines)
    if problems:
        raise ScenarioError(problems, file)
    return _passed(scenario)


def read_yaml_text(source: str | Path, error: Any) -> str:
    """The text of a YAML input file (a scenario or vary file), read within the limits of
    :func:`scheduler.limits.read_bounded`; ``error(message)`` builds the exception raised
    when it cannot be read (missing, a folder or device, too large, not UTF-8)."""
    try:
        raw = read_bounded(source)
    except LimitError as exc:
        raise error(str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error("the file is not UTF-8 text") from None


class _LazyLines(dict[tuple[Any, ...], int]):
    """The line of every field path (:func:`_line_index`), indexed only when an error needs
    one (a valid statewide file has millions of nodes)."""

    def __init__(self, node: yaml.Node | None) -> None:
        super().__init__()
        self._node: yaml.Node | None = node
        self._done = False

    def _fill(self) -> None:
        if not self._done:
            self._done = True
            self.update(_line_index(self._node))
            self._node = None

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
    """``scenario`` itself when it breaks no *input* rule of RULES.md (``MT-ENTRY-CAP``,
    ``ME-PLAYER-CAP``, ... and the cross references, rule ``SCENARIO``), as
    :func:`load_scenario` checks a file. A scenario built in Python
    (:meth:`~scheduler.scenario.Scenario.from_frames`, ``replace``, ``with_*``,
    ``Scenario.model_validate``) has had its fields checked only; ``solve()`` and the check
    run this first, so no such scenario skips the legal input rules.

    Raises
    ------
    ScenarioError
        Every input problem, each naming the field path, the value given (when it was given)
        and the rule ID with its citation.
    """
    if _PASSED.get(id(scenario)) is scenario:
        return scenario  # this very object passed already (loaded, or solved before)
    problems = _term_problems(scenario, scenario.model_dump(exclude_unset=True), {})
    if problems:
        raise ScenarioError(problems)
    return _passed(scenario)


_PASSED: weakref.WeakValueDictionary[int, Scenario] = weakref.WeakValueDictionary()
"""The scenarios (by object identity) that broke no input rule: a scenario is frozen, so
:func:`validate_scenario` of one the loader (or an earlier call) passed need not run the
rules again (``tourney solve`` loads, then ``solve()`` validates). An entry goes when its
scenario is collected, so a reused ``id`` never matches another object."""


def _passed(scenario: Scenario) -> Scenario:
    _PASSED[id(scenario)] = scenario
    return scenario


def _term_problems(scenario: Scenario, data: Any,
                   lines: Mapping[tuple[Any, ...], int | str]) -> list[InputProblem]:
    """The rules' input problems of ``scenario``, with the value given in ``data`` (the input
    mapping) and the line from ``lines`` (field path -> 1-based line)."""
    return [InputProblem(p.path, value_at(data, p.loc), p.rule, p.message,
                         nearest_line(lines, p.loc))
            for p in validate_terms(scenario)]


# --------------------------------------------------------------------------- YAML with lines
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """SafeLoader (libyaml's parser when PyYAML has it: statewide files are megabytes) that
    keeps ``18:00`` a string (YAML 1.1 would read it as 1080)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:int"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(  # decimal only: 0x10, 0b11 and 017 (octal 15) stay text
    "tag:yaml.org,2002:int",
    re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"),
    list("-+0123456789"),
)


def _timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:  # e.g. 2027-02-30: keep the text; validation names it with the rest
        return str(node.value)


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Any:
    """A mapping whose keys must be unique (YAML 1.2; PyYAML would keep the last silently)."""
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice (first on line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return yaml.SafeLoader.construct_yaml_map(loader, node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)


def _line_index(node: yaml.Node | None, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Map every field path (keys and list indices) to its 1-based line in the YAML text."""
    out: dict[tuple[Any, ...], int] = {}
    if node is None:
        return out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            out[(*path, key)] = k.start_mark.line + 1
            out.update({p: ln for p, ln in _line_index(v, (*path, key)).items()
                        if p != (*path, key)})
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out.update(_line_index(v, (*path, i)))
    return out


def _path_of_mark(node: yaml.Node | None, mark: Any,
                  path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The field path of the node that starts at ``mark`` (where a value failed to load)."""
    if node is None:
        return None
    if (node.start_mark.line, node.start_mark.column) == (mark.line, mark.column):
        return path
    children: list[tuple[Any, yaml.Node]] = []
    if isinstance(node, yaml.MappingNode):
        children = [(k.value, v) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        children = list(enumerate(node.value))
    for key, child in children:
        found = _path_of_mark(child, mark, (*path, key))
        if found is not None:
            return found
    return None

