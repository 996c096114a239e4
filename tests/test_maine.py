"""Maine rules of RULES.md (17 M.R.S. § 1836, § 1832(2), 16-633 CMR ch. 32): every rule of kind
sched, input and cost.

Three ways in, for each rule:

- *input* rules: ``load_scenario(dict)`` and the (rule, path) pairs of ``ScenarioError.problems``;
- *sched* rules: the independent checker (``constraints.registry.check`` on a hand-built
  ``Audit``) without the solver, an illegal occurrence next to its legal twin;
- *sched* and *cost* rules end to end: ``solve(sc, time_limit=10, seed=0, workers=1)`` on tiny
  scenarios, asserting rows, licences, fees and the unscheduled report.

Every expected number is worked out by hand in the comment next to it. Calendar facts used below
(2027): Jan 1 is a Friday, so Jan 2 is a Saturday, Jan 4 a Monday, Jan 31 a Sunday, Mar 2 a
Tuesday; US daylight saving time starts Sun Mar 14 2027 and ends Sun Nov 7 2027. Maine state
holidays near January 2027: Jan 1 (New Year's Day), Jan 18 (Martin Luther King Jr. Day).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from constraints.base import Audit, License, Occurrence
from constraints.maine import is_maine_business_day, monthly_never_cheaper
from constraints.registry import check
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan

NEW_YORK = ZoneInfo("America/New_York")

# ------------------------------------------------------------------------------- builders
ORG: dict[str, Any] = {
    "id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
    "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
    "organized_on": "1990-01-01",
}
PUB: dict[str, Any] = {
    "id": "pub", "name": "Harbor Pub", "jurisdiction": "ME",
    "licensed_establishment": "restaurant",
}


def org(**kw: Any) -> dict[str, Any]:
    """An eligible Maine organization (approved, one beneficiary, organized 1990)."""
    return {**ORG, **kw}


def game(**kw: Any) -> dict[str, Any]:
    """A legal tournament game of ``post``: 80 players (tier 51-100), $100 entry, 80 % prizes,
    12:00 for 10 h."""
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


def super_cribbage(**kw: Any) -> dict[str, Any]:
    """A legal super cribbage tournament of ``post``: 60 players, $50, 75 % prizes, half of the
    rest to charity, organizer a member for 5 years, 12:00 for 10 h."""
    return {"id": "sc", "title": "Super Cribbage", "type": "super-cribbage",
            "operators": ["post"], "players": 60, "entry_fee": 50, "prize_share": 0.75,
            "charity_share": 0.5, "organizer_member_years": 5, "start_time": "12:00",
            "hours": 10, **kw}


def cribbage(**kw: Any) -> dict[str, Any]:
    """A legal charitable cribbage night of ``pub``: $25 entry, every dollar paid as prizes."""
    return {"id": "cc", "title": "Cribbage Night", "type": "charitable-cribbage",
            "operators": ["pub"], "entry_fee": 25, "prize_share": 1, "start_time": "18:00",
            "hours": 4, **kw}


def scenario(tournaments: list[dict[str, Any]], operators: list[dict[str, Any]] | None = None,
             **top: Any) -> dict[str, Any]:
    """A 2027 scenario; ``notice_from`` 2026-11-01 keeps ME-APPLICATION-WINDOW out of the way
    (except where a test sets it)."""
    data: dict[str, Any] = {
        "name": "Maine test", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-11-01", "operators": operators or [org(), PUB],
        "tournaments": tournaments,
    }
    data.update(top)
    return data


def load(tournaments: list[dict[str, Any]], operators: list[dict[str, Any]] | None = None,
         **top: Any) -> Scenario:
    return load_scenario(scenario(tournaments, operators, **top))


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The (rule, path) of every problem of the ScenarioError loading ``data`` raises."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return [(p.rule, p.path) for p in exc.value.problems]


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def at(sc: Scenario, tid: str, day: str, n: int = 1, **changes: Any) -> Occurrence:
    """Occurrence ``n`` of ``tid`` with first day ``day``, timed by ``scheduler.core.timing``.
    ``changes`` replace fields of the tournament without validation (to build illegal twins
    the loader would refuse, e.g. a 48 h 1 min game)."""
    t = sc.tournament(tid)
    if changes:
        t = t.model_copy(update=changes)
    tm = timing(t, tournament_tz(sc, t), d(day))
    assert tm is not None
    return Occurrence(t, n, tm)


# ME-FEES, 17 M.R.S. § 1836(3-A), per-tournament licence by player cap, typed from the statute:
# (3-A)(C)(1) <= 50: $40; (A)(1) 51-100: $75; (B)(1)-(4) 101-150 $300, 151-200 $400,
# 201-250 $500, 251-300 $600.
PER_TOURNAMENT = ((50, "1-50", 40), (100, "51-100", 75), (150, "101-150", 300),
                  (200, "151-200", 400), (250, "201-250", 500), (300, "251-300", 600))


def licence_for(p: Occurrence) -> License | None:
    """The licence a legal plan buys for one occurrence: a per-tournament licence of its tier,
    a $75 super cribbage licence (§ 1836(4-A)), none for registered charitable cribbage."""
    t = p.tournament
    if t.type == "charitable-cribbage":
        return None
    players = t.players or 1
    tier, fee = next((tier, fee) for top, tier, fee in PER_TOURNAMENT if players <= top)
    kind = "me-per-tournament"
    if t.type == "super-cribbage":
        kind, fee = "me-super-cribbage", 75
    return License(f"{t.operators[0]}/{kind}/{p.ref}", t.operators[0], "ME", kind, tier,
                   p.first_day, p.timing.last_day, fee, (p.ref,))


def licences(placed: list[Occurrence]) -> list[License]:
    return [lic for p in placed if (lic := licence_for(p)) is not None]


def broken(sc: Scenario, placed: list[Occurrence], bought: list[License] | None = None
           ) -> list[str]:
    """Rule IDs of every violation ``constraints.registry.check`` finds (no solver). Unless
    given, each occurrence gets the licence a legal plan would buy (so ME-FEES is quiet)."""
    return [v.rule for v in check(Audit(sc, placed, licences(placed) if bought is None
                                        else bought))]


def run(sc: Scenario) -> Plan:
    return solve(sc, time_limit=10, seed=0, workers=1)


def first_days(plan: Plan, tid: str | None = None) -> list[dt.date]:
    return sorted(r.first_day for r in plan.rows if tid is None or r.tournament_id == tid)


# =============================================================================== sched rules
class TestMonthlyLimit:
    """ME-MONTHLY-LIMIT, 17 M.R.S. § 1836 (intro): "up to 2 tournament games per month" per
    licensed organization. Default ``month_rule: touch`` counts a game in every calendar month
    any part of it is conducted; ``start`` counts only its first month."""

    @staticmethod
    def _sc(month_rule: str = "touch") -> Scenario:
        return load([
            game(id="long", start_time="18:00", hours=30),     # Jan 31 18:00 -> Feb 2 00:00
            game(id="edge", start_time="12:00", hours=12),     # Jan 31 12:00 -> Feb 1 00:00
            game(id="edge2", start_time="12:00", hours="12:01"),  # -> Feb 1 00:01
            game(id="feb", count=2),
            game(id="jan", count=2),
            super_cribbage(),
            cribbage(operators=["post"]),
        ], [org(licensed_establishment="restaurant")], settings={"month_rule": month_rule})

    def test_30h_game_from_jan_31_1800_ends_feb_2_0000_and_touches_two_months(self) -> None:
        sc = self._sc()
        tm = at(sc, "long", "2027-01-31").timing
        # 18:00 + 30 h = 18:00 + 6 h (to midnight) + 24 h = Tue Feb 2 00:00 (no DST change)
        assert tm.start == dt.datetime(2027, 1, 31, 18, 0, tzinfo=NEW_YORK)
        assert tm.end == dt.datetime(2027, 2, 2, 0, 0, tzinfo=NEW_YORK)
        # the end is exclusive: the days touched are Jan 31 and Feb 1, not Feb 2
        assert tm.days == (d("2027-01-31"), d("2027-02-01"))
        assert tm.months == ((2027, 1), (2027, 2))

    def test_touch_counts_the_30h_game_in_february(self) -> None:
        sc = self._sc("touch")
        placed = [at(sc, "long", "2027-01-31"), at(sc, "feb", "2027-02-10", 1),
                  at(sc, "feb", "2027-02-20", 2)]
        # February: long#1 (touches Feb 1) + feb#1 + feb#2 = 3 > 2
        vs = check(Audit(sc, placed, licences(placed)))
        assert [(v.rule, v.dates, v.refs) for v in vs] == [
            ("ME-MONTHLY-LIMIT", "2027-02", ("long#1", "feb#1", "feb#2"))]

    def test_start_counts_the_30h_game_only_in_january(self) -> None:
        sc = self._sc("start")
        placed = [at(sc, "long", "2027-01-31"), at(sc, "feb", "2027-02-10", 1),
                  at(sc, "feb", "2027-02-20", 2)]
        # February under `start`: feb#1 + feb#2 = 2 <= 2; January: long#1 = 1 <= 2
        assert broken(sc, placed) == []

    @pytest.mark.parametrize("month_rule", ["touch", "start"])
    def test_january_counts_the_30h_game_under_both_readings(self, month_rule: str) -> None:
        sc = self._sc(month_rule)
        placed = [at(sc, "jan", "2027-01-05", 1), at(sc, "jan", "2027-01-20", 2),
                  at(sc, "long", "2027-01-31")]
        # January: jan#1 + jan#2 + long#1 (starts in January) = 3 > 2
        assert broken(sc, placed) == ["ME-MONTHLY-LIMIT"]
        # legal twin: only one January game besides long#1 -> 2 <= 2
        assert broken(sc, placed[1:]) == []

    def test_game_ending_exactly_at_midnight_of_the_1st_does_not_touch_that_month(self) -> None:
        sc = self._sc("touch")
        edge = at(sc, "edge", "2027-01-31")
        # 12:00 + 12 h = Feb 1 00:00, exclusive end: the only day touched is Jan 31
        assert edge.timing.end == dt.datetime(2027, 2, 1, 0, 0, tzinfo=NEW_YORK)
        assert edge.timing.days == (d("2027-01-31"),)
        feb = [at(sc, "feb", "2027-02-10", 1), at(sc, "feb", "2027-02-20", 2)]
        # February: feb#1 + feb#2 = 2 <= 2
        assert broken(sc, [edge, *feb]) == []
        # twin one minute longer: 12:00 + 12 h 1 min = Feb 1 00:01 touches Feb -> 3 > 2
        edge2 = at(sc, "edge2", "2027-01-31")
        assert edge2.timing.days == (d("2027-01-31"), d("2027-02-01"))
        assert broken(sc, [edge2, *feb]) == ["ME-MONTHLY-LIMIT"]

    def test_touch_across_the_new_year(self) -> None:
        sc = load([game(id="long", start_time="18:00", hours=30), game(id="jan", count=2)],
                  horizon={"start": "2027-12-01", "end": "2028-01-31"},
                  settings={"month_rule": "touch"})
        # Fri Dec 31 2027 18:00 + 30 h = Sun Jan 2 2028 00:00: touches Dec 31 and Jan 1
        placed = [at(sc, "long", "2027-12-31"), at(sc, "jan", "2028-01-10", 1),
                  at(sc, "jan", "2028-01-20", 2)]
        vs = check(Audit(sc, placed, licences(placed)))
        # January 2028: long#1 + jan#1 + jan#2 = 3 > 2
        assert [(v.rule, v.dates) for v in vs] == [("ME-MONTHLY-LIMIT", "2028-01")]

    def test_super_cribbage_counts_toward_the_limit(self) -> None:
        sc = self._sc()
        feb = [at(sc, "feb", "2027-02-10", 1), at(sc, "feb", "2027-02-20", 2)]
        # 2 tournament games + 1 super cribbage game in February = 3 > 2
        assert broken(sc, [*feb, at(sc, "sc", "2027-02-05")]) == ["ME-MONTHLY-LIMIT"]
        # legal twin: the super cribbage game in March -> February 2, March 1
        assert broken(sc, [*feb, at(sc, "sc", "2027-03-05")]) == []

    def test_charitable_cribbage_does_not_count(self) -> None:
        sc = self._sc()
        feb = [at(sc, "feb", "2027-02-10", 1), at(sc, "feb", "2027-02-20", 2)]
        # 2 licensed games + 1 registered cribbage night: only the 2 licensed games count
        assert broken(sc, [*feb, at(sc, "cc", "2027-02-05")]) == []

    def test_limit_is_per_organization(self) -> None:
        sc = load([game(id="a", count=2), game(id="b", count=2, operators=["post2"])],
                  [org(), org(id="post2", name="Grange 2")])
        placed = [at(sc, "a", "2027-02-10", 1), at(sc, "a", "2027-02-20", 2),
                  at(sc, "b", "2027-02-11", 1), at(sc, "b", "2027-02-21", 2)]
        # 4 games in February, but 2 per organization: 2 <= 2 each
        assert broken(sc, placed) == []

    def test_solver_places_2_of_3_wanted_in_one_month(self) -> None:
        sc = load([game(count=3, window={"start": "2027-02-01", "end": "2027-02-28"})],
                  horizon={"start": "2027-01-25", "end": "2027-03-10"})
        plan = run(sc)
        # 3 first days wanted in February, the limit allows 2
        days = first_days(plan)
        assert len(days) == 2 and all(x.month == 2 for x in days)
        assert [(u.tournament_id, u.occurrence) for u in plan.unscheduled_list] == [("g", 3)]
        assert plan.unscheduled_list[0].rule_ids[0] == "ME-MONTHLY-LIMIT"
        assert plan.total_fees_usd == 150  # 2 x $75 (51-100 per-tournament)

    @pytest.mark.parametrize(("month_rule", "feb_placed"), [("touch", 1), ("start", 2)])
    def test_solver_30h_game_from_jan_31_under_both_readings(self, month_rule: str,
                                                              feb_placed: int) -> None:
        sc = load([game(id="long", start_time="18:00", hours=30, fixed_dates=["2027-01-31"]),
                   game(id="feb", count=2, window={"start": "2027-02-01",
                                                   "end": "2027-02-28"})],
                  horizon={"start": "2027-01-25", "end": "2027-02-28"},
                  settings={"month_rule": month_rule})
        plan = run(sc)
        assert first_days(plan, "long") == [d("2027-01-31")]
        # touch: February already holds long#1, so 2 - 1 = 1 more; start: 2 more
        assert len(first_days(plan, "feb")) == feb_placed
        if feb_placed == 1:
            assert [u.rule_ids[0] for u in plan.unscheduled_list] == ["ME-MONTHLY-LIMIT"]
        else:
            assert plan.unscheduled_list == ()

    def test_solver_game_ending_at_midnight_leaves_february_free(self) -> None:
        sc = load([game(id="edge", start_time="12:00", hours=12, fixed_dates=["2027-01-31"]),
                   game(id="feb", count=2, window={"start": "2027-02-01",
                                                   "end": "2027-02-28"})],
                  horizon={"start": "2027-01-25", "end": "2027-02-28"})
        plan = run(sc)
        # edge ends Feb 1 00:00 and counts only in January: February takes 2 more games
        assert len(first_days(plan, "feb")) == 2
        assert plan.unscheduled_list == ()


class TestDuration:
    """ME-DURATION, 17 M.R.S. § 1836(4): "A tournament game must be completed within 48
    hours" of its start (super cribbage: 72 hours, § 1836(4-A)(E)). Elapsed real time."""

    def test_48h_is_accepted(self) -> None:
        sc = load([game(hours=48)])
        assert sc.tournaments[0].hours == Decimal(48)

    def test_48h_1min_is_an_error(self) -> None:
        # "48:01" = 48 + 1/60 h > 48
        assert problems(scenario([game(hours="48:01")])) == [
            ("ME-DURATION", "tournaments[0].hours")]

    def test_more_than_one_play_day_is_an_error(self) -> None:
        assert problems(scenario([game(days=2)])) == [("ME-DURATION", "tournaments[0].days")]

    def test_checker_48h_passes_48h_1min_fails(self) -> None:
        sc = load([game(hours=48)])
        ok = at(sc, "g", "2027-01-09")
        # Sat Jan 9 12:00 + 48 h = Mon Jan 11 12:00, no DST change
        assert ok.timing.end == dt.datetime(2027, 1, 11, 12, 0, tzinfo=NEW_YORK)
        assert broken(sc, [ok]) == []
        long = at(sc, "g", "2027-01-09", hours=Decimal(48) + Decimal(1) / 60)
        assert broken(sc, [long]) == ["ME-DURATION"]

    def test_checker_super_cribbage_72h_passes_73h_fails(self) -> None:
        sc = load([super_cribbage(hours=72)])
        # Fri Jan 8 12:00 + 72 h = Mon Jan 11 12:00
        ok = at(sc, "sc", "2027-01-08")
        assert ok.timing.end == dt.datetime(2027, 1, 11, 12, 0, tzinfo=NEW_YORK)
        assert broken(sc, [ok]) == []
        # RULES.md ME-DURATION: "within 48 hours of its start (super cribbage: 72 hours)"
        assert broken(sc, [at(sc, "sc", "2027-01-08", hours=Decimal(73))]) == ["ME-DURATION"]

    def test_checker_48h_over_spring_forward_is_48_real_hours(self) -> None:
        sc = load([game(hours=48)])
        p = at(sc, "g", "2027-03-13")
        # Sat Mar 13 12:00 EST = 17:00 UTC; + 48 h = Mon Mar 15 17:00 UTC = 13:00 EDT
        assert p.timing.end == dt.datetime(2027, 3, 15, 13, 0, tzinfo=NEW_YORK)
        assert p.timing.elapsed_hours == 48.0
        assert broken(sc, [p]) == []

    def test_checker_48h_1min_over_fall_back_is_a_violation(self) -> None:
        sc = load([game(hours=48)])
        p = at(sc, "g", "2027-11-06", hours=Decimal(48) + Decimal(1) / 60)
        # Sat Nov 6 12:00 EDT = 16:00 UTC; + 48 h 1 min = Mon Nov 8 16:01 UTC = 11:01 EST
        assert p.timing.end == dt.datetime(2027, 11, 8, 11, 1, tzinfo=NEW_YORK)
        assert broken(sc, [p]) == ["ME-DURATION"]

    def test_solver_places_48h_game_over_spring_forward(self) -> None:
        sc = load([game(hours=48, fixed_dates=["2027-03-13"])],
                  horizon={"start": "2027-03-01", "end": "2027-03-31"})
        plan = run(sc)
        assert first_days(plan) == [d("2027-03-13")]


