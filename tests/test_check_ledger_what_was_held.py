"""``tourney check --ledger`` judges what was held (RULES.md, "What was held"; issue #23):
every rule a recorded fact can break reads the ledger's actuals with its ``actuals`` hook,
reports the fact with its rule ID and citation, and passes its lawful twin. A figure a rule
needs that was not recorded is a note, never a violation.

Every test runs on SQLite and on PostgreSQL (the ``ledger`` fixture). The plan folder is
written by hand (:func:`write_plan`) so that every day and count below is computed by hand
in a comment; each fact is recorded with ``api.record_held`` (as ``tourney record held``),
and its twin is the same entry corrected (``corrects``) or cancelled.
"""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from alembic import command
from sqlalchemy import text
from typer.testing import CliRunner

from constraints.base import share_text
from constraints.catalogue import cite
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.ledger.audit import audit_ledger

from builders.plans import FIXTURE_0001, TODAY, plan_row, write_plan_folder
from builders.scenarios import d, mt_room, scenario

# ------------------------------------------------------------------------ the plan
HOLDEM = "post-1/per-tournament/2027-02-20/holdem"
ANNUAL = "post-1/annual/51-100/2027-06-05"
CRIB = "post-1/super-cribbage/2027-04-10/crib"
LATE = "post-1/per-tournament/2027-09-04/late"
NONE = "post-1/per-tournament/2027-10-02/none"
OLDCRIB = "post-1/super-cribbage/2026-10-09/oldcrib"
MT_LARGE = {"gala#1": "2027-03-06", "main#1": "2027-03-13", "long#1": "2027-04-01",
            "long#2": "2027-04-10"}
"""The Montana large-stakes occurrences whose notice the fixture files on its due day."""
APPLIED = {HOLDEM: "2027-01-20", ANNUAL: "2027-05-01", CRIB: "2027-03-01"}
"""The Maine licences whose application the fixture records received, each well inside its
window: HOLDEM 31 days before 2027-02-20 (due Fri 2027-02-05: 10 Maine business days back,
Mon Feb 15 Washington's Birthday skipped); ANNUAL 35 days before 2027-06-05; CRIB 40 days
before 2027-04-10."""


def write_plan(folder: Path) -> Path:
    """room-a (MT): charitable ``gala#1`` 03-06, ``main#1`` 03-13, ``long#1`` 04-01..04-06
    (6 calendar days), ``long#2`` 04-10..04-14 (5), ``nonote#1`` 10-02 (large-stakes);
    ``small#1`` and ``small#2`` on 05-01 (small-stakes). post-1 (ME): ``holdem#1`` 02-20
    (per-tournament, 51-100), ``m#1..3`` 06-05, 06-12, 06-19 and ``mlong#1`` 07-03..07-06,
    ``mlong#2`` 07-10..07-12 (one annual licence, 51-100), ``crib#1`` 04-10..04-11 (super
    cribbage), ``late#1`` Sat 09-04 and ``none#1`` Sat 10-02 (per-tournament). pub (ME):
    charitable cribbage ``cc#1`` 05-15 (registered, no licence). All in 2027, but for
    ``oldcrib#1`` 2026-10-09..10-10 (super cribbage) and ``oldcc#1`` 2026-11-14 (charitable
    cribbage at pub), which the command line records (it takes no "today": they are past)."""
    mt = [plan_row("gala", 1, "room-a", "MT", "large-stakes", "2027-03-06", charitable=True),
          plan_row("main", 1, "room-a", "MT", "large-stakes", "2027-03-13"),
          plan_row("long", 1, "room-a", "MT", "large-stakes", "2027-04-01", "2027-04-06"),
          plan_row("long", 2, "room-a", "MT", "large-stakes", "2027-04-10", "2027-04-14"),
          plan_row("nonote", 1, "room-a", "MT", "large-stakes", "2027-10-02"),
          plan_row("small", 1, "room-a", "MT", "small-stakes", "2027-05-01"),
          plan_row("small", 2, "room-a", "MT", "small-stakes", "2027-05-01")]
    me = [plan_row("holdem", 1, "post-1", "ME", "tournament-game", "2027-02-20", licence=HOLDEM),
          *(plan_row("m", k, "post-1", "ME", "tournament-game", day, licence=ANNUAL)
            for k, day in enumerate(("2027-06-05", "2027-06-12", "2027-06-19"), start=1)),
          plan_row("mlong", 1, "post-1", "ME", "tournament-game", "2027-07-03", "2027-07-06",
                   licence=ANNUAL),
          plan_row("mlong", 2, "post-1", "ME", "tournament-game", "2027-07-10", "2027-07-12",
                   licence=ANNUAL),
          plan_row("crib", 1, "post-1", "ME", "super-cribbage", "2027-04-10", "2027-04-11",
                   licence=CRIB),
          plan_row("late", 1, "post-1", "ME", "tournament-game", "2027-09-04", licence=LATE),
          plan_row("none", 1, "post-1", "ME", "tournament-game", "2027-10-02", licence=NONE),
          plan_row("cc", 1, "pub", "ME", "charitable-cribbage", "2027-05-15"),
          plan_row("oldcrib", 1, "post-1", "ME", "super-cribbage", "2026-10-09", "2026-10-10",
                   licence=OLDCRIB),
          plan_row("oldcc", 1, "pub", "ME", "charitable-cribbage", "2026-11-14")]
    annual_covers = "m#1 m#2 m#3 mlong#1 mlong#2"
    return write_plan_folder(folder, [*mt, *me], [
        [HOLDEM, "post-1", "ME", "me-per-tournament", "51-100", "2027-02-20",
         "2027-02-20", "75", "holdem#1"],
        [ANNUAL, "post-1", "ME", "me-annual", "51-100", "2027-06-05",
         "2028-06-04", "1500", annual_covers],
        [CRIB, "post-1", "ME", "me-super-cribbage", "51-100", "2027-04-10",
         "2027-04-11", "75", "crib#1"],
        [LATE, "post-1", "ME", "me-per-tournament", "51-100", "2027-09-04",
         "2027-09-04", "75", "late#1"],
        [NONE, "post-1", "ME", "me-per-tournament", "51-100", "2027-10-02",
         "2027-10-02", "75", "none#1"],
        [OLDCRIB, "post-1", "ME", "me-super-cribbage", "51-100", "2026-10-09",
         "2026-10-10", "75", "oldcrib#1"]])


