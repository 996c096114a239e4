"""What is wrong with a scenario: the problems found in it, and how they are shown.

A :class:`ScenarioError` lists every :class:`InputProblem` found in one run, each naming the
file, the line (where the YAML parser knows it), the field path, the value and the rule ID
(``SCENARIO`` for format errors, e.g. ``MT-ENTRY-CAP`` for an input rule). The rules' input
checks return :class:`TermProblem` (a field path as a tuple); :func:`pydantic_problems` turns
pydantic's validation errors into problems. Core layer: imports no rule and no loader.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from constraints.catalogue import cite
from scheduler.core.errors import TourneyError
from scheduler.core.jurisdiction import installed
from scheduler.core.limits import MAX_PROBLEMS_SHOWN


@dataclass(frozen=True)
class InputProblem:
    """One problem in a scenario: where it is, what value, which rule, what is wrong."""

    path: str
    """The field (``tournaments[2].window.start``); ``<yaml>`` or ``<file>`` for the whole
    file (not YAML, not text), which a message then does not name."""
    value: Any
    rule: str
    message: str
    line: int | str | None = None
    """The 1-based line of a YAML file, or a workbook's cell (``"Tournaments!F7
    (entry_fee)"``, shown in place of the field path)."""

    def render(self, file: str | None) -> str:
        where = file or "<scenario>"
        shown = "" if self.value is MISSING else f" = {show(self.value)}"
        if isinstance(self.line, str):  # a workbook: sheet, cell, column header
            if isinstance(self.value, Mapping) or (isinstance(self.value, list | tuple) and any(
                    isinstance(v, Mapping) for v in self.value)):
                shown = ""  # a row or a sheet's rows: the cells say it, not a YAML dump
            if self.line.startswith("<"):  # the whole workbook (<file>): no cell to name
                return f"{where}: {self.message} ({cite(self.rule)})"
            return f"{where}: {self.line}{shown}: {self.message} ({cite(self.rule)})"
        if self.line is not None:
            where += f":{self.line}"
        if self.path.startswith("<"):  # the whole file (<yaml>, <file>): no field to name
            return f"{where}: {self.message} ({cite(self.rule)})"
        return f"{where}: {self.path}{shown}: {self.message} ({cite(self.rule)})"


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


def show(value: Any) -> str:
    """A value as the user would write it in YAML (dates ISO, true/false, flow lists)."""
    if isinstance(value, str):
        if len(value) > 80:  # a 10 MB value would make a 10 MB message
            return f"{value[:80]!r}... ({len(value):,} characters)"
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dict | list | tuple):
        def plain(x: Any) -> Any:
            if isinstance(x, dict):
                return {str(k): plain(v) for k, v in x.items()}
            if isinstance(x, list | tuple):
                return [plain(v) for v in x]
            return x.isoformat() if isinstance(x, dt.date | dt.time) else x
        text = yaml.safe_dump(plain(value), default_flow_style=True, width=10_000).strip()
        return text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)"
    text = str(value)
    return text if len(text) <= 80 else f"{text[:80]}... ({len(text):,} characters)"


class ScenarioError(TourneyError, ValueError):
    """Invalid scenario input: every problem found, all in one run (exit 2 in the CLI).

    Parameters
    ----------
    problems
        Each an :class:`InputProblem`: the field path (``tournaments[2].entry_fee``), the
        value given (``MISSING`` when none), the rule ID (``SCENARIO`` for a field's own
        check, else an input rule such as ``MT-ENTRY-CAP``), the sentence, and the YAML
        line or workbook cell.
    file
        The file read (None: a scenario built in Python), named by :meth:`render`.

    Attributes
    ----------
    problems : list of InputProblem
        As given, in order.
    file : str or None
        As given.
    """

    def format_message(self) -> str:
        return self.render()

    def __init__(self, problems: Sequence[InputProblem], file: str | None = None):
        self.problems = list(problems)
        self.file = file
        super().__init__(self.render())

    def render(self) -> str:
        """Every problem on its own line; at most :data:`~scheduler.core.limits.MAX_PROBLEMS_SHOWN`
        of them, the rest counted."""
        head = f"{len(self.problems)} problem(s) in {self.file or 'the scenario'}:"
        shown = ["  " + p.render(self.file) for p in self.problems[:MAX_PROBLEMS_SHOWN]]
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            shown.append(f"  ... and {len(self.problems) - MAX_PROBLEMS_SHOWN:,} more "
                         "problem(s); fix these and run again to see the rest")
        return "\n".join([head, *shown])


@dataclass(frozen=True)
class TermProblem:
    """A problem found by a rule's term validation; ``loc`` is the field path as a tuple."""

    loc: tuple[Any, ...]
    rule: str
    message: str
    path: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", path_str(self.loc))


