"""The legal numbers in the texts an operator reads are the rules' own constants (issue #12).

The readings (:func:`scheduler.export.checklist.readings`, in every event and the report) and
the report's usage caption are formatted from ``constraints.montana`` / ``constraints.maine``;
the scenario workbook's header notes (``scheduler.core.workbook``) sit below the rules (the core
imports no rule), so they are checked here against the same constants: a constant that
changes fails this test until the note says the new number.
"""

from __future__ import annotations

from constraints import maine, montana
from constraints.base import usd
from scheduler.core.workbook.layout import SESSIONS, SETTINGS, SHEETS
from scheduler.export.checklist import readings

from builders.scenarios import load, mt_room


def note(header: str) -> str:
    """The header comment of the workbook column ``header`` (one sheet has it; the Sessions
    sheet's ``start``, ``hours`` and ``name`` are :func:`session_note`'s)."""
    [text] = [c.note for columns in (SETTINGS, *(cs for name, (_, cs) in SHEETS.items()
                                                 if name != "Sessions"))
              for c in columns if c.header == header]
    return text


def session_note(header: str) -> str:
    """The header comment of the Sessions sheet's column ``header``."""
    [text] = [c.note for c in SESSIONS if c.header == header]
    return text


def test_readings_say_the_constants() -> None:
    text = "\n".join(readings(load(operators=[mt_room()],
                                   settings={"super_cribbage_licenses_issued": {2027: 11}})))
    # ME-MONTHLY-LIMIT 2, MT-ENTRY-CAP $1,875, ME-ENTRY-CAP $125 and $75, ME-SUPER-CRIBBAGE 15
    assert "the limit of 2 per month in every calendar month" in text
    assert montana.ENTRY_CAP == 1875 and "toward the $1,875 a participant may pay" in text
    assert (maine.SUPER_CRIBBAGE_FEE, maine.SURCHARGE_CAP) == (75, 125)
    assert "$75 for super cribbage) and never more than $125" in text
    assert "11 in 2027, counted toward the 15 a year" in text
    flat = "\n".join(readings(load(operators=[mt_room()], settings={
        "surcharge_cap": "flat", "month_rule": "start", "reentry_counts_toward_cap": False})))
    assert "may total $125 whatever the licence fee" in flat
    assert "the limit of 2 per month only in the month it starts" in flat
    assert "does not count toward the $1,875 a participant" in flat


def test_workbook_notes_say_the_constants() -> None:
    assert f"toward the {usd(montana.ENTRY_CAP)} a participant may pay" in note(
        "settings.reentry_counts_toward_cap")
    assert (f"nor {usd(maine.SURCHARGE_CAP)} (default); flat = at most "
            f"{usd(maine.SURCHARGE_CAP)}.") in note("settings.surcharge_cap")
    assert f"(each 0-{maine.SUPER_CRIBBAGE_LIMIT})" in note(
        "settings.super_cribbage_licenses_issued")
    # MT-PLAY-HOURS: no play from 120 to 480 minutes after midnight = 2-8 a.m.
    assert (f"no play {montana.NO_PLAY_FROM // 60}-{montana.NO_PLAY_UNTIL // 60} a.m."
            in note("late_hours_ordinance"))
    assert (f"up to {maine.PLAYER_CAP_OWNED} players instead of {maine.PLAYER_CAP}"
            in note("owns_premises"))
    assert f"count toward the {montana.LARGE_LIMIT} " in note(
        "held_in_current_permit_year.large_stakes")
    assert f"the first {montana.CHARITY_LIMIT} are not counted" in note(
        "held_in_current_permit_year.charitable")
    # MT-CHARITY-SHARE 0.5 = 50 %, ME-PRIZES 0.75 = 75 %
    assert f"charity_share >= {montana.CHARITY_SHARE * 100:.0f} %" in note("charitable")
    assert f"MT, >= {montana.CHARITY_SHARE * 100:.0f} %" in note("charity_share")
    assert f">= {maine.PRIZE_SHARE * 100:.0f} %" in note("prize_share")
    assert (f"ME-DURATION (<= {maine.MAX_HOURS}), ME-SUPER-CRIBBAGE "
            f"(<= {maine.SUPER_CRIBBAGE_HOURS})") in note("hours")
    assert (f"ME-DURATION (<= {maine.MAX_HOURS} from the first session's start to the last "
            f"one's end), ME-SUPER-CRIBBAGE (<= {maine.SUPER_CRIBBAGE_HOURS})") in session_note(
        "hours")
    assert (f"{usd(montana.ENTRY_CAP)} in all), MT-SMALL-ENTRY (<= "
            f"{usd(montana.SMALL_ENTRY_CAP)}), ME-ENTRY-CAP (<= {usd(maine.ENTRY_CAP)}), "
            f"ME-CRIBBAGE-REG (<= {usd(maine.CRIBBAGE_ENTRY_CAP)})") in note("entry_fee")
    assert f"at most {usd(maine.RAFFLE_PRIZE_CAP)}" in note("raffle_prize")
