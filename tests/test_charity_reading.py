"""MT-CHARITY-LIMIT, corrected reading (MCA 23-5-317(1)(f)), and impossible history.

(1)(f): up to 3 charitable large-stakes tournaments a permit year are *not counted* toward the
16 of MT-LARGE-LIMIT (the first three of the permit year, those held before the plan first);
(1)(f) sets no cap, so a 4th and later charitable tournament is allowed and *counted* toward
the 16. Per operator and permit year, with N non-charitable and C charitable placed and hl, hc
held before the plan: N + hl + max(0, C + hc - 3) <= 16.

``held_in_current_permit_year`` counts what was held before ``horizon.start`` in the permit
year that contains it: it must be 0 when ``horizon.start`` is that permit year's first day, and
the counted held ones (large_stakes + max(0, charitable - 3)) cannot exceed 16.

Each scenario is asserted in the model (a solve) and in the independent check (the checker on
an Audit, and ``tourney check`` on a schedule.csv). Expected values are computed by hand in the
comment before each assertion.

Calendar facts (2027): Jan 1 Fri; Jul 1 Thu; Jul 5 Mon; Aug 2 Mon. Permit years run
Jul 1 - Jun 30 (default ``permit_year_start: 07-01``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from constraints.base import Audit, License
from constraints.montana import large_tally
from constraints.registry import check
from scheduler.cli import app
from scheduler.export.figures import plot_usage
from scheduler.export.summary import summary_text

from builders.checkfiles import HEADER, mt_rows, write_scenario, write_schedule
from builders.scenarios import (
    d,
    firsts,
    load,
    mt_large,
    mt_room,
    placed,
    problems,
    run,
    scenario,
    violated,
)

runner = CliRunner()

SUMMER = {"start": "2027-07-01", "end": "2027-08-31"}  # 62 days, permit year 2027-07-01
SPRING = {"start": "2027-01-01", "end": "2027-06-30"}  # 181 days, permit year 2026-07-01
HELD = "operators[0].held_in_current_permit_year"


def charity(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    return mt_large(tid, ops, charitable=True, charity_share=0.5, **kw)


def permit(py: str = "2027-07-01") -> list[License]:
    """room-a's $120 large-stakes permit for the permit year starting ``py`` (MT-PERMIT-FEES)."""
    start = d(py)
    return [License(f"room-a/mt-large-stakes-permit/{py}", "room-a", "MT",
                    "mt-large-stakes-permit", "", start,
                    start.replace(year=start.year + 1) - dt.timedelta(days=1), 120, ())]


def days_from(start: str, n: int) -> list[dt.date]:
    return [d(start) + dt.timedelta(days=i) for i in range(n)]


def counted_by_day(plan: Any, operator_id: str = "room-a") -> list[bool]:
    """schedule.csv's ``counted`` of one operator's rows, by first day."""
    rows = sorted((r for r in plan.rows if r.operator_id == operator_id),
                  key=lambda r: (r.first_day, r.tournament_id, r.occurrence))
    return [r.counted for r in rows]


def usage_rows(plan: Any) -> list[tuple[str, str, str, int, int]]:
    return [(r.operator_id, r.rule_id, str(r.period_start.date()), r.used, r.limit)
            for r in plan.usage().itertuples()]


