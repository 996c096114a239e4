"""Days, hours and licences in people's words (scheduler/result/words.py), as report.html and
funds.html print them: English whatever the locale, ids never."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from scheduler.result.words import dated_text, day_text, hours_text, licence_text, span_text

D = dt.date.fromisoformat
DENVER = ZoneInfo("America/Denver")


def test_days_in_words() -> None:
    assert day_text(D("2027-01-02")) == "Jan 2, 2027"
    assert dated_text(D("2027-01-02")) == "Sat, Jan 2, 2027"   # 2027-01-01 is a Friday
    assert span_text(D("2027-01-09"), D("2027-01-09")) == "Jan 9, 2027"
    assert span_text(D("2027-03-05"), D("2027-03-06")) == "Mar 5–6, 2027"
    assert span_text(D("2027-03-30"), D("2027-04-02")) == "Mar 30 – Apr 2, 2027"
    assert span_text(D("2027-12-31"), D("2028-01-01")) == "Dec 31, 2027 – Jan 1, 2028"


def test_hours_across_midnight_name_the_weekdays_only_past_the_next_midnight() -> None:
    def at(day: str, hh: int, mm: int = 0) -> dt.datetime:
        return dt.datetime.combine(D(day), dt.time(hh, mm), DENVER)

    assert hours_text(at("2027-01-09", 12), at("2027-01-09", 22)) == "12:00–22:00"
    # ends at the midnight after its first day: still one evening
    assert hours_text(at("2027-01-09", 12), at("2027-01-10", 0)) == "12:00–00:00"
    # one minute past that midnight: the days are named
    assert hours_text(at("2027-01-09", 12), at("2027-01-10", 0, 1)) == "Sat 12:00 – Sun 00:01"
    assert hours_text(at("2027-03-05", 12), at("2027-03-07", 2)) == "Fri 12:00 – Sun 02:00"


def test_licences_in_words() -> None:
    assert licence_text("me-annual", "51-100", D("2027-01-02"), D("2028-01-01")) == \
        "annual licence (51–100 players) from Jan 2, 2027"
    assert licence_text("me-monthly", "1-50", D("2027-03-01"), D("2027-03-31"),
                        state=True) == "Maine monthly licence (1–50 players) from Mar 1, 2027"
    assert licence_text("me-per-tournament", "101-150", D("2027-11-06"), D("2027-11-07")) \
        == "per-tournament licence (101–150 players) for Nov 6–7, 2027"
    assert licence_text("me-super-cribbage", "", D("2027-02-20"), D("2027-02-21")) == \
        "super cribbage licence for Feb 20–21, 2027"
    assert licence_text("mt-large-stakes-permit", "", D("2026-07-01"), D("2027-06-30"),
                        state=True) == \
        "Montana large-stakes permit for the permit year from Jul 1, 2026"
    assert licence_text("mt-small-stakes-permit", "", D("2027-07-01"), D("2028-06-30")) == \
        "small-stakes permit for the permit year from Jul 1, 2027"
