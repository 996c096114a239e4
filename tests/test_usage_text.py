"""Limit usage reaches the summary and the charts through each rule's own ``usage_text``
(issue #12: no rule ID typed in scheduler/export/summary.py or figures.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from constraints.base import Usage
from constraints.registry import RULES
from scheduler.export.summary import LIMIT_RULES, usage_lines

D = dt.date


def test_lines_by_permit_year_then_registry_order() -> None:
    # two permit years of one Montana operator: each year's MT-LARGE-LIMIT line, then its
    # MT-CHARITY-LIMIT line (registry order), as the summary printed them before
    records = [
        Usage("MT-LARGE-LIMIT", "op", "2027-03-01", D(2027, 3, 1), D(2028, 2, 29), 16, 16, 2,
              12),
        Usage("MT-CHARITY-LIMIT", "op", "2027-03-01", D(2027, 3, 1), D(2028, 2, 29), 3, 3,
              3),
        Usage("MT-LARGE-LIMIT", "op", "2028-03-01", D(2028, 3, 1), D(2029, 2, 28), 1, 16),
        Usage("MT-CHARITY-LIMIT", "op", "2028-03-01", D(2028, 3, 1), D(2029, 2, 28), 0, 3),
    ]
    assert usage_lines(records) == [
        # 16 counted = 14 non-charitable + 2 charitable beyond the first 3; 16 - 12 held = 4
        "MT-LARGE-LIMIT permit year 2027-03-01: 16/16 counted (14 non-charitable + 2 "
        "charitable beyond the first 3); 12 held before the plan + 4 planned",
        "MT-CHARITY-LIMIT permit year 2027-03-01: 3/3 charitable not counted",
        "MT-LARGE-LIMIT permit year 2028-03-01: 1/16 counted",
        "MT-CHARITY-LIMIT permit year 2028-03-01: 0/3 charitable not counted",
    ]


def test_monthly_one_line_and_none_when_unused() -> None:
    month = [Usage("ME-MONTHLY-LIMIT", "me", f"2027-{m:02d}", D(2027, m, 1), D(2027, m, 28),
                   used, 2) for m, used in ((1, 2), (2, 1), (3, 2))]
    # January and March at 2 of 2: two full months
    assert usage_lines(month) == ["ME-MONTHLY-LIMIT: 2 month(s) at 2/2 (2027-01, 2027-03)"]
    assert usage_lines([Usage("ME-MONTHLY-LIMIT", "me", "2027-01", D(2027, 1, 1),
                              D(2027, 1, 31), 0, 2)]) == []


def test_a_rule_without_usage_text_gets_the_default_line() -> None:
    # ME-SUPER-CRIBBAGE has a usage hook and no usage_text: 3 used of 15, 2 issued before
    rule = next(r for r in RULES if r.id == "ME-SUPER-CRIBBAGE")
    assert rule.usage is not None and rule.usage_text is None
    assert usage_lines([Usage("ME-SUPER-CRIBBAGE", "(statewide)", "2027", D(2027, 1, 1),
                              D(2027, 12, 31), 3, 15, held=2)]) == [
        "ME-SUPER-CRIBBAGE 2027: 3/15; 2 held before the plan + 1 planned"]


def test_competing_limits_are_the_rules_with_counts() -> None:
    assert list(LIMIT_RULES) == ["MT-LARGE-LIMIT", "MT-SMALL-DAILY", "ME-MONTHLY-LIMIT",
                                 "ME-SUPER-CRIBBAGE"]


def test_no_limit_rule_id_typed_in_summary_or_figures() -> None:
    # the limits' IDs (a usage hook or counts) appear there in docstrings only
    ids = [r.id for r in RULES if r.usage is not None or r.counts is not None]
    root = Path(__file__).resolve().parent.parent / "scheduler" / "export"
    for name in ("summary.py", "figures.py"):
        text = (root / name).read_text("utf-8")
        assert [i for i in ids if f'"{i}"' in text] == [], name