def cli_check(tmp_path: Path, data: dict[str, Any], csv: str) -> tuple[int, list[dict]]:
    """``tourney check`` of a schedule.csv (no licenses.csv: cost rules are not checked):
    exit code and the JSON violations."""
    sc = write_scenario(tmp_path, data)
    sched = write_schedule(tmp_path / "sched", csv)
    res = runner.invoke(app, ["check", str(sc), str(sched), "--format", "json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, [v for v in json.loads(res.stdout) if v["rule"] != "UNMATCHED"]


# =============================================================== 1. 20 charitable wanted
class TestTwentyCharitableNothingHeld:
    """20 charitable wanted in one permit year, nothing held: 3 free + 16 counted = 19 fit."""

    def test_model_places_nineteen(self) -> None:
        # Jul 1 - Aug 31 2027 (one permit year), 20 one-day charitable wanted:
        # placed 19 = 3 free + 16 counted; 1 not placed (c#20) for MT-LARGE-LIMIT.
        # counted: the 3 earliest first days False, the other 16 True.
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[mt_room()],
                  tournaments=[charity("c", count=20)])
        plan = run(sc)
        assert len(firsts(plan)) == 19
        assert [(u.tournament_id, u.occurrence) for u in plan.unscheduled_list] == [("c", 20)]
        assert plan.unscheduled_list[0].rule_ids[0] == "MT-LARGE-LIMIT"
        assert counted_by_day(plan) == [False] * 3 + [True] * 16
        # MT-LARGE-LIMIT 0 non-charitable + 16 charitable counted = 16 of 16;
        # MT-CHARITY-LIMIT 3 free of 3
        assert usage_rows(plan) == [
            ("room-a", "MT-LARGE-LIMIT", "2027-07-01", 16, 16),
            ("room-a", "MT-CHARITY-LIMIT", "2027-07-01", 3, 3)]
        # the usage table tells free and counted charitable apart: 16 of the 16 counted are
        # charitable; the 3 free ones are all charitable
        assert list(plan.usage()["charitable"]) == [16, 3]
        text = summary_text(plan)
        assert ("MT-LARGE-LIMIT permit year 2027-07-01: 16/16 counted (0 non-charitable + 16 "
                "charitable beyond the first 3)") in text
        assert "MT-CHARITY-LIMIT permit year 2027-07-01: 3/3 charitable not counted" in text
        # the chart: the MT-LARGE-LIMIT bar is 16 high, all 16 hatched (charitable counted)
        fig = plot_usage(plan)
        bars = {a.get_gid(): a.get_height() for ax in fig.axes for a in ax.patches
                if isinstance(a.get_gid(), str)}
        assert bars["usage:MT-LARGE-LIMIT:room-a:2027-07-01"] == 16
        assert bars["usage-charitable:MT-LARGE-LIMIT:room-a:2027-07-01"] == 16
        assert bars["usage:MT-CHARITY-LIMIT:room-a:2027-07-01"] == 3
        # and the model's own plan passes the independent check
        assert check(Audit(sc, [placed(sc, "c", r.first_day, r.occurrence)
                                for r in plan.rows], plan.license_list)) == []

    def test_check_nineteen_legal_twentieth_flagged(self, tmp_path: Path) -> None:
        # c on Jul 1..Jul 19: 3 free (Jul 1, 2, 3) + 16 counted = legal; Jul 20 is the
        # 20th charitable, counted: 0 + 17 = the 17th counted -> MT-LARGE-LIMIT on Jul 20
        t = charity("c", count=20)
        data = scenario(operators=[mt_room()], tournaments=[t])
        sc = load(operators=[mt_room()], tournaments=[t])
        days = days_from("2027-07-01", 20)
        occ = [placed(sc, "c", x, k) for k, x in enumerate(days, start=1)]
        assert violated(sc, occ[:19], permit()) == []
        found = check(Audit(sc, occ, permit()))
        assert [(v.rule, v.dates) for v in found] == [("MT-LARGE-LIMIT", "2027-07-20")]
        assert found[0].message == (
            "Room-A would hold its 17th counted large-stakes tournament of the 2027-07-01 "
            "permit year on 2027-07-20 (c#20); it is its 20th charitable one, and only the "
            "first 3 (c#1, c#2 and c#3) are not counted (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f)); "
            "all 16 are used by " + ", ".join(f"c#{k}" for k in range(4, 20)))
        # tourney check says the same: exit 1 with the 20-day schedule, 0 with 19
        code, found_cli = cli_check(tmp_path / "bad", data, HEADER + mt_rows(t, "room-a", days))
        assert code == 1
        assert [(v["rule"], v["occurrence"], v["dates"]) for v in found_cli] == [
            ("MT-LARGE-LIMIT", 20, "2027-07-20")]
        code, found_cli = cli_check(tmp_path / "good", data,
                                    HEADER + mt_rows(t, "room-a", days[:19]))
        assert (code, found_cli) == (0, [])


# ======================================= 2. 3 free + 16 non-charitable: the 4th is refused
class TestFourthCharitableIsTheSeventeenthCounted:
    """16 non-charitable + 3 charitable fill a permit year: a 4th charitable is counted, the
    17th counted one."""

    def test_model_refuses_the_fourth_charitable(self) -> None:
        # wanted 16 a (priority 2) + 4 c (priority 1): 16 + 3 free = 19 placed; a 4th c would
        # be the 17th counted. (15 a + 4 c is also 19 but weighs 15 x 2 + 4 = 34 < 16 x 2 + 3
        # = 35.) counted: 16 a + 0 c = 16 rows True, the 3 c False.
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[mt_room()],
                  tournaments=[mt_large("a", count=16, priority=2), charity("c", count=4)])
        plan = run(sc)
        assert (len(firsts(plan, "a")), len(firsts(plan, "c"))) == (16, 3)
        assert [(u.tournament_id, u.occurrence, u.rule_ids[0])
                for u in plan.unscheduled_list] == [("c", 4, "MT-LARGE-LIMIT")]
        assert sorted(r.counted for r in plan.rows if r.tournament_id == "c") == [False] * 3
        assert all(r.counted for r in plan.rows if r.tournament_id == "a")
        assert usage_rows(plan) == [
            ("room-a", "MT-LARGE-LIMIT", "2027-07-01", 16, 16),     # 16 + 0
            ("room-a", "MT-CHARITY-LIMIT", "2027-07-01", 3, 3)]

    def test_check_names_the_seventeenth_and_the_free_ones(self, tmp_path: Path) -> None:
        # a on Jul 5..Jul 20 (16), c on Aug 2, 3, 4 (3 free): legal. c#4 on Aug 5 is the 4th
        # charitable, counted: 16 + 1 = 17th counted -> MT-LARGE-LIMIT on Aug 5
        a, c = mt_large("a", count=16), charity("c", count=4)
        data = scenario(operators=[mt_room()], tournaments=[a, c])
        sc = load(operators=[mt_room()], tournaments=[a, c])
        a_days, c_days = days_from("2027-07-05", 16), days_from("2027-08-02", 4)
        occ = [placed(sc, "a", x, k) for k, x in enumerate(a_days, start=1)]
        occ += [placed(sc, "c", x, k) for k, x in enumerate(c_days, start=1)]
        assert violated(sc, occ[:19], permit()) == []
        found = check(Audit(sc, occ, permit()))
        assert [(v.rule, v.refs, v.dates) for v in found] == [
            ("MT-LARGE-LIMIT", ("c#4",), "2027-08-05")]
        assert ("its 17th counted large-stakes tournament of the 2027-07-01 permit year on "
                "2027-08-05 (c#4); it is its 4th charitable one, and only the first 3 (c#1, "
                "c#2 and c#3) are not counted") in found[0].message
        code, found_cli = cli_check(tmp_path / "bad", data, HEADER + mt_rows(
            a, "room-a", a_days) + mt_rows(c, "room-a", c_days))
        assert code == 1
        assert [(v["rule"], v["tournament_id"], v["occurrence"]) for v in found_cli] == [
            ("MT-LARGE-LIMIT", "c", 4)]
        code, found_cli = cli_check(tmp_path / "good", data, HEADER + mt_rows(
            a, "room-a", a_days) + mt_rows(c, "room-a", c_days[:3]))
        assert (code, found_cli) == (0, [])

    def test_charitable_first_then_the_last_non_charitable_is_seventeenth(self) -> None:
        # c on Jul 1..4 first: c#1..c#3 free, c#4 (Jul 4) counted (1st counted); a on
        # Jul 5..20: a#1 is the 2nd counted ... a#16 (Jul 20) the 17th -> flagged, and the
        # message names the charitable ones that are not counted
        sc = load(operators=[mt_room()], tournaments=[mt_large("a", count=16),
                                                      charity("c", count=4)])
        occ = [placed(sc, "c", x, k) for k, x in enumerate(days_from("2027-07-01", 4), 1)]
        occ += [placed(sc, "a", x, k) for k, x in enumerate(days_from("2027-07-05", 16), 1)]
        found = check(Audit(sc, occ, permit()))
        assert [(v.rule, v.refs, v.dates) for v in found] == [
            ("MT-LARGE-LIMIT", ("a#16",), "2027-07-20")]
        assert ("(a#16); not counted: the charitable c#1, c#2 and c#3 (MT-CHARITY-LIMIT); "
                "all 16 are used by c#4, a#1,") in found[0].message