@pytest.fixture
def year(ledger: Ledger, tmp_path: Path) -> Ledger:
    """The plan of :func:`write_plan` adopted; the MT notices of :data:`MT_LARGE` filed on
    their due days (5 days before) and the applications of :data:`APPLIED` received. Nothing
    recorded held yet."""
    api.adopt(ledger, write_plan(tmp_path / "plan"), organization="Both Tours", by="ann")
    for ref, first in MT_LARGE.items():
        api.record_filed(ledger, "mt-notice", occurrence=ref,
                         filed_on=d(first) - dt.timedelta(days=5), by="ann", today=TODAY)
    for lic, on in APPLIED.items():
        api.record_filed(ledger, "me-application", license_ref=lic, filed_on=d(on), by="ann",
                         today=TODAY)
    return ledger


def world(room: dict[str, Any] | None = None, **settings: Any) -> Scenario:
    """room-a (MT), post-1 "American Legion Post 1" (ME, premises not owned) and pub (ME,
    a licensed restaurant); horizon 2027; no tournaments (the ledger says what was held)."""
    ops = [mt_room(**(room or {})),
           {"id": "post-1", "name": "American Legion Post 1", "jurisdiction": "ME"},
           {"id": "pub", "name": "Harbor Pub", "jurisdiction": "ME",
            "licensed_establishment": "restaurant"}]
    extra = {"settings": settings} if settings else {}
    return load_scenario(scenario(operators=ops, **extra))


def held(lg: Ledger, ref: str, first: str, last: str | None = None, **kw: Any) -> int:
    """Record ``ref`` held (the plan's days); returns the entry id."""
    return api.record_held(lg, ref, first_day=d(first), last_day=d(last or first), by="ann",
                           today=TODAY, **kw).id


AS_OF = d("2027-01-04")
"""The day of the audit: before every ME-REPORT due day of the plan's licences (not what
these tests judge; tests/test_ledger_history.py does)."""


def found(lg: Ledger, sc: Scenario | None = None) -> list[tuple[str, str, str]]:
    """(rule, occurrence refs, dates) of every violation ``check --ledger`` reports."""
    violations, _ = audit_ledger(lg, sc or world(), as_of=AS_OF)
    return [(v.rule, ",".join(v.refs), v.dates) for v in violations]


def messages(lg: Ledger, rule: str, sc: Scenario | None = None) -> list[str]:
    violations, _ = audit_ledger(lg, sc or world(), as_of=AS_OF)
    return [v.render() for v in violations if v.rule == rule]


