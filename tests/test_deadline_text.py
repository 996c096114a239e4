"""Each deadline rule words its own deadline line beside its calendar sentence (issue #12),
in people's words and without ids (issue #28): scheduler/result/deadlines.py types none of
them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from constraints.maine import application_line, report_line
from constraints.montana import notice_line, permit_line


def test_the_rules_own_lines() -> None:
    # MT-NOTICE: Sat 2027-03-06 - 5 days = Mon 2027-03-01, its own first day's notice
    assert notice_line("Spring Open", dt.date(2027, 3, 6), dt.date(2027, 3, 1)) == (
        "Notify the Montana Gambling Control Division of Spring Open, first day Sat, Mar 6, "
        "2027")
    # a round of a progressive whose first round is Sat Mar 6: due Mon Mar 1 for Mar 20
    assert notice_line("Round 2", dt.date(2027, 3, 20), dt.date(2027, 3, 1)) == (
        "Notify the Montana Gambling Control Division of Round 2, first day Sat, Mar 20, "
        "2027, 5 days before the progressive's first round Sat, Mar 6, 2027")
    assert permit_line("mt-small-stakes-permit", dt.date(2026, 7, 1),
                       dt.date(2027, 6, 30)) == (
        "Buy or renew the Montana small-stakes permit for the permit year Jul 1, 2026 – "
        "Jun 30, 2027 ($500)")
    licence = "Maine per-tournament licence (51–100 players) for Mar 7, 2027"
    assert application_line(licence, dt.date(2026, 12, 7), dt.date(2027, 2, 19)) == (
        "Apply for the Maine per-tournament licence (51–100 players) for Mar 7, 2027: the "
        "Gambling Control Unit receives the application from Dec 7, 2026 to Fri, Feb 19, "
        "2027")
    assert report_line(licence, dt.date(2027, 3, 31)) == (
        "File the disposition-of-funds report of the period ending Wed, Mar 31, 2027 with "
        "the Gambling Control Unit (Maine per-tournament licence (51–100 players) for Mar 7, "
        "2027)")


def test_deadlines_module_words_no_rule() -> None:
    code = (Path(__file__).resolve().parent.parent / "scheduler" / "result"
            / "deadlines.py").read_text("utf-8")
    for words in ("Notify the Montana", "Gambling Control", "disposition-of-funds report of"):
        assert words not in code, words
