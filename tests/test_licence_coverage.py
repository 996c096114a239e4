"""Issue #10, parts 2 and 3: a permit or licence must be valid on every day a tournament is
conducted, and `tourney check` verifies every row of licenses.csv against the statute.

- MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): $120 (large-stakes) / $500 (small-stakes) per
  permit year (Jul 1 - Jun 30), not prorated; a permit for every permit year a day of play
  falls in.
- ME-FEES, 17 M.R.S. § 1836(3-A), (4-A): per tournament $40 / $75 / $300 / $400 / $500 / $600,
  monthly (one calendar month) $100 / $200, annual (12 months from its first day) $750 /
  $1,500, super cribbage $75; a licence covers a game only if every day the game is conducted
  lies within its validity; a per-tournament licence covers exactly one game.

A "day" is any part of a midnight-to-midnight period (ARM 23.16.101): a session ending exactly
at 00:00 does not touch the next day (``scheduler.core.timing.Timing.days``).

Every scenario is solved (licences bought, total fee) and/or audited (``tourney check`` on a
hand-written schedule.csv + licenses.csv, exact violations; and its legal twin, none). The
expected placements and fees were worked out by hand, in the comments, before running.

Calendar facts: 2027-06-28 Mon, 2027-06-30 Wed, 2027-07-01 Thu; 2027-01-02 Sat, 2027-01-09
Sat; 2028-01-01 Sat, 2028-01-08 Sat (2028 is a leap year). Maine is America/New_York
(UTC-5 in winter), Montana America/Denver (UTC-7 in winter, UTC-6 in summer).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from constraints.base import Audit
from constraints.registry import check
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.extract import placed_of
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import LICENSE_COLUMNS, SCHEDULE_COLUMNS, Plan

from builders.scenarios import d, firsts, load, mt_large, mt_room, run

runner = CliRunner()

ORG: dict[str, Any] = {
    "id": "post", "name": "Legion Post 212", "jurisdiction": "ME", "local_approval": True,
    "beneficiaries": ["Post 212 Scholarship Fund"], "organized_on": "1946-05-12",
}


def me_game(tid: str, **kw: Any) -> dict[str, Any]:
    """A Maine tournament game of ``post``: 40 players (tier 1-50: $40 per tournament, $750
    annual), $50 entry, 80 % prizes, 12:00 for 10 h."""
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 40, "entry_fee": 50, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


def me_scenario(tournaments: list[dict[str, Any]], horizon: tuple[str, str],
                **top: Any) -> dict[str, Any]:
    return {"name": "coverage", "horizon": {"start": horizon[0], "end": horizon[1]},
            "notice_from": "2026-11-01", "operators": [ORG], "tournaments": tournaments,
            **top}


def fees(plan: Plan) -> list[tuple[str, dt.date, dt.date, int, int]]:
    """(kind, valid_from, valid_to, fee USD, number of occurrences listed) of each licence."""
    return sorted((lic.kind, lic.valid_from, lic.valid_to, lic.fee_usd, len(lic.covers))
                  for lic in plan.license_list)


def audited(plan: Plan) -> list[str]:
    """Rule IDs the independent checker finds in a solved plan with its own licences."""
    return [v.rule for v in check(Audit(plan.scenario, placed_of(plan), plan.license_list))]


# ============================================================================ the model
class TestMontanaPermitYearsOfPlay:
    """MT-PERMIT-FEES: a permit for every permit year in which a day of play falls."""

    @staticmethod
    def _plan(first: str, **kw: Any) -> Plan:
        return run(load(operators=[mt_room(**kw)],
                        tournaments=[mt_large("a", days=3, fixed_dates=[first])]))

    def test_jun_30_to_jul_2_needs_both_permits(self) -> None:
        # 3 play days Wed Jun 30, Thu Jul 1, Fri Jul 2 2027 (12:00-22:00 each): Jun 30 lies in
        # the 2026-07-01 permit year, Jul 1-2 in the 2027-07-01 one -> 2 x $120 = $240, each
        # permit lists a#1
        plan = self._plan("2027-06-30")
        assert firsts(plan) == [d("2027-06-30")]
        assert fees(plan) == [
            ("mt-large-stakes-permit", d("2026-07-01"), d("2027-06-30"), 120, 1),
            ("mt-large-stakes-permit", d("2027-07-01"), d("2028-06-30"), 120, 1)]
        assert plan.total_fees_usd == 240
        assert audited(plan) == []
        # schedule.csv's license_id names both permits, space-separated, in licence order
        (row,) = plan.rows
        assert row.license_id.split() == [lic.license_id for lic in plan.license_list]
        assert len(row.license_id.split()) == 2

    def test_jun_28_to_jun_30_needs_one(self) -> None:
        # Mon Jun 28 - Wed Jun 30 2027: all in the 2026-07-01 permit year -> $120
        plan = self._plan("2027-06-28")
        assert fees(plan) == [
            ("mt-large-stakes-permit", d("2026-07-01"), d("2027-06-30"), 120, 1)]
        assert plan.total_fees_usd == 120

    def test_current_permit_already_held_buys_only_the_new_year(self) -> None:
        # the plan starts 2027-01-01 in the 2026-07-01 permit year, whose large-stakes permit
        # is held: Jun 30 is covered by it; Jul 1-2 need the 2027-07-01 permit -> $120
        plan = self._plan("2027-06-30",
                          held_in_current_permit_year={"permits": ["large-stakes"]})
        assert fees(plan) == [
            ("mt-large-stakes-permit", d("2027-07-01"), d("2028-06-30"), 120, 1)]
        assert plan.total_fees_usd == 120
        assert audited(plan) == []

    def test_one_day_session_past_midnight_into_july(self) -> None:
        # Wed Jun 30 2027 20:00 + 5 h = Thu Jul 1 01:00 (before 02:00: MT-PLAY-HOURS holds):
        # play on Jul 1 -> both permits, 2 x $120 = $240
        sc = load(operators=[mt_room()],
                  tournaments=[mt_large("a", start_time="20:00", hours=5,
                                        fixed_dates=["2027-06-30"])])
        plan = run(sc)
        assert [lic.valid_from for lic in plan.license_list] == [d("2026-07-01"),
                                                                 d("2027-07-01")]
        assert plan.total_fees_usd == 240

    def test_one_day_session_ending_at_midnight_stays_in_june(self) -> None:
        # Wed Jun 30 2027 19:00 + 5 h = 24:00 = Thu Jul 1 00:00: it does not touch Jul 1
        # -> one permit, $120
        sc = load(operators=[mt_room()],
                  tournaments=[mt_large("a", start_time="19:00", hours=5,
                                        fixed_dates=["2027-06-30"])])
        plan = run(sc)
        assert [lic.valid_from for lic in plan.license_list] == [d("2026-07-01")]
        assert plan.total_fees_usd == 120


def annual_edge(long_hours: int) -> dict[str, Any]:
    """g: 18 Saturdays of 2027, the first pinned to Sat 2027-01-02; long: Sat 2028-01-01 12:00
    for ``long_hours``. An annual licence from Jan 2 2027 is valid to Sat 2028-01-01."""
    return me_scenario(
        [me_game("g", count=18, weekdays=["sat"], fixed_dates=["2027-01-02"],
                 window={"start": "2027-01-01", "end": "2027-12-31"}),
         me_game("long", hours=long_hours, fixed_dates=["2028-01-01"])],
        ("2027-01-01", "2028-01-31"))


class TestMaineEveryDayOfTheGame:
    """ME-FEES: an annual licence covers a game only if every day of it lies within the
    12 months from the licence's first day."""

    @staticmethod
    def _sc(long_hours: int) -> Scenario:
        return load_scenario(annual_edge(long_hours))

    def test_30_hour_game_from_the_annual_licences_last_day_is_not_covered(self) -> None:
        # long: Sat 2028-01-01 12:00 + 30 h = Sun 2028-01-02 18:00, conducted Jan 1 and 2.
        # The annual licence from Jan 2 2027 ends Jan 1 2028: it does not cover long. An
        # annual licence covering long starts on or after Jan 3 2027 (its 12 months must
        # reach Jan 2 2028), so it misses g#1 (Jan 2 2027): $750 + $40 = $790. 19 per-
        # tournament licences: 19 x $40 = $760 < $790 -> $760 (the old first-day reading
        # bought one annual licence for $750).
        plan = run(self._sc(30))
        assert len(firsts(plan)) == 19
        assert [(k, fee) for k, _, _, fee, _ in fees(plan)] == [("me-per-tournament", 40)] * 19
        assert plan.total_fees_usd == 760
        long = next(lic for lic in plan.license_list if lic.covers == ("long#1",))
        assert (long.valid_from, long.valid_to) == (d("2028-01-01"), d("2028-01-02"))
        assert audited(plan) == []

    def test_game_ending_at_midnight_after_the_licence_end_is_covered(self) -> None:
        # long: Sat 2028-01-01 12:00 + 12 h = Sun 2028-01-02 00:00: conducted on Jan 1 only,
        # inside the annual licence from Jan 2 2027 (to Jan 1 2028): one annual licence covers
        # all 19 games, $750 < 19 x $40 = $760
        plan = run(self._sc(12))
        assert len(firsts(plan)) == 19
        assert fees(plan) == [("me-annual", d("2027-01-02"), d("2028-01-01"), 750, 19)]
        assert plan.total_fees_usd == 750
        assert audited(plan) == []

    def test_two_annual_licences_meeting_on_the_spanning_game(self) -> None:
        # Every date fixed. g1: 2027-01-02 and the 6th and 20th of Feb..Oct 2027 (19); long:
        # Sat 2028-01-01 12:00 for 30 h (Jan 1-2 2028); g2: the 6th and 20th of Mar..Nov 2028
        # and Dec 30 2028 (19). Annual A must start Jan 2 2027 to cover g1#1 (to Jan 1 2028:
        # the 19 g1); long ends after A, so annual B covering long and g2 up to Dec 30 2028
        # starts on Jan 1 2028 (to Dec 31 2028: long + 19 g2 = 20): $750 + $750 = $1,500.
        # No 12-month period holds more than 20 of the 39 games (B's), so one annual licence
        # leaves at least 19 x $40 = $760: $1,510; per tournament 39 x $40 = $1,560. A and B
        # both hold Jan 1 2028 (the old rule "annual licences of one tier never overlap"
        # would have cost $750 + $40 + $750 = $1,540).
        g1 = ["2027-01-02"] + [f"2027-{m:02d}-{x}" for m in range(2, 11) for x in ("06", "20")]
        g2 = [f"2028-{m:02d}-{x}" for m in range(3, 12) for x in ("06", "20")] + ["2028-12-30"]
        sc = load_scenario(me_scenario(
            [me_game("g1", count=19, fixed_dates=g1),
             me_game("long", hours=30, fixed_dates=["2028-01-01"]),
             me_game("g2", count=19, fixed_dates=g2)],
            ("2027-01-01", "2028-12-31")))
        plan = run(sc)
        assert len(firsts(plan)) == 39  # 19 + 1 + 19
        assert fees(plan) == [("me-annual", d("2027-01-02"), d("2028-01-01"), 750, 19),
                              ("me-annual", d("2028-01-01"), d("2028-12-31"), 750, 20)]
        assert plan.total_fees_usd == 1500
        assert audited(plan) == []

    def test_super_cribbage_licence_valid_over_the_games_days(self) -> None:
        # 60 players, Sat 2027-03-06 12:00 + 30 h = Sun Mar 7 18:00: one $75 licence, valid
        # Mar 6 - Mar 7
        sc = load_scenario(me_scenario(
            [{"id": "sc", "title": "Super Cribbage", "type": "super-cribbage",
              "operators": ["post"], "players": 60, "entry_fee": 50, "prize_share": 0.75,
              "charity_share": 0.5, "organizer_member_years": 5, "start_time": "12:00",
              "hours": 30, "fixed_dates": ["2027-03-06"]}],
            ("2027-03-01", "2027-03-31")))
        plan = run(sc)
        assert fees(plan) == [("me-super-cribbage", d("2027-03-06"), d("2027-03-07"), 75, 1)]