# ============================================ 3. held 2 charitable + 2 planned charitable
class TestHeldCharitableAreFreeFirst:
    def test_model_one_free_one_counted(self) -> None:
        # held 2 charitable (free 2 of 3): of the 2 planned, the earlier is the 3rd charitable
        # (free), the later the 4th (counted). MT-LARGE-LIMIT 0 + 1 = 1/16; MT-CHARITY-LIMIT
        # 2 + 1 = 3/3. The large-stakes permit counts as held (charitable held > 0): $0.
        sc = load(horizon=SPRING, operators=[mt_room(held_in_current_permit_year={
            "charitable": 2})], tournaments=[charity("c", count=2)])
        plan = run(sc)
        assert len(firsts(plan)) == 2 and plan.unscheduled_list == ()
        assert counted_by_day(plan) == [False, True]
        assert usage_rows(plan) == [
            ("room-a", "MT-LARGE-LIMIT", "2026-07-01", 1, 16),
            ("room-a", "MT-CHARITY-LIMIT", "2026-07-01", 3, 3)]
        assert plan.total_fees_usd == 0

    def test_tally(self) -> None:
        # the one function: held 2 -> c#1 (Feb 1) free, c#2 (Feb 8) counted
        sc = load(operators=[mt_room(held_in_current_permit_year={"charitable": 2})])
        tally = large_tally(sc, sc.operator("room-a"), [
            (d("2027-02-08"), "c", 2, True), (d("2027-02-01"), "c", 1, True)])
        t = tally[d("2026-07-01")]
        assert (t.free, t.counted_charitable, t.counted_order) == (("c#1",), ("c#2",), ("c#2",))
        assert (t.held_free, t.held_counted, t.free_used, t.counted) == (2, 0, 3, 1)


