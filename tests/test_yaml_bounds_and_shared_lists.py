"""What the leaner reading and writing of issue #16 (fast2) must keep: the YAML bounds of
:func:`scheduler.core.limits.check_yaml_node` at their exact boundaries through the tree-only
shortcut, and the same figures, sheets and summary when the report and the plan folder's
writer hand their one list of deadlines or limit usage down instead of recomputing it.

The Maine plan: ``post`` holds a tournament game ``g`` (80 players, tier 51-100) on Sat
2027-03-06, Sat 2027-03-13 and Sat 2027-04-03, and ``late`` on Sun 2027-01-31 (20:00, 10 h).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml
from openpyxl import load_workbook
from typer.testing import CliRunner

from constraints import base
from scheduler.cli import app
from scheduler.core import timing
from scheduler.core.limits import LimitError, _plain_tree, check_yaml_node
from scheduler.export import figures
from scheduler.export.deadlines import plan_deadlines
from scheduler.export.report import report_html
from scheduler.export.summary import summary_text
from scheduler.export.xlsx import plan_xlsx
from scheduler.result.plan import Plan
from scheduler.result.usage import limit_usage

from builders.scenarios import load, run


def _node(text: str) -> Any:
    return yaml.compose(text, Loader=yaml.SafeLoader)


# --------------------------------------------------------------------------- YAML bounds
def test_a_list_nested_100_deep_is_read_and_101_deep_refused() -> None:
    # "[" * 100: the outer list is level 1, the innermost (empty) level 100 = MAX_YAML_DEPTH
    ok = _node("[" * 100 + "]" * 100)
    assert _plain_tree(ok)
    check_yaml_node(ok)
    # one more: the innermost list is level 101; the full count names the line
    deep = _node("[" * 101 + "]" * 101)
    assert not _plain_tree(deep)
    with pytest.raises(LimitError, match=r"^line 1: nested more than 100 levels deep$"):
        check_yaml_node(deep)


def test_a_value_at_level_100_is_read() -> None:
    # 99 lists then a scalar: the scalar is level 100, allowed
    check_yaml_node(_node("[" * 99 + "x" + "]" * 99))
    # 100 lists then a scalar: the scalar is level 101
    with pytest.raises(LimitError, match="nested more than 100 levels deep"):
        check_yaml_node(_node("[" * 100 + "x" + "]" * 100))


def test_an_alias_takes_the_full_count() -> None:
    # "a: &x [1, 2]" and "b: *x": 6 nodes written (mapping, a, b, the list, 1, 2), 9 when
    # expanded (1 + a + 3 + b + 3): 3 added, far below 100,000 -> read
    doc = _node("a: &x [1, 2]\nb: *x\n")
    assert not _plain_tree(doc)
    check_yaml_node(doc)
    # a shared scalar is an alias too: "s: &s hello", "t: *s" adds 1 node, 5 characters
    shared = _node("s: &s hello\nt: *s\n")
    assert not _plain_tree(shared)
    check_yaml_node(shared)


def test_aliases_over_the_node_limit_are_still_refused() -> None:
    # a list of 1,000 ones aliased 101 times: 101 x 1,001 = 101,101 nodes added > 100,000
    text = "a: &x [" + ", ".join(["1"] * 1000) + "]\nb: [" + ", ".join(["*x"] * 101) + "]\n"
    with pytest.raises(LimitError, match=r"at most 100,000 more are allowed"):
        check_yaml_node(_node(text))
    # 99 times: 99 x 1,001 = 99,099 added -> read
    text = "a: &x [" + ", ".join(["1"] * 1000) + "]\nb: [" + ", ".join(["*x"] * 99) + "]\n"
    check_yaml_node(_node(text))


def test_a_plain_statewide_document_is_a_tree() -> None:
    doc = _node("operators:\n" + "".join(f"  - id: op{k}\n    name: Room {k}\n"
                                         for k in range(500)))
    assert _plain_tree(doc)
    check_yaml_node(doc)


# --------------------------------------------------------------------------- one list
ME_POST = {"id": "post", "name": "Legion Post 1", "jurisdiction": "ME", "local_approval": True,
           "beneficiaries": ["Relief Fund"], "organized_on": "1990-01-01"}


def _game(**kw: Any) -> dict[str, Any]:
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


@pytest.fixture(scope="module")
def me_plan() -> Plan:
    return run(load(operators=[ME_POST], tournaments=[
        _game(id="late", start_time="20:00", fixed_dates=["2027-01-31"]),
        _game(fixed_dates=["2027-03-06", "2027-03-13", "2027-04-03"], count=3)],
        notice_from="2026-11-01"))


def test_application_deadlines_from_the_plans_list(me_plan: Plan) -> None:
    # 10 Maine business days before each first day (see tests/test_figures.py):
    #   Sun Jan 31 -> Jan 15 (MLK Day Jan 18 skipped); Sat Mar 6 -> Feb 22;
    #   Sat Mar 13 -> Mar 1; Sat Apr 3 -> Mar 22
    days = ["2027-01-15", "2027-02-22", "2027-03-01", "2027-03-22"]
    once = plan_deadlines(me_plan)
    given = figures.application_deadlines(me_plan, "post", once)
    assert given == figures.application_deadlines(me_plan, "post")
    assert [d.isoformat() for d, _ in given] == days
    assert figures.application_deadlines(me_plan, "someone-else", once) == []
    fig = figures.plot_calendar(me_plan, "post", once)
    marks = sorted(a.get_gid() for a in fig.axes[0].get_children()
                   if str(a.get_gid()).startswith("application-due:"))
    assert marks == [f"application-due:{d}" for d in days]


def test_the_report_is_the_same_page(me_plan: Plan) -> None:
    page = report_html(me_plan)
    # the Deadlines table: one ME-APPLICATION-WINDOW row per licence (4) and the report
    # lines of each licensed period
    assert page.count("<td>Mon, Mar 22, 2027</td>") >= 1
    assert page == report_html(me_plan)


def test_the_limits_sheet_and_summary_from_the_usage_given(me_plan: Plan) -> None:
    use = limit_usage(me_plan)
    assert plan_xlsx(me_plan, usage=use) == plan_xlsx(me_plan)
    assert summary_text(me_plan, use) == summary_text(me_plan)
    sheet = load_workbook(io.BytesIO(plan_xlsx(me_plan, usage=use)))["Limits"]
    rows = [tuple(c.value for c in r) for r in sheet.iter_rows(min_row=2)]
    table = me_plan.usage()
    assert len(rows) == len(table) == 12  # ME-MONTHLY-LIMIT, each month of 2027
    # March 2027: g on Sat Mar 6 and Sat Mar 13 -> 2 of 2
    march = [r for r in rows if r[2].month == 3]
    assert [(r[0], r[1], r[4], r[5], r[6], r[7]) for r in march] == [
        ("post", "ME-MONTHLY-LIMIT", 2, 2, 0, 0)]
    assert [(r.operator_id, r.rule_id, r.used) for r in table.itertuples()] == [
        (r[0], r[1], r[4]) for r in rows]


# --------------------------------------------------------------------------- memory
def test_a_solve_lets_go_of_the_sessions_of_its_parts() -> None:
    plan = run(load(operators=[ME_POST], tournaments=[
        _game(fixed_dates=["2027-03-06", "2027-03-13"], count=2)], notice_from="2026-11-01"))
    assert len(plan.rows) == 2  # both dates placed
    # the sessions of the part's occurrences (the reasons' checks) are let go once the plan
    # is made; the candidate days' timings stay cached for the next solve (the CLI lets go)
    assert base._SESSIONS == {}


def test_tourney_solve_lets_go_of_the_timings_before_writing(tmp_path: Path) -> None:
    data = {"name": "Post", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-11-01", "operators": [ME_POST],
            "tournaments": [_game(fixed_dates=["2027-03-06", "2027-03-13"], count=2)]}
    scenario = tmp_path / "post.yaml"
    scenario.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    res = CliRunner().invoke(app, ["solve", str(scenario), "--out", str(tmp_path / "plan")])
    assert res.exit_code == 0, res.output
    assert len((tmp_path / "plan" / "schedule.csv").read_text().splitlines()) == 1 + 2
    # the candidate days' timings (one per allowed first day while solving) are let go once
    # solved (issue #16: about 30 MB at 1,000 operators), before the plan is written
    assert timing._timing.cache_info().currsize == 0
    assert timing._flight_timing.cache_info().currsize == 0