# ============================================================================ the audit
HEADER = ",".join(SCHEDULE_COLUMNS) + "\n"
LIC_HEADER = ",".join(LICENSE_COLUMNS) + "\n"
Found = tuple[str, str, str, str, str]  # rule, operator_id, tournament_id, occurrence, dates


def schedule(data: dict[str, Any], *occurrences: tuple[str, int, str]) -> str:
    """schedule.csv rows (one operator each) of (tournament_id, occurrence, first day), timed
    as the product times them (``scheduler.core.timing.timing``)."""
    sc = load_scenario(data)
    out = [HEADER]
    for tid, occ, first in occurrences:
        t = sc.tournament(tid)
        tm = timing(t, tournament_tz(sc, t), d(first))
        assert tm is not None
        op = sc.operator(t.operators[0])
        mt = op.jurisdiction == "MT"
        out.append(",".join([
            tid, str(occ), op.id, op.jurisdiction, t.type, "false", t.title,
            tm.start.isoformat(), tm.end.isoformat(), tm.first_day.isoformat(),
            tm.last_day.isoformat(), "", op.permit_year_of(tm.first_day).isoformat() if mt
            else "", "true", str(t.players or ""), "", f"{tid}-{occ}@{op.id}.tourney"]) + "\n")
    return "".join(out)