class TestOtherGames:
    """ME-OTHER-GAMES, 17 M.R.S. § 1836(4): "Other games of chance on the premises are
    prohibited during a tournament game": no overlap with the organization's weekly beano."""

    BEANO = {"weekday": "tue", "start": "18:00", "end": "22:00"}

    @classmethod
    def _sc(cls, **tkw: Any) -> Scenario:
        return load([game(**tkw)], [org(other_games=[cls.BEANO]), PUB],
                    horizon={"start": "2027-03-01", "end": "2027-03-07"})

    @pytest.mark.parametrize(("start", "hours", "ok"), [
        ("17:00", 2, False),    # 17:00-19:00 overlaps 18:00-22:00 by one hour
        ("12:00", 5, True),     # 12:00-17:00 ends an hour before beano
        ("13:00", 5, True),     # 13:00-18:00 ends exactly when beano starts (end exclusive)
        ("13:00", "5:01", False),  # 13:00-18:01 overlaps by one minute
        ("21:00", 1, False),    # 21:00-22:00 inside beano
        ("22:00", 2, True),     # 22:00-24:00 starts exactly when beano ends
    ])
    def test_checker_tuesday(self, start: str, hours: Any, ok: bool) -> None:
        sc = self._sc(start_time=start, hours=hours)
        assert broken(sc, [at(sc, "g", "2027-03-02")]) == ([] if ok else ["ME-OTHER-GAMES"])

    def test_checker_long_game_over_a_tuesday_evening(self) -> None:
        sc = self._sc(start_time="20:00", hours=30)
        # Mon Mar 1 20:00 + 30 h = Wed Mar 3 02:00: covers all of Tuesday's 18:00-22:00
        assert broken(sc, [at(sc, "g", "2027-03-01")]) == ["ME-OTHER-GAMES"]
        # twin of 22 h: Mon 20:00 -> Tue 18:00, ends exactly when beano starts
        assert broken(sc, [at(sc, "g", "2027-03-01", hours=Decimal(22))]) == []

    def test_checker_session_past_midnight(self) -> None:
        sc = load([game(id="a", start_time="00:30", hours=2),
                   game(id="b", start_time="01:00", hours=2)],
                  [org(other_games=[{"weekday": "fri", "start": "19:00", "end": "01:00"}])])
        # Fri Mar 5 19:00 -> Sat Mar 6 01:00: a Saturday game at 00:30 overlaps 30 min
        assert broken(sc, [at(sc, "a", "2027-03-06")]) == ["ME-OTHER-GAMES"]
        # from 01:00 it starts exactly when the session ends
        assert broken(sc, [at(sc, "b", "2027-03-06")]) == []

    def test_checker_other_organizations_beano_does_not_block(self) -> None:
        sc = load([game(start_time="17:00", hours=2, operators=["post2"])],
                  [org(other_games=[self.BEANO]), org(id="post2", name="Grange 2")])
        assert broken(sc, [at(sc, "g", "2027-03-02")]) == []

    def test_solver_does_not_place_tuesday_1700_game_of_2h(self) -> None:
        plan = run(self._sc(start_time="17:00", hours=2, fixed_dates=["2027-03-02"]))
        assert plan.rows == ()
        assert [(u.tournament_id, u.rule_ids) for u in plan.unscheduled_list] == [
            ("g", ("ME-OTHER-GAMES",))]

    def test_solver_places_tuesday_1200_game_of_5h(self) -> None:
        plan = run(self._sc(start_time="12:00", hours=5, fixed_dates=["2027-03-02"]))
        assert [(r.first_day, r.start.time(), r.end.time()) for r in plan.rows] == [
            (d("2027-03-02"), dt.time(12, 0), dt.time(17, 0))]
        assert plan.unscheduled_list == ()