def notes(lg: Ledger, sc: Scenario | None = None) -> list[tuple[str, str]]:
    _, actuals = audit_ledger(lg, sc or world(), as_of=AS_OF)
    return [(n.rule, ",".join(n.refs)) for n in actuals.notes]


# ----------------------------------------------------------- shares to the cent
def test_a_share_one_cent_short_reads_under_its_threshold() -> None:
    # 7,499.99 / 10,000 = 74.9999 %: rounded down to the cent 74.99, never 75.00
    assert share_text(Decimal("7499.99"), 10000) == "74.99 %"
    assert share_text(7500, 10000) == "75.00 %"
    # 4,999.99 / 10,000 = 49.9999 % -> 49.99 %; 2 / 3 = 66.666... % -> 66.66 %
    assert share_text(499999, 1_000_000) == "49.99 %"
    assert share_text(2, 3) == "66.66 %"


# ---------------------------------------------------- MT-CHARITY-SHARE, MCA 23-5-317(8)
def test_mt_charity_share_under_half_is_reported_half_is_lawful(year: Ledger) -> None:
    # gala#1 (charitable): 30 % = $3,000 of $10,000 paid to charity; 50 % is $5,000
    e = held(year, "gala#1", "2027-03-06", entry_fees_usd="10000", charity_usd="3000")
    assert found(year) == [("MT-CHARITY-SHARE", "gala#1", "2027-03-06")]
    (m,) = messages(year, "MT-CHARITY-SHARE")
    assert m.startswith(f"{cite('MT-CHARITY-SHARE')}: ") and "(30.00 %)" in m
    assert "MCA 23-5-317(8)" in m and "($5,000)" in m
    # $4,999.99 of $10,000 = 49.9999 %: one cent short, printed 49.99 %, never 50.00 %
    e = held(year, "gala#1", "2027-03-06", entry_fees_usd="10000", charity_usd="4999.99",
             corrects=e)
    (m,) = messages(year, "MT-CHARITY-SHARE")
    assert "(49.99 %)" in m
    # the twin: exactly 50 %, $5,000.00 of $10,000
    held(year, "gala#1", "2027-03-06", entry_fees_usd="10000", charity_usd="5000",
         corrects=e)
    assert found(year) == []


# ------------------------------------------ ME-ENTRY-CAP, 17 M.R.S. § 1836(4)
def test_me_one_entry_per_person(year: Ledger) -> None:
    # 44 entries from 40 players: 4 re-entries
    e = held(year, "holdem#1", "2027-02-20", players=40, entries=44)
    assert found(year) == [("ME-ENTRY-CAP", "holdem#1", "2027-02-20")]
    assert "44 entries to 40 players (a re-entry)" in messages(year, "ME-ENTRY-CAP")[0]
    assert "17 M.R.S. § 1836(4)" in messages(year, "ME-ENTRY-CAP")[0]
    # 30 entries from 40 players: 10 played without an entry fee
    e = held(year, "holdem#1", "2027-02-20", players=40, entries=30, corrects=e)
    assert found(year) == [("ME-ENTRY-CAP", "holdem#1", "2027-02-20")]
    # the twin: 40 entries from 40 players
    held(year, "holdem#1", "2027-02-20", players=40, entries=40, corrects=e)
    assert found(year) == []


def test_me_entry_fee_over_100_an_entry(year: Ledger) -> None:
    # $180 an entry: 40 entries x $180 = $7,200
    e = held(year, "holdem#1", "2027-02-20", players=40, entries=40, entry_fees_usd="7200")
    assert found(year) == [("ME-ENTRY-CAP", "holdem#1", "2027-02-20")]
    assert "$180 each on average" in messages(year, "ME-ENTRY-CAP")[0]
    # one cent over: 40 x $100 = $4,000; $4,000.01 / 40 = $100.00025 -> over
    e = held(year, "holdem#1", "2027-02-20", players=40, entries=40, entry_fees_usd="4000.01",
             corrects=e)
    assert found(year) == [("ME-ENTRY-CAP", "holdem#1", "2027-02-20")]
    # the twin: $4,000.00 = $100 an entry exactly
    held(year, "holdem#1", "2027-02-20", players=40, entries=40, entry_fees_usd="4000",
         corrects=e)
    assert found(year) == []


