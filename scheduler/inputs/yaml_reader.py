"""The one YAML reader of tourney's input files (a scenario, a vary file), with the line of
every field for the messages.

- :func:`read_yaml_text`: the file's text, within the limits of
  :func:`scheduler.core.limits.read_bounded` (size, not a regular file, not UTF-8);
- :func:`parse_yaml`: the document's node tree (for lines) and its data, within the limits of
  :func:`scheduler.core.limits.check_yaml_node` (nodes, aliases, depth), by :class:`Loader`:
  PyYAML's safe loader (libyaml's parser when PyYAML has it) that keeps ``18:00`` text, reads
  only decimal integers and refuses a key given twice;
- :func:`parse_yaml_data`: the same data, straight from libyaml's events when the document is
  a plain tree (no anchor, alias, explicit tag or key given twice: every scenario tourney
  writes), the node tree composed only when a message needs a line (a statewide file's node
  tree is 40 times the file: 240 MB for N = 1,000);
- :func:`line_index` and :func:`path_of_mark`: from a field path to its line, and back.

The scenario's loader (:mod:`scheduler.inputs.load`) and the sweep's vary files
(:mod:`scheduler.studies.sweep.vary`) word the errors their own way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from scheduler.core.limits import MAX_YAML_DEPTH, LimitError, check_yaml_node, read_bounded


class NotYaml(Exception):
    """The text is not valid YAML: ``problem`` (PyYAML's words), ``line`` (0-based, None when
    unknown) and ``path`` (the field path of the value that failed to load, when known)."""

    def __init__(self, problem: object, line: int | None, path: tuple[Any, ...] | None) -> None:
        super().__init__(problem)
        self.problem, self.line, self.path = problem, line, path


def read_yaml_text(source: str | Path, error: Any) -> str:
    """The text of a YAML input file (a scenario or vary file), read within the limits of
    :func:`scheduler.core.limits.read_bounded`; ``error(message)`` builds the exception raised
    when it cannot be read (missing, a folder or device, too large, not UTF-8)."""
    try:
        raw = read_bounded(source)
    except LimitError as exc:
        raise error(str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error("the file is not UTF-8 text") from None


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """SafeLoader (libyaml's parser when PyYAML has it: statewide files are megabytes) that
    keeps ``18:00`` a string (YAML 1.1 would read it as 1080), and resolves each distinct
    scalar's tag once (a statewide file repeats the same values thousands of times; the
    resolvers depend on nothing else: no path resolvers)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._resolved: dict[tuple[Any, ...], str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        key = (kind, value, implicit)
        tag = self._resolved.get(key)
        if tag is None:
            tag = self._resolved[key] = super().resolve(kind, value, implicit)
        return tag


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:int"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(  # decimal only: 0x10, 0b11 and 017 (octal 15) stay text
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
    """A mapping whose keys must be unique (YAML 1.2; PyYAML would keep the last silently).
    A merge key (``<<: *defaults``, or a list of them) brings in the keys of the mappings it
    names; the mapping's own keys win over them, as YAML's merge key type says."""
    _unique_keys(loader, node)
    build = loader.construct_object
    out: dict[Any, Any] = {}
    merged: list[yaml.Node] = []
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            merged += value_node.value if isinstance(value_node, yaml.SequenceNode) \
                else [value_node]
        else:
            out[build(key_node, deep=True)] = build(value_node, deep=True)  # type: ignore[no-untyped-call]
    for source in merged:  # YAML's merge key: the mapping's own keys, then the first named
        for key, value in build(source, deep=True).items():  # type: ignore[no-untyped-call]
            out.setdefault(key, value)
    return out


def _set(loader: yaml.SafeLoader, node: yaml.MappingNode) -> list[Any]:
    """A set (``!!set {a, b}``) as the list of its members in the file's order: a Python
    set's order changes from run to run, and the same input must give the same plan. A
    member with a value (``!!set {a: 1}``) is refused: a set's members have none."""
    _unique_keys(loader, node)
    for key_node, value_node in node.value:
        if value_node.tag != "tag:yaml.org,2002:null":  # {a} is {a: null}
            raise yaml.constructor.ConstructorError(
                None, None, f"a set (!!set) lists members without values: "
                f"{key_node.value!r} has one (write '!!set {{a, b}}', or a list '[a, b]')",
                value_node.start_mark)
    return list(yaml.SafeLoader.construct_mapping(loader, node, deep=True))


def _unique_keys(loader: yaml.SafeLoader, node: yaml.MappingNode) -> None:
    """Refuse a key given twice in ``node``, or a list or mapping as a key (naming its line),
    and a merge key of something else than mappings."""
    seen: dict[Any, int] = {}
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            mappings = value_node.value if isinstance(value_node, yaml.SequenceNode) \
                else [value_node]
            if not all(isinstance(m, yaml.MappingNode) for m in mappings):
                raise yaml.constructor.ConstructorError(
                    None, None, "'<<' (a merge key) takes a mapping or a list of mappings, "
                    "e.g. '<<: *defaults' after '- &defaults {...}'", value_node.start_mark)
            continue
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if getattr(key, "__hash__", None) is None:  # a list or mapping as a key
            raise yaml.constructor.ConstructorError(
                None, None, f"a key must be a name or a number, not {key!r}",
                key_node.start_mark)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice (first on line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1


Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
Loader.add_constructor("tag:yaml.org,2002:map", _mapping)
Loader.add_constructor("tag:yaml.org,2002:set", _set)


def parse_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """The document of ``text``: its node tree (None when empty) and its data.

    Raises
    ------
    LimitError
        Too many nodes or aliases, or nested too deep (docs/limits.md).
    ValueError, RecursionError
        A value that cannot be built (e.g. an integer of 5,000 digits).
    NotYaml
        Not valid YAML (a syntax error, a key given twice), with its line and field path.
    """
    loader = Loader(text)
    node = None
    try:
        node = loader.get_single_node()
        check_yaml_node(node)
        return node, (loader.construct_document(node) if node is not None else None)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise NotYaml(getattr(exc, "problem", exc), mark.line if mark is not None else None,
                      path_of_mark(node, mark) if mark is not None else None) from None
    finally:
        loader.dispose()


_STR, _MERGE = "tag:yaml.org,2002:str", "tag:yaml.org,2002:merge"
_NO_KEY = object()


def _plain_data(text: str) -> tuple[bool, Any]:
    """(True, the data) of a document that is a plain tree, read from libyaml's events
    with the same resolvers and constructors as :class:`Loader` (so the same values); (False,
    None) for anything else (an anchor, alias, explicit tag, merge key, a key given twice or
    that is a mapping or list, nested :data:`~scheduler.core.limits.MAX_YAML_DEPTH` deep,
    more than one document, a YAML error, a value that cannot be built): :func:`parse_yaml`
    reads those and says what is wrong."""
    loader = Loader(text)
    try:
        get, resolve, build = loader.get_event, loader.resolve, loader.yaml_constructors
        scalar, mapping = yaml.ScalarEvent, yaml.MappingStartEvent
        sequence = yaml.SequenceStartEvent
        get()  # StreamStart
        event = get()
        if isinstance(event, yaml.StreamEndEvent):
            return True, None  # an empty document (parse_yaml: no node, None)
        if not isinstance(event, yaml.DocumentStartEvent):
            return False, None
        stack: list[list[Any]] = []  # [container, its pending key or _NO_KEY]
        root: Any = None
        while True:
            event = get()
            kind = event.__class__
            if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                stack.pop()
                if not stack:
                    break
                continue
            if kind is not scalar and kind is not mapping and kind is not sequence:
                return False, None  # an alias
            if event.anchor is not None or event.tag not in (None, "!"):
                return False, None
            if kind is scalar:
                value = event.value
                tag = resolve(yaml.ScalarNode, value, event.implicit)
                if tag != _STR:
                    if tag == _MERGE or tag not in build:
                        return False, None
                    value = build[tag](loader, yaml.ScalarNode(
                        tag, value, event.start_mark, event.end_mark, event.style))
            else:
                value = {} if kind is mapping else []
            if not stack:
                root = value
            elif stack[-1][0].__class__ is list:
                stack[-1][0].append(value)
            elif stack[-1][1] is _NO_KEY:
                if kind is not scalar or value.__hash__ is None or value in stack[-1][0]:
                    return False, None  # a key that is a mapping or list, or given twice
                stack[-1][1] = value
            else:
                stack[-1][0][stack[-1][1]] = value
                stack[-1][1] = _NO_KEY
            if kind is not scalar:
                if len(stack) + 1 >= MAX_YAML_DEPTH:  # parse_yaml's count says if too deep
                    return False, None
                stack.append([value, _NO_KEY])
            elif not stack:
                break  # a document that is one scalar
        if not isinstance(get(), yaml.DocumentEndEvent) or \
                not isinstance(get(), yaml.StreamEndEvent):
            return False, None
        return True, root
    except (yaml.YAMLError, ValueError, RecursionError, TypeError):
        return False, None
    finally:
        loader.dispose()


def parse_yaml_data(text: str) -> tuple[Any, Callable[[], yaml.Node | None]]:
    """The document of ``text``: its data, and a function that returns its node tree (for
    :func:`line_index`), composed only when called for a plain tree (:func:`_plain_data`).
    The same data as :func:`parse_yaml`, which reads any other document (and raises what it
    raises: ``LimitError``, ``ValueError``, ``RecursionError``, :class:`NotYaml`)."""
    plain, data = _plain_data(text)
    if plain:
        return data, lambda: parse_yaml(text)[0]
    node, data = parse_yaml(text)
    return data, lambda: node


def line_index(node: yaml.Node | None, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Map every field path (keys and list indices) to its 1-based line in the YAML text."""
    out: dict[tuple[Any, ...], int] = {}
    if node is None:
        return out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            out[(*path, key)] = k.start_mark.line + 1
            out.update({p: ln for p, ln in line_index(v, (*path, key)).items()
                        if p != (*path, key)})
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out.update(line_index(v, (*path, i)))
    return out


def path_of_mark(node: yaml.Node | None, mark: Any,
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
        found = path_of_mark(child, mark, (*path, key))
        if found is not None:
            return found
    return None
