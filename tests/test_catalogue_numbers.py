"""The legal numbers of the catalogue's summaries are the rules' own constants (issue #12).

``constraints/catalogue.py`` is the lowest layer of the rules (every rule imports it), so its
one-line summaries cannot format the constants of ``constraints.montana`` /
``constraints.maine`` / ``scheduler.core.timing``; this test reads each summary against them: a
constant that changes fails here until the summary says the new number, and a number added
to a summary fails until it is paired with its constant below.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from constraints import maine, montana
from constraints.base import usd
from constraints.catalogue import RULES
from scheduler.core.scenario_types import Operator
from scheduler.core.timing import (
    ME_APPLICATION_BUSINESS_DAYS,
    ME_APPLICATION_MAX_DAYS,
    ME_REPORT_BUSINESS_DAYS,
    MT_NOTICE_DAYS,
)


def _permit_year() -> str:
    """MT-PERMIT-YEAR's default, ``permit_year_start`` "07-01": "July 1 - June 30" (the day
    before the next permit year's first day)."""
    month, day = (int(x) for x in Operator.model_fields["permit_year_start"].default.split("-"))
    first = dt.date(2001, month, day)  # a common year: no Feb 29
    last = first - dt.timedelta(days=1)
    return f"{first:%B} {first.day} - {last:%B} {last.day}"


def _pct(share: object) -> str:
    return f"{float(str(share)) * 100:.0f}%"  # 0.5 -> 50%


# each summary's numbers: the words around a number, formatted from its constant
NUMBERS: dict[str, list[str]] = {
    "MT-LARGE-LIMIT": [f"at most {montana.LARGE_LIMIT} counted",
                       f"beyond the first {montana.CHARITY_LIMIT} count"],
    "MT-CHARITY-LIMIT": [f"the first {montana.CHARITY_LIMIT} charitable",
                         f"toward the {montana.LARGE_LIMIT};"],
    "MT-PERMIT-YEAR": [f"(default {_permit_year()})"],
    "MT-DURATION": [f"at most {montana.MAX_DAYS} consecutive calendar days"],
    "MT-NOTICE": [f"at least {MT_NOTICE_DAYS} days before"],
    "MT-PROGRESSIVE": [f"at least {MT_NOTICE_DAYS} days before its first round"],
    "MT-ENTRY-CAP": [f"at most {usd(montana.ENTRY_CAP)} in all"],
    "MT-PERMIT-FEES": [f"large-stakes permit {usd(montana.LARGE_PERMIT_FEE)}, small-stakes "
                       f"permit {usd(montana.SMALL_PERMIT_FEE)}"],
    "MT-SMALL-ENTRY": [f"at most {usd(montana.SMALL_ENTRY_CAP)} in all"],
    "MT-CHARITY-SHARE": [f"at least {_pct(montana.CHARITY_SHARE)} of entry fees"],
    # NO_PLAY_FROM / NO_PLAY_UNTIL: 120 and 480 minutes after midnight = 2 and 8 a.m.
    "MT-PLAY-HOURS": [f"between {montana.NO_PLAY_FROM // 60} a.m. and "
                      f"{montana.NO_PLAY_UNTIL // 60} a.m."],
    "ME-MONTHLY-LIMIT": [f"at most {maine.MONTHLY_LIMIT} tournament games"],
    "ME-PLAYER-CAP": [f"at most {maine.PLAYER_CAP} players, or {maine.PLAYER_CAP_OWNED} on"],
    "ME-ENTRY-CAP": [f"entry fee at most {usd(maine.ENTRY_CAP)}",
                     f"at most {usd(maine.SURCHARGE_CAP)} in all"],
    "ME-DURATION": [f"within {maine.MAX_HOURS} hours (super cribbage: "
                    f"{maine.SUPER_CRIBBAGE_HOURS} hours)"],
    "ME-RAFFLE": [f"prize at most {usd(maine.RAFFLE_PRIZE_CAP)}"],
    "ME-PRIZES": [f"at least {_pct(maine.PRIZE_SHARE)} of entry fees"],
    "ME-SUPER-CRIBBAGE": [f"at most {maine.SUPER_CRIBBAGE_LIMIT} super cribbage licences",
                          f"{usd(maine.SUPER_CRIBBAGE_FEE)} each",
                          f"at least {maine.MEMBER_YEARS} years"],
    "ME-CRIBBAGE-REG": [f"entry at most {usd(maine.CRIBBAGE_ENTRY_CAP)}"],
    "ME-APPLICATION-WINDOW": [f"{ME_APPLICATION_BUSINESS_DAYS} business days to "
                              f"{ME_APPLICATION_MAX_DAYS} days before"],
    "ME-REPORT": [f"due {ME_REPORT_BUSINESS_DAYS} business days after"],
    "ME-ELIGIBLE": [f"at least {maine.ORGANIZED_YEARS} years"],
}

NOT_NUMBERS = ("50/50", "501(c)(3)", "§ 1836(4-A)(A)")
"""Digits in a summary that are names, not legal numbers (a 50/50 raffle, a tax status, a
citation)."""


@pytest.mark.parametrize("rule_id", sorted(NUMBERS))
def test_summary_says_the_constants(rule_id: str) -> None:
    summary = RULES[rule_id].summary
    for words in NUMBERS[rule_id]:
        assert words in summary, (rule_id, words, summary)


@pytest.mark.parametrize("rule_id", sorted(r for r, info in RULES.items()
                                            if info.citation != "scenario"))  # the law's
def test_every_number_of_a_summary_is_a_constant(rule_id: str) -> None:
    rest = RULES[rule_id].summary
    for words in (*NUMBERS.get(rule_id, ()), *NOT_NUMBERS):
        rest = rest.replace(words, "")
    assert re.findall(r"\d+", rest) == [], (rule_id, rest)


def test_the_values_read_by_hand() -> None:
    # a few of the numbers as MCA 23-5-317 and 17 M.R.S. § 1836 state them
    assert _permit_year() == "July 1 - June 30"
    assert (montana.LARGE_LIMIT, montana.CHARITY_LIMIT, MT_NOTICE_DAYS) == (16, 3, 5)
    assert (maine.MAX_HOURS, maine.SUPER_CRIBBAGE_HOURS) == (48, 72)
    assert (ME_APPLICATION_BUSINESS_DAYS, ME_APPLICATION_MAX_DAYS) == (10, 90)
    assert _pct(montana.CHARITY_SHARE) == "50%" and _pct(maine.PRIZE_SHARE) == "75%"
