"""Each input rule's problems come from its own validator (issue #12 review): PER-MONTH-MIN,
PER-WEEK-MIN and TABLES in constraints/requests.py, MT-DEALER in constraints/montana/,
no longer all from PER-MONTH's."""

from __future__ import annotations

import pytest

from constraints.catalogue import COST_RULES
from constraints.registry import RULES
from scheduler.check import auditing
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import parse_scenario
from scheduler.engine import model
from scheduler.inputs.load import load_scenario


def _broken() -> dict[str, object]:
    """A Montana room with 2 tables and 3 dealers, a Maine post with 1 dealer (a Montana-only
    field), and a tournament breaking every per-period and capacity input check."""
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 2,
            "tables": 2, "dealers": 3}
    post = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "2020-01-01",
            "dealers": 1}
    # count 2 over March 2027: per_month min 3 > max 2; per_week min 1 in each of the 5 ISO
    # weeks touching March (W09..W13) needs 5 > count 2; 4 tables > 2; 4 dealers > 3
    t = {"id": "t", "title": "T", "type": "large-stakes", "operators": ["room"], "count": 2,
         "start_time": "12:00", "hours": 5, "per_month": {"min": 3, "max": 2},
         "per_week": {"min": 1}, "tables_needed": 4, "dealers_needed": 4}
    return {"name": "homes", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-01-01", "operators": [room, post], "tournaments": [t]}


def test_each_input_rule_emits_its_own_id_only() -> None:
    sc = parse_scenario(_broken())
    got = {r.id: [p.rule for p in r.validate(sc)] for r in RULES if r.validate is not None}
    assert all(set(ids) <= {rid} for rid, ids in got.items()), got
    # min 3 > max 2; and 3 in the 1 month of the window needs 3 > count 2
    assert got["PER-MONTH-MIN"] == ["PER-MONTH-MIN", "PER-MONTH-MIN"]
    assert got["PER-WEEK-MIN"] == ["PER-WEEK-MIN"]
    assert got["TABLES"] == ["TABLES"]
    # 4 dealers needed > 3; the Maine post's dealers field
    assert got["MT-DEALER"] == ["MT-DEALER", "MT-DEALER"]
    assert "PER-MONTH" not in got


def test_the_loader_still_reports_them_all() -> None:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(_broken())
    found = [(p.rule, p.path) for p in exc.value.problems]
    assert ("PER-MONTH-MIN", "tournaments[0].per_month.min") in found
    assert ("PER-WEEK-MIN", "tournaments[0].per_week.min") in found
    assert ("TABLES", "tournaments[0].tables_needed") in found
    assert ("MT-DEALER", "tournaments[0].dealers_needed") in found
    assert ("MT-DEALER", "operators[1].dealers") in found


def test_cost_rules_come_from_the_catalogue() -> None:
    # RULES.md has two rules of kind "cost": MT-PERMIT-FEES (MCA 23-5-317(1)(b)) and
    # ME-FEES (17 M.R.S. § 1836(3-A)); the model, the check and the reasons read this one tuple
    assert COST_RULES == ("MT-PERMIT-FEES", "ME-FEES")
    assert model.COST_RULES is COST_RULES and auditing.COST_RULES is COST_RULES
