"""Sweeps: solve a grid of what-if variants of one scenario and compare them side by side.

A *vary file* (YAML) lists what changes; each change is a dotted key and a value::

    grid:                                  # every combination (first key varies slowest)
      notice_from: [2026-12-06, 2026-12-20]
      settings.month_rule: [touch, start]
    variants:                              # optional: more variants, one by one
      - name: hellgate charity not charitable
        set: {tournaments.hellgate-charity.charitable: false,
              tournaments.hellgate-charity.charity_share: null}
    baseline: true                         # optional: the scenario as it is, first
    combine: product                       # or zip: the i-th values of every key together

Keys: a top-level scenario field (``notice_from``, ``name``, ``horizon.start``, ...),
``settings.FIELD`` (a reading), ``tournaments.ID.FIELD`` and ``operators.ID.FIELD`` (a
nested field by more dots: ``tournaments.ID.window.end``,
``operators.ID.held_in_current_permit_year.large_stakes``). Changes go through the analyst
API (:meth:`Scenario.replace`, ``with_settings``, ``with_tournament``, ``with_operator``), so
a variant is validated like a loaded file.

Each variant is solved with :func:`scheduler.solver.solve` (fixed seed, deterministic time
limit, one CP-SAT worker: the same plan on any machine and under any load) by an engine: a
local process pool, or Dask (``dask.distributed``: an embedded ``LocalCluster`` or a running
cluster), each variant one task. The results are a :class:`Sweep`, a
:class:`~scheduler.comparison.Comparison` of the variants' plans in the order given; the
same whichever engine ran them::

    from scheduler import load_scenario
    from scheduler.sweep import sweep

    sc = load_scenario("data/examples/combined.yaml")
    res = sweep(sc, {"notice_from": ["2026-12-06", "2026-12-20"],
                     "settings.month_rule": ["touch", "start"]}, jobs=2)
    res.table        # one row per variant: what changed, totals, limit usage, moved

(``sweep`` is not exported from ``scheduler`` itself: this module's name would replace the
function as an attribute of the package once imported, as ``scheduler.comparison``
explains for ``compare``.)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import itertools
import logging
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, fields
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import yaml
from pydantic import BaseModel

from constraints.catalogue import cite
from scheduler.atomic import write_files
from scheduler.comparison import TOTAL_COLUMNS, Comparison, compare
from scheduler.limits import (
    MAX_NAME_LENGTH,
    MAX_PROBLEMS_SHOWN,
    MAX_VARIANTS_CEILING,
    MAX_VARIANTS_DEFAULT,
    LimitError,
    check_yaml_node,
    variants_count,
)
from scheduler.load import _line_index, _Loader, read_yaml_text, validate_scenario
from scheduler.plan import Plan
from scheduler.pool import process_pool
from scheduler.scenario import Scenario, ScenarioError
from scheduler.solver import AuditError, Interrupted, SolverError, solve
from scheduler.text import cell, control_character, describe_character, format_character

VARY_KEYS = ("grid", "variants", "combine", "baseline")
"""The top-level keys of a vary file."""
SCENARIO_FIELDS = ("name", "horizon", "notice_from", "settings", "operators", "tournaments")
DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler (and its first worker) before giving up."""

Progress = Callable[[int, int, str], None]
"""``progress(done, total, variant_name)``, called as each variant finishes."""


# --------------------------------------------------------------------------- errors
class VaryError(ValueError):
    """A vary file or variant that cannot be used. ``problems`` lists every problem, each a
    line ``FILE:LINE: WHERE: KEY = VALUE: what is wrong (RULE)``; nothing was solved."""

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


class SweepError(RuntimeError):
    """A sweep that could not run to the end. ``exit_code``: 2 when the engine cannot be used
    (Dask not installed, scheduler unreachable, no workers), 3 when a variant failed to solve
    (no solution in the time limit, a failed audit, a worker lost); ``variant`` names it."""

    def __init__(self, message: str, *, exit_code: int = 3, variant: str | None = None) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.variant = variant


# --------------------------------------------------------------------------- variants
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


def _labels(keys: Sequence[str]) -> dict[str, str]:
    """Short labels for names: ``settings.month_rule`` -> ``month_rule``,
    ``tournaments.sat.count`` -> ``sat.count``; the full keys when short ones would clash."""
    def short(key: str) -> str:
        head, _, rest = key.partition(".")
        return rest if head in ("settings", "tournaments", "operators") and rest else key
    shorts = {k: short(k) for k in keys}
    return shorts if len(set(shorts.values())) == len(shorts) else {k: k for k in keys}