def test_me_surcharge_collected_over_125(year: Ledger) -> None:
    # the scenario does not have holdem: the statute's $125 across all players
    e = held(year, "holdem#1", "2027-02-20", surcharge_usd="125.01")
    assert found(year) == [("ME-ENTRY-CAP", "holdem#1", "2027-02-20")]
    assert "$125.01" in messages(year, "ME-ENTRY-CAP")[0]
    held(year, "holdem#1", "2027-02-20", surcharge_usd="125.00", corrects=e)
    assert found(year) == []


# ------------------------------- ME-PLAYER-CAP (§ 1836(4)) and the tier (ME-FEES, (3-A))
def test_me_players_over_the_cap_and_the_licence_tier(year: Ledger) -> None:
    # 140 players: over 100 (post-1 does not own its premises) and over the 51-100 tier of
    # licence HOLDEM (a 140-player game needs tier 101-150)
    e = held(year, "holdem#1", "2027-02-20", players=140)
    assert found(year) == [("ME-PLAYER-CAP", "holdem#1", "2027-02-20"),
                           ("ME-FEES", "holdem#1", "2027-02-20")]
    (tier,) = messages(year, "ME-FEES")
    assert "tier 51-100 players (at most 100)" in tier and "tier 101-150" in tier
    # 101 players: one over both
    e = held(year, "holdem#1", "2027-02-20", players=101, corrects=e)
    assert [r for r, _, _ in found(year)] == ["ME-PLAYER-CAP", "ME-FEES"]
    # the twin: 100 players, at the cap and the tier's maximum
    held(year, "holdem#1", "2027-02-20", players=100, corrects=e)
    assert found(year) == []
    # on premises the licensee owns the cap is 300; the 51-100 licence still is not enough
    held(year, "m#1", "2027-06-05", players=140)
    assert found(year, world()) == [("ME-PLAYER-CAP", "m#1", "2027-06-05"),
                                    ("ME-FEES", "m#1", "2027-06-05")]
    owned = load_scenario(scenario(operators=[
        mt_room(), {"id": "post-1", "name": "Post 1", "jurisdiction": "ME",
                    "owns_premises": True}]))
    assert found(year, owned) == [("ME-FEES", "m#1", "2027-06-05")]


# ------------------------------------------- ME-MONTHLY-LIMIT, 17 M.R.S. § 1836
def test_me_three_games_held_in_one_month(year: Ledger) -> None:
    # m#1 06-05, m#2 06-12, m#3 06-19: three in June 2027, at most 2
    held(year, "m#1", "2027-06-05")
    held(year, "m#2", "2027-06-12")
    e = held(year, "m#3", "2027-06-19")
    assert found(year) == [("ME-MONTHLY-LIMIT", "m#3", "2027-06-19")]
    (m,) = messages(year, "ME-MONTHLY-LIMIT")
    assert "3rd tournament game of 2027-06" in m and "m#1, m#2, m#3" in m
    # the twin: m#3 not held after all (cancelled): 2 in June
    api.record_cancelled(year, "m#3", corrects=e, by="ann")
    assert found(year) == []
    # a horizon from 2027-06-01: the ledger has no game of post-1 before it in June, so the
    # YAML's held_in_current_month (held before the ledger began) is added, as solve does:
    # 1 + m#1 + m#2 = 3, m#2 the 3rd; with 0 held before, 2: lawful
    def june(games: int) -> Scenario:
        return load_scenario(scenario(
            horizon={"start": "2027-06-01", "end": "2027-12-31"},
            operators=[{"id": "post-1", "name": "Post 1", "jurisdiction": "ME",
                        "held_in_current_month": {"games": games}}]))
    assert found(year, june(1)) == [("ME-MONTHLY-LIMIT", "m#2", "2027-06-12")]
    assert "1 held before the ledger began" in messages(year, "ME-MONTHLY-LIMIT", june(1))[0]
    assert found(year, june(0)) == []


