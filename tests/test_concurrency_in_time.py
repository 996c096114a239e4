"""MAX-CONCURRENT counted in time (issue #15 part 2): at most ``max_concurrent`` of an
operator's tournaments in play at the same moment, over their play sessions (the default,
``concurrency: time``), and the per-day reading behind ``concurrency: day``.

August 2027: Fri Aug 6, Sat Aug 7, Sun Aug 8; Montana (America/Denver, MDT all month). Sessions
are end-exclusive: one ending at 13:00 and one starting at 13:00 do not overlap.
"""

from __future__ import annotations

from typing import Any

from constraints.base import Audit, License
from constraints.registry import check
from scheduler.core.timing import sessions

from builders.scenarios import d, firsts, load, missing, mt_large, mt_room, placed, run, violations

AUG = {"start": "2027-08-01", "end": "2027-08-31"}
NOTICE = "2027-07-01"


def aug(**kw: Any) -> Any:
    return load(horizon=AUG, notice_from=NOTICE, **kw)


def permits() -> list[License]:
    return [License("room-a/lp", "room-a", "MT", "mt-large-stakes-permit", "", d("2027-07-01"),
                    d("2028-06-30"), 120, ())]


def weekend(**room: Any) -> Any:
    """The series weekend of the issue, two at once at most:
    x: Fri 17:00, 2 days of 9 h: Fri 17:00-Sat 02:00 and Sat 17:00-Sun 02:00 (Aug 6, 7, 8);
    w: Sat 08:00-13:00; y: Sat 11:00-21:00.
    In time: 08:00 w; 11:00 w, y (2); 13:00 y; 17:00 y, x (2); never 3.
    Per day: Sat Aug 7 has x, w and y: 3 > 2."""
    return aug(operators=[mt_room(max_concurrent=2, **room)], tournaments=[
        mt_large("x", days=2, start_time="17:00", hours=9, fixed_dates=["2027-08-06"]),
        mt_large("w", start_time="08:00", hours=5, fixed_dates=["2027-08-07"]),
        mt_large("y", start_time="11:00", hours=10, fixed_dates=["2027-08-07"]),
        mt_large("v", start_time="12:00", hours=2, window={"start": "2027-08-07",
                                                           "end": "2027-08-07"})])


class TestSessions:
    def test_a_multi_day_tournament_plays_each_day(self) -> None:
        # x: 17:00 MDT = 23:00 UTC; 9 h later 02:00 MDT = 08:00 UTC the next day
        sc = weekend()
        got = sessions(sc, sc.tournament("x"), placed(sc, "x", "2027-08-06").timing)
        assert [(a.isoformat(), b.isoformat()) for a, b in got] == [
            ("2027-08-06T23:00:00+00:00", "2027-08-07T08:00:00+00:00"),
            ("2027-08-07T23:00:00+00:00", "2027-08-08T08:00:00+00:00")]


class TestInTime:
    def test_the_series_weekend_fits_in_time(self) -> None:
        # x, w, y are pinned; v (12:00-14:00 Sat) would make w, y, v three at 12:00
        plan = run(weekend())
        assert sorted({r.tournament_id for r in plan.rows}) == ["w", "x", "y"]
        (u,) = plan.unscheduled_list
        assert (u.tournament_id, u.rule_ids) == ("v", ("MAX-CONCURRENT", "WINDOW"))
        assert "3 tournaments in play at once at 2027-08-07 12:00" in u.reason

    def test_the_per_day_reading_refuses_it(self) -> None:
        # concurrency: day: Sat Aug 7 would hold x, w, y (3 > 2): one of the pinned ones goes
        plan = run(weekend(concurrency="day"))
        assert len({r.tournament_id for r in plan.rows}) == 2
        assert not plan.required_met

    def test_back_to_back_sessions_do_not_overlap(self) -> None:
        # one at a time: a 08:00-13:00 and b 13:00-18:00 on Sat fit; c 12:00-14:00 does not
        sc = aug(operators=[mt_room()], tournaments=[
            mt_large("a", start_time="08:00", hours=5, fixed_dates=["2027-08-07"]),
            mt_large("b", start_time="13:00", hours=5, fixed_dates=["2027-08-07"]),
            mt_large("c", start_time="12:00", hours=2, window={"start": "2027-08-07",
                                                               "end": "2027-08-07"})])
        plan = run(sc)
        assert sorted(r.tournament_id for r in plan.rows) == ["a", "b"]
        assert missing(plan, "c") == [("MAX-CONCURRENT", "WINDOW")]

    def test_between_the_sessions_of_a_multi_day_event(self) -> None:
        # a: Aug 2..4, 12:00-16:00 each day; b 18:00-22:00 on Aug 3 is in the evening gap;
        # c 15:00-17:00 on Aug 3 overlaps a's second session (15:00 < 16:00)
        sc = aug(operators=[mt_room()], tournaments=[
            mt_large("a", days=3, hours=4, fixed_dates=["2027-08-02"]),
            mt_large("b", start_time="18:00", hours=4, fixed_dates=["2027-08-03"]),
            mt_large("c", start_time="15:00", hours=2, window={"start": "2027-08-03",
                                                               "end": "2027-08-03"})])
        plan = run(sc)
        assert sorted(r.tournament_id for r in plan.rows) == ["a", "b"]
        assert firsts(plan, "b") == [d("2027-08-03")]
        assert missing(plan, "c") == [("MAX-CONCURRENT", "WINDOW")]


class TestChecker:
    def test_names_the_sessions_that_overlap_and_when(self) -> None:
        sc = weekend()
        ok = [placed(sc, "x", "2027-08-06"), placed(sc, "w", "2027-08-07"),
              placed(sc, "y", "2027-08-07")]
        assert violations(sc, ok, permits()) == []
        found = check(Audit(sc, [*ok, placed(sc, "v", "2027-08-07")], permits()))
        assert [(v.rule, v.dates, v.refs) for v in found] == [
            ("MAX-CONCURRENT", "2027-08-07", ("w#1", "y#1", "v#1"))]
        assert found[0].message == (
            "Room-A would have 3 tournaments in play at once at 2027-08-07 12:00 "
            "(w#1 08:00-13:00, y#1 11:00-21:00, v#1 12:00-14:00); at most 2 at once")

    def test_per_day_reading(self) -> None:
        sc = weekend(concurrency="day")
        occ = [placed(sc, "x", "2027-08-06"), placed(sc, "w", "2027-08-07"),
               placed(sc, "y", "2027-08-07")]
        assert violations(sc, occ, permits()) == [("MAX-CONCURRENT", "room-a", "2027-08-07")]

    def test_session_past_midnight_named_with_its_date(self) -> None:
        # one at a time: z (Fri 20:00-23:00) lies inside x's first session (Fri 17:00 to
        # Sat 02:00), whose end is on another day, so it is written with its date
        sc = aug(operators=[mt_room()], tournaments=[
            mt_large("x", days=2, start_time="17:00", hours=9),
            mt_large("z", start_time="20:00", hours=3)])
        found = check(Audit(sc, [placed(sc, "x", "2027-08-06"), placed(sc, "z", "2027-08-06")],
                            permits()))
        assert [v.message for v in found] == [
            "Room-A would have 2 tournaments in play at once at 2027-08-06 20:00 "
            "(x#1 17:00-2027-08-07 02:00, z#1 20:00-23:00); at most 1 at once"]
