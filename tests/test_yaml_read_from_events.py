"""A scenario file is read straight from libyaml's events when it is a plain tree (issue #27:
a statewide file's node tree is about 40 times the file), with the values the node-tree
reader gives: the same YAML 1.1 readings tourney keeps (``18:00`` text, decimal integers
only, ``2027-02-30`` text, ``yes`` true), and anything else (an alias, a key given twice, a
syntax error) read by the node-tree reader, which names the line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.problems import ScenarioError
from scheduler.inputs.load import load_scenario
from scheduler.inputs.yaml_reader import NotYaml, parse_yaml, parse_yaml_data

ROOT = Path(__file__).resolve().parent.parent

READINGS = """\
start: 18:00
hex: 0x10
octal: 017
count: 1_000
plain: 12
negative: -3
ratio: 0.5
on: yes
off: no
nothing: ~
day: 2027-03-05
not a day: 2027-02-30
quoted: "12"
list: [a, 1, {k: v}]
"""


def test_the_yaml_1_1_readings_tourney_keeps() -> None:
    data, _ = parse_yaml_data(READINGS)
    assert data == {
        "start": "18:00",  # sexagesimal 1080 in YAML 1.1: kept as text
        "hex": "0x10", "octal": "017",  # only decimal integers
        "count": 1000,  # 1_000: decimal with a separator
        "plain": 12, "negative": -3, "ratio": 0.5,
        True: True, False: False,  # "on"/"off" keys and "yes"/"no" values are booleans
        "nothing": None,
        "day": dt.date(2027, 3, 5), "not a day": "2027-02-30",
        "quoted": "12", "list": ["a", 1, {"k": "v"}],
    }
    assert data == parse_yaml(READINGS)[1]


@pytest.mark.parametrize("example", sorted((ROOT / "data" / "examples").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_every_bundled_example_reads_the_same_from_events(example: Path) -> None:
    text = example.read_text(encoding="utf-8")
    data, node_of = parse_yaml_data(text)
    node, full = parse_yaml(text)
    assert data == full
    again = node_of()  # composed now, for the lines of a message
    assert again is not None and node is not None
    assert again.start_mark.line == node.start_mark.line  # the first key, after the comments


SCALARS = st.one_of(
    st.integers(-10**6, 10**6), st.booleans(), st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["18:00", "0x10", "017", "yes", "No", "~", "2027-03-05", "2027-02-30",
                     "1_000", "-", "", " ", "a: b", "#", "'", '"', "&a", "*a", "!t"]),
    st.text(max_size=12))
KEYS = st.one_of(st.text(max_size=8), st.integers(-50, 50), st.booleans())
DOCS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=25)


@given(DOCS, st.booleans())
def test_any_plain_document_reads_the_same_from_events(doc: object, flow: bool) -> None:
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True)
    assert parse_yaml_data(text)[0] == parse_yaml(text)[1]


@pytest.mark.parametrize("text, why", [
    ("a: &x [1, 2]\nb: *x\n", "an alias"),
    ("a: !!str 12\n", "an explicit tag"),
], ids=["alias", "tag"])
def test_a_document_beyond_a_plain_tree_is_read_by_the_node_tree(text: str, why: str) -> None:
    assert parse_yaml_data(text)[0] == parse_yaml(text)[1]


def test_a_merge_key_brings_in_keys_and_the_mappings_own_keys_win() -> None:
    text = "base: &b {x: 1, y: 1}\nmore:\n  <<: *b\n  y: 2\n"
    # x from the merge, y the mapping's own 2 (not the merged 1)
    for read in (lambda t: parse_yaml_data(t)[0], lambda t: parse_yaml(t)[1]):
        assert read(text) == {"base": {"x": 1, "y": 1}, "more": {"x": 1, "y": 2}}
    # a list of mappings: the first named wins over the later ones (days 1, start 12:00 from
    # *a), a key only a later one has is merged too (weekdays from *b), the own key wins
    listed = ("a: &a {days: 1, start_time: '12:00', x: 1}\n"
              "b: &b {days: 2, start_time: '14:00', weekdays: [sat], x: 2}\n"
              "c:\n  <<: [*a, *b]\n  x: 3\n")
    assert parse_yaml(listed)[1]["c"] == {"days": 1, "start_time": "12:00",
                                          "weekdays": ["sat"], "x": 3}


def test_a_merge_key_of_no_mapping_is_named_with_its_line() -> None:
    with pytest.raises(NotYaml, match=r"'<<' \(a merge key\) takes a mapping or a list of "
                                      "mappings") as caught:
        parse_yaml("a: 1\nb:\n  <<: 5\n")
    assert caught.value.line == 2  # 0-based: "  <<: 5" is the file's third line


def test_a_key_given_twice_is_named_with_its_line(tmp_path: Path) -> None:
    text = "a: 1\nb: 2\na: 3\n"
    with pytest.raises(NotYaml, match="the key 'a' appears twice"):
        parse_yaml_data(text)
    path = tmp_path / "twice.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    # line 3 holds the second "a" (the first is on line 1)
    assert [p.line for p in caught.value.problems] == [3]


def test_a_problem_in_a_plain_file_still_names_its_line(tmp_path: Path) -> None:
    text = (ROOT / "data" / "examples" / "montana-card-room.yaml").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("count:"))
    lines[at] = lines[at].split(":")[0] + ": many\n"
    path = tmp_path / "bad.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    # count on line at + 1 (0-based index + 1); required, the line after, is not judged
    # against a count the file no longer gives (its default)
    assert [p.line for p in caught.value.problems] == [at + 1]
    assert [p.path for p in caught.value.problems] == ["tournaments[0].count"]


@pytest.mark.parametrize("key", ["? [a, b]\n    : 12", "{[a]: 1}: 12", "? {a: 1}\n    : 12"],
                         ids=["list", "flow", "mapping"])
def test_a_key_that_is_a_list_or_mapping_is_bad_input_with_its_line(
        tmp_path: Path, key: str) -> None:
    text = (ROOT / "data" / "examples" / "maine-legion-post.yaml").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("count:"))
    lines[at] = "    " + key + "\n"
    path = tmp_path / "key.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    [problem] = caught.value.problems
    assert problem.line == at + 1  # the key's own line (0-based index + 1)
    assert "a key must be a name or a number" in problem.message


def test_a_set_is_read_as_the_list_of_its_members_in_the_files_order() -> None:
    # a Python set of strings changes its order with each process's hash seed: the same
    # file would give another operator order, so other bytes; read as a list it is fixed
    text = "ops: !!set {room-c, room-a, room-b}\n"
    assert parse_yaml(text)[1] == {"ops": ["room-c", "room-a", "room-b"]}
    with pytest.raises(NotYaml, match="the key 'room-a' appears twice"):
        parse_yaml("ops: !!set {room-a, room-a}\n")


def test_a_set_member_with_a_value_is_refused() -> None:
    # a set's members have no values: {a: 1} is a mapping written as a set by mistake;
    # {room-a: ~} is {room-a} spelt out, so it is a member like any other
    with pytest.raises(NotYaml, match=r"a set \(!!set\) lists members without values: "
                                      r"'room-b' has one"):
        parse_yaml("ops: !!set {room-a, room-b: 1}\n")
    assert parse_yaml("ops: !!set {room-a: ~, room-b}\n")[1] == {"ops": ["room-a", "room-b"]}