# ----------------------------------- ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2
def test_me_game_held_with_no_application_and_mt_with_no_notice(year: Ledger) -> None:
    # none#1 Sat 2027-10-02: no application on record; due 10 Maine business days before:
    # Oct 1, Sep 30, 29, 28, 27 (5), 24, 23, 22, 21, 20 (10) -> Mon 2027-09-20.
    # nonote#1 Sat 2027-10-02 (MT): no notice; due 2027-10-02 - 5 days = 2027-09-27.
    held(year, "none#1", "2027-10-02")
    held(year, "nonote#1", "2027-10-02")
    assert found(year) == [("MT-NOTICE", "nonote#1", "2027-10-02"),
                           ("ME-APPLICATION-WINDOW", "none#1", "2027-10-02")]
    (m,) = messages(year, "ME-APPLICATION-WINDOW")
    assert "no application for licence " + NONE in m and "due by 2027-09-20" in m
    assert "16-633 CMR ch. 32 § 2" in m
    # the twins: the application received on its due day, the notice on day -5
    api.record_filed(year, "me-application", license_ref=NONE, filed_on=d("2027-09-20"),
                     by="ann", today=TODAY)
    api.record_filed(year, "mt-notice", occurrence="nonote#1", filed_on=d("2027-09-27"),
                     by="ann", today=TODAY)
    assert found(year) == []


def test_me_application_received_late_or_too_early(year: Ledger) -> None:
    # late#1 Sat 2027-09-04: due Sep 3, 2, 1, Aug 31, 30 (5), 27, 26, 25, 24, 23 (10) ->
    # Mon 2027-08-23 (Labor Day is Sep 6, after). Received Tue 08-24: one day late, as
    # `tourney deadlines` says "done late".
    held(year, "late#1", "2027-09-04")
    f = api.record_filed(year, "me-application", license_ref=LATE, filed_on=d("2027-08-24"),
                         by="ann", today=TODAY).id
    assert found(year) == [("ME-APPLICATION-WINDOW", "late#1", "2027-09-04")]
    assert "received 2027-08-24, after it was due (2027-08-23" in messages(
        year, "ME-APPLICATION-WINDOW")[0]
    # 91 days before: 2027-09-04 - 91 days = 2027-06-05, before the window (opens 06-06)
    f = api.record_filed(year, "me-application", license_ref=LATE, filed_on=d("2027-06-05"),
                         corrects=f, by="ann", today=TODAY).id
    assert found(year) == [("ME-APPLICATION-WINDOW", "late#1", "2027-09-04")]
    assert "91 days before 2027-09-04; at most 90" in messages(
        year, "ME-APPLICATION-WINDOW")[0]
    # the twins: 90 days before (06-06) and on the due day (08-23) are on time
    f = api.record_filed(year, "me-application", license_ref=LATE, filed_on=d("2027-06-06"),
                         corrects=f, by="ann", today=TODAY).id
    assert found(year) == []
    api.record_filed(year, "me-application", license_ref=LATE, filed_on=d("2027-08-23"),
                     corrects=f, by="ann", today=TODAY)
    assert found(year) == []
    # offices closed by order on Mon 08-23 (settings.closed_days): the 10th business day
    # back is then Fri 08-20 (Sep 3, 2, 1, Aug 31, 30, 27, 26, 25, 24, 20): 08-23 is late
    closed = world(closed_days=["2027-08-23"])
    assert found(year, closed) == [("ME-APPLICATION-WINDOW", "late#1", "2027-09-04")]


# -------------------------------------------- MT-LARGE-LIMIT, MCA 23-5-317(1)(a)
def test_mt_seventeenth_counting_those_held_before_the_ledger_began(year: Ledger) -> None:
    # The ledger's plan has nothing of room-a before 2027-01-01 in the permit year
    # 2026-07-01..2027-06-30: the YAML's count of those held before it is added, as solve
    # does. 15 held before + main#1 (03-13) = 16th, long#2 (04-10) = 17th; gala#1 (03-06)
    # is charitable, one of the first 3, not counted (MT-CHARITY-LIMIT).
    for ref in ("gala#1", "main#1", "long#2"):
        first = MT_LARGE[ref]
        last = "2027-04-14" if ref == "long#2" else first
        held(year, ref, first, last)
    fifteen = world({"held_in_current_permit_year": {"large_stakes": 15}})
    assert found(year, fifteen) == [("MT-LARGE-LIMIT", "long#2", "2027-04-10")]
    (m,) = messages(year, "MT-LARGE-LIMIT", fifteen)
    assert "17th counted" in m and "15 counted ones held before the ledger began" in m
    # the twin: 14 held before + 2 = 16
    fourteen = world({"held_in_current_permit_year": {"large_stakes": 14}})
    assert found(year, fourteen) == []


