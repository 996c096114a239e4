"""Filing deadlines (issue #10 part 4): one function per deadline in scheduler/core/timing.py, and
the model (``allows``), the independent check, the calendars, the report and the figures all
agree with it; no deadline of a not-yet-filed occurrence is before ``notice_from``.

- MT-NOTICE, MCA 23-5-317(1)(d): notice due ``first_day`` − 5 days.
- ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: application received ≤ 90 days and ≥ 10 Maine
  business days before the first day; a first day is allowed iff its due date (the 10th Maine
  business day before it) is on or after ``notice_from``.
- ME-REPORT, 16-633 CMR ch. 32 § 8: report due 10 Maine business days after each licensed
  period.

Maine state holidays used below (``holidays`` US-ME): Fri 2026-12-25, Fri 2027-01-01, Mon
2027-01-18 (Martin Luther King Jr. Day), Fri 2027-06-18 (Juneteenth, observed), Mon
2027-07-05 (Independence Day, observed).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

import icalendar
from hypothesis import given, settings
from hypothesis import strategies as st

from constraints.base import Audit, License, Occurrence
from constraints.maine import (
    ME_APPLICATION,
    application_due,
    application_earliest_first_day,
    application_ok,
    application_opens,
    application_window,
    earliest_first_day,
    is_maine_business_day,
    report_due,
)
from constraints.montana import MT_NOTICE
from scheduler.core.scenario import Scenario
from scheduler.core.timing import notice_due, notice_ok, timing, tournament_tz
from scheduler.export import figures
from scheduler.export.ical import calendar_files
from scheduler.export.report import report_html
from scheduler.result.plan import Plan

from builders.scenarios import d, load, missing, mt_large, mt_room, placed, run, violated

SUNDAY = "2026-12-20"  # the notice_from of the README and every example: a Sunday
STAMP = dt.datetime(2026, 12, 20, tzinfo=dt.UTC)
POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}


def me_game(**kw: Any) -> dict[str, Any]:
    """A legal Maine tournament game of ``post``: 80 players (tier 51-100, per-tournament
    licence $75), 12:00 for 10 h (one calendar day)."""
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "count": 1, **kw}


def maine(notice_from: str, horizon: tuple[str, str], **kw: Any) -> Scenario:
    return load(horizon={"start": horizon[0], "end": horizon[1]}, notice_from=notice_from,
                operators=[POST], tournaments=[me_game(**kw)])


def licences_for(sc: Scenario, tid: str, legal: str, day: str) -> list[License]:
    """The licences the solver buys for ``tid`` fixed on the ``legal`` day, moved to cover
    ``day`` instead (same kind, tier and fee), so that the check of a placement on ``day``
    reports only its deadline rule."""
    t = sc.tournament(tid)
    fixed = sc.model_copy(update={"tournaments": (t.model_copy(
        update={"fixed_dates": (d(legal),)}),)})
    shift = d(day) - d(legal)
    return [lic if lic.valid_from <= d(day) <= lic.valid_to else
            replace(lic, valid_from=lic.valid_from + shift, valid_to=lic.valid_to + shift)
            for lic in run(fixed).license_list]


def deadlines(plan: Plan) -> dict[str, dt.date]:
    """UID's local part (before ``@``: the lineage and domain follow it) -> day of every
    deadline VEVENT (X-TOURNEY-DEADLINE) in calendar.ics."""
    cal = icalendar.Calendar.from_ical(calendar_files(plan, STAMP)["calendar.ics"])
    return {str(ev["UID"]).split("@")[0]: ev["DTSTART"].dt for ev in cal.walk("VEVENT")
            if ev.get("X-TOURNEY-DEADLINE") is not None}


# ----------------------------------------------------------------- (a) the Sunday notice_from
class TestSundayNoticeFrom:
    """notice_from Sun 2026-12-20. Maine business days from it: Dec 21 (1), 22 (2), 23 (3),
    24 (4), [25 Christmas, 26-27 weekend], 28 (5), 29 (6), 30 (7), 31 (8), [Jan 1 New Year's
    Day, 2-3 weekend], Jan 4 (9), Jan 5 (10).

    - Tue 2027-01-05: 10 business days back (Jan 5 excluded): Jan 4, Dec 31, 30, 29, 28, 24,
      23, 22, 21, 18 -> due Fri 2026-12-18 < Dec 20: refused (the old model placed it here).
    - Wed 2027-01-06: back Jan 5, 4, Dec 31, 30, 29, 28, 24, 23, 22, 21 -> due Mon Dec 21 >=
      Dec 20: the earliest first day.
    """

    def test_deadline_functions(self) -> None:
        assert application_due(d("2027-01-05")) == d("2026-12-18")
        assert application_due(d("2027-01-06")) == d("2026-12-21")
        assert not application_ok(d("2027-01-05"), d(SUNDAY))
        assert application_ok(d("2027-01-06"), d(SUNDAY))
        assert application_earliest_first_day(d(SUNDAY)) == d("2027-01-06")
        assert earliest_first_day(d(SUNDAY)) == d("2027-01-06")

    def test_model_places_no_earlier_than_jan_6(self) -> None:
        # window Jan 1 .. Jan 6: of its 6 days only Jan 6 is legal, and the game is placed
        plan = run(maine(SUNDAY, ("2027-01-01", "2027-01-31"),
                         window={"start": "2027-01-01", "end": "2027-01-06"}))
        assert [r.first_day for r in plan.rows] == [d("2027-01-06")]

    def test_model_refuses_fixed_jan_5(self) -> None:
        plan = run(maine(SUNDAY, ("2027-01-01", "2027-01-31"), fixed_dates=["2027-01-05"]))
        assert plan.rows == ()
        assert missing(plan) == [("ME-APPLICATION-WINDOW",)]

    def test_check_jan_5_violates_jan_6_legal(self) -> None:
        sc = maine(SUNDAY, ("2027-01-01", "2027-01-31"))
        jan5 = licences_for(sc, "g", "2027-01-06", "2027-01-05")
        jan6 = licences_for(sc, "g", "2027-01-06", "2027-01-06")
        assert violated(sc, [placed(sc, "g", "2027-01-05")], jan5) == ["ME-APPLICATION-WINDOW"]
        assert violated(sc, [placed(sc, "g", "2027-01-06")], jan6) == []

    def test_check_message_names_the_due_date(self) -> None:
        sc = maine(SUNDAY, ("2027-01-01", "2027-01-31"))
        (v,) = ME_APPLICATION.check(Audit(sc, [placed(sc, "g", "2027-01-05")]))
        assert "received by 2026-12-18" in v.message
        assert "earliest filing day 2026-12-20" in v.message
        assert "earliest first day is 2027-01-06" in v.message

    def test_calendar_report_and_figures_say_dec_21(self) -> None:
        plan = run(maine(SUNDAY, ("2027-01-01", "2027-01-31"), fixed_dates=["2027-01-06"]))
        (lic,) = plan.license_list
        lid = lic.license_id
        # opens: Jan 6 - 90 days = Thu 2026-10-08 (Jan 6 -> Dec 6 is 31 days, -> Nov 6 is 61,
        # -> Oct 8 is 90), before notice_from, so the calendar opens the window on Dec 20.
        # report: 10 business days after the licensed day Jan 6: Jan 7, 8, 11, 12, 13, 14, 15,
        # [18 MLK Day], 19, 20, 21 -> Thu 2027-01-21.
        assert deadlines(plan) == {f"application-opens-{lid}": d("2026-12-20"),
                                   f"application-due-{lid}": d("2026-12-21"),
                                   f"report-{lid}": d("2027-01-21")}
        assert figures.application_deadlines(plan, "post") == [(d("2026-12-21"), lid)]
        assert "<td>Mon, Dec 21, 2026</td>" in report_html(plan)
        assert "Dec 18, 2026" not in report_html(plan)


class TestApplicationWindowOpens:
    def test_clamped_to_notice_from(self) -> None:
        # Jan 6 - 90 days = 2026-10-08 < notice_from Dec 20 <= due Dec 21
        assert application_opens(d("2027-01-06")) == d("2026-10-08")
        assert application_window(d("2027-01-06"), d(SUNDAY)) == (d("2026-12-20"),
                                                                  d("2026-12-21"))

    def test_not_clamped_when_90_days_before_is_later(self) -> None:
        # Sat 2027-04-10 - 90 days = Sun 2027-01-10 (Apr 10 -> Mar 10 is 31 days, -> Feb 10
        # is 59, -> Jan 10 is 90), after notice_from. Due: back from Apr 9: Apr 9, 8, 7, 6, 5,
        # 2, 1, Mar 31, 30, 29 -> Mon 2027-03-29.
        assert application_window(d("2027-04-10"), d(SUNDAY)) == (d("2027-01-10"),
                                                                  d("2027-03-29"))

    def test_filed_occurrence_keeps_its_historical_dates(self) -> None:
        # a game on Jan 5 whose application is already filed (filed_dates): due Dec 18 is
        # before notice_from Dec 20, so the window is the historical one, Oct 7 .. Dec 18
        # (Jan 5 - 90 days = 2026-10-07)
        assert application_window(d("2027-01-05"), d(SUNDAY)) == (d("2026-10-07"),
                                                                  d("2026-12-18"))


# ----------------------------------------------------------------- (b) MT notice, day -5 / -4
class TestMontanaNotice:
    """MT-NOTICE, MCA 23-5-317(1)(d): notice_from Sun 2027-01-10. Fri Jan 15: due Jan 15 - 5
    = Jan 10 = notice_from, legal (exactly 5 days). Thu Jan 14: due Jan 9, one day before
    notice_from (only 4 days of notice left): refused."""

    NF = "2027-01-10"

    def _sc(self, **kw: Any) -> Scenario:
        return load(horizon={"start": "2027-01-01", "end": "2027-01-31"}, notice_from=self.NF,
                    operators=[mt_room()], tournaments=[mt_large("big", count=1, **kw)])

    def test_functions(self) -> None:
        assert notice_due(d("2027-01-15")) == d("2027-01-10")
        assert notice_ok(d("2027-01-15"), d(self.NF))
        assert notice_due(d("2027-01-14")) == d("2027-01-09")
        assert not notice_ok(d("2027-01-14"), d(self.NF))

    def test_model(self) -> None:
        plan = run(self._sc(fixed_dates=["2027-01-15"]))
        assert [(r.first_day, r.notice_due) for r in plan.rows] == [
            (d("2027-01-15"), d("2027-01-10"))]
        plan = run(self._sc(fixed_dates=["2027-01-14"]))
        assert plan.rows == () and missing(plan) == [("MT-NOTICE",)]

    def test_check(self) -> None:
        sc = self._sc()
        jan15 = licences_for(sc, "big", "2027-01-15", "2027-01-15")
        jan14 = licences_for(sc, "big", "2027-01-15", "2027-01-14")
        assert violated(sc, [placed(sc, "big", "2027-01-15")], jan15) == []
        assert violated(sc, [placed(sc, "big", "2027-01-14")], jan14) == ["MT-NOTICE"]

    def test_calendar(self) -> None:
        plan = run(self._sc(fixed_dates=["2027-01-15"]))
        notices = {u: day for u, day in deadlines(plan).items() if u.startswith("notice-")}
        assert list(notices.values()) == [d("2027-01-10")]


# ----------------------------------------------------------------- (c) ME report, holidays
class TestReportDue:
    def test_june_2027_month(self) -> None:
        # June 2027 holds Juneteenth (observed Fri Jun 18). Its report (annual licence, month
        # ending Wed Jun 30): Jul 1 (1), 2 (2), [3-4 weekend, 5 Independence Day observed],
        # 6 (3), 7 (4), 8 (5), 9 (6), 12 (7), 13 (8), 14 (9), 15 (10) -> Thu 2027-07-15.
        assert not is_maine_business_day(d("2027-06-18"))
        assert not is_maine_business_day(d("2027-07-05"))
        assert report_due(d("2027-06-30")) == d("2027-07-15")

    def test_per_tournament_licence_on_the_calendar(self) -> None:
        # one game on Sat 2027-06-26, licensed for that day. Report: Jun 28 (1), 29 (2), 30
        # (3), Jul 1 (4), 2 (5), [5 holiday], 6 (6), 7 (7), 8 (8), 9 (9), 12 (10) -> Mon Jul 12
        # (Fri Jul 9 without the holiday).
        plan = run(maine("2027-05-01", ("2027-06-01", "2027-06-30"),
                         fixed_dates=["2027-06-26"]))
        (lic,) = plan.license_list
        assert lic.valid_to == d("2027-06-26")
        assert deadlines(plan)[f"report-{lic.license_id}"] == d("2027-07-12")


# ----------------------------------------------------------------- (d) properties
# notice_from anywhere in 2026-2028 (weekends and Maine holidays included) and a first day
# 0..120 days later, often 8..20 days later (where the earliest Maine first day lies: 10
# business days are 12 to about 18 calendar days)
NOTICE_FROM = st.dates(dt.date(2026, 1, 1), dt.date(2028, 12, 31))
OFFSET = st.integers(8, 20) | st.integers(0, 120)
_ME = maine(SUNDAY, ("2027-01-01", "2027-12-31"))
_MT = load(horizon={"start": "2027-01-01", "end": "2027-12-31"}, notice_from=SUNDAY,
           operators=[mt_room()], tournaments=[mt_large("big")])


def _allows_and_check(sc: Scenario, tid: str, first_day: dt.date, rule: Any) -> tuple[bool,
                                                                                   bool]:
    """The rule's model filter (``allows``) and whether its check finds nothing."""
    t = sc.tournament(tid)
    tm = timing(t, tournament_tz(sc, t), first_day)
    assert tm is not None
    return rule.allows(sc, t, tm), not list(rule.check(Audit(sc, [Occurrence(t, 1, tm)])))