class TestApplicationWindow:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: the application is received at least 10
    Maine business days before the first day; RULES.md: its due date is the 10th Maine
    business day before the first day (the first day not counted), and a first day is
    impossible only when that due date is before `notice_from`.

    notice_from = Mon 2027-01-04.
    Sat 2027-01-16: business days before it: Jan 15 (1), 14 (2), 13 (3), 12 (4), 11 (5),
    [10, 9 weekend], 8 (6), 7 (7), 6 (8), 5 (9), 4 (10) -> due Mon Jan 4 = notice_from: legal.
    Fri 2027-01-15: Jan 14, 13, 12, 11, 8, 7, 6, 5, 4 (9), [Jan 1 New Year's Day, weekend],
    Dec 31 (10) -> due Thu 2026-12-31, before notice_from: too early.
    Mon 2027-01-18 (Martin Luther King Jr. Day, a holiday) is a lawful first day too (due Jan 4).
    """

    @staticmethod
    def _sc(**tkw: Any) -> Scenario:
        return load([game(**tkw)], notice_from="2027-01-04",
                    horizon={"start": "2027-01-01", "end": "2027-01-31"})

    def test_mlk_day_is_not_a_business_day(self) -> None:
        assert not is_maine_business_day(d("2027-01-18"))
        assert is_maine_business_day(d("2027-01-19"))

    def test_checker_saturday_jan_16_is_legal(self) -> None:
        sc = self._sc()
        assert broken(sc, [at(sc, "g", "2027-01-16")]) == []

    def test_checker_holiday_jan_18_is_legal(self) -> None:
        sc = self._sc()
        assert broken(sc, [at(sc, "g", "2027-01-18")]) == []

    def test_checker_jan_15_is_too_early(self) -> None:
        sc = self._sc()
        assert broken(sc, [at(sc, "g", "2027-01-15")]) == ["ME-APPLICATION-WINDOW"]

    def test_solver_places_fixed_jan_16(self) -> None:
        plan = run(self._sc(fixed_dates=["2027-01-16"]))
        assert first_days(plan) == [d("2027-01-16")]

    def test_solver_rejects_fixed_jan_15(self) -> None:
        plan = run(self._sc(fixed_dates=["2027-01-15"]))
        assert plan.rows == ()
        assert [u.rule_ids for u in plan.unscheduled_list] == [("ME-APPLICATION-WINDOW",)]


class TestSuperCribbage:
    """ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): up to 15 licences per (calendar) year
    statewide, $75 each; (A) organizer a member >= 3 years; (B) >= 30 players; (C) entry
    <= $100; (D) need not be on owned premises (cap 300); (E) up to 72 hours; (F) 50 % of the
    proceeds after prizes to a charity other than the licensee."""

    @pytest.mark.parametrize(("players", "ok"), [(29, False), (30, True), (300, True),
                                                 (301, False)])
    def test_players_30_to_300_without_owned_premises(self, players: int, ok: bool) -> None:
        data = scenario([super_cribbage(players=players)])
        if ok:
            assert load_scenario(data).tournaments[0].players == players
        else:
            assert problems(data) == [("ME-SUPER-CRIBBAGE", "tournaments[0].players")]

    def test_hours_72_ok_73_error(self) -> None:
        assert load([super_cribbage(hours=72)]).tournaments[0].hours == 72
        assert problems(scenario([super_cribbage(hours=73)])) == [
            ("ME-SUPER-CRIBBAGE", "tournaments[0].hours")]

    def test_entry_100_ok_101_error(self) -> None:
        assert load([super_cribbage(entry_fee=100)]).tournaments[0].entry_fee == 100
        [(rule, path)] = problems(scenario([super_cribbage(entry_fee=101)]))
        # (4-A)(C) restates § 1836(4)'s $100 cap; either rule ID names it
        assert rule in ("ME-SUPER-CRIBBAGE", "ME-ENTRY-CAP")
        assert path == "tournaments[0].entry_fee"

    @pytest.mark.parametrize(("share", "ok"), [(0.5, True), (0.49, False), (None, False)])
    def test_charity_share_at_least_half(self, share: float | None, ok: bool) -> None:
        data = scenario([super_cribbage(charity_share=share)])
        if ok:
            load_scenario(data)
        else:
            assert problems(data) == [("ME-SUPER-CRIBBAGE", "tournaments[0].charity_share")]

    @pytest.mark.parametrize(("years", "ok"), [(3, True), (2, False), (None, False)])
    def test_organizer_member_at_least_3_years(self, years: int | None, ok: bool) -> None:
        # (4-A)(A): the 3 years of membership are the condition on a nationally chartered
        # cribbage 501(c)(3) conducting it (tests/test_maine_cribbage.py has the whole case)
        national = org(organization_type="national-cribbage-501c3")
        data = scenario([super_cribbage(organizer_member_years=years)], [national])
        if ok:
            load_scenario(data)
        else:
            assert problems(data) == [
                ("ME-SUPER-CRIBBAGE", "tournaments[0].organizer_member_years")]

    @pytest.mark.parametrize("years", [None, 0, 2])
    def test_maine_organization_needs_no_membership(self, years: int | None) -> None:
        # a Maine nonprofit organized >= 2 years (ME-ELIGIBLE) is licensed under (4-A)'s
        # opening words; the membership condition of (4-A)(A) is not asked of it
        load_scenario(scenario([super_cribbage(organizer_member_years=years)]))

    # two dates a month, Jan-Aug 2027: 16 first days, never more than 2 in a month
    DATES = [f"2027-{m:02d}-{day:02d}" for m in range(1, 9) for day in (5, 20)]

    def test_checker_16th_licence_of_a_year_is_a_violation(self) -> None:
        sc = load([super_cribbage(count=16)],
                  horizon={"start": "2027-01-01", "end": "2028-12-31"})
        placed = [at(sc, "sc", day, n) for n, day in enumerate(self.DATES, start=1)]
        vs = check(Audit(sc, placed, licences(placed)))
        # 16 in 2027 > 15: the 16th by date (Aug 20) is the one over the limit
        assert [(v.rule, v.refs, v.dates) for v in vs] == [
            ("ME-SUPER-CRIBBAGE", ("sc#16",), "2027-08-20")]
        # legal twin: the 16th moves to 2028 -> 15 in 2027, 1 in 2028
        twin = [*placed[:15], at(sc, "sc", "2028-01-05", 16)]
        assert broken(sc, twin) == []

    def test_checker_limit_is_statewide(self) -> None:
        sc = load([super_cribbage(id="a", count=8),
                   super_cribbage(id="b", count=8, operators=["club"])],
                  [org(), org(id="club", name="Cribbage Club")])
        placed = [at(sc, "a" if n <= 8 else "b", day, (n - 1) % 8 + 1)
                  for n, day in enumerate(self.DATES, start=1)]
        # 8 + 8 = 16 licences in 2027 for two organizations together > 15
        assert broken(sc, placed) == ["ME-SUPER-CRIBBAGE"]

    def test_solver_16_wanted_15_placed(self) -> None:
        sc = load([super_cribbage(id="sc1", count=8, weekdays=["sat"]),
                   super_cribbage(id="sc2", count=8, weekdays=["sat"], operators=["club"])],
                  [org(), org(id="club", name="Cribbage Club")])
        plan = run(sc)
        # 8 + 8 = 16 wanted in 2027; 15 licences statewide
        assert len(plan.rows) == 15
        assert len(plan.unscheduled_list) == 1
        assert plan.unscheduled_list[0].rule_ids[0] == "ME-SUPER-CRIBBAGE"
        # $75 each, whatever the player tier: 15 x 75 = 1,125
        assert {(lic.kind, lic.fee_usd) for lic in plan.license_list} == {("me-super-cribbage", 75)}
        assert plan.total_fees_usd == 1125

    def test_solver_limit_is_per_calendar_year(self) -> None:
        sc = load([super_cribbage(id="sc1", count=8, weekdays=["sat"],
                                  window={"start": "2027-07-01", "end": "2027-12-31"}),
                   super_cribbage(id="sc2", count=8, weekdays=["sat"], operators=["club"],
                                  window={"start": "2028-01-01", "end": "2028-06-30"})],
                  [org(), org(id="club", name="Cribbage Club")],
                  horizon={"start": "2027-07-01", "end": "2028-06-30"},
                  notice_from="2027-05-01")
        plan = run(sc)
        # 8 in 2027 + 8 in 2028, each <= 15: all 16 placed, 16 x $75 = $1,200
        assert len(plan.rows) == 16 and plan.unscheduled_list == ()
        assert plan.total_fees_usd == 1200


# =============================================================================== cost rule
class TestFees:
    """ME-FEES, 17 M.R.S. § 1836(3-A): per tournament <= 50 players $40, 51-100 $75, 101-150
    $300, 151-200 $400, 201-250 $500, 251-300 $600; monthly <= 50 $100, 51-100 $200; annual
    <= 50 $750, 51-100 $1,500 (12 months from its first day). Default ``tier_coverage: up``."""

    def test_monthly_licence_never_cheaper(self) -> None:
        # at most 2 games start in a month (ME-MONTHLY-LIMIT), so a monthly licence competes
        # with at most 2 per-tournament licences:
        # 1-50 monthly $100:   2 x $40 = $80 < $100
        # 51-100 monthly $200: 2 x $75 = $150 < $200;  $40 + $75 = $115 < $200
        assert 2 * 40 < 100 and 2 * 75 < 200 and 40 + 75 < 200
        assert monthly_never_cheaper() is True

    @staticmethod
    def _year(count: int, **kw: Any) -> Plan:
        # Saturdays only: every month of 2027 has at least 4, so 2 a month always fit
        return run(load([game(count=count, weekdays=["sat"], **kw)]))

    def test_24_games_annual_licence_cheaper(self) -> None:
        plan = self._year(24, fixed_dates=["2027-01-02"])
        # 24 x $75 = $1,800 > annual 51-100 $1,500
        assert len(plan.rows) == 24
        [lic] = plan.license_list
        # 12 months from Sat Jan 2 2027: through Sat Jan 1 2028
        assert (lic.kind, lic.tier, lic.fee_usd, lic.valid_from, lic.valid_to) == (
            "me-annual", "51-100", 1500, d("2027-01-02"), d("2028-01-01"))
        assert len(lic.covers) == 24
        assert plan.total_fees_usd == 1500

    def test_20_games_tie(self) -> None:
        plan = self._year(20)
        # 20 x $75 = $1,500 = annual $1,500: either way $1,500
        assert len(plan.rows) == 20
        assert plan.total_fees_usd == 1500

    def test_10_games_per_tournament(self) -> None:
        plan = self._year(10)
        # 10 x $75 = $750 < $1,500
        assert len(plan.rows) == 10
        assert [(lic.kind, lic.tier, lic.fee_usd) for lic in plan.license_list] == [
            ("me-per-tournament", "51-100", 75)] * 10
        assert plan.total_fees_usd == 750

    @pytest.mark.parametrize(("coverage", "total", "annual_covers"),
                             [("up", 1500, 24), ("exact", 1660, None)])
    def test_tier_coverage_readings(self, coverage: str, total: int,
                                    annual_covers: int | None) -> None:
        sc = load([game(id="big", count=20, weekdays=["sat"]),
                   game(id="small", players=40, count=4, weekdays=["sun"])],
                  settings={"tier_coverage": coverage})
        plan = run(sc)
        assert len(plan.rows) == 24  # 20 + 4, two a month
        # up:    the 51-100 annual licence also covers the 40-player games: $1,500
        #        (per tournament would be 20 x 75 + 4 x 40 = 1,500 + 160 = $1,660)
        # exact: 51-100 games min(20 x 75, 1,500) = $1,500; 1-50 games min(4 x 40, 750) = $160;
        #        1,500 + 160 = $1,660
        assert plan.total_fees_usd == total
        if annual_covers is not None:
            [lic] = plan.license_list
            assert (lic.kind, lic.tier, len(lic.covers)) == ("me-annual", "51-100", 24)

    @pytest.mark.parametrize("coverage", ["exact", "up"])
    def test_overlapping_annual_licences_of_two_tiers(self, coverage: str) -> None:
        # 20 games of 40 players on Saturdays Jan 2 - Oct 28 2027 (2 a month, Jan-Oct), then
        # 24 games of 80 players Nov 2027 - Oct 2028 pinned to Sat Nov 6 2027 and Sat Oct 28
        # 2028 (2 a month, Nov-Oct: every slot used).
        sc = load([game(id="small", players=40, count=20, weekdays=["sat"],
                        window={"start": "2027-01-01", "end": "2027-10-28"}),
                   game(id="big", players=80, count=24, weekdays=["sat"],
                        window={"start": "2027-11-01", "end": "2028-10-31"},
                        fixed_dates=["2027-11-06", "2028-10-28"])],
                  horizon={"start": "2027-01-01", "end": "2028-10-31"},
                  settings={"tier_coverage": coverage})
        plan = run(sc)
        assert len(plan.rows) == 44  # 20 + 24
        # exact: 1-50 games min(20 x 40 = 800, annual 750) = 750; 51-100 games
        # min(24 x 75 = 1,800, one annual from Nov 6 2027 to Nov 5 2028 = 1,500) = 1,500;
        # 750 + 1,500 = 2,250 (the 1-50 annual, Jan 2 2027 - Jan 1 2028, overlaps the other).
        # up covers every game exact covers, so it can never cost more than $2,250.
        assert plan.total_fees_usd == 2250

    def test_150_players_per_tournament_only(self) -> None:
        plan = run(load([game(players=150, count=6, weekdays=["sat"])],
                        [org(owns_premises=True)]))
        # 6 x $300 = $1,800 > $1,500, yet no annual licence exists over 100 players
        assert [(lic.kind, lic.tier, lic.fee_usd) for lic in plan.license_list] == [
            ("me-per-tournament", "101-150", 300)] * 6
        assert plan.total_fees_usd == 1800

    @pytest.mark.parametrize(("players", "fee"), [
        (1, 40), (50, 40), (51, 75), (100, 75), (101, 300), (150, 300), (151, 400), (200, 400),
        (201, 500), (250, 500), (251, 600), (300, 600)])
    def test_per_tournament_fee_by_player_cap(self, players: int, fee: int) -> None:
        plan = run(load([game(players=players, fixed_dates=["2027-03-06"])],
                        [org(owns_premises=True)],
                        horizon={"start": "2027-03-01", "end": "2027-03-07"}))
        assert [lic.fee_usd for lic in plan.license_list] == [fee]

    def test_super_cribbage_75_each_not_the_player_tier(self) -> None:
        plan = run(load([super_cribbage(players=150, count=2, weekdays=["fri"])],
                        horizon={"start": "2027-03-01", "end": "2027-03-31"}))
        # 2 x $75 = $150 (a 150-player tournament game would pay 2 x $300)
        assert [(lic.kind, lic.fee_usd) for lic in plan.license_list] == [
            ("me-super-cribbage", 75)] * 2
        assert plan.total_fees_usd == 150

    @staticmethod
    def _annual(tier: str, fee: int) -> License:
        return License("post/annual", "post", "ME", "me-annual", tier, d("2027-01-01"),
                       d("2027-12-31"), fee, ())

    @pytest.mark.parametrize(("coverage", "ok"), [("up", True), ("exact", False)])
    def test_checker_40_players_under_51_100_annual(self, coverage: str, ok: bool) -> None:
        sc = load([game(players=40)], settings={"tier_coverage": coverage})
        p = at(sc, "g", "2027-03-06")
        assert broken(sc, [p], [self._annual("51-100", 1500)]) == ([] if ok else ["ME-FEES"])
        # legal twin under both readings: a 1-50 annual licence
        assert broken(sc, [p], [self._annual("1-50", 750)]) == []

    def test_checker_150_players_not_covered_by_annual(self) -> None:
        sc = load([game(players=150)], [org(owns_premises=True)])
        p = at(sc, "g", "2027-03-06")
        assert broken(sc, [p], [self._annual("51-100", 1500)]) == ["ME-FEES"]
        assert broken(sc, [p]) == []  # per-tournament 101-150 $300

    def test_checker_uncovered_game(self) -> None:
        sc = load([game()])
        assert broken(sc, [at(sc, "g", "2027-03-06")], []) == ["ME-FEES"]


# =============================================================================== input rules
class TestLocalApproval:
    """ME-LOCAL-APPROVAL, 17 M.R.S. § 1836(1): approval by the local governing authority."""

    @pytest.mark.parametrize("approval", [False, None])
    def test_missing_or_false(self, approval: bool | None) -> None:
        assert problems(scenario([game()], [org(local_approval=approval)])) == [
            ("ME-LOCAL-APPROVAL", "operators[0].local_approval")]

    def test_true(self) -> None:
        assert load([game()], [org(local_approval=True)]).operators[0].local_approval is True

    def test_not_needed_for_registered_charitable_cribbage(self) -> None:
        # PUB has no local_approval, beneficiaries or organized_on
        load([cribbage()], [PUB])


class TestBeneficiary:
    """ME-BENEFICIARY, 17 M.R.S. § 1836(2): the application names >= 1 charitable
    organization."""

    def test_none_named(self) -> None:
        assert problems(scenario([game()], [org(beneficiaries=[])])) == [
            ("ME-BENEFICIARY", "operators[0].beneficiaries")]

    def test_one_named(self) -> None:
        sc = load([game()], [org(beneficiaries=["Food Bank"])])
        assert sc.operators[0].beneficiaries == ("Food Bank",)


class TestEligible:
    """ME-ELIGIBLE, 17 M.R.S. § 1832(2): a nonprofit, agricultural society or volunteer fire
    department organized in Maine >= 2 years (before ``horizon.start``)."""

    def test_exactly_two_years(self) -> None:
        # horizon starts 2027-01-01; 2 years before = 2025-01-01
        load([game()], [org(organized_on="2025-01-01")])

    def test_one_day_short(self) -> None:
        assert problems(scenario([game()], [org(organized_on="2025-01-02")])) == [
            ("ME-ELIGIBLE", "operators[0].organized_on")]

    def test_missing(self) -> None:
        assert problems(scenario([game()], [org(organized_on=None)])) == [
            ("ME-ELIGIBLE", "operators[0].organized_on")]

    def test_leap_day_horizon(self) -> None:
        # horizon starts Tue 2028-02-29; 2026 has no Feb 29, the latest legal day is 2026-02-28
        top = {"horizon": {"start": "2028-02-29", "end": "2028-03-31"}}
        load([game()], [org(organized_on="2026-02-28")], **top)
        assert problems(scenario([game()], [org(organized_on="2026-03-01")], **top)) == [
            ("ME-ELIGIBLE", "operators[0].organized_on")]

    @pytest.mark.parametrize("kind", ["nonprofit", "agricultural-society",
                                      "volunteer-fire-department"])
    def test_organization_types(self, kind: str) -> None:
        assert load([game()], [org(organization_type=kind)]).operators[0].organization_type \
            == kind

    def test_other_organization_type_is_an_error(self) -> None:
        assert problems(scenario([game()], [org(organization_type="social-club")])) == [
            ("SCENARIO", "operators[0].organization_type")]


class TestPlayerCap:
    """ME-PLAYER-CAP, 17 M.R.S. § 1836(4): "The maximum number of players allowed is 100
    unless ... held on premises owned by the licensee, in which case ... 300"."""

    @pytest.mark.parametrize(("owns", "players", "ok"), [
        (False, 100, True), (False, 101, False), (True, 300, True), (True, 301, False)])
    def test_cap(self, owns: bool, players: int, ok: bool) -> None:
        data = scenario([game(players=players)], [org(owns_premises=owns)])
        if ok:
            assert load_scenario(data).tournaments[0].players == players
        else:
            assert problems(data) == [("ME-PLAYER-CAP", "tournaments[0].players")]

    def test_players_required(self) -> None:
        assert problems(scenario([game(players=None)])) == [
            ("ME-PLAYER-CAP", "tournaments[0].players")]