def path_str(loc: Sequence[Any]) -> str:
    """A field path as the messages show it: ``("tournaments", 2, "entry_fee")`` ->
    ``tournaments[2].entry_fee``; ``<top>`` for the empty path."""
    s = ""
    for part in loc:
        s += f"[{part}]" if isinstance(part, int) else (f".{part}" if s else str(part))
    return s or "<top>"


def value_at(data: Any, loc: Sequence[Any]) -> Any:
    """The value the input mapping ``data`` gives at the field path ``loc``; :data:`MISSING`
    when it gives none."""
    cur = data
    for part in loc:
        try:
            cur = cur[part]
        except (KeyError, IndexError, TypeError):
            return MISSING
    return cur


def known_fields(model: type[BaseModel], data: Any, loc: Sequence[Any]) -> list[str]:
    """Field names of the pydantic model found at ``loc`` (for 'did you mean')."""
    cur: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fld = getattr(cur, "model_fields", {}).get(part)
        if fld is None:
            return []
        ann = fld.annotation
        cur = model_in(ann)
        if cur is None:
            return []
    return list(getattr(cur, "model_fields", {}))


def _item_choices(model: type[BaseModel], loc: Sequence[Any]) -> list[str]:
    """The choices of the items of the list field at ``loc`` (``weekdays``: ``mon`` ...
    ``sun``, read from its ``Literal`` annotation); empty for any other field."""
    parent: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        fld = getattr(parent, "model_fields", {}).get(part)
        parent = model_in(fld.annotation) if fld is not None else None
        if parent is None:
            return []
    fld = getattr(parent, "model_fields", {}).get(loc[-1]) if loc else None
    todo, found = [fld.annotation if fld is not None else None], []
    while todo:
        ann = todo.pop()
        if get_origin(ann) is Literal:
            found += [str(a) for a in get_args(ann)]
        else:
            todo += list(get_args(ann))
    return found


def model_in(ann: Any) -> type[BaseModel] | None:
    """The pydantic model a field annotation holds (``DateRange | None`` -> ``DateRange``);
    None when it holds none."""
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return ann
    for a in getattr(ann, "__args__", ()) or ():
        m = model_in(a)
        if m is not None:
            return m
    return None


def pydantic_problems(
    err: ValidationError, data: Any, root: type[BaseModel],
    lines: Mapping[tuple[Any, ...], int | str] | None = None,
) -> list[InputProblem]:
    """The problems of ``err`` (pydantic's validation of ``data`` as the model ``root``), one
    per field (rule ``SCENARIO``): the field path, the value given, a message (an unknown
    field with the nearest known name of ``root``), and the line from ``lines`` (field path
    -> 1-based line of the YAML text; none when the input was no file)."""
    lines = lines if lines is not None else {}
    problems = []
    errors = err.errors()
    locs = [tuple(e["loc"]) for e in errors]
    # a union such as ``int | Literal["all"]`` fails once per branch: one problem, the
    # literal's choices added to the other's message ("count = true: expected a whole
    # number, not true/false (or 'all')")
    def clean(loc: Any) -> tuple[Any, ...]:
        return tuple(p for p in loc if not (isinstance(p, str) and (
            p.startswith("function-") or p in ("int", "str", "literal['all']", "date"))))
    others = {clean(e["loc"]) for e in errors if e["type"] != "literal_error"}
    choices = {clean(e["loc"]): str(e.get("ctx", {}).get("expected", ""))
               for e in errors if e["type"] == "literal_error" and clean(e["loc"]) in others}
    errors = [e for e in errors if not (e["type"] == "literal_error"
                                        and clean(e["loc"]) in choices)]
    for e in errors:
        if e["type"] == "too_short" and any(
                other[:len(e["loc"])] == tuple(e["loc"]) and other != tuple(e["loc"])
                for other in locs):
            continue  # "at least 1 item" only because its items failed: say that instead
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        # drop pydantic's union/type tags such as 'int' in loc
        loc = tuple(p for p in loc if not (isinstance(p, str) and p in
                                            ("int", "str", "literal['all']", "date")))
        line = None
        for k in range(len(loc), -1, -1):
            if loc[:k] in lines:
                line = lines[loc[:k]]
                break
        msg = e["msg"].removeprefix("Value error, ")
        value: Any = value_at(data, loc)
        if e["type"] == "extra_forbidden":
            known = known_fields(root, data, loc[:-1])
            near = difflib.get_close_matches(str(loc[-1]), known, n=1)
            msg = "unknown field" + (f"; did you mean '{near[0]}'?" if near else "")
            value = MISSING
        elif e["type"] == "missing":
            msg = "required field is missing"
        elif e["type"] == "literal_error" and isinstance(value, str):
            guess = nearest_choice(value, _choices(str(e.get("ctx", {}).get("expected", ""))))
            if guess is not None:
                msg += f"; did you mean {guess!r}?"
        elif e["type"] in ("tuple_type", "list_type") and value is not MISSING and not (
                isinstance(value, Mapping)):
            msg = f"write a list, e.g. {list_example(value)}"
            allowed = _item_choices(root, loc)
            if allowed:  # a list of choices: "Tues" -> [tue]
                example = list_example(value)
                named = [nearest_choice(x, allowed) or x
                         for x in example.strip("[]").split(", ")]
                msg = f"write a list, e.g. [{', '.join(named)}]"
        elif e["type"] in ("decimal_parsing", "decimal_type"):
            msg = "expected a number, e.g. 50"
        elif msg.startswith("Decimal input should"):
            msg = "the number should" + msg.removeprefix("Decimal input should")
        msg = _FIELD_HINTS.get((loc[-1] if loc else "", e["type"]), msg)
        if loc == ("operators",) and e["type"] == "too_short":
            msg = ("a scenario needs at least one operator (a card room, tour office or "
                   "association), e.g. [{id: room-a, name: Room A, jurisdiction: MT}]")
        if choices.get(loc):
            msg += f" (or {choices.pop(loc)})"
        problems.append(InputProblem(path_str(loc), value, "SCENARIO", msg, line))
    return problems


