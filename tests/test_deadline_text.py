"""Each deadline rule words its own deadlines.csv line beside its calendar sentence
(issue #12): scheduler/result/deadlines.py types none of them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from constraints.maine import application_line, report_line
from constraints.montana import notice_line


def test_the_rules_own_lines() -> None:
    assert notice_line("Spring Open", "spring#1", dt.date(2027, 3, 6)) == (
        "notify the department of Spring Open (spring#1), first day 2027-03-06")
    assert application_line("per-tournament", dt.date(2026, 12, 7), dt.date(2027, 2, 19),
                             dt.date(2027, 3, 7)) == (
        "the per-tournament licence application received between 2026-12-07 and 2027-02-19 "
        "(first day covered 2027-03-07)")
    assert report_line(dt.date(2027, 3, 31)) == (
        "file the disposition-of-funds report for the licensed period ending 2027-03-31")


def test_deadlines_module_words_no_rule() -> None:
    code = (Path(__file__).resolve().parent.parent / "scheduler" / "deadlines.py").read_text(
        "utf-8")
    for words in ("notify the department", "licence application received",
                  "disposition-of-funds report for"):
        assert words not in code, words