class TestElimination:
    """ME-ELIMINATION, 17 M.R.S. § 1836(4), (4-B): "Winners are determined by a process of
    elimination"."""

    def test_tournament_game(self) -> None:
        assert problems(scenario([game(elimination=False)])) == [
            ("ME-ELIMINATION", "tournaments[0].elimination")]
        assert load([game(elimination=True)]).tournaments[0].elimination is True

    def test_super_cribbage(self) -> None:
        assert problems(scenario([super_cribbage(elimination=False)])) == [
            ("ME-ELIMINATION", "tournaments[0].elimination")]

    def test_charitable_cribbage(self) -> None:
        assert problems(scenario([cribbage(elimination=False)])) == [
            ("ME-ELIMINATION", "tournaments[0].elimination")]


class TestEntryCap:
    """ME-ENTRY-CAP, 17 M.R.S. § 1836(4): entry fee <= $100; only one entry fee per person;
    a licence-fee surcharge of at most $125 from all players together."""

    def test_100_ok_101_error(self) -> None:
        assert load([game(entry_fee=100)]).tournaments[0].entry_fee == 100
        assert problems(scenario([game(entry_fee=101)])) == [
            ("ME-ENTRY-CAP", "tournaments[0].entry_fee")]

    @pytest.mark.parametrize(("field", "value"), [("reentries", 1), ("max_rebuys", 1),
                                                  ("rebuy_fee", 20), ("addon_fee", 20)])
    def test_one_entry_per_person(self, field: str, value: int) -> None:
        assert problems(scenario([game(**{field: value})])) == [
            ("ME-ENTRY-CAP", f"tournaments[0].{field}")]

    def test_surcharge_125_ok_126_error_under_flat_reading(self) -> None:
        flat = {"surcharge_cap": "flat"}
        assert load([game(license_surcharge_total=125)], settings=flat).tournaments[0] \
            .license_surcharge_total == 125
        assert problems(scenario([game(license_surcharge_total=126)], settings=flat)) == [
            ("ME-ENTRY-CAP", "tournaments[0].license_surcharge_total")]

    def test_surcharge_75_ok_76_error_for_80_players_by_default(self) -> None:
        # surcharge_cap: license-fee (default): 80 players is tier 51-100, whose
        # per-tournament licence is $75 (§ 1836(3-A)(A)(1)): min(75, 125) = 75
        assert load([game(license_surcharge_total=75)]).tournaments[0] \
            .license_surcharge_total == 75
        assert problems(scenario([game(license_surcharge_total=76)])) == [
            ("ME-ENTRY-CAP", "tournaments[0].license_surcharge_total")]