_PERIOD_HINT = ("write a whole number N (exactly N a {0}, e.g. {1}: 1) or {{min: N, max: M}} "
                "(at least N, at most M a {0}; either may be left out)")
_FIELD_HINTS: dict[tuple[Any, str], str] = {
    ("stops", "too_short"): "a tour has at least 2 stops",
    ("operators", "too_short"): "a tournament is held by at least one operator: list its "
                                "operator ids, e.g. [room-a]",
    **{(f, kind): _PERIOD_HINT.format(word, f)
       for f, word in (("per_month", "calendar month"), ("per_week", "ISO week"))
       for kind in ("dict_type", "model_type", "int_type", "int_parsing", "model_attributes_type")},
    **{("sessions", kind): "write a list of sessions, e.g. [{day: 1, start: '11:00', hours: 10}]"
       for kind in ("tuple_type", "list_type")},
}
"""(field name, pydantic error type) -> the message a field's own shape needs, in place of
pydantic's (``tours[0].stops = [s1]``: ``a tour has at least 2 stops``)."""

def _synonym(word: str) -> str | None:
    """The choice ``word`` names that no spelling distance finds: a state's name for its
    code (``montana`` -> the code of the jurisdiction named Montana)."""
    for j in installed():
        if re.sub(r"[\s_]+", "-", j.name.lower()) == word:
            return j.code
    return None


def _choices(expected: str) -> list[str]:
    """The choices of pydantic's ``literal_error`` (``"'a' or 'b'"`` -> ``["a", "b"]``)."""
    return re.findall(r"'([^']*)'", expected)


def nearest_choice(value: str, choices: Sequence[str]) -> str | None:
    """The choice an operator most likely meant by ``value`` ("did you mean"), or None:
    the same word in other case or with spaces or underscores for hyphens (``"Large
    stakes"`` -> ``large-stakes``), a name of the state (``Montana`` -> ``MT``), a choice the
    value begins with or that begins with it (``"Tues"``, ``"Saturday"`` -> ``tue``,
    ``sat``), else the nearest spelling (:func:`difflib.get_close_matches`)."""
    word = re.sub(r"[\s_]+", "-", value.strip().lower())
    if not word or not choices:
        return None
    lower = {c.lower(): c for c in choices}
    if word in lower:
        return lower[word]
    synonym = _synonym(word)
    if synonym in choices:
        return synonym
    starts = [c for c in choices if len(word) >= 2 and (
        word.startswith(c.lower()) or c.lower().startswith(word))]
    if len(starts) == 1:
        return starts[0]
    near = difflib.get_close_matches(word, list(lower), n=1)
    return lower[near[0]] if near else None


def list_example(value: Any) -> str:
    """How to write ``value`` (one value, or text separated by commas or spaces) as the
    YAML list a field wants: ``tue`` -> ``[tue]``, ``"tue, fri"`` -> ``[tue, fri]``."""
    items = ([x for x in re.split(r"[\s,;]+", value.strip()) if x]
             if isinstance(value, str) else [value])
    return "[" + ", ".join(show(x).strip("'") if isinstance(x, str) else show(x)
                           for x in items) + "]"


def nearest_line(lines: Mapping[tuple[Any, ...], int | str],
                 loc: tuple[Any, ...]) -> int | str | None:
    """The line of ``loc`` in ``lines``, else of its nearest enclosing field; None when the
    input was no file."""
    for k in range(len(loc), -1, -1):
        if loc[:k] in lines:
            return lines[loc[:k]]
    return None

