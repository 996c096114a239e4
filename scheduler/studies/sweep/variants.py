"""Sweep variants: what a change of a what-if variant is (a dotted key and a value) and how
it is made to a scenario (:func:`apply_changes`), and the errors of a sweep."""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from scheduler.core.errors import TourneyError
from scheduler.core.limits import (
    MAX_PROBLEMS_SHOWN,
)
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import validate_scenario

VARY_KEYS = ("grid", "variants", "combine", "baseline")
"""The top-level keys of a vary file."""
SCENARIO_FIELDS = ("name", "horizon", "notice_from", "settings", "operators", "tournaments")


class VaryError(TourneyError, ValueError):
    """A vary file or variant that cannot be used. ``problems`` lists every problem, each a
    line ``FILE:LINE: WHERE: KEY = VALUE: what is wrong (RULE)``; nothing was solved."""

    def format_message(self) -> str:
        return self.render() + "\nNothing was solved or written."

    def __init__(self, problems: Sequence[str], file: str | None = None) -> None:
        self.problems = list(problems)
        self.file = file
        super().__init__(self.render())

    def render(self) -> str:
        head = f"{len(self.problems)} problem(s) in {self.file or 'the variants'}:"
        shown = ["  " + (p if len(p) <= 500 else f"{p[:500]}... ({len(p):,} characters)")
                 for p in self.problems[:MAX_PROBLEMS_SHOWN]]
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            shown.append(f"  ... and {len(self.problems) - MAX_PROBLEMS_SHOWN:,} more "
                         "problem(s); fix these and run again to see the rest")
        return "\n".join([head, *shown])


class SweepError(TourneyError, RuntimeError):
    """A sweep that could not run to the end. ``exit_code``: 2 when the engine cannot be used
    (Dask not installed, scheduler unreachable, no workers), 3 when a variant failed to solve
    (no solution in the time limit, a failed audit, a worker lost); ``variant`` names it."""

    def format_message(self) -> str:
        return f"tourney: {self}. Nothing was written."

    def __init__(self, message: str, *, exit_code: int = 3, variant: str | None = None) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.variant = variant


@dataclass(frozen=True)
class Variant:
    """One what-if variant: its ``name``, the ``changes`` made to the base scenario (dotted
    key -> value, in order; empty for the base itself) and the resulting ``scenario``."""

    name: str
    changes: Mapping[str, Any]
    scenario: Scenario


def text(value: Any) -> str:
    """A value as a person writes it in YAML, for variant names and table cells: dates ISO,
    ``true``/``false``, ``null``, lists ``[fri, sat]``, mappings ``{start: 2027-03-01}``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal | float):
        return format(value, "f").rstrip("0").rstrip(".") if value % 1 else str(int(value))
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(text(v) for v in value) + "]"
    return str(value)


def variant_labels(keys: Sequence[str]) -> dict[str, str]:
    """Short labels for names: ``settings.month_rule`` -> ``month_rule``,
    ``tournaments.sat.count`` -> ``sat.count``; the full keys when short ones would clash."""
    def short(key: str) -> str:
        head, _, rest = key.partition(".")
        return rest if head in ("settings", "tournaments", "operators") and rest else key
    shorts = {k: short(k) for k in keys}
    return shorts if len(set(shorts.values())) == len(shorts) else {k: k for k in keys}


def variant_name(changes: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    return ",".join(f"{labels.get(k, k)}={text(v)}" for k, v in changes.items()) or "baseline"


def parse_key(key: str) -> tuple[str, str | None, list[str]]:
    """Split a change's key: ``(root, item id or None, field path)``, e.g.
    ``tournaments.sat.window.end`` -> ``("tournaments", "sat", ["window", "end"])``,
    ``settings.month_rule`` -> ``("settings", None, ["month_rule"])``, ``notice_from`` ->
    ``("notice_from", None, [])``. Raises ``ValueError`` for a key of no such form."""
    parts = str(key).split(".")
    if any(not p for p in parts):
        raise ValueError("not a key (an empty part between dots)")
    root = parts[0]
    if root == "settings":
        if len(parts) != 2:
            raise ValueError("expected settings.FIELD, e.g. settings.month_rule")
        return root, None, parts[1:]
    if root in ("tournaments", "operators"):
        if len(parts) < 3:
            example = "tournaments.ID.count" if root == "tournaments" else \
                "operators.ID.live_tables"
            raise ValueError(f"expected {root}.ID.FIELD, e.g. {example}")
        return root, parts[1], parts[2:]
    if root not in SCENARIO_FIELDS:
        near = difflib.get_close_matches(root, [*SCENARIO_FIELDS], n=1)
        raise ValueError(f"{root!r} is not a scenario field"
                         + (f"; did you mean {near[0]!r}?" if near else
                            f" (known: {', '.join(SCENARIO_FIELDS)})"))
    return root, None, parts[1:]


def apply_changes(scenario: Scenario, changes: Mapping[str, Any]) -> Scenario:
    """The scenario with ``changes`` made (dotted key -> value, see the module docstring),
    through :meth:`Scenario.replace`, ``with_settings``, ``with_tournament`` and
    ``with_operator``: top-level fields first, then the readings, then each tournament and
    each operator (in the order first named). A value ``None`` for a tournament or operator
    field means "not given" (its default applies).

    Raises :class:`~scheduler.core.scenario.ScenarioError` when a change is invalid (an unknown
    key, id or field, a value the loader would refuse, an input rule such as MT-ENTRY-CAP
    broken) and ``ValueError`` for a key that is not of the forms above.
    """
    top: dict[str, Any] = {}
    settings: dict[str, Any] = {}
    items: dict[tuple[str, str], dict[str, Any]] = {}
    for key, value in changes.items():
        root, item_id, path = parse_key(key)
        if root == "settings":
            settings[path[0]] = value
        elif item_id is not None:
            changed = items.setdefault((root, item_id), {})
            fld, sub = path[0], path[1:]
            changed[fld] = (_set_in(changed.get(fld, _current(scenario, root, item_id, fld)),
                                    sub, value) if sub else value)
        else:
            top[root] = (_set_in(top.get(root, _current(scenario, None, "", root)), path,
                                 value) if path else value)
    sc = scenario.replace(**top) if top else scenario
    if settings:
        sc = sc.with_settings(**settings)
    for (root, item_id), changed in items.items():
        sc = (sc.with_tournament(item_id, **changed) if root == "tournaments"
              else sc.with_operator(item_id, **changed))
    return validate_scenario(sc)  # the input rules, as the loader checks them


def _current(scenario: Scenario, root: str | None, item_id: str, fld: str) -> Any:
    """The plain (YAML-like) value of a field now, to change one part of it; None when the
    id or field is unknown (the analyst API then names the problem)."""
    obj: Any = scenario
    if root is not None:
        obj = next((x for x in getattr(scenario, root) if x.id == item_id), None)
    value = getattr(obj, fld, None) if obj is not None else None
    return value.model_dump() if isinstance(value, BaseModel) else value


def _set_in(current: Any, path: Sequence[str], value: Any) -> Any:
    """``current`` (a mapping, or None for a new one) with ``path`` set to ``value``."""
    if not path:
        return value
    base = dict(current) if isinstance(current, Mapping) else {}
    base[path[0]] = _set_in(base.get(path[0]), path[1:], value)
    return base
