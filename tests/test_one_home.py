"""One home for each thing (issue #12): the weekday and tournament-type spellings live in
scheduler/core/fields.py; the scenario's Literal types, the workbook's choices, the UIDs and the
rules read them, and no module spells the week again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from scheduler.core.fields import ME_TYPES, MT_TYPES, WEEKDAYS
from scheduler.core.scenario_types import TournamentType, Weekday
from scheduler.core.workbook.layout import TYPE_CHOICES, WEEKDAY_CHOICES

ROOT = Path(__file__).resolve().parents[1]


def test_the_literals_spell_what_the_tuples_hold() -> None:
    # a pydantic Literal cannot be built from a tuple: the two spellings are kept equal here
    assert get_args(Weekday) == WEEKDAYS and len(WEEKDAYS) == 7 and WEEKDAYS[0] == "mon"
    assert get_args(TournamentType) == MT_TYPES + ME_TYPES == TYPE_CHOICES
    assert WEEKDAY_CHOICES == WEEKDAYS


def test_no_module_retypes_the_week() -> None:
    week = re.compile(r'"mon", "tue", "wed", "thu", "fri", "sat", "sun"')
    found = sorted(str(p.relative_to(ROOT)) for d in ("scheduler", "constraints")
                   for p in (ROOT / d).rglob("*.py") if week.search(p.read_text("utf-8")))
    # fields.py: the tuple; scenario_types.py: the Literal type (checked equal above)
    assert found == ["scheduler/core/fields.py", "scheduler/core/scenario_types.py"]