# ---------------------------------- ME-CRIBBAGE-REG, 17 M.R.S. § 1836(4-B)
def test_registered_cribbage_under_21_or_away_from_the_establishment(year: Ledger) -> None:
    e = held(year, "cc#1", "2027-05-15", under_21_admitted=True, away_from_establishment=False)
    assert found(year) == [("ME-CRIBBAGE-REG", "cc#1", "2027-05-15")]
    assert "under 21" in messages(year, "ME-CRIBBAGE-REG")[0]
    assert "17 M.R.S. § 1836(4-B)" in messages(year, "ME-CRIBBAGE-REG")[0]
    e = held(year, "cc#1", "2027-05-15", under_21_admitted=False, away_from_establishment=True,
             corrects=e)
    assert found(year) == [("ME-CRIBBAGE-REG", "cc#1", "2027-05-15")]
    assert "away from pub's licensed establishment" in messages(year, "ME-CRIBBAGE-REG")[0]
    # the twin: 21 and over only, at the restaurant; $25 an entry exactly (20 x $25 = $500),
    # all of it awarded or donated ($400 + $100)
    held(year, "cc#1", "2027-05-15", under_21_admitted=False, away_from_establishment=False,
         players=20, entries=20, entry_fees_usd="500", prizes_usd="400", charity_usd="100",
         corrects=e)
    assert found(year) == [] and notes(year) == []


# --------------------------------------- ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)
def _crib(lg: Ledger, **kw: Any) -> int:
    # 40 players; proceeds after prizes $4,000 - $3,000 = $1,000; 50 % = $500 paid
    return held(lg, "crib#1", "2027-04-10", "2027-04-11", players=40, entry_fees_usd="4000",
                prizes_usd="3000", charity_usd="500", **kw)


def test_super_cribbage_share_paid_to_the_licensee_itself(year: Ledger) -> None:
    e = _crib(year, charity_is_licensee=True)
    assert found(year) == [("ME-SUPER-CRIBBAGE", "crib#1", "2027-04-10..2027-04-11")]
    assert "other than the licensee ((4-A)(F))" in messages(year, "ME-SUPER-CRIBBAGE")[0]
    # named as the licensee (its name, another case and spacing): the same
    e = _crib(year, charity_to="american legion  POST 1", corrects=e)
    assert found(year) == [("ME-SUPER-CRIBBAGE", "crib#1", "2027-04-10..2027-04-11")]
    # the twin: another charity
    _crib(year, charity_to="Maine Children's Cancer Program", charity_is_licensee=False,
          corrects=e)
    assert found(year) == []


def test_super_cribbage_sixteenth_licence_of_the_year(year: Ledger) -> None:
    _crib(year, charity_to="Maine Children's Cancer Program")
    # 15 issued outside the plan in 2027 + crib#1 = the 16th
    over = world(super_cribbage_licenses_issued={2027: 15})
    assert found(year, over) == [("ME-SUPER-CRIBBAGE", "crib#1", "2027-04-10..2027-04-11")]
    assert "16th super cribbage licence of 2027" in messages(year, "ME-SUPER-CRIBBAGE", over)[0]
    # the twin: 14 + 1 = 15
    assert found(year, world(super_cribbage_licenses_issued={2027: 14})) == []


# ------------------------------------ Montana small-stakes, MCA 23-5-317(2)(a), (2)(c)
def test_mt_two_small_stakes_on_one_day(year: Ledger) -> None:
    held(year, "small#1", "2027-05-01")
    e = held(year, "small#2", "2027-05-01")
    assert found(year) == [("MT-SMALL-DAILY", "small#1,small#2", "2027-05-01")]
    api.record_cancelled(year, "small#2", corrects=e, by="ann")  # the twin: one that day
    assert found(year) == []


def test_mt_small_stakes_entry_over_80_or_a_reentry(year: Ledger) -> None:
    # 20 players x $80 = $1,600; $1,600.01 -> at least one paid more
    e = held(year, "small#1", "2027-05-01", players=20, entries=20, entry_fees_usd="1600.01")
    assert found(year) == [("MT-SMALL-ENTRY", "small#1", "2027-05-01")]
    # 21 entries from 20 players: a re-entry
    e = held(year, "small#1", "2027-05-01", players=20, entries=21, entry_fees_usd="1600",
             corrects=e)
    assert found(year) == [("MT-SMALL-ENTRY", "small#1", "2027-05-01")]
    held(year, "small#1", "2027-05-01", players=20, entries=20, entry_fees_usd="1600",
         corrects=e)
    assert found(year) == []


