"""MAX-CONCURRENT's check on many overlapping sessions (issue #12 review): one violation per
run of instants over the limit, and a sentence that names the first 5 sessions and counts
the rest, so a calendar repeating every minute (5,000 sessions, ~600 at once) is checked in
one pass (tests/test_hostile_input.py::TestEveryReadIsBounded).

Sat Aug 7, 2027, Montana (America/Denver, MDT); sessions are end-exclusive.
"""

from __future__ import annotations

from typing import Any

from constraints.base import Audit
from constraints.common import MAX_CONCURRENT
from constraints.registry import check

from builders.scenarios import load, mt_large, mt_room, placed

SAT = "2027-08-07"


def aug(tournaments: list[dict[str, Any]], **room: Any) -> Any:
    return load(horizon={"start": "2027-08-01", "end": "2027-08-31"},
                notice_from="2027-07-01", operators=[mt_room(**room)], tournaments=tournaments)


def concurrent(sc: Any, tids: list[str]) -> list[Any]:
    return check(Audit(sc, [placed(sc, t, SAT) for t in tids], []), rules=[MAX_CONCURRENT])


class TestRuns:
    def test_one_violation_per_run_of_instants_over_the_limit(self) -> None:
        # one at a time; a 08:00-13:00, b 12:00-14:00, c 13:00-16:00, d 18:00-20:00,
        # e 19:00-21:00. Session starts: 08:00 {a} 1; 12:00 {a, b} 2 > 1 (a run begins);
        # 13:00 {b, c} 2 > 1 (a has ended; the same run: not reported again); 18:00 {d} 1
        # (the run ends); 19:00 {d, e} 2 > 1 (a new run). Two violations, not three.
        sc = aug([mt_large("a", start_time="08:00", hours=5),
                  mt_large("b", start_time="12:00", hours=2),
                  mt_large("c", start_time="13:00", hours=3),
                  mt_large("d", start_time="18:00", hours=2),
                  mt_large("e", start_time="19:00", hours=2)])
        found = concurrent(sc, ["a", "b", "c", "d", "e"])
        assert [(v.rule, v.dates, v.refs) for v in found] == [
            ("MAX-CONCURRENT", SAT, ("a#1", "b#1")), ("MAX-CONCURRENT", SAT, ("d#1", "e#1"))]
        assert [v.message for v in found] == [
            "Room-A would have 2 tournaments in play at once at 2027-08-07 12:00 "
            "(a#1 08:00-13:00, b#1 12:00-14:00); at most 1 at once",
            "Room-A would have 2 tournaments in play at once at 2027-08-07 19:00 "
            "(d#1 18:00-20:00, e#1 19:00-21:00); at most 1 at once"]

    def test_a_run_ends_when_a_session_ends_between_starts(self) -> None:
        # one at a time; a 08:00-13:00, b 12:00-14:00, f 13:30-15:30, c 14:00-16:00.
        # 12:00 {a, b} 2 (reported); at 13:00 a ends and no session starts: {b} 1, the run
        # ends; 13:30 {b, f} 2 (a new run, reported); 14:00 b ends as c starts: {f, c} 2,
        # never 1 in between (end-exclusive), the same run: not reported
        sc = aug([mt_large("a", start_time="08:00", hours=5),
                  mt_large("b", start_time="12:00", hours=2),
                  mt_large("f", start_time="13:30", hours=2),
                  mt_large("c", start_time="14:00", hours=2)])
        found = concurrent(sc, ["a", "b", "f", "c"])
        assert [v.refs for v in found] == [("a#1", "b#1"), ("b#1", "f#1")]


class TestSentence:
    def test_five_sessions_are_named(self) -> None:
        # five at 12:00-22:00, at most 1: all five named, nothing counted
        tids = [f"t{k}" for k in range(5)]
        (v,) = concurrent(aug([mt_large(t) for t in tids]), tids)
        assert v.message == (
            "Room-A would have 5 tournaments in play at once at 2027-08-07 12:00 "
            "(t0#1 12:00-22:00, t1#1 12:00-22:00, t2#1 12:00-22:00, t3#1 12:00-22:00, "
            "t4#1 12:00-22:00); at most 1 at once")

    def test_the_sixth_and_seventh_are_counted(self) -> None:
        # seven at once: the first 5 named, 7 - 5 = 2 counted; every ref still listed
        tids = [f"t{k}" for k in range(7)]
        (v,) = concurrent(aug([mt_large(t) for t in tids]), tids)
        assert v.refs == tuple(f"t{k}#1" for k in range(7))
        assert v.message == (
            "Room-A would have 7 tournaments in play at once at 2027-08-07 12:00 "
            "(t0#1 12:00-22:00, t1#1 12:00-22:00, t2#1 12:00-22:00, t3#1 12:00-22:00, "
            "t4#1 12:00-22:00, and 2 more); at most 1 at once")
