"""Tables as scenario input: the rows of pandas DataFrames read as the mappings the YAML
loader reads (:meth:`scheduler.core.scenario.Scenario.from_frames`).

Column names are the YAML field names (a nested field a dotted column such as
``window.start``); an empty cell is a field not given; list fields take a Python list or a
string separated by commas, semicolons or spaces. Core layer: imports no rule and no loader;
pandas and numpy only when a table is read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from scheduler.core.fields import DateRange
from scheduler.core.problems import MISSING, InputProblem, model_in

if TYPE_CHECKING:
    import pandas as pd  # start-up time: only DataFrame input imports pandas

_TEXT_LISTS = frozenset({"beneficiaries"})
"""List fields of free text (names with spaces): a cell is split on semicolons or line breaks."""
_OTHER_GAME = re.compile(r"^([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$")


def _cell(value: Any) -> Any:
    """A DataFrame cell as a YAML-like value; ``MISSING`` for an empty cell."""
    import numpy as np  # start-up time: only DataFrame input needs numpy and pandas
    import pandas as pd  # start-up time: as numpy above

    if isinstance(value, str):
        return value.strip() or MISSING
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple | Mapping):
        return value
    if value is None or pd.isna(value):
        return MISSING
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


def _field_annotation(model: type[BaseModel], parts: Sequence[str]) -> Any:
    """The annotation of the (dotted) field ``parts`` of ``model``; None when unknown."""
    cur: type[BaseModel] | None = model
    ann: Any = None
    for part in parts:
        fld = cur.model_fields.get(part) if cur is not None else None
        if fld is None:
            return None
        ann = fld.annotation
        cur = model_in(ann)
    return ann


def _is_tuple(ann: Any) -> bool:
    return getattr(ann, "__origin__", None) is tuple or any(
        _is_tuple(a) for a in getattr(ann, "__args__", ()) or () if a is not ann)


def _cell_value(model: type[BaseModel], parts: Sequence[str], value: Any) -> Any:
    """A cell of the column ``parts`` read as the loader expects it (lists split, a window
    range ``FIRST..LAST`` as ``{start, end}``)."""
    ann = _field_annotation(model, parts)
    name = parts[-1]
    if ann is None:
        return value
    if _is_tuple(ann):
        if not isinstance(value, str):
            return list(value) if isinstance(value, list | tuple) else [value]
        if name in _TEXT_LISTS:
            return [x.strip() for x in re.split(r"[;\n]", value) if x.strip()]
        items = [x for x in re.split(r"[\s,;]+", value) if x]
        if name == "other_games":
            items = [x.strip() for x in re.split(r"[;,\n]", value) if x.strip()]
            return [{"weekday": m.group(1).lower(), "start": m.group(2), "end": m.group(3)}
                    if (m := _OTHER_GAME.match(x)) else x for x in items]
        return items
    if model_in(ann) is DateRange and isinstance(value, str) and ".." in value:
        start, end = value.split("..", 1)
        return {"start": start.strip(), "end": end.strip()}
    return value


def frame_rows(key: str, frame: pd.DataFrame | None, model: type[BaseModel],
                problems: list[InputProblem]) -> tuple[list[dict[str, Any]], list[Any]]:
    """The rows of ``frame`` as scenario mappings, and each row's index label."""
    if frame is None:
        return [], []
    index = frame.index
    if "id" not in frame.columns and index.name == "id":
        frame = frame.reset_index()
    rows: list[dict[str, Any]] = []
    labels: list[Any] = []
    for label, record in zip(index, frame.to_dict("records"), strict=True):
        row: dict[str, Any] = {}
        for column, cell in record.items():
            value = _cell(cell)
            if value is MISSING:
                continue
            parts = [p.strip() for p in str(column).strip().split(".")]
            node = row
            for part in parts[:-1]:
                node = node.setdefault(part, {})
                if not isinstance(node, dict):
                    break
            if not isinstance(node, dict) or parts[-1] in node:
                problems.append(InputProblem(
                    f"{key}[{_label(label)}].{'.'.join(parts)}", value, "SCENARIO",
                    "given twice (as a column and inside another column's value)"))
                continue
            node[parts[-1]] = _cell_value(model, parts, value)
        if row:
            rows.append(row)
            labels.append(label)
    return rows, labels


def _label(label: Any) -> str:
    import numpy as np  # start-up time: only DataFrame input needs numpy

    return str(int(label)) if isinstance(label, int | np.integer) else repr(str(label))


def relabel(problem: InputProblem, labels: Mapping[str, list[Any]]) -> InputProblem:
    """A problem of a frame-built scenario, its row named by the frame's index label."""
    m = re.match(r"^(operators|tournaments)\[(\d+)\]", problem.path)
    if not m or int(m.group(2)) >= len(labels[m.group(1)]):
        return problem
    label = _label(labels[m.group(1)][int(m.group(2))])
    return dataclasses.replace(
        problem, path=f"{m.group(1)}[{label}]{problem.path[m.end():]}")