def _name(changes: Mapping[str, Any], labels: Mapping[str, str]) -> str:
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

    Raises :class:`~scheduler.scenario.ScenarioError` when a change is invalid (an unknown
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


def grid(scenario: Scenario, values: Mapping[str, Sequence[Any]], *,
         combine: Literal["product", "zip"] = "product") -> list[Variant]:
    """Variants of ``scenario``: every combination of ``values`` (key -> the values to try;
    the first key varies slowest), or with ``combine="zip"`` the i-th value of every key
    together. Names read ``month_rule=start,notice_from=2026-12-06``.

    Raises :class:`VaryError` listing every key and value that does not fit the scenario
    (told at the key and value that cause it), and for empty lists or lists of unequal
    length (zip)."""
    return _build(scenario, [("grid", values, combine)], [], baseline=False)


# --------------------------------------------------------------------------- vary file
class _Problems:
    """Problems of a vary file, each with its line."""

    def __init__(self, file: str | None, lines: Mapping[tuple[Any, ...], int]) -> None:
        self.file, self.lines = file, lines
        self.items: list[str] = []
        self.numbers: list[int] = []

    def add(self, loc: tuple[Any, ...], message: str,
            shown: tuple[Any, ...] | None = None) -> None:
        """A problem at ``loc`` (its line), shown as ``FILE:LINE: SHOWN: message`` (``shown``
        defaults to ``loc``); the same line twice is kept once."""
        where = self.file or "<variants>"
        number = 0
        for k in range(len(loc), -1, -1):
            if loc[:k] in self.lines:
                number = self.lines[loc[:k]]
                where += f":{number}"
                break
        parts = loc if shown is None else shown
        path = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                       for i, p in enumerate(parts))
        sep = " " if message.startswith("= ") else ": "
        line = f"{where}: {path}{sep}{message}" if path else f"{where}: {message}"
        if line not in self.items:
            self.items.append(line)
            self.numbers.append(number)

    def raise_if_any(self) -> None:
        """Raise :class:`VaryError` with every problem so far, in line order."""
        if self.items:
            order = sorted(range(len(self.items)), key=self.numbers.__getitem__)
            raise VaryError([self.items[i] for i in order], self.file)


def read_vary(path: str | Path, scenario: Scenario, *,
              max_variants: int = MAX_VARIANTS_DEFAULT) -> list[Variant]:
    """Read a vary file and build its variants of ``scenario``, in order: the base itself
    (``baseline: true``), the ``grid`` (every combination, the first key varying slowest; or
    ``combine: zip``), then each of ``variants`` (``name`` optional, ``set`` the changes).

    Raises :class:`VaryError` listing every problem with file, line, key and value: an
    unreadable file or YAML, an unknown top-level key, a grid entry that is not a list, an
    empty grid, a change that does not fit the scenario (unknown id or field, invalid value,
    an input rule broken), two variants with the same name, more than ``max_variants``
    variants (counted before any is built; :data:`~scheduler.limits.MAX_VARIANTS_DEFAULT`,
    ``tourney sweep --max-variants``), a file over the input limits of
    :mod:`scheduler.limits` (size, YAML aliases). Nothing is solved then.
    """
    file = str(path)
    body = read_yaml_text(path, lambda msg: VaryError([f"{file}: {msg}"], file))
    loader = _Loader(body)
    data: Any = None
    try:
        node = loader.get_single_node()
        check_yaml_node(node)
        data = loader.construct_document(node) if node is not None else None
    except LimitError as exc:
        raise VaryError([f"{file}: refused: {exc}"], file) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
        raise VaryError([f"{file}: a value cannot be read: {str(exc).split(';')[0][:200]}"],
                        file) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{file}:{mark.line + 1}" if mark is not None else file
        raise VaryError([f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}"],
                        file) from None
    finally:
        loader.dispose()
    probs = _Problems(file, _line_index(node))
    if not isinstance(data, dict):
        probs.add((), "expected a mapping with grid: (and/or variants:), e.g. "
                      "grid: {settings.month_rule: [touch, start]}")
        probs.raise_if_any()
    for key in data:
        if key not in VARY_KEYS:
            near = difflib.get_close_matches(str(key), VARY_KEYS, n=1)
            probs.add((key,), "unknown key" + (f"; did you mean {near[0]!r}?" if near else
                                               f" (known: {', '.join(VARY_KEYS)})"))
    combine = data.get("combine", "product")
    if combine not in ("product", "zip"):
        probs.add(("combine",), f"= {text(combine)}: expected product or zip")
        combine = "product"
    baseline = data.get("baseline", False)
    if not isinstance(baseline, bool):
        probs.add(("baseline",), f"= {text(baseline)}: expected true or false")
    grids: list[tuple[str, Mapping[str, Any], str]] = []
    if "grid" in data:
        if isinstance(data["grid"], Mapping) and data["grid"]:
            grids.append(("grid", data["grid"], combine))
        else:
            probs.add(("grid",), "expected a mapping of keys to lists of values, e.g. "
                                 "settings.month_rule: [touch, start]")
    singles: list[tuple[tuple[Any, ...], str | None, Mapping[str, Any]]] = []
    listed = data.get("variants", [])
    if not isinstance(listed, list):
        probs.add(("variants",), "expected a list of {name: ..., set: {KEY: VALUE, ...}}")
        listed = []
    for i, item in enumerate(listed):
        loc: tuple[Any, ...] = ("variants", i)
        if not isinstance(item, Mapping) or not isinstance(item.get("set", {}), Mapping) or (
                set(item) - {"name", "set"}):
            probs.add(loc, "expected {name: ..., set: {KEY: VALUE, ...}}")
            continue
        name = item.get("name")
        if name is not None and _bad_name(str(name)):
            probs.add((*loc, "name"), f"= {str(name)[:80]!r}: {_bad_name(str(name))}")
            continue
        singles.append((loc, None if name is None else str(name), item.get("set") or {}))
    if not grids and not singles and not baseline and not probs.items:
        probs.add((), "no variants: give grid: (every combination of the values) and/or "
                      "variants: (one by one)")
    return _build(scenario, grids, singles, baseline=bool(baseline), probs=probs,
                  max_variants=max_variants)