class TestRaffle:
    """ME-RAFFLE, 17 M.R.S. § 1836(4): "no more than one 50/50 raffle per tournament with a
    prize value up to $2,000"."""

    def test_one_raffle_of_2000(self) -> None:
        t = load([game(raffles=1, raffle_prize=2000)]).tournaments[0]
        assert (t.raffles, t.raffle_prize) == (1, 2000)

    def test_two_raffles(self) -> None:
        assert problems(scenario([game(raffles=2, raffle_prize=500)])) == [
            ("ME-RAFFLE", "tournaments[0].raffles")]

    def test_prize_2001(self) -> None:
        assert problems(scenario([game(raffles=1, raffle_prize=2001)])) == [
            ("ME-RAFFLE", "tournaments[0].raffle_prize")]


class TestPrizes:
    """ME-PRIZES, 17 M.R.S. § 1836(5): "No less than 75% of the entry fees ... paid as
    prizes"."""

    @pytest.mark.parametrize(("share", "ok"), [(0.75, True), (1, True), (0.74, False),
                                               (None, False)])
    def test_prize_share(self, share: float | None, ok: bool) -> None:
        data = scenario([game(prize_share=share)])
        if ok:
            load_scenario(data)
        else:
            assert problems(data) == [("ME-PRIZES", "tournaments[0].prize_share")]

    def test_super_cribbage(self) -> None:
        assert problems(scenario([super_cribbage(prize_share=0.74)])) == [
            ("ME-PRIZES", "tournaments[0].prize_share")]