# ---------------------------------------------- MT-ENTRY-CAP, MCA 23-5-317(1)(g)
def test_mt_large_stakes_paid_over_1875_each(year: Ledger) -> None:
    # 10 players x $1,875 = $18,750; $18,750.01 -> at least one paid more
    e = held(year, "main#1", "2027-03-13", players=10, entry_fees_usd="18750.01")
    assert found(year) == [("MT-ENTRY-CAP", "main#1", "2027-03-13")]
    assert "$1,875.01 each on average" in messages(year, "MT-ENTRY-CAP")[0]
    held(year, "main#1", "2027-03-13", players=10, entry_fees_usd="18750", corrects=e)
    assert found(year) == []


# ------------------------------------ MT-DURATION (1)(c), ME-DURATION § 1836(4)
def test_days_held_longer_than_the_law_allows(year: Ledger) -> None:
    # long#1 04-01..04-06: 6 calendar days, at most 5; long#2 04-10..04-14: 5, lawful
    held(year, "long#1", "2027-04-01", "2027-04-06")
    held(year, "long#2", "2027-04-10", "2027-04-14")
    # mlong#1 07-03..07-06: 3 days apart, so past midnight of 07-06 is more than
    # (3 - 1) x 24 = 48 hours after any time of 07-03: over 48; mlong#2 07-10..07-12: 2 days
    # apart, the days alone cannot exceed 48 hours: lawful
    held(year, "mlong#1", "2027-07-03", "2027-07-06")
    held(year, "mlong#2", "2027-07-10", "2027-07-12")
    assert found(year) == [("MT-DURATION", "long#1", "2027-04-01..2027-04-06"),
                           ("ME-DURATION", "mlong#1", "2027-07-03..2027-07-06")]


# ------------------------------------------------------- figures not recorded: notes
def test_a_figure_not_recorded_is_a_note_not_a_violation(year: Ledger) -> None:
    held(year, "holdem#1", "2027-02-20")
    assert found(year) == []
    assert notes(year) == [("ME-PLAYER-CAP", "holdem#1"), ("ME-ENTRY-CAP", "holdem#1"),
                           ("ME-PRIZES", "holdem#1"), ("ME-FEES", "holdem#1")]
    _, actuals = audit_ledger(year, world(), as_of=AS_OF)
    entry = next(n for n in actuals.notes if n.rule == "ME-ENTRY-CAP").message
    assert "players (--players), entries (--entries), entry fees (--entry-fees) and the " \
           "surcharge collected (--surcharge) not recorded" in entry


def test_cli_records_the_figures_and_check_prints_notes(year: Ledger, tmp_path: Path) -> None:
    # oldcrib#1 Fri 2026-10-09: its application received 2026-09-01, before its due day
    # (Oct 8, 7, 6, 5, 2, 1, Sep 30, 29, 28, 25 -> Fri 2026-09-25) and within 90 days
    api.record_filed(year, "me-application", license_ref=OLDCRIB, filed_on=d("2026-09-01"),
                     by="ann", today=TODAY)
    run = CliRunner().invoke
    # 40 players, 40 entries, $4,000 - $3,000 prizes = $1,000; $500 (50 %) to the licensee
    r = run(app, ["record", "held", "oldcrib#1", "--first-day", "2026-10-09", "--last-day",
                  "2026-10-10", "--players", "40", "--entries", "40", "--surcharge", "0",
                  "--entry-fees", "4000", "--prizes", "3000",
                  "--charity", "500", "--charity-to", "American Legion Post 1",
                  "--charity-is-licensee", "--ledger", year.url])
    assert r.exit_code == 0, r.output
    r = run(app, ["record", "held", "oldcc#1", "--first-day", "2026-11-14", "--last-day",
                  "2026-11-14", "--under-21-admitted", "--at-establishment", "--ledger",
                  year.url])
    assert r.exit_code == 0, r.output
    row = year.held().set_index("tournament_id")
    assert (row.loc["oldcrib", "charity_to"],
            bool(row.loc["oldcrib", "charity_is_licensee"])) == ("American Legion Post 1", True)
    assert (bool(row.loc["oldcc", "under_21_admitted"]),
            bool(row.loc["oldcc", "away_from_establishment"])) == (True, False)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario(operators=[
        mt_room(), {"id": "post-1", "name": "American Legion Post 1", "jurisdiction": "ME"},
        {"id": "pub", "name": "Harbor Pub", "jurisdiction": "ME",
         "licensed_establishment": "restaurant"}])))
    # as of 2026-11-15: oldcrib#1's report (period ending 10-10) is due 10 Maine business
    # days after, Oct 13..16, 19..23, 26 (Oct 12 Indigenous Peoples' Day) -> 2026-10-26:
    # filed on its due day, on time
    api.record_report(year, OLDCRIB, period_end=d("2026-10-10"), filed_on=d("2026-10-26"),
                      by="ann", today=TODAY)
    r = run(app, ["check", str(path), "--ledger", year.url, "--as-of", "2026-11-15"])
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    assert sorted(x.split(" | ")[0] for x in lines if " | " in x and "note: " not in x) == [
        cite("ME-CRIBBAGE-REG"), cite("ME-SUPER-CRIBBAGE")]
    # oldcc#1: its entry fee and disposition not recorded (a note); oldcrib#1: every figure
    assert [x.split(" | ")[0] for x in lines if x.startswith("note: ")] == [
        f"note: {cite('ME-CRIBBAGE-REG')}"]
    assert lines[-1].startswith("2 violation(s) in 2 held occurrence(s)")
    assert lines[-1].endswith("; 1 note(s): figures not recorded, not judged")
    # an empty name is refused, nothing written (exit 2)
    r = run(app, ["record", "held", "oldcc#1", "--first-day", "2026-11-14", "--last-day",
                  "2026-11-14", "--charity-to", " ", "--ledger", year.url])
    assert r.exit_code == 2 and "--charity-to: the name is empty" in r.output