def _bad_name(name: str) -> str | None:
    """Why ``name`` cannot name a variant (it is shown on the terminal and in sweep.csv):
    a control character, an invisible format character, empty, or more than 200 characters;
    else None."""
    ch = control_character(name)
    if ch is not None:
        return (f"must be one line of printable text; it holds the control character "
                f"{describe_character(ch)}")
    ch = format_character(name)
    if ch is not None:
        return (f"holds the invisible format character {describe_character(ch)} (it can show "
                "text backwards or make two names look the same)")
    if not name.strip():
        return "is empty; give a name to show in sweep.csv"
    if len(name) > MAX_NAME_LENGTH:
        return f"is {len(name):,} characters long; at most {MAX_NAME_LENGTH} are allowed"
    return None


def _build(scenario: Scenario, grids: Sequence[tuple[str, Mapping[str, Any], str]],
           singles: Sequence[tuple[tuple[Any, ...], str | None, Mapping[str, Any]]], *,
           baseline: bool, probs: _Problems | None = None,
           max_variants: int = MAX_VARIANTS_DEFAULT) -> list[Variant]:
    """Check the keys and lists, then build every variant; raise :class:`VaryError` with
    every problem found (a problem of a variant is told at the key and value that cause it
    when that can be told, once however many variants share it)."""
    max_variants = min(max_variants, MAX_VARIANTS_CEILING)  # library callers too
    probs = probs or _Problems(None, {})
    keys = [str(k) for _, values, _ in grids for k in values]
    keys += [str(k) for _, _, changes in singles for k in changes]
    labels = _labels(list(dict.fromkeys(keys)))
    # (where the variant is, its name if given, changes, where each change's value is)
    combos: list[tuple[tuple[Any, ...], str | None, dict[str, Any],
                       dict[str, tuple[Any, ...]]]] = []
    if baseline:
        combos.append(((), "baseline", {}, {}))
    for where, values, combine in grids:
        lists: dict[str, list[Any]] = {}
        for key, vals in values.items():
            _check_key(probs, (where, key), key)
            if not isinstance(vals, list | tuple) or not vals:
                probs.add((where, key), f"= {text(vals)}: expected a list of the values to "
                                        "try, e.g. [touch, start]")
                continue
            lists[str(key)] = list(vals)
        if combine == "zip" and len({len(v) for v in lists.values()}) > 1:
            probs.add((where,), "combine: zip needs lists of the same length, got "
                                + ", ".join(f"{k}: {len(v)}" for k, v in lists.items()))
            continue
        total = variants_count(lists.values(), combine) + len(singles) + bool(baseline)
        if total > max_variants:  # counted before any is built
            probs.add((where,), f"makes {total:,} variants ("
                                + " x ".join(f"{len(v):,}" for v in lists.values())
                                + (" combinations" if combine == "product" else "")
                                + f"); at most {max_variants:,} are allowed: use fewer keys "
                                "or values, or raise the limit with --max-variants "
                                "(see docs/limits.md)")
            continue
        index = [range(len(v)) for v in lists.values()]
        rows = (itertools.product(*index) if combine == "product"
                else zip(*index, strict=True))
        for row in rows:
            changes = {k: lists[k][i] for k, i in zip(lists, row, strict=True)}
            at = {k: (where, k, i) for k, i in zip(lists, row, strict=True)}
            combos.append(((where,), None, changes, at))
    if not grids and len(singles) + bool(baseline) > max_variants:
        probs.add(("variants",), f"lists {len(singles):,} variants; at most {max_variants:,} "
                                 "are allowed: raise the limit with --max-variants (see "
                                 "docs/limits.md)")
        probs.raise_if_any()
    for loc, name, listed in singles:
        for key in listed:
            _check_key(probs, (*loc, "set", key), key)
        combos.append((loc, name, {str(k): v for k, v in listed.items()},
                       {str(k): (*loc, "set", k) for k in listed}))
    probs.raise_if_any()
    out: list[Variant] = []
    seen: set[str] = set()
    for loc, name, changes, at in combos:
        name = name or _name(changes, labels)
        if name in seen:
            probs.add(loc, f"two variants are named {name!r}: give each a different name "
                           "(or different values)")
            continue
        seen.add(name)
        try:
            out.append(Variant(name, changes, apply_changes(scenario, changes)))
        except ScenarioError as err:
            for p in err.problems:
                _blame(probs, scenario, name, changes, at, loc, p)
    probs.raise_if_any()
    return out