@given(NOTICE_FROM, OFFSET)
def test_application_model_check_and_deadlines_agree(nf: dt.date, offset: int) -> None:
    first = nf + dt.timedelta(days=offset)
    sc = _ME.model_copy(update={"notice_from": nf})
    allows, checks = _allows_and_check(sc, "g", first, ME_APPLICATION)
    # the reading, counted directly (RULES.md row): the due date, the 10th Maine business day
    # before the first day, is not before notice_from, i.e. at least 10 Maine business days
    # from notice_from through the day before `first`
    room = sum(is_maine_business_day(nf + dt.timedelta(days=i)) for i in range(offset))
    assert allows == checks == application_ok(first, nf) == (room >= 10)
    earliest = application_earliest_first_day(nf)
    assert allows == (first >= earliest)
    assert application_ok(earliest, nf)
    assert not application_ok(earliest - dt.timedelta(days=1), nf)
    if allows:
        opens, due = application_window(first, nf)
        assert nf <= opens <= due < first
        assert (first - opens).days <= 90
        assert report_due(first) > first


@given(NOTICE_FROM, OFFSET)
def test_notice_model_check_and_deadline_agree(nf: dt.date, offset: int) -> None:
    first = nf + dt.timedelta(days=offset)
    sc = _MT.model_copy(update={"notice_from": nf})
    allows, checks = _allows_and_check(sc, "big", first, MT_NOTICE)
    assert allows == checks == (offset >= 5)
    if allows:
        assert nf <= notice_due(first) < first