# ------------------------------------------------------------------- schema 0003
def test_the_figures_go_through_export_and_import(year: Ledger, tmp_path: Path) -> None:
    _crib(year, surcharge_usd="75.00", charity_to="Maine Children's Cancer Program",
          charity_is_licensee=False)
    held(year, "cc#1", "2027-05-15", under_21_admitted=False, away_from_establishment=True)
    out = tmp_path / "ledger.csv"
    with out.open("w", newline="", encoding="utf-8") as f:
        api.export_csv(year, f)
    header = out.read_text().splitlines()[0].split(",")
    assert {"surcharge_usd", "charity_to", "charity_is_licensee", "under_21_admitted",
            "away_from_establishment"} <= set(header)
    fresh = Ledger(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    api.init(fresh)
    api.import_csv(fresh, out, today=TODAY)  # the facts are of 2027: not future then
    cols = ["tournament_id", "surcharge_usd", "charity_to", "charity_is_licensee",
            "under_21_admitted", "away_from_establishment"]
    assert fresh.held()[cols].astype(object).where(fresh.held()[cols].notna(), None) \
        .values.tolist() == year.held()[cols].astype(object) \
        .where(year.held()[cols].notna(), None).values.tolist() == [
            ["crib", 75.0, "Maine Children's Cancer Program", False, None, None],
            ["cc", None, None, None, False, True]]
    # and the audit reads them back the same: cc#1 away from the establishment
    assert found(fresh) == found(year) == [("ME-CRIBBAGE-REG", "cc#1", "2027-05-15")]
    fresh.dispose()


def test_a_0002_ledger_migrates_to_the_newest_and_keeps_its_rows(url: str,
                                                                tmp_path: Path) -> None:
    if url.startswith("sqlite"):
        shutil.copyfile(FIXTURE_0001, tmp_path / "ledger.sqlite")
    lg = Ledger(url)
    cfg = lg._alembic_config()
    with lg.engine.begin() as conn:  # the 0002 state: what tourney wrote before 0003
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    assert lg.revision() == "0002"
    # the rows of the 0001 fixture on SQLite (2 held entries), none on a new PostgreSQL one
    with lg.engine.connect() as conn:
        api_rows = int(conn.execute(text("SELECT count(*) FROM held")).scalar() or 0)
    assert api_rows == (2 if url.startswith("sqlite") else 0)
    # 0002 -> 0003 (the held figures) -> 0004 (the plan's deadlines) -> 0005 (the plan's
    # scenario), the newest
    assert lg.upgrade() == ("0002", "0005") == ("0002", lg.head())
    h = lg.held(current=False)
    assert len(h) == api_rows
    for c in ("surcharge_usd", "charity_to", "charity_is_licensee", "under_21_admitted",
              "away_from_establishment"):
        assert h[c].isna().all()
    assert str(h["charity_is_licensee"].dtype) == "boolean"
    assert str(h["surcharge_usd"].dtype) == "Float64"
    lg.dispose()
