"""Variants of a scenario from a grid, a list or a vary file (YAML): :func:`grid`,
:func:`read_vary`, :func:`variants_of`. Every key and value is checked against the scenario
before anything is solved (:class:`~scheduler.studies.sweep.variants.VaryError` lists every problem
at its file line)."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from constraints.catalogue import cite
from scheduler.core.limits import (
    MAX_NAME_LENGTH,
    MAX_VARIANTS_CEILING,
    MAX_VARIANTS_DEFAULT,
    LimitError,
    variants_count,
)
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.text import control_character, describe_character, format_character
from scheduler.inputs.yaml_reader import NotYaml, line_index, parse_yaml, read_yaml_text
from scheduler.studies.sweep.variants import (
    VARY_KEYS,
    Variant,
    VaryError,
    apply_changes,
    parse_key,
    text,
    variant_labels,
    variant_name,
)


def grid(scenario: Scenario, values: Mapping[str, Sequence[Any]], *,
         combine: Literal["product", "zip"] = "product") -> list[Variant]:
    """Variants of ``scenario``: every combination of ``values`` (key -> the values to try;
    the first key varies slowest), or with ``combine="zip"`` the i-th value of every key
    together. Names read ``month_rule=start,notice_from=2026-12-06``.

    Raises :class:`VaryError` listing every key and value that does not fit the scenario
    (told at the key and value that cause it), and for empty lists or lists of unequal
    length (zip)."""
    return _build(scenario, [("grid", values, combine)], [], baseline=False)


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
    variants (counted before any is built; :data:`~scheduler.core.limits.MAX_VARIANTS_DEFAULT`,
    ``tourney sweep --max-variants``), a file over the input limits of
    :mod:`scheduler.core.limits` (size, YAML aliases). Nothing is solved then.
    """
    file = str(path)
    body = read_yaml_text(path, lambda msg: VaryError([f"{file}: {msg}"], file))
    try:
        node, data = parse_yaml(body)
    except LimitError as exc:
        raise VaryError([f"{file}: refused: {exc}"], file) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
        raise VaryError([f"{file}: a value cannot be read: {str(exc).split(';')[0][:200]}"],
                        file) from None
    except NotYaml as exc:
        where = f"{file}:{exc.line + 1}" if exc.line is not None else file
        raise VaryError([f"{where}: not valid YAML: {exc.problem}"], file) from None
    probs = _Problems(file, line_index(node))
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
    labels = variant_labels(list(dict.fromkeys(keys)))
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
        name = name or variant_name(changes, labels)
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