@settings(max_examples=min(settings.default.max_examples, 10))
@given(NOTICE_FROM)
def test_no_emitted_deadline_before_notice_from(nf: dt.date) -> None:
    # a Maine game and a Montana large-stakes tournament, each placed as early as the plan
    # likes in the 3 weeks from notice_from; every deadline on the calendar, in the report's
    # "Apply by" and in the figures is on or after notice_from
    end = nf + dt.timedelta(days=20)
    window = {"start": nf.isoformat(), "end": end.isoformat()}
    sc = load(horizon={"start": nf.isoformat(), "end": (nf + dt.timedelta(days=40)).isoformat()},
              notice_from=nf.isoformat(), operators=[POST, mt_room()],
              tournaments=[me_game(window=window),
                           mt_large("big", count=1, window=window)],
              as_of=nf.isoformat())  # made as of notice_from, not the suite's today
    plan = run(sc)
    assert {r.tournament_id for r in plan.rows} == {"g", "big"}  # 3 weeks leave room for both
    emitted = deadlines(plan)
    assert emitted and min(emitted.values()) >= nf
    assert all(day >= nf for day, _ in figures.application_deadlines(plan, "post"))
    assert all(r.notice_due >= nf for r in plan.rows if r.notice_due is not None)
    for r in plan.rows:
        if r.tournament_id == "g":
            assert r.first_day >= application_earliest_first_day(nf)