# ======================== 4. held 5 charitable (2 counted) + 14 non-charitable planned: 16
class TestHeldCharitableBeyondThreeCount:
    def test_model_fourteen_of_fifteen(self) -> None:
        # held 5 charitable: 3 free + 2 counted. 16 - 2 = 14 non-charitable fit in
        # Jan-Jun 2027; 15 wanted -> 14 placed, 1 not placed (MT-LARGE-LIMIT).
        # MT-LARGE-LIMIT 2 + 14 = 16/16; MT-CHARITY-LIMIT 3/3.
        sc = load(horizon=SPRING, operators=[mt_room(held_in_current_permit_year={
            "charitable": 5})], tournaments=[mt_large("a", count=15)])
        plan = run(sc)
        assert len(firsts(plan)) == 14
        assert [(u.occurrence, u.rule_ids[0]) for u in plan.unscheduled_list] == [
            (15, "MT-LARGE-LIMIT")]
        assert usage_rows(plan) == [
            ("room-a", "MT-LARGE-LIMIT", "2026-07-01", 16, 16),
            ("room-a", "MT-CHARITY-LIMIT", "2026-07-01", 3, 3)]
        # 14 non-charitable + 2 charitable beyond the first 3 (held)
        assert ("MT-LARGE-LIMIT permit year 2026-07-01: 16/16 counted (14 non-charitable + 2 "
                "charitable beyond the first 3)") in summary_text(plan)

    def test_check_fifteenth_is_the_seventeenth_counted(self, tmp_path: Path) -> None:
        # a on Feb 1..14 (14): 2 + 14 = 16 legal; Feb 15 is the 2 + 15 = 17th counted
        a = mt_large("a", count=15)
        room = mt_room(held_in_current_permit_year={"charitable": 5})
        data = scenario(operators=[room], tournaments=[a])
        sc = load(operators=[room], tournaments=[a])
        days = days_from("2027-02-01", 15)
        occ = [placed(sc, "a", x, k) for k, x in enumerate(days, start=1)]
        assert violated(sc, occ[:14]) == []
        found = check(Audit(sc, occ))
        assert [(v.rule, v.dates) for v in found] == [("MT-LARGE-LIMIT", "2027-02-15")]
        assert ("its 17th counted large-stakes tournament of the 2026-07-01 permit year on "
                "2027-02-15 (a#15); not counted: the charitable 3 held before the plan "
                "(MT-CHARITY-LIMIT); all 16 are used by 2 held before the plan (2 of them "
                "charitable beyond the first 3) and a#1,") in found[0].message
        code, found_cli = cli_check(tmp_path / "bad", data, HEADER + mt_rows(a, "room-a", days))
        assert code == 1
        assert [(v["rule"], v["occurrence"], v["dates"]) for v in found_cli] == [
            ("MT-LARGE-LIMIT", 15, "2027-02-15")]
        code, found_cli = cli_check(tmp_path / "good", data,
                                    HEADER + mt_rows(a, "room-a", days[:14]))
        assert (code, found_cli) == (0, [])