def _check_key(probs: _Problems, loc: tuple[Any, ...], key: Any) -> None:
    try:
        parse_key(str(key))
    except ValueError as exc:
        probs.add(loc, f"unknown key: {exc}")


def _blame(probs: _Problems, scenario: Scenario, name: str, changes: Mapping[str, Any],
           at: Mapping[str, tuple[Any, ...]], loc: tuple[Any, ...], p: Any) -> None:
    """Tell a problem of a variant at the change that causes it: the change of that field
    (or of that tournament or operator), else the variant as a whole."""
    ids = {root: [x.id for x in getattr(scenario, root)]
           for root in ("tournaments", "operators")}

    def readable(path: str) -> str:  # tournaments[3].count -> tournaments.sat.count
        for root, names in ids.items():
            for i, item_id in enumerate(names):
                path = path.replace(f"{root}[{i}]", f"{root}.{item_id}")
        return path

    path = readable(p.path)
    why = f"{p.message} ({cite(p.rule)})"
    culprits = []
    for key in changes:
        root, item_id, _ = parse_key(key)
        if item_id is not None and path == root and p.value == item_id:
            culprits.append((key, why))  # an unknown id
        elif path == key or path.startswith((f"{key}.", f"{key}[")):
            culprits.append((key, why))
    if not culprits:  # another field of the same tournament or operator
        for key in changes:
            root, item_id, _ = parse_key(key)
            if item_id is not None and path.startswith(f"{root}.{item_id}."):
                culprits.append((key, f"{path}: {why}"))
    if culprits:
        for key, msg in culprits:
            probs.add(at[key], f"{key} = {text(changes[key])}: {msg}", shown=at[key][:-2])
    else:
        together = ", ".join(f"{k} = {text(v)}" for k, v in changes.items())
        probs.add(loc, f"variant {name!r} ({together}) is not a valid scenario: "
                       f"{readable(p.render(None).removeprefix('<scenario>: '))}")


def variants_of(scenario: Scenario, variants: Any) -> list[Variant]:
    """Normalise what :func:`sweep` accepts into a list of :class:`Variant`: a list of
    variants; a mapping ``name -> Scenario``; a mapping ``name -> {key: value}`` (changes to
    ``scenario``); or a grid ``{key: [values]}`` (every combination). Raises
    :class:`VaryError` for changes that do not fit and ``TypeError`` for anything else."""
    if isinstance(variants, Sequence) and not isinstance(variants, str) and all(
            isinstance(v, Variant) for v in variants):
        return list(variants)
    if not isinstance(variants, Mapping) or not variants:
        raise TypeError("variants: expected a list of Variant, or a non-empty mapping of "
                        "name -> Scenario, name -> {key: value}, or key -> [values]")
    values = list(variants.values())
    if all(isinstance(v, Scenario) for v in values):
        return [Variant(str(k), {}, v) for k, v in variants.items()]
    if all(isinstance(v, list | tuple) for v in values):
        return grid(scenario, variants)
    if all(isinstance(v, Mapping) for v in values):
        return _build(scenario, [], [((str(k),), str(k), v) for k, v in variants.items()],
                      baseline=False)
    raise TypeError("variants: the values must all be Scenarios, all mappings of changes, or "
                    "all lists of values to try")


# --------------------------------------------------------------------------- solving
@dataclass(frozen=True)
class _Task:
    seed: int
    deterministic_time: float | None
    workers: int


def _solve_variant(scenario: Scenario, task: _Task, jobs: int = 1) -> Plan:
    """One variant, as every engine solves it (module level: pickled by reference)."""
    return solve(scenario, seed=task.seed, deterministic_time=task.deterministic_time,
                 workers=task.workers, jobs=jobs)