def licences(*rows: tuple[Any, ...]) -> str:
    """licenses.csv: (license_id, operator_id, jurisdiction, kind, tier, valid_from, valid_to,
    fee_usd, covers) per row."""
    return LIC_HEADER + "".join(",".join(str(x) for x in r) + "\n" for r in rows)


def audit(tmp_path: Path, data: dict[str, Any], sched: str, lic: str,
          name: str = "x") -> tuple[int, list[Found], list[str]]:
    """`tourney check --format json`: exit code, the violations, their messages."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (folder / "schedule.csv").write_text(sched)
    (folder / "licenses.csv").write_text(lic)
    res = runner.invoke(app, ["check", str(folder / "scenario.yaml"),
                              str(folder / "schedule.csv"), "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    recs = json.loads(res.stdout)
    return (res.exit_code,
            [(r["rule"], r["operator_id"], r["tournament_id"], r["occurrence"], r["dates"])
             for r in recs], [r["message"] for r in recs])


def mt_data(**kw: Any) -> dict[str, Any]:
    return {"name": "check", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-12-01", "operators": [mt_room("room")],
            "tournaments": [mt_large("a", ("room",), count=2, **kw)]}


PY26 = ("room/large-stakes-permit/2026-07-01", "room", "MT", "mt-large-stakes-permit", "",
        "2026-07-01", "2027-06-30", 120)
PY27 = ("room/large-stakes-permit/2027-07-01", "room", "MT", "mt-large-stakes-permit", "",
        "2027-07-01", "2028-06-30", 120)


class TestAuditMontana:
    def test_jun_30_to_jul_2_without_the_new_years_permit(self, tmp_path: Path) -> None:
        # a#1 played Jun 30, Jul 1, Jul 2 2027; only the 2026-07-01 permit: play on Jul 1-2
        # falls in the 2027-07-01 permit year without its $120 permit -> one violation dated
        # 2027-07-01..2027-07-02; with both permits none
        data = mt_data(days=3)
        sched = schedule(data, ("a", 1, "2027-06-30"))
        code, found, msgs = audit(tmp_path, data, sched, licences((*PY26, "a#1")), "bad")
        assert (code, found) == (1, [("MT-PERMIT-FEES", "room", "a", 1,
                                      "2027-07-01..2027-07-02")])
        assert "2027-07-01 permit year ($120)" in msgs[0]
        assert audit(tmp_path, data, sched, licences((*PY26, "a#1"), (*PY27, "a#1")),
                     "good")[:2] == (0, [])

    def test_permit_valid_two_permit_years_at_120(self, tmp_path: Path) -> None:
        # one $120 permit listed 2026-07-01..2028-06-30 for a#1 (Sat Jan 9 2027) and a#2
        # (Sat Aug 7 2027): a permit is valid for one permit year (2026-07-01..2027-06-30),
        # so the row is wrong, and a#2 (2027-07-01 permit year) has no permit
        data = mt_data()
        sched = schedule(data, ("a", 1, "2027-01-09"), ("a", 2, "2027-08-07"))
        two = ("room/large-stakes-permit/2026-07-01", "room", "MT", "mt-large-stakes-permit",
               "", "2026-07-01", "2028-06-30", 120, "a#1 a#2")
        code, found, msgs = audit(tmp_path, data, sched, licences(two), "bad")
        assert (code, found) == (1, [
            ("MT-PERMIT-FEES", "room", "a", 1, "2026-07-01..2028-06-30"),
            ("MT-PERMIT-FEES", "room", "a", 2, "2027-08-07")])
        assert "valid for exactly one permit year, here 2026-07-01..2027-06-30" in msgs[0]
        assert audit(tmp_path, data, sched, licences((*PY26, "a#1"), (*PY27, "a#2")),
                     "good")[:2] == (0, [])

    def test_wrong_fee_kind_and_start(self, tmp_path: Path) -> None:
        # one row each: $100 (MCA 23-5-317(1)(b): $120); kind "mt-permit" (unknown); a permit
        # valid Aug 1 2026 - Jul 31 2027 (not a permit year). a#1 (Jan 9 2027) is covered by
        # the $100 row (a wrong fee is the row's fault, not the game's)
        data = mt_data()
        sched = schedule(data, ("a", 1, "2027-01-09"))
        code, found, msgs = audit(tmp_path, data, sched, licences(
            ("p1", "room", "MT", "mt-large-stakes-permit", "", "2026-07-01", "2027-06-30", 100,
             "a#1"),
            ("p2", "room", "MT", "mt-permit", "", "2026-07-01", "2027-06-30", 120, ""),
            ("p3", "room", "MT", "mt-large-stakes-permit", "", "2026-08-01", "2027-07-31", 120,
             "")), "bad")
        assert (code, found) == (1, [
            ("MT-PERMIT-FEES", "room", "a", 1, "2026-07-01..2027-06-30"),
            ("MT-PERMIT-FEES", "room", "", None, "2026-07-01..2027-06-30"),
            ("MT-PERMIT-FEES", "room", "", None, "2026-08-01..2027-07-31")])
        assert "costs $120 per permit year" in msgs[0] and "listed at $100" in msgs[0]
        assert "'mt-permit' is not a Montana tournament permit" in msgs[1]
        assert "here 2026-07-01..2027-06-30" in msgs[2]


def me_data(*tournaments: dict[str, Any], end: str = "2027-12-31") -> dict[str, Any]:
    # me_game 12:00 for 12 h ends at 00:00 the next day: conducted on its first day only
    return me_scenario([me_game(t["id"], **{"hours": 12, **t}) for t in tournaments],
                       ("2027-01-01", end), notice_from="2026-12-01")


def per_tournament(tid: str, occ: int, first: str, last: str | None = None,
                   fee: int = 40) -> tuple[Any, ...]:
    return (f"post/per-tournament/{first}/{tid}", "post", "ME", "me-per-tournament", "1-50",
            first, last or first, fee, f"{tid}#{occ}")


class TestAuditMaine:
    def test_one_per_tournament_licence_for_18_games(self, tmp_path: Path) -> None:
        # 18 games (40 players), the 9th and 23rd of Jan..Sep 2027 (2 a month); one $40
        # per-tournament licence valid Jan 9 - Sep 23 listing all 18: the row covers one
        # game, not 18 (one violation), it is used for g#1, and g#2..g#18 have no licence
        # (17 violations) -> 18; 18 licences of $40, one a game -> none
        days = [f"2027-{m:02d}-{x}" for m in range(1, 10) for x in ("09", "23")]
        data = me_data({"id": "g", "count": 18})
        sched = schedule(data, *(("g", k, x) for k, x in enumerate(days, start=1)))
        refs = " ".join(f"g#{k}" for k in range(1, 19))
        one = ("post/per-tournament/all", "post", "ME", "me-per-tournament", "1-50",
               "2027-01-09", "2027-09-23", 40, refs)
        code, found, msgs = audit(tmp_path, data, sched, licences(one), "bad")
        assert code == 1
        assert found == [("ME-FEES", "post", "g", 1, "2027-01-09..2027-09-23")] + [
            ("ME-FEES", "post", "g", k, x) for k, x in enumerate(days, start=1) if k > 1]
        assert "covers exactly one game" in msgs[0] and "it lists 18" in msgs[0]
        good = licences(*(per_tournament("g", k, x) for k, x in enumerate(days, start=1)))
        assert audit(tmp_path, data, sched, good, "good")[:2] == (0, [])

    def test_annual_licence_valid_24_months(self, tmp_path: Path) -> None:
        # annual 1-50 $750 listed Jan 9 2027 - Jan 8 2029 for g#1 (Jan 9 2027) and g#2
        # (Mar 4 2028): 12 months from Jan 9 2027 end Jan 8 2028 -> the row is wrong, and
        # g#2 is not covered; twin: the annual to Jan 8 2028 + a $40 licence for g#2
        data = me_data({"id": "g", "count": 2}, end="2028-12-31")
        sched = schedule(data, ("g", 1, "2027-01-09"), ("g", 2, "2028-03-04"))
        annual = ("post/annual/1-50/2027-01-09", "post", "ME", "me-annual", "1-50",
                  "2027-01-09", "{to}", 750, "{covers}")
        bad = licences(tuple(str(x).format(to="2029-01-08", covers="g#1 g#2") for x in annual))
        code, found, msgs = audit(tmp_path, data, sched, bad, "bad")
        assert (code, found) == (1, [("ME-FEES", "post", "g", 1, "2027-01-09..2029-01-08"),
                                     ("ME-FEES", "post", "g", 2, "2028-03-04")])
        assert "valid 12 months from its first day, 2027-01-09..2028-01-08" in msgs[0]
        good = licences(tuple(str(x).format(to="2028-01-08", covers="g#1") for x in annual),
                        per_tournament("g", 2, "2028-03-04"))
        assert audit(tmp_path, data, sched, good, "good")[:2] == (0, [])

    def test_annual_licence_at_700(self, tmp_path: Path) -> None:
        # an annual 1-50 licence is $750 (17 M.R.S. § 1836(3-A)): $700 is one violation on
        # the row; the game it covers is not reported again
        data = me_data({"id": "g"})
        sched = schedule(data, ("g", 1, "2027-01-09"))
        row = ("post/annual/1-50/2027-01-09", "post", "ME", "me-annual", "1-50", "2027-01-09",
               "2028-01-08", "{fee}", "g#1")
        code, found, msgs = audit(
            tmp_path, data, sched, licences(tuple(str(x).format(fee=700) for x in row)), "bad")
        assert (code, found) == (1, [("ME-FEES", "post", "g", 1, "2027-01-09..2028-01-08")])
        assert "costs $750" in msgs[0] and "listed at $700" in msgs[0]
        assert audit(tmp_path, data, sched,
                     licences(tuple(str(x).format(fee=750) for x in row)), "good")[:2] == (0, [])

    def test_30_hour_game_from_the_annual_licences_last_day(self, tmp_path: Path) -> None:
        # g#1 Sat 2027-01-09; long#1 Sat 2028-01-08 12:00 + 30 h = Sun Jan 9 18:00. The annual
        # licence Jan 9 2027 - Jan 8 2028 lists both: long is conducted on Jan 9 2028 too ->
        # the row lists a game it does not cover, and long#1 is not covered. Twins: a $40
        # per-tournament licence for long valid Jan 8-9 2028; or long of 12 h (ends Sun
        # 00:00: conducted on Jan 8 only), covered by the annual licence
        long30 = me_data({"id": "g"}, {"id": "long", "hours": 30}, end="2028-01-31")
        sched = schedule(long30, ("g", 1, "2027-01-09"), ("long", 1, "2028-01-08"))
        annual = ("post/annual/1-50/2027-01-09", "post", "ME", "me-annual", "1-50",
                  "2027-01-09", "2028-01-08", 750)
        code, found, msgs = audit(tmp_path, long30, sched, licences((*annual, "g#1 long#1")),
                                  "bad")
        assert (code, found) == (1, [
            ("ME-FEES", "post", "long", 1, "2027-01-09..2028-01-08"),
            ("ME-FEES", "post", "long", 1, "2028-01-08")])
        assert "conducted 2028-01-08..2028-01-09, but is valid only" in msgs[0]
        assert "on every day it is conducted" in msgs[1]
        good = licences((*annual, "g#1"), per_tournament("long", 1, "2028-01-08", "2028-01-09"))
        assert audit(tmp_path, long30, sched, good, "good")[:2] == (0, [])
        # a per-tournament licence valid on the first day only does not cover the second day
        short = licences((*annual, "g#1"), per_tournament("long", 1, "2028-01-08"))
        assert audit(tmp_path, long30, sched, short, "short")[:2] == (1, [
            ("ME-FEES", "post", "long", 1, "2028-01-08"),
            ("ME-FEES", "post", "long", 1, "2028-01-08")])
        long12 = me_data({"id": "g"}, {"id": "long"}, end="2028-01-31")
        sched12 = schedule(long12, ("g", 1, "2027-01-09"), ("long", 1, "2028-01-08"))
        assert audit(tmp_path, long12, sched12, licences((*annual, "g#1 long#1")),
                     "midnight")[:2] == (0, [])

    def test_monthly_licence(self, tmp_path: Path) -> None:
        # monthly 1-50 $100 for March 2027 (Mar 1 - Mar 31). g#1 Wed Mar 31 12:00 + 13 h =
        # Thu Apr 1 01:00: conducted Mar 31 and Apr 1 -> not covered (row + game). A monthly
        # licence valid Mar 5 - Apr 4 is not one calendar month (row). Twin: g of 12 h (ends
        # Apr 1 00:00) under the March licence -> none
        data = me_data({"id": "g", "hours": 13})
        sched = schedule(data, ("g", 1, "2027-03-31"))
        march = ("post/monthly/1-50/2027-03", "post", "ME", "me-monthly", "1-50", "2027-03-01",
                 "2027-03-31", 100, "g#1")
        code, found, _ = audit(tmp_path, data, sched, licences(march), "bad")
        assert (code, found) == (1, [("ME-FEES", "post", "g", 1, "2027-03-01..2027-03-31"),
                                     ("ME-FEES", "post", "g", 1, "2027-03-31")])
        odd = ("post/monthly/x", "post", "ME", "me-monthly", "1-50", "2027-03-05", "2027-04-04",
               100, "")
        code, found, msgs = audit(tmp_path, data, sched, licences(odd), "odd")
        assert found[0] == ("ME-FEES", "post", "", None, "2027-03-05..2027-04-04")
        assert "one calendar month" in msgs[0]
        twelve = me_data({"id": "g"})
        assert audit(tmp_path, twelve, schedule(twelve, ("g", 1, "2027-03-31")),
                     licences(march), "good")[:2] == (0, [])

    def test_a_legal_licenses_csv_of_every_kind(self, tmp_path: Path) -> None:
        # MT: a#1 Jun 30 - Jul 2 2027 under both permits ($120 + $120). ME: g#1, g#2 (Jan 9,
        # Jan 23) under an annual 1-50 licence ($750, Jan 9 2027 - Jan 8 2028); big#1 (80
        # players, tier 51-100) Feb 13 under a $75 per-tournament licence; m#1 Mar 13 under a
        # March monthly 1-50 licence ($100); sc#1 super cribbage Apr 10 12:00 + 30 h (Apr 10-
        # 11) under a $75 licence valid Apr 10-11 -> no violation
        data = me_data({"id": "g", "count": 2}, {"id": "big", "players": 80}, {"id": "m"})
        data["tournaments"].append({
            "id": "sc", "title": "sc", "type": "super-cribbage", "operators": ["post"],
            "players": 60, "entry_fee": 50, "prize_share": 0.75, "charity_share": 0.5,
            "organizer_member_years": 5, "start_time": "12:00", "hours": 30})
        data["operators"].append(mt_room("room"))
        data["tournaments"].append(mt_large("a", ("room",), days=3))
        sched = schedule(data, ("g", 1, "2027-01-09"), ("g", 2, "2027-01-23"),
                         ("big", 1, "2027-02-13"), ("m", 1, "2027-03-13"),
                         ("sc", 1, "2027-04-10"), ("a", 1, "2027-06-30"))
        ok = licences(
            (*PY26, "a#1"), (*PY27, "a#1"),
            ("post/annual/1-50/2027-01-09", "post", "ME", "me-annual", "1-50", "2027-01-09",
             "2028-01-08", 750, "g#1 g#2"),
            ("post/per-tournament/2027-02-13/big", "post", "ME", "me-per-tournament",
             "51-100", "2027-02-13", "2027-02-13", 75, "big#1"),
            ("post/monthly/1-50/2027-03", "post", "ME", "me-monthly", "1-50", "2027-03-01",
             "2027-03-31", 100, "m#1"),
            ("post/super-cribbage/2027-04-10/sc", "post", "ME", "me-super-cribbage", "51-100",
             "2027-04-10", "2027-04-11", 75, "sc#1"))
        assert audit(tmp_path, data, sched, ok, "good")[:2] == (0, [])
        # the same super cribbage licence valid on Apr 10 only: row (not valid over its game's
        # days) + game (not covered on Apr 11)
        bad = ok.replace("2027-04-10,2027-04-11,75", "2027-04-10,2027-04-10,75")
        assert audit(tmp_path, data, sched, bad, "bad")[:2] == (1, [
            ("ME-FEES", "post", "sc", 1, "2027-04-10"),
            ("ME-FEES", "post", "sc", 1, "2027-04-10")])

    def test_product_plan_round_trip(self, tmp_path: Path) -> None:
        # what `tourney solve` writes for the 30-hour case above passes `tourney check`
        # (19 per-tournament licences, $760); dropping long's licence row leaves long#1
        # uncovered (one violation, Sat 2028-01-01)
        data = annual_edge(30)
        (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
        out = write_plan(run(load_scenario(data)), tmp_path / "plan")
        res = runner.invoke(app, ["check", str(tmp_path / "scenario.yaml"),
                                  str(out / "schedule.csv"), "--format", "json"])
        assert (res.exit_code, json.loads(res.stdout)) == (0, [])
        lic = (out / "licenses.csv").read_text().splitlines()
        (out / "licenses.csv").write_text("\n".join(x for x in lic if "/long" not in x) + "\n")
        res = runner.invoke(app, ["check", str(tmp_path / "scenario.yaml"),
                                  str(out / "schedule.csv"), "--format", "json"])
        assert res.exit_code == 1
        assert [(r["rule"], r["tournament_id"], r["dates"]) for r in json.loads(res.stdout)] == [
            ("ME-FEES", "long", "2028-01-01")]


class TestAuditRowsAsRead:
    """licenses.csv rows as `tourney check` reads them: exact fees, readable amounts, one row
    per licence (MT-PERMIT-FEES, MCA 23-5-317(1)(b))."""

    def _check(self, tmp_path: Path, lic: str, name: str) -> Any:
        data = mt_data()
        folder = tmp_path / name
        folder.mkdir()
        (folder / "scenario.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
        (folder / "schedule.csv").write_text(schedule(data, ("a", 1, "2027-01-09")))
        (folder / "licenses.csv").write_text(lic)
        return runner.invoke(app, ["check", str(folder / "scenario.yaml"),
                                   str(folder / "schedule.csv"), "--format", "json"])

    def test_cents_are_not_the_statute_fee(self, tmp_path: Path) -> None:
        # $120.40 is not the $120 of MCA 23-5-317(1)(b) (it used to be cut to 120 on reading);
        # $120.00 is
        res = self._check(tmp_path, licences((*PY26[:7], "120.40", "a#1")), "cents")
        assert res.exit_code == 1, res.output
        (v,) = json.loads(res.stdout)
        assert v["rule"] == "MT-PERMIT-FEES" and "$120.40" in v["message"]
        assert self._check(tmp_path, licences((*PY26[:7], "120.00", "a#1")),
                           "whole").exit_code == 0

    @pytest.mark.parametrize("fee", ["NaN", "inf", "$120", "1E+999999999", ""])
    def test_unreadable_amount_is_an_input_error(self, tmp_path: Path, fee: str) -> None:
        # exit 2 naming file, line 2 and the column; never an internal error (exit 3)
        res = self._check(tmp_path, licences((*PY26[:7], fee, "a#1")), "bad")
        assert res.exit_code == 2, res.output
        assert "licenses.csv:2: column fee_usd" in res.output
        assert "an amount in USD" in res.output

    def test_a_licence_listed_twice(self, tmp_path: Path) -> None:
        # the same permit row twice ($240 listed for one $120 permit): exit 2 naming both lines
        res = self._check(tmp_path, licences((*PY26, "a#1"), (*PY26, "a#1")), "twice")
        assert res.exit_code == 2, res.output
        assert "licenses.csv:3: license_id" in res.output and "line 2" in res.output

    def test_permit_with_maine_jurisdiction_or_a_tier(self, tmp_path: Path) -> None:
        # a Montana permit is jurisdiction MT and has no player tier: one violation each
        for name, row in (("me", (PY26[0], "room", "ME", *PY26[3:], "a#1")),
                          ("tier", (*PY26[:4], "1-50", *PY26[5:], "a#1"))):
            res = self._check(tmp_path, licences(row), name)
            assert res.exit_code == 1, res.output
            msgs = [v["message"] for v in json.loads(res.stdout)]
            assert any("jurisdiction MT" in m and "no player tier" in m for m in msgs), msgs