# ================================= 5. a shared charitable tournament: counted per operator
class TestSharedCharitableCountedPerOperator:
    def test_counted_differs_by_operator(self) -> None:
        # room-a held 3 charitable (its 3 free are used), room-b none. One shared charitable
        # progressive in January: for room-a its 4th charitable (counted), for room-b its 1st
        # (free). MT-LARGE-LIMIT a 1/16, b 0/16; MT-CHARITY-LIMIT a 3/3, b 1/3.
        sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
                  operators=[mt_room(held_in_current_permit_year={"charitable": 3}),
                             mt_room("room-b")],
                  tournaments=[charity("prog", ("room-a", "room-b"))])
        plan = run(sc)
        assert {r.operator_id: r.counted for r in plan.rows} == {"room-a": True,
                                                                  "room-b": False}
        assert usage_rows(plan) == [
            ("room-a", "MT-LARGE-LIMIT", "2026-07-01", 1, 16),
            ("room-a", "MT-CHARITY-LIMIT", "2026-07-01", 3, 3),
            ("room-b", "MT-LARGE-LIMIT", "2026-07-01", 0, 16),
            ("room-b", "MT-CHARITY-LIMIT", "2026-07-01", 1, 3)]


# =============================================== 6. history that cannot be true (part 5)
class TestImpossibleHistory:
    def test_history_at_the_permit_year_start_is_rejected(self) -> None:
        # horizon.start 2027-07-01 is the first day of room-a's permit year (07-01): nothing
        # can have been held in it before 2027-07-01
        assert problems(scenario(horizon=SUMMER, operators=[mt_room(
            held_in_current_permit_year={"large_stakes": 10, "charitable": 1})])) == {
            ("MT-LARGE-LIMIT", f"{HELD}.large_stakes"),
            ("MT-CHARITY-LIMIT", f"{HELD}.charitable")}
        # permits bought ahead for the permit year are possible: accepted
        load(horizon=SUMMER, operators=[mt_room(held_in_current_permit_year={
            "permits": ["large-stakes"]})])

    def test_the_permit_year_start_is_the_operators(self) -> None:
        # horizon.start 2027-01-01: the first day of a calendar permit year (01-01) -> an
        # error; in the default Jul-Jun permit year it is day 185 -> accepted
        assert problems(scenario(operators=[mt_room(permit_year_start="01-01",
                                                    held_in_current_permit_year={
                                                        "large_stakes": 1})])) == {
            ("MT-LARGE-LIMIT", f"{HELD}.large_stakes")}
        load(operators=[mt_room(held_in_current_permit_year={"large_stakes": 1})])

    def test_cli_names_file_line_field_value_and_reason(self, tmp_path: Path) -> None:
        # the example of the issue: {large_stakes: 10} on horizon.start = Jul 1 is exit 2
        data = scenario(horizon=SUMMER, operators=[mt_room(
            held_in_current_permit_year={"large_stakes": 10})],
            tournaments=[mt_large("a", count=16)])
        path = write_scenario(tmp_path, data)
        res = runner.invoke(app, ["solve", str(path), "--out", str(tmp_path / "plan")])
        assert res.exit_code == 2
        text = " ".join(res.output.split())
        assert re.search(r"scenario\.yaml:\d+: operators\[0\]\.held_in_current_permit_year\."
                         r"large_stakes = 10: ", text)
        assert (f"{HELD}.large_stakes = 10: counts what was held before horizon.start "
                "(2027-07-01) in the permit year that contains it; that permit year begins on "
                "2027-07-01 (permit_year_start 07-01), so nothing can have been held in it "
                "yet: it must be 0") in text
        assert "(MT-LARGE-LIMIT, MCA 23-5-317(1)(a))" in res.output
        assert not (tmp_path / "plan").exists()
        # tourney check refuses the same scenario before reading the schedule (exit 2)
        sched = write_schedule(tmp_path / "sched", HEADER)
        res = runner.invoke(app, ["check", str(path), str(sched)])
        assert res.exit_code == 2 and f"{HELD}.large_stakes = 10" in res.output

    def test_seventeen_counted_held_is_rejected(self) -> None:
        # large_stakes 17 > 16
        assert problems(scenario(operators=[mt_room(held_in_current_permit_year={
            "large_stakes": 17})])) == {("MT-LARGE-LIMIT", f"{HELD}.large_stakes")}
        # 16 + max(0, 4 - 3) = 17 > 16: the charitable beyond the first 3 count
        assert problems(scenario(operators=[mt_room(held_in_current_permit_year={
            "large_stakes": 16, "charitable": 4})])) == {("MT-LARGE-LIMIT", f"{HELD}.charitable")}
        # 16 + max(0, 3 - 3) = 16 and 0 + max(0, 19 - 3) = 16: accepted
        load(operators=[mt_room(held_in_current_permit_year={"large_stakes": 16,
                                                               "charitable": 3})])
        load(operators=[mt_room(held_in_current_permit_year={"charitable": 19})])

    def test_nineteen_charitable_held_leave_nothing_to_count(self) -> None:
        # held 19 charitable = 3 free + 16 counted: no large-stakes tournament fits in the
        # 2026-07-01 permit year, charitable or not (0 of 2 wanted placed)
        sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
                  operators=[mt_room(held_in_current_permit_year={"charitable": 19})],
                  tournaments=[mt_large("a"), charity("c")])
        plan = run(sc)
        assert firsts(plan) == []
        assert [u.rule_ids[0] for u in plan.unscheduled_list] == ["MT-LARGE-LIMIT"] * 2


# ======================================================= 7. conflicts name the reading
def test_conflict_of_required_charitable_names_the_counted_ones() -> None:
    # held 14 non-charitable + 4 charitable (3 free + 1 counted) = 15 counted; 2 charitable
    # required in January: both are counted (the 3 free are used), 15 + 2 = 17 > 16.
    # The minimal conflict: the request and MT-LARGE-LIMIT with the charitable reading.
    from scheduler.engine.explain import minimal_conflicts

    sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
              operators=[mt_room(held_in_current_permit_year={"large_stakes": 14,
                                                              "charitable": 4})],
              tournaments=[charity("c", count=2, required=2)])
    found = minimal_conflicts(sc)
    assert [[(m.rule, m.text) for m in c] for c in found] == [[
        ("REQUEST", "c needs 2 occurrence(s) placed (required: 2)"),
        ("MT-LARGE-LIMIT", "room-a holds at most 16 counted large-stakes tournaments in the "
                           "2026-07-01 permit year (15 held before the plan, 1 of them "
                           "charitable beyond the first 3); only the first 3 charitable ones "
                           "(4 held before the plan) are not counted (MT-CHARITY-LIMIT)")]]