def _failed(name: str, exc: BaseException) -> SweepError:
    if isinstance(exc, SolverError):
        why = f"{exc}; try a larger deterministic time"
    elif isinstance(exc, AuditError):
        why = f"{exc}\nPlease report this."
    elif isinstance(exc, ModuleNotFoundError):
        why = (f"{exc} (is tourney installed, the same version, on every worker of the "
               "cluster?)")
    else:
        why = f"{type(exc).__name__}: {exc}"
    return SweepError(f"variant {name!r} could not be solved: {why}", variant=name)


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent (which stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_local(variants: Sequence[Variant], task: _Task, jobs: int,
               progress: Progress | None) -> list[Plan]:
    if jobs <= 1 or len(variants) == 1:
        plans = []
        for i, v in enumerate(variants, start=1):
            try:
                plan = _solve_variant(v.scenario, task, jobs=max(1, jobs))
            except Interrupted:
                raise KeyboardInterrupt from None
            except Exception as exc:
                raise _failed(v.name, exc) from exc
            if plan.interrupted:  # Ctrl-C stopped the search: stop the sweep too
                raise KeyboardInterrupt
            plans.append(plan)
            if progress is not None:
                progress(i, len(variants), v.name)
        return plans

    # the process pool of scheduler.solver (fork where available: no __main__ guard needed)
    pool = process_pool(jobs, len(variants), initializer=_ignore_sigint)
    try:
        futures: dict[Future[Plan], int] = {
            pool.submit(_solve_variant, v.scenario, task): i for i, v in enumerate(variants)}
        pending = set(futures)
        done = 0
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in sorted(finished, key=futures.__getitem__):
                v = variants[futures[f]]
                err = f.exception()
                if err is not None:
                    raise _failed(v.name, err) from err
                done += 1
                if progress is not None:
                    progress(done, len(variants), v.name)
        return [f.result() for f in futures]
    except BaseException:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()  # the pool's own workers: a running solve stops at once
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(variants: Sequence[Variant], task: _Task, *, address: str | None,
              client: Any, jobs: int, timeout: float, cluster_kwargs: Mapping[str, Any] | None,
              progress: Progress | None) -> list[Plan]:
    try:
        from dask.distributed import Client, LocalCluster  # optional: the dask extra
    except ImportError:
        raise SweepError("--dask needs dask.distributed: pip install 'tourney[dask]'",
                         exit_code=2) from None

    with ExitStack() as stack:
        if client is None:
            if address is None:
                kw: dict[str, Any] = {"n_workers": jobs, "threads_per_worker": 1,
                                      "processes": True, "dashboard_address": None,
                                      "silence_logs": logging.ERROR}
                kw.update(cluster_kwargs or {})
                try:
                    with _sigint_ignored():  # inherited by the worker processes
                        cluster = stack.enter_context(LocalCluster(**kw))
                except Exception as exc:
                    raise SweepError(f"cannot start a local Dask cluster: {exc}",
                                     exit_code=2) from None
                client = stack.enter_context(Client(cluster))
            else:
                _probe(address, timeout)
                stack.enter_context(_quiet_distributed())
                try:
                    client = stack.enter_context(Client(address, timeout=f"{timeout}s"))
                except (OSError, TimeoutError, ValueError) as exc:
                    raise SweepError(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}", exit_code=2) from None
                except Exception as exc:  # an endpoint that is not Dask (MemoryError, ...)
                    raise SweepError(f"{address} does not answer as a Dask scheduler "
                                     f"({type(exc).__name__}); check the address (a Dask "
                                     "scheduler usually listens on port 8786)",
                                     exit_code=2) from None
                try:
                    client.wait_for_workers(1, timeout=timeout)
                except (OSError, TimeoutError) as exc:
                    if isinstance(exc, TimeoutError) and client.status == "running":
                        raise SweepError(
                            f"the Dask scheduler at {address} has no worker (none joined "
                            f"within {timeout:g} s, --timeout); start one (dask worker "
                            f"{address}) or check that its workers can reach it",
                            exit_code=2) from None
                    raise SweepError(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}", exit_code=2) from None
        stack.enter_context(_quiet_distributed())  # no logged tracebacks when it is lost
        futures = client.map(_solve_variant, [v.scenario for v in variants], task=task,
                             pure=False)
        where = f" at {address}" if address else ""
        try:
            for done, i in enumerate(_finished(client, futures, timeout, where), start=1):
                v, f = variants[i], futures[i]
                if f.status in ("cancelled", "lost"):  # tourney cancels none: the scheduler
                    raise _lost(where, f"the scheduler {f.status} variant {v.name!r}",
                                sum(g.status == "finished" for g in futures), len(futures))
                if f.status != "finished":
                    err = (f.exception() if f.status == "error" else
                           RuntimeError(f"the task was {f.status} by the cluster"))
                    raise _failed(v.name, err)
                if progress is not None:
                    progress(done, len(variants), v.name)
            try:
                return [f.result(timeout=max(timeout, POLL_SECONDS)) for f in futures]
            except Exception as exc:  # the scheduler went between the last wait and here
                raise _lost(where, exc, sum(g.status == "finished" for g in futures),
                            len(futures)) from None
        except BaseException:
            with contextlib.suppress(Exception):
                client.cancel(futures)
            raise
    raise AssertionError("unreachable")  # pragma: no cover - for mypy


POLL_SECONDS = 1.0
"""How often a Dask sweep checks that its cluster still has a worker while it waits."""


def _lost(where: str, why: str | BaseException, solved: int, total: int) -> SweepError:
    """The one line for a scheduler that went away: ``why`` in a few words (nothing for
    Dask's own multi-line "Futures cancelled" text)."""
    if isinstance(why, BaseException):
        why = "" if "Cancelled" in type(why).__name__ else _reason(why).splitlines()[0]
    why = f" ({why})" if why else ""
    return SweepError(f"lost the connection to the Dask scheduler{where}{why}; {solved} of "
                      f"{total} variant(s) were solved")


def _finished(client: Any, futures: Sequence[Any], timeout: float,
              where: str = "") -> Iterator[int]:
    """The indices of ``futures`` as they finish (in order within a batch). Raises
    SweepError (exit 3) when the cluster has had no worker for ``timeout`` seconds (the
    last one died or left: the tasks would wait for ever), when for ``timeout`` seconds no
    variant finished and no worker sent its heartbeat (a worker hung or stopped: a busy
    worker still sends them), or when the scheduler is lost (``where``: " at ADDRESS")."""
    from dask.distributed import wait  # optional: the dask extra (only with --dask)

    index = {f.key: i for i, f in enumerate(futures)}
    pending = set(futures)
    no_worker_since: float | None = None
    quiet_since = time.monotonic()  # the last sign of life: a variant done or a heartbeat
    beats: dict[str, Any] = {}

    def lost(why: str | BaseException) -> SweepError:
        return _lost(where, why, len(futures) - len(pending), len(futures))

    while pending:
        try:
            finished = set(wait(list(pending), timeout=POLL_SECONDS,
                                return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            finished = set()
        except Exception as exc:  # the scheduler went away (its futures cancelled)
            raise lost(exc) from None
        now = time.monotonic()
        if finished:
            pending -= finished
            quiet_since = now
            yield from sorted(index[f.key] for f in finished)
            continue
        try:
            info = client.sync(client.scheduler.identity, n_workers=-1,
                               callback_timeout=max(timeout, POLL_SECONDS))
            workers = dict(info.get("workers") or {})
        except Exception as exc:  # closed, refused, or no answer within the timeout
            raise lost(exc) from None
        if client.status not in ("running", "newly-created"):
            raise lost(f"the client is {client.status}")
        seen = {addr: w.get("last_seen") for addr, w in workers.items()}
        if any(beats.get(addr) != t for addr, t in seen.items()):
            quiet_since = now
        beats = seen
        if workers:
            no_worker_since = None
        elif no_worker_since is None:
            no_worker_since = now
        elif now - no_worker_since >= timeout:
            raise SweepError(f"the Dask cluster has had no worker for {timeout:g} s (the "
                             "last one died or left while solving); "
                             f"{len(futures) - len(pending)} of {len(futures)} variant(s) "
                             "were solved")
        if workers and now - quiet_since >= timeout:
            raise SweepError(f"no variant finished in {timeout:g} s and no worker of the Dask "
                             f"cluster{where} answered in that time (--timeout; is a worker "
                             "hung or stopped?); "
                             f"{len(futures) - len(pending)} of {len(futures)} variant(s) "
                             "were solved")


@contextmanager
def _quiet_distributed() -> Iterator[None]:
    """Silence the loggers of ``distributed`` (and tornado) for the block: a lost scheduler
    or worker is told in one line by tourney, not by their logged tracebacks."""

    names = [n for n in list(logging.root.manager.loggerDict)
             if n.split(".")[0] in ("distributed", "tornado")]
    names += [n for n in ("distributed", "tornado") if n not in names]
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


def _probe(address: str, timeout: float) -> None:
    """Check, within ``timeout`` seconds, that a Dask scheduler answers at a ``tcp://``
    (or bare ``host:port``) address: it sends its handshake first, one message of frames
    whose 8-byte size header is small. Raises SweepError (exit 2) for an endpoint that is
    unreachable, silent, closes the connection, or answers something else (an HTTP server
    would make Dask try to allocate exabytes). Other schemes (``tls://``) are left to
    Dask."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port_text = rest.rstrip("/").rpartition(":")
    host = host.strip("[]")
    if not host or not port_text.isdigit():
        return  # Dask explains a malformed address itself
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, int(port_text)), timeout=timeout)
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}",
                         exit_code=2) from None
    head = b""
    try:
        with sock:
            while len(head) < 16:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(16 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise SweepError(f"{address} accepts connections but does not answer as a Dask "
                         f"scheduler within {timeout:g} s (--timeout); check the address (a "
                         "Dask scheduler usually listens on port 8786)", exit_code=2) from None
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}",
                         exit_code=2) from None
    if len(head) == 16:
        total, frames = struct.unpack("<QQ", head)
        if 16 <= total <= 1 << 20 and 1 <= frames <= 1024 and 8 + 8 * frames <= total:
            return
    shown = head[:16].decode("ascii", "replace").encode("unicode_escape").decode("ascii")
    raise SweepError(f"{address} answers, but not as a Dask scheduler (it sent "
                     f"{shown!r}{'' if head else ', nothing'}); check the address (a Dask "
                     "scheduler usually listens on port 8786)", exit_code=2)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes are started: they inherit it and leave Ctrl-C
    to this process, which cancels the tasks and closes the cluster (no worker prints a
    traceback). Outside the main thread, nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _reason(exc: BaseException) -> str:
    msg = str(exc) or type(exc).__name__
    if isinstance(exc, TimeoutError) and "worker" not in msg.lower():
        msg = f"no worker joined within the time limit ({msg})"
    return msg


def sweep(scenario: Scenario, variants: Any, *, engine: Literal["local", "dask"] = "local",
          address: str | None = None, client: Any = None, jobs: int | None = None,
          seed: int = 0, deterministic_time: float | None = 30.0, workers: int = 1,
          timeout: float = DEFAULT_TIMEOUT, cluster_kwargs: Mapping[str, Any] | None = None,
          progress: Progress | None = None) -> Sweep:
    """Solve every variant of ``scenario`` and compare them.

    ``variants``: what :func:`variants_of` accepts: a list of :class:`Variant` (from
    :func:`read_vary` or :func:`grid`), ``{name: Scenario}``, ``{name: {key: value}}`` or a
    grid ``{key: [values]}``. Each is solved with :func:`scheduler.solver.solve` (``seed``,
    ``deterministic_time`` in CP-SAT deterministic units per stage and part, ``workers``
    CP-SAT workers; no wall-clock limit, so every engine gives the same plans).

    ``engine="local"``: a process pool of ``jobs`` processes (None or 0: one per CPU core; 1:
    in this process). ``engine="dask"``: each variant a task of ``client`` (an existing
    ``dask.distributed.Client``), else of the scheduler at ``address``
    (``tcp://host:8786``; its workers need tourney installed; ``timeout`` seconds to connect
    (an endpoint that is silent or not Dask: SweepError exit 2), for a first worker (none:
    exit 2), and while solving for a worker when none is left, or for a finished variant or
    a worker's heartbeat (a hung worker), SweepError exit 3, as for a lost scheduler;
    distributed's loggers are silenced meanwhile), else of an embedded
    ``LocalCluster`` of ``jobs`` worker processes, one thread each (``cluster_kwargs``
    override its arguments, e.g. ``{"processes": False}``).

    ``progress(done, total, name)`` is called as variants finish.

    Returns a :class:`Sweep` (a :class:`~scheduler.comparison.Comparison` whose columns are
    the variants in order, plus ``plans``, ``changes`` and ``table``).

    Raises :class:`VaryError` for variants that do not fit the scenario (nothing solved),
    ``ValueError`` for no variants,
    :class:`SweepError` when the engine cannot be used (``exit_code`` 2) or a variant cannot
    be solved (``exit_code`` 3, ``variant`` names it), ``ValueError`` for an unknown engine.
    """
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be 'local' or 'dask', not {engine!r}")
    vs = variants_of(scenario, variants)
    if not vs:
        raise ValueError("sweep() needs at least one variant")
    n = jobs or os.cpu_count() or 1
    task = _Task(seed, deterministic_time, workers)
    if engine == "dask":
        plans = _run_dask(vs, task, address=address, client=client, jobs=n, timeout=timeout,
                          cluster_kwargs=cluster_kwargs, progress=progress)
    else:
        plans = _run_local(vs, task, n, progress)
    named = {v.name: p for v, p in zip(vs, plans, strict=True)}
    cmp = compare(named)
    return Sweep(**{f.name: getattr(cmp, f.name) for f in fields(Comparison)},
                 plans=named, changes={v.name: dict(v.changes) for v in vs})


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class Sweep(Comparison):
    """The plans of a sweep side by side (every :class:`Comparison` table, columns = variants
    in order), with ``plans`` (name -> Plan) and ``changes`` (name -> {key: value}).

    ``table`` is the one-row-per-variant summary written as the sweep's CSV; ``usage_long``
    and ``moved_long`` are the detail tables written beside it."""

    plans: Mapping[str, Plan] = field(default_factory=dict, repr=False)
    changes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def table(self) -> pd.DataFrame:
        """One row per variant (index ``variant``, in order): one column per varied key (the
        value as text; empty when the variant leaves it), then ``status`` (str) and
        ``placed, not_placed, required_missing, fees_usd`` (USD) as in ``totals``; ``moved``:
        occurrences whose first day differs from the first variant's (placed in one and not
        the other counts); then per limit rule ID (MT-LARGE-LIMIT, MT-CHARITY-LIMIT,
        ME-MONTHLY-LIMIT, ME-SUPER-CRIBBAGE): ``RULE used`` (counted uses summed over
        operators and periods) and ``RULE at limit`` (operator-periods using all of it).
        Counts int64."""
        names = list(self.totals.index)
        keys = list(dict.fromkeys(k for n in names for k in self.changes.get(n, {})))
        df = pd.DataFrame({k: [text(self.changes[n][k]) if k in self.changes.get(n, {})
                               else "" for n in names] for k in keys},
                          index=pd.Index(names, name="variant"), dtype=object)
        df = df.join(self.totals.rename_axis("variant"))
        first = self.first_days[names[0]]
        same = self.first_days.apply(lambda col: (col == first) | (col.isna() & first.isna()))
        df["moved"] = (~same).sum().reindex(names).astype("int64")
        use = self.usage
        for rule in sorted(use.index.get_level_values("rule_id").unique()):
            part = use.xs(rule, level="rule_id")
            limit = part.index.get_level_values("limit").to_numpy()[:, None]
            values = part.to_numpy()
            df[f"{rule} used"] = pd.Series(values.sum(axis=0), index=part.columns,
                                           dtype="int64")
            df[f"{rule} at limit"] = pd.Series((values >= limit).sum(axis=0),
                                               index=part.columns, dtype="int64")
        return df

    @property
    def usage_long(self) -> pd.DataFrame:
        """Every counted limit per variant (variant order, then operator, rule, period):
        ``variant, operator_id, rule_id`` (str), ``period_start, period_end`` (datetime64),
        ``limit, used`` (int64)."""
        idx = list(self.usage.index.names)
        df = self.usage.reset_index().melt(id_vars=idx, var_name="variant", value_name="used")
        return df[["variant", *idx, "used"]].astype({"used": "int64"})

    @property
    def moved_long(self) -> pd.DataFrame:
        """The occurrences not on the same first day in every variant, per variant (variant
        order, then tournament and occurrence): ``variant, tournament_id`` (str),
        ``occurrence`` (int64), ``first_day`` (datetime64, NaT when not placed)."""
        idx = list(self.first_days.index.names)
        df = self.moved.reset_index().melt(id_vars=idx, var_name="variant",
                                           value_name="first_day")
        return df[["variant", *idx, "first_day"]]

    def summary(self) -> str:
        """The short terminal table: variant, status, placed, not placed, required missing,
        fees (USD), moved."""
        t = self.table[["status", *TOTAL_COLUMNS[1:], "moved"]].rename(columns={
            "not_placed": "not placed", "required_missing": "required missing",
            "fees_usd": "fees USD"})
        return t.to_string() + "\n"

    @staticmethod
    def outputs(path: str | Path) -> list[Path]:
        """The files :meth:`write_csv` writes for ``path``: it, ``STEM.usage.csv`` and
        ``STEM.moved.csv`` beside it."""
        out = Path(path)
        stem = out.name.removesuffix(".csv")
        return [out, out.with_name(f"{stem}.usage.csv"), out.with_name(f"{stem}.moved.csv")]

    def write_csv(self, path: str | Path) -> list[Path]:
        """Write ``table`` to ``path`` and, beside it, ``usage_long`` to ``STEM.usage.csv``
        and ``moved_long`` to ``STEM.moved.csv`` (UTF-8, ``\\n`` line ends, dates
        YYYY-MM-DD): the same sweep gives the same bytes. A text cell a spreadsheet would run
        as a formula (``=``, ``+``, ``-``, ``@``...) starts with ``'``
        (:func:`scheduler.text.cell`). Atomic (:func:`scheduler.atomic.write_files`): each
        file is complete or not there; when one cannot be written none is replaced. Returns
        the paths. :meth:`outputs` names them beforehand.

        Raises ``OSError`` (``IsADirectoryError`` when ``path`` is a folder)."""
        out = Path(path)
        if out.is_dir():
            raise IsADirectoryError(f"{out} is a folder; give a file name, e.g. "
                                    f"{out / 'results.csv'}")
        stem = out.name.removesuffix(".csv")
        targets = {out: self.table.reset_index(),
                   out.with_name(f"{stem}.usage.csv"): self.usage_long,
                   out.with_name(f"{stem}.moved.csv"): self.moved_long}
        write_files({target: _spreadsheet_safe(df).to_csv(
            index=False, lineterminator="\n", date_format="%Y-%m-%d").encode("utf-8")
            for target, df in targets.items()})
        return list(targets)

    def _repr_html_(self) -> str:
        return self.table.to_html(escape=True)


def _spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every text cell passed through :func:`scheduler.text.cell` (variant names
    and values are the user's text)."""
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(lambda x: cell(x) if isinstance(x, str) else x)
    return out
