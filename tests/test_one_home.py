"""One home for each thing (issue #12): the weekday spellings live in scheduler/core/fields.py,
each state's tournament types in its package (``MT_TYPES``, ``ME_TYPES``); the scenario's
types, the workbook's choices, the UIDs and the rules read them, and no module spells the
week again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from constraints.maine.terms import ME_TYPES
from constraints.montana.terms import MT_TYPES
from scheduler.core.fields import WEEKDAYS
from scheduler.core.jurisdiction import all_types
from scheduler.core.scenario_types import Weekday
from scheduler.core.workbook.layout import TOURNAMENTS, WEEKDAY_CHOICES

ROOT = Path(__file__).resolve().parents[1]


def test_the_literals_spell_what_the_tuples_hold() -> None:
    # a pydantic Literal cannot be built from a tuple: the two spellings are kept equal here
    # Weekday is the Literal annotated with its spreadsheet spellings (Saturday, SAT)
    assert get_args(get_args(Weekday)[0]) == WEEKDAYS
    assert len(WEEKDAYS) == 7 and WEEKDAYS[0] == "mon"
    types = next(c for c in TOURNAMENTS if c.header == "type").choices
    assert all_types() == MT_TYPES + ME_TYPES == types
    assert WEEKDAY_CHOICES == WEEKDAYS


def test_no_module_retypes_the_week() -> None:
    week = re.compile(r'"mon", "tue", "wed", "thu", "fri", "sat", "sun"')
    found = sorted(str(p.relative_to(ROOT)) for d in ("scheduler", "constraints")
                   for p in (ROOT / d).rglob("*.py") if week.search(p.read_text("utf-8")))
    # fields.py: the tuple; scenario_types.py: the Literal type (checked equal above)
    assert found == ["scheduler/core/fields.py", "scheduler/core/scenario_types.py"]