class TestHighHand:
    """ME-HIGH-HAND, 17 M.R.S. § 1836(7): "one high-hand competition per tournament game"."""

    def test_one(self) -> None:
        assert load([game(high_hand_competitions=1)]).tournaments[0].high_hand_competitions == 1

    def test_two(self) -> None:
        assert problems(scenario([game(high_hand_competitions=2)])) == [
            ("ME-HIGH-HAND", "tournaments[0].high_hand_competitions")]


class TestCribbageRegistration:
    """ME-CRIBBAGE-REG, 17 M.R.S. § 1836(4-B): a licensed restaurant or manufacturer with
    samples; entry <= $25; every entry fee awarded as prizes or donated; no other fee; no
    licence fee and not counted toward ME-MONTHLY-LIMIT."""

    @pytest.mark.parametrize("kind", ["restaurant", "manufacturer"])
    def test_licensed_establishment(self, kind: str) -> None:
        load([cribbage()], [{**PUB, "licensed_establishment": kind}])

    def test_not_a_licensed_establishment(self) -> None:
        # the Legion post has every licence field but is no restaurant or manufacturer
        assert problems(scenario([cribbage(operators=["post"])], [org()])) == [
            ("ME-CRIBBAGE-REG", "tournaments[0].operators")]

    def test_entry_25_ok_26_error(self) -> None:
        assert load([cribbage(entry_fee=25)], [PUB]).tournaments[0].entry_fee == 25
        assert problems(scenario([cribbage(entry_fee=26)], [PUB])) == [
            ("ME-CRIBBAGE-REG", "tournaments[0].entry_fee")]

    @pytest.mark.parametrize(("field", "value"), [("license_surcharge_total", 10),
                                                  ("reentries", 1), ("rebuy_fee", 5),
                                                  ("max_rebuys", 1), ("addon_fee", 5)])
    def test_no_fee_but_the_entry_fee(self, field: str, value: int) -> None:
        assert problems(scenario([cribbage(**{field: value})], [PUB])) == [
            ("ME-CRIBBAGE-REG", f"tournaments[0].{field}")]

    @pytest.mark.parametrize(("prize", "charity", "ok"), [
        (1, None, True),        # 1 = 1
        (0.8, 0.2, True),       # 0.8 + 0.2 = 1
        (0.8, None, False),     # 0.8 < 1: 20 % of the fees unaccounted for
        (0.5, 0.4, False),      # 0.9 < 1
    ])
    def test_all_fees_awarded_or_donated(self, prize: float, charity: float | None,
                                         ok: bool) -> None:
        data = scenario([cribbage(prize_share=prize, charity_share=charity)], [PUB])
        if ok:
            load_scenario(data)
        else:
            assert problems(data) == [("ME-CRIBBAGE-REG", "tournaments[0].prize_share")]

    def test_solver_no_fee_and_not_counted_toward_monthly_limit(self) -> None:
        feb = {"start": "2027-02-01", "end": "2027-02-28"}
        sc = load([game(count=2, window=feb), cribbage(operators=["post"], count=2, window=feb)],
                  [org(licensed_establishment="restaurant")],
                  horizon={"start": "2027-02-01", "end": "2027-02-28"})
        plan = run(sc)
        # 2 licensed games (2 <= 2) + 2 cribbage nights (not counted): all 4 in February
        assert len(first_days(plan, "g")) == 2 and len(first_days(plan, "cc")) == 2
        assert plan.unscheduled_list == ()
        # only the 2 games pay: 2 x $75 = $150
        assert plan.total_fees_usd == 150
