"""summary.txt's first lines are the reader's own: with several operators planned together, one
line per operator with its own fees (the licences and permits it buys), then the whole
scenario's line with every fee (issue #28). Readings and the not-legal-advice line name the
plan's own states only.

Fees: MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): $120 a large-stakes permit year, $500 a
small-stakes permit year, not prorated.
"""

from __future__ import annotations

from pathlib import Path

from scheduler.export.summary import summary_text
from scheduler.inputs.load import load_scenario

from builders.scenarios import load, mt_large, mt_room, run

ROOT = Path(__file__).resolve().parent.parent
POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}


def test_two_rooms_each_read_their_own_fees_first() -> None:
    # Billings plays a large-stakes game ($120 permit) and a small-stakes night ($500
    # permit): $120 + $500 = $620; Butte plays the large-stakes game too: its own $120
    # permit. The whole scenario: $620 + $120 = $740.
    sc = load(operators=[mt_room("billings", name="Billings Room"),
                         mt_room("butte", name="Butte Room")],
              tournaments=[mt_large("big", ("billings", "butte"), fixed_dates=["2027-03-06"]),
                           mt_large("small", ("billings",), type="small-stakes",
                                    fixed_dates=["2027-03-07"])])
    lines = summary_text(run(sc)).splitlines()
    assert lines[:3] == [
        "Billings Room: OPTIMAL plan, 2 occurrences placed, 0 not placed, fees $620",
        "Butte Room: OPTIMAL plan, 1 occurrence placed, 0 not placed, fees $120",
        "test (2 operators together): OPTIMAL plan, 2 occurrences placed, 0 not placed, "
        "fees $740"]
    # the per-operator blocks below hold the limits only (placed and fees are said above)
    assert "  Billings Room (billings, MT), limits used:" in lines
    assert not any("placed of" in line for line in lines)


def test_bundled_two_room_progressive_reads_each_room_first() -> None:
    # data/examples/two-room-progressive.yaml: Yellowstone plays Round 1, the Final and 3
    # deepstacks (5 occurrences), Gallatin Round 2 and 3 deepstacks (4); each buys its own
    # large-stakes permit of the permit year from 2026-07-01: $120 each, $240 together
    sc = load_scenario(ROOT / "data" / "examples" / "two-room-progressive.yaml")
    lines = summary_text(run(sc)).splitlines()
    assert lines[:3] == [
        "Yellowstone Room: OPTIMAL plan, 5 occurrences placed, 0 not placed, fees $120",
        "Gallatin Card Club: OPTIMAL plan, 4 occurrences placed, 0 not placed, fees $120",
        "Treasure State Progressive, spring 2027 (2 operators together): OPTIMAL plan, "
        "9 occurrences placed, 0 not placed, fees $240"]
    # a Montana-only plan reads Montana's settings and law alone
    readings = next(line for line in lines if line.startswith("Readings: "))
    assert readings == ("Readings: reentry_counts_toward_cap=True, permit_year_count=each, "
                        "progressive_count=round")
    assert lines[-1] == ("Not legal advice: read MCA 23-5-317 (and ask the Gambling Control "
                         "Division) before filing.")


def test_one_operator_keeps_one_first_line() -> None:
    # one Maine post: the scenario's line is its own; Maine's readings alone (no
    # permit_year_count, reentry_counts_toward_cap, progressive_count)
    game = {"id": "holdem", "title": "Hold'em", "type": "tournament-game",
            "operators": ["post"], "players": 80, "entry_fee": 100, "prize_share": 0.8,
            "start_time": "12:00", "hours": 10, "fixed_dates": ["2027-03-13"]}
    lines = summary_text(run(load(operators=[POST], tournaments=[game]))).splitlines()
    assert lines[0].startswith("test: OPTIMAL plan, 1 occurrence placed, 0 not placed, fees $")
    assert lines[2].startswith("  Legion Post 212 (post, ME): 1 placed of 1 wanted; fees $")
    readings = next(line for line in lines if line.startswith("Readings: "))
    assert readings == "Readings: month_rule=touch, tier_coverage=up, surcharge_cap=license-fee"
    assert lines[-1] == ("Not legal advice: read 17 M.R.S. § 1836 (and ask the Gambling "
                         "Control Unit) before filing.")
