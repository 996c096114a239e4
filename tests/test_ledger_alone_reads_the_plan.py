"""What the ledger judges alone, without the scenario (``tourney deadlines`` with no plan
folder, the warnings of ``tourney record``), reads the same days and caps as the plan and as
``tourney check --ledger``:

- MT-PROGRESSIVE, MCA 23-5-317(1)(d): every venue's notice of a progressive is due 5 days
  before the progressive's *first* round, not before its own round;
- ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2, with ``settings.closed_days``: a day the
  Governor closed state offices is not a Maine business day ("Maine business day" in
  RULES.md), so the application is due one business day earlier;
- ME-ENTRY-CAP, 17 M.R.S. § 1836(4), under ``surcharge_cap: license-fee``: the surcharge
  collected is capped at the game's licence fee ($75 for 51-100 players), not $125.

``tourney deadlines`` without a folder lists the deadlines.csv lines ``tourney ledger
adopt`` stored (table ``plan_deadlines``). What ``tourney record`` judges at once reads the
scenario ``tourney ledger adopt`` kept from the plan folder's scenario.yaml (table
``plan_scenarios``: its tournaments, tours, settings and terms); a plan adopted from a folder
without one (an older tourney's) is judged with the operators the ledger knows, as before,
and a kept scenario that is damaged is named with its plan version, never a traceback.

Every ledger test runs on SQLite and on PostgreSQL (the ``ledger`` fixture).
"""

from __future__ import annotations

import datetime as dt
import json
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.manifest import MANIFEST, listed_text, read_manifest
from scheduler.core.scenario import Scenario
from scheduler.export.write import plan_files, write_plan
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.audit import audit_ledger, judge_entry
from scheduler.ledger.models import PlanScenario
from scheduler.ledger.scenarios import PART_CHARS, scenario_parts
from scheduler.ledger.workbook import export_xlsx, import_xlsx

from builders.scenarios import ROUND_1_NOTICE, d, load, progressive, run


def test_deadlines_without_a_folder_date_every_round_s_notice_before_round_1(
        ledger: Ledger, tmp_path: Path) -> None:
    # Round 1 Sat 2027-03-06 at room-a: every venue's notice due Mar 6 - 5 = Mon 2027-03-01
    # (r2 Mar 13 at room-b, r3 Mar 20 at room-c, the final Mar 27 at room-a), not Mar 8,
    # Mar 15, Mar 22 (5 days before each round's own first day)
    folder = write_plan(run(progressive()), tmp_path / "plan")
    api.adopt(ledger, folder, organization="Big Sky", by="ann")
    # room-c files Mon Mar 15: day -5 of its own round, 14 days after Mar 1: done late
    api.record_filed(ledger, "mt-notice", occurrence="r3#1", filed_on=d("2027-03-15"),
                     by="ann", today=d("2027-03-15"))
    from_folder = ledger.deadlines(folder, as_of=d("2027-03-15"))
    from_ledger = ledger.deadlines(as_of=d("2027-03-15"))
    notices = [(str(r.date), r.state, r.occurrence) for r in from_folder.itertuples()
               if r.rule == "MT-NOTICE"]
    assert ("2027-03-01", "done late", "r3#1") in notices  # the folder reads it right
    assert {r[0] for r in notices} == {ROUND_1_NOTICE.isoformat()}
    assert sorted((str(r.date), r.state, r.occurrence) for r in from_ledger.itertuples()
                  if r.rule == "MT-NOTICE") == sorted(notices)


def test_record_filed_warns_of_a_round_s_notice_filed_after_round_1_s_day(
        ledger: Ledger, tmp_path: Path) -> None:
    # as above: room-c's notice of r3 filed Mar 15, 14 days after Mar 1 (day -5 of round 1)
    folder = write_plan(run(progressive()), tmp_path / "plan")
    api.adopt(ledger, folder, organization="Big Sky", by="ann")
    filing = api.record_filed(ledger, "mt-notice", occurrence="r3#1",
                              filed_on=d("2027-03-15"), by="ann", today=d("2027-03-15"))
    got = [(v.rule, v.operator_id) for v in judge_entry(ledger, filing,
                                                         as_of=d("2027-03-15"))]
    assert got == [("MT-PROGRESSIVE", "room-c")]


def test_deadlines_without_a_folder_skip_the_closed_days(ledger: Ledger,
                                                         tmp_path: Path) -> None:
    # a game Tue 2027-12-14, closed_days [Mon 2027-12-06]: 10 Maine business days back:
    # Dec 13, 10, 9, 8, 7, (6 closed), 3, 2, 1, Nov 30, 29 -> due Mon 2027-11-29
    # (Thanksgiving Thu 25 and Fri 26 lie before it); without the closed day: Tue Nov 30
    sc = load(horizon={"start": "2027-11-01", "end": "2027-12-31"},
              notice_from="2027-11-01", settings={"closed_days": ["2027-12-06"]},
              operators=[{"id": "post-39", "name": "Post 39", "jurisdiction": "ME",
                          "organized_on": "1950-01-01", "local_approval": True,
                          "beneficiaries": ["Scholarship Fund"]}],
              tournaments=[{"id": "holdem", "title": "Hold'em", "type": "tournament-game",
                            "operators": ["post-39"], "fixed_dates": ["2027-12-14"],
                            "start_time": "12:00", "hours": 10, "players": 40,
                            "entry_fee": 100, "prize_share": 0.8}])
    folder = write_plan(run(sc), tmp_path / "plan")
    api.adopt(ledger, folder, organization="Post 39", by="ann")
    due = dt.date(2027, 11, 29)
    for df in (ledger.deadlines(folder, as_of=d("2027-11-01")),
               ledger.deadlines(as_of=d("2027-11-01"))):
        assert [r.date for r in df.itertuples() if r.rule == "ME-APPLICATION-WINDOW"] == [due]


def test_record_held_warns_of_a_surcharge_over_the_licence_fee(ledger: Ledger,
                                                               tmp_path: Path) -> None:
    # an 80-player game (tier 51-100, per-tournament licence $75): under surcharge_cap:
    # license-fee (the default) at most $75 from all players; $75.01 is over it, by a cent
    sc = _post_39(players=80, surcharge=75)
    api.adopt(ledger, write_plan(run(sc), tmp_path / "plan"), organization="Post 39", by="ann")
    held = api.record_held(ledger, "holdem#1", first_day=d("2027-12-14"),
                           last_day=d("2027-12-14"), players=80, entries=80,
                           entry_fees_usd="8000", prizes_usd="6400", surcharge_usd="75.01",
                           by="ann", today=d("2027-12-20"))
    # tourney check --ledger, with the scenario, reports it
    assert [v.rule for v in audit_ledger(ledger, sc, as_of=d("2027-12-20"))[0]
            if v.rule == "ME-ENTRY-CAP"] == ["ME-ENTRY-CAP"]
    assert "ME-ENTRY-CAP" in [v.rule for v in judge_entry(ledger, held,
                                                          as_of=d("2027-12-20"))]


def test_deadlines_of_a_plan_adopted_without_deadlines_csv_count_from_each_round_s_day(
        ledger: Ledger, tmp_path: Path) -> None:
    # a folder written before deadlines.csv existed: the ledger stores no line of it, and
    # `tourney deadlines` computes each notice from its own round's first day:
    # r1 Sat Mar 6 - 5 = Mon Mar 1, r2 Mar 13 - 5 = Mar 8, r3 Mar 20 - 5 = Mar 15,
    # the final Mar 27 - 5 = Mar 22 (what the ledger alone knows; not MT-PROGRESSIVE's Mar 1)
    folder = write_plan(run(progressive()), tmp_path / "plan")
    (folder / "deadlines.csv").unlink()  # and its line of the folder's list, as then written
    listed = read_manifest(folder)
    assert listed is not None
    del listed["deadlines.csv"]
    (folder / MANIFEST).write_bytes(listed_text(listed))
    api.adopt(ledger, folder, organization="Big Sky", by="ann")
    got = sorted(str(r.date) for r in ledger.deadlines(as_of=d("2027-03-01")).itertuples()
                 if r.rule == "MT-NOTICE")
    assert got == ["2027-03-01", "2027-03-08", "2027-03-15", "2027-03-22"]


# ------------------------------------------------ the scenario kept with the plan version
def _unlisted(folder: Path, name: str) -> None:
    """``name`` removed from ``folder`` and from its .tourney-plan: the folder as an older
    tourney wrote it."""
    (folder / name).unlink()
    listed = read_manifest(folder)
    assert listed is not None
    del listed[name]
    (folder / MANIFEST).write_bytes(listed_text(listed))


def _post_39(players: int, surcharge: int) -> Scenario:
    """A Maine game Tue 2027-12-14 at Post 39 (surcharge_cap: license-fee, the default)."""
    return load(horizon={"start": "2027-11-01", "end": "2027-12-31"},
                notice_from="2027-11-01",
                operators=[{"id": "post-39", "name": "Post 39", "jurisdiction": "ME",
                            "organized_on": "1950-01-01", "local_approval": True,
                            "beneficiaries": ["Scholarship Fund"]}],
                tournaments=[{"id": "holdem", "title": "Hold'em", "type": "tournament-game",
                              "operators": ["post-39"], "fixed_dates": ["2027-12-14"],
                              "start_time": "12:00", "hours": 10, "players": players,
                              "entry_fee": 100, "prize_share": 0.8,
                              "license_surcharge_total": surcharge}])


def _held(ledger: Ledger, surcharge: str, corrects: int | None = None) -> Any:
    return api.record_held(ledger, "holdem#1", first_day=d("2027-12-14"),
                           last_day=d("2027-12-14"), players=80, entries=80,
                           entry_fees_usd="8000", prizes_usd="6400", surcharge_usd=surcharge,
                           corrects=corrects, by="ann", today=d("2027-12-20"))


def test_the_plan_folder_keeps_its_scenario_listed_and_byte_identical(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = run(progressive())
    folder = write_plan(plan, tmp_path / "plan")
    data = (folder / "scenario.yaml").read_bytes()
    assert data == plan.scenario.to_json_yaml().encode("utf-8")
    listed = read_manifest(folder)
    assert listed is not None and listed["scenario.yaml"][0] == len(data)
    # read back, the scenario that made the plan: its tour, the rounds' days, notice_from
    assert load_scenario(folder / "scenario.yaml") == plan.scenario
    assert write_plan(plan, tmp_path / "again").joinpath("scenario.yaml").read_bytes() == data
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # the calendars change, not the scenario
    assert plan_files(plan)["scenario.yaml"] == data


def test_record_filed_of_a_plan_adopted_without_scenario_yaml_judges_as_before(
        ledger: Ledger, tmp_path: Path) -> None:
    # a folder an older tourney wrote (no scenario.yaml): the ledger keeps no scenario, and
    # r3's notice is judged on r3's own day, Sat Mar 20 - 5 = Mon Mar 15 (what the ledger
    # alone knows; not MT-PROGRESSIVE's Mar 1): filed Mar 15, on time, no warning
    folder = write_plan(run(progressive()), tmp_path / "plan")
    _unlisted(folder, "scenario.yaml")
    api.adopt(ledger, folder, organization="Big Sky", by="ann")
    assert api.all_entries(ledger)["plan_scenarios"] == 0
    filing = api.record_filed(ledger, "mt-notice", occurrence="r3#1",
                              filed_on=d("2027-03-15"), by="ann", today=d("2027-03-16"))
    assert judge_entry(ledger, filing, as_of=d("2027-03-16")) == []
    # corrected to Tue Mar 16, a day after Mar 15: MT-NOTICE, 1 day late, as before
    late = api.record_filed(ledger, "mt-notice", occurrence="r3#1", filed_on=d("2027-03-16"),
                            corrects=filing.id, by="ann", today=d("2027-03-16"))
    assert [(v.rule, v.operator_id) for v in judge_entry(ledger, late,
                                                         as_of=d("2027-03-16"))] == [
        ("MT-NOTICE", "room-c")]


def test_record_held_of_a_plan_adopted_without_scenario_yaml_caps_the_surcharge_at_125(
        ledger: Ledger, tmp_path: Path) -> None:
    # without the scenario the ledger knows no tournament: the statute's $125 caps the
    # surcharge of the 80-player game, as before; $75.01 (over its $75 licence fee) passes,
    # $125.01 is over $125 by a cent
    folder = write_plan(run(_post_39(80, 75)), tmp_path / "plan")
    _unlisted(folder, "scenario.yaml")
    api.adopt(ledger, folder, organization="Post 39", by="ann")
    held = _held(ledger, "75.01")
    assert "ME-ENTRY-CAP" not in [v.rule for v in judge_entry(ledger, held,
                                                              as_of=d("2027-12-20"))]
    over = _held(ledger, "125.01", corrects=held.id)
    assert [v.message for v in judge_entry(ledger, over, as_of=d("2027-12-20"))
            if v.rule == "ME-ENTRY-CAP"] == [
        "holdem#1 collected a licence-fee surcharge of $125.01 from its players; at most "
        "$125 across all players (the statute's $125)"]


def test_adopt_refuses_a_changed_scenario_yaml_and_reads_none_it_does_not_list(
        ledger: Ledger, tmp_path: Path) -> None:
    folder = write_plan(run(progressive()), tmp_path / "plan")
    kept = (folder / "scenario.yaml").read_text(encoding="utf-8")
    (folder / "scenario.yaml").write_text(kept.replace('"2027-03-06"', '"2027-03-07"'),
                                          encoding="utf-8")
    with pytest.raises(LedgerError, match=r"scenario\.yaml \(changed since tourney wrote it\)"):
        api.adopt(ledger, folder, organization="Big Sky", by="ann")
    # a scenario.yaml the folder's .tourney-plan does not list (a person's copy beside an
    # older tourney's plan) is not the plan's: adopted without it
    _unlisted(folder, "scenario.yaml")
    (folder / "scenario.yaml").write_text("not: a scenario\n", encoding="utf-8")
    assert api.adopt(ledger, folder, organization="Big Sky", by="ann").new
    assert api.all_entries(ledger)["plan_scenarios"] == 0


def test_an_alternative_folder_is_adopted_with_its_scenario(
        ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # plan/alternative-2/ has no .tourney-plan of its own: plan/'s lists its files, its
    # scenario.yaml among them; adopted, the ledger keeps that scenario and judges with it:
    # r3's notice filed Mon Mar 15 is 14 days after Mar 1 (day -5 of round 1, Sat Mar 6),
    # MT-PROGRESSIVE (without the scenario it would be on time: the test above)
    plan = run(progressive())
    folder = write_plan(plan, tmp_path / "plan", alternatives=[replace(plan, rank=2)])
    alternative = folder / "alternative-2"
    assert not (alternative / MANIFEST).exists()
    api.adopt(ledger, alternative, organization="Big Sky", by="ann")
    assert api.all_entries(ledger)["plan_scenarios"] == 1  # one part: far under 32,000 chars
    filing = api.record_filed(ledger, "mt-notice", occurrence="r3#1",
                              filed_on=d("2027-03-15"), by="ann", today=d("2027-03-15"))
    assert [(v.rule, v.operator_id) for v in judge_entry(ledger, filing,
                                                         as_of=d("2027-03-15"))] == [
        ("MT-PROGRESSIVE", "room-c")]
    # its files are held to plan/'s list as a plan folder's to its own, however the folder
    # is named: its path, "." inside it, a symbolic link to it
    (alternative / "scenario.yaml").write_text("{}\n", encoding="utf-8")
    link = tmp_path / "alt"
    link.symlink_to(alternative, target_is_directory=True)
    monkeypatch.chdir(alternative)
    for name in (alternative, Path("."), link):
        with pytest.raises(LedgerError, match=r": scenario\.yaml \(changed since tourney wrote "
                                              r"it\)"):
            api.adopt(ledger, name, organization="Big Sky", by="ann")
    # plan/'s list damaged: refused as a plan folder's own would be, not adopted unchecked
    (alternative / "scenario.yaml").unlink()
    with (folder / MANIFEST).open("a", encoding="utf-8") as fh:
        fh.write("garbage\n")
    with pytest.raises(LedgerError, match=r"alternative-2: \.\./\.tourney-plan \(not the list "
                                          r"tourney wrote\)"):
        api.adopt(ledger, alternative, organization="Big Sky", by="ann")
    # plan/'s list cut down to its own files (alternative-2/'s lines removed): what it no
    # longer lists is not tourney's, refused as such (not adopted as an older tourney's)
    lines = [ln for ln in (folder / MANIFEST).read_text(encoding="utf-8").splitlines(True)
             if "alternative-2/" not in ln and ln != "garbage\n"]
    (folder / MANIFEST).write_text("".join(lines), encoding="utf-8")
    with pytest.raises(LedgerError, match=r"alternative-2: calendar\.ics \(not written by "
                                          r"tourney\)"):
        api.adopt(ledger, alternative, organization="Big Sky", by="ann")


def test_adopt_refuses_a_listed_scenario_yaml_tourney_cannot_read(ledger: Ledger,
                                                                  tmp_path: Path) -> None:
    # listed in .tourney-plan with its size and SHA-256 (as a tourney whose rules differ
    # might write it), but an entry fee of $1,876 a Montana large-stakes tournament may not
    # have (at most $1,875, MT-ENTRY-CAP): refused, naming the file, the field and the rule;
    # nothing adopted
    import hashlib
    folder = write_plan(run(progressive()), tmp_path / "plan")
    text = (folder / "scenario.yaml").read_text(encoding="utf-8").replace(
        '"required": 1, ', '"required": 1, "entry_fee": 1876, ', 1).encode("utf-8")
    (folder / "scenario.yaml").write_bytes(text)
    listed = read_manifest(folder)
    assert listed is not None
    listed["scenario.yaml"] = (len(text), hashlib.sha256(text).hexdigest())
    (folder / MANIFEST).write_bytes(listed_text(listed))
    with pytest.raises(LedgerError) as caught:
        api.adopt(ledger, folder, organization="Big Sky", by="ann")
    said = str(caught.value)
    assert said.startswith(f"{folder / 'scenario.yaml'}:") and "\n" not in said
    assert "tournaments[0].entry_fee = 1876" in said and "MT-ENTRY-CAP" in said
    assert said.endswith("the ledger keeps the scenario that made the plan: solve the "
                         "scenario again and adopt that folder")
    assert api.all_entries(ledger)["plan_versions"] == 0


def test_the_kept_scenario_goes_through_export_and_import(ledger: Ledger,
                                                          tmp_path: Path) -> None:
    # kept as one part (a few hundred characters, under PART_CHARS): exported to CSV and to
    # a workbook, imported into an empty ledger, it judges there as here (MT-PROGRESSIVE)
    api.adopt(ledger, write_plan(run(progressive()), tmp_path / "plan"), organization="Big Sky",
              by="ann")
    assert api.all_entries(ledger)["plan_scenarios"] == 1
    path = tmp_path / "ledger.xlsx"
    path.write_bytes(export_xlsx(ledger)[0])
    other = Ledger(tmp_path / "other.sqlite")
    api.init(other)
    import_xlsx(other, path, today=d("2027-03-15"))
    filing = api.record_filed(other, "mt-notice", occurrence="r3#1", filed_on=d("2027-03-15"),
                              by="ann", today=d("2027-03-15"))
    assert [(v.rule, v.operator_id) for v in judge_entry(other, filing,
                                                         as_of=d("2027-03-15"))] == [
        ("MT-PROGRESSIVE", "room-c")]
    other.dispose()


def test_a_big_scenario_is_kept_in_parts_of_one_spreadsheet_cell() -> None:
    # 200,000 hex digits of a hash chain hold 100,000 bytes no compression shortens: zlib
    # keeps a little over 100,000 bytes, base64 4 characters for every 3: about 133,400
    # characters, so 5 parts: 4 of PART_CHARS (32,000, within a cell's 32,767) and the rest
    import base64
    import hashlib
    text = "".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(3_125))
    assert len(text) == 200_000
    parts = scenario_parts(text)
    assert [p["part"] for p in parts] == list(range(5)) and {p["parts"] for p in parts} == {5}
    assert [len(p["data"]) for p in parts][:4] == [PART_CHARS] * 4
    assert 0 < len(parts[4]["data"]) < PART_CHARS
    packed = base64.b64decode("".join(p["data"] for p in parts))
    assert zlib.decompress(packed).decode("utf-8") == text
    assert {p["sha256"] for p in parts} == {hashlib.sha256(text.encode()).hexdigest()}
    assert scenario_parts(text) == parts  # the same text, the same rows


def _damage(what: str) -> dict[str, Any]:
    if what == "not base64":
        return {"data": "not base64!"}
    if what == "checksum":
        return {"sha256": "0" * 64}
    if what == "parts":
        return {"parts": 2}
    if what == "bomb":  # 2 MB of zeros in 2 kB: over a 1 MB limit unpacked
        import base64
        return {"data": base64.b64encode(zlib.compress(b"0" * 2 * 2**20, 9)).decode()}
    part = scenario_parts(json.dumps({"name": "x", "operators": []}))[0]
    return {"data": part["data"], "sha256": part["sha256"]}


@pytest.mark.parametrize(("what", "said"), [
    ("not base64", "is not base64 text"),
    ("checksum", "does not match the SHA-256 kept with it"),
    ("parts", "is incomplete (1 part(s) kept, numbered 0, of 2)"),
    ("bomb", "unpacks to more than 1,048,576 bytes"),
    ("not a scenario", "is not a scenario tourney reads (scenario: horizon: "),
])
def test_a_damaged_kept_scenario_is_named_with_its_plan_version(
        ledger: Ledger, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str,
        said: str) -> None:
    monkeypatch.setenv("TOURNEY_MAX_INPUT_MB", "1")
    adopted = api.adopt(ledger, write_plan(run(progressive()), tmp_path / "plan"),
                        organization="Big Sky", by="ann")
    with ledger.engine.begin() as conn:  # changed outside tourney (the ledger is append-only)
        conn.execute(update(PlanScenario.__table__).values(**_damage(what)))
    filing = api.record_filed(ledger, "mt-notice", occurrence="r3#1",
                              filed_on=d("2027-03-15"), by="ann", today=d("2027-03-15"))
    head = (f"the ledger's plan version 1 of lineage {adopted.lineage}: the scenario kept "
            f"with it {said}")
    with pytest.raises(LedgerError) as caught:
        judge_entry(ledger, filing, as_of=d("2027-03-15"))
    assert str(caught.value).startswith(head) and "\n" not in str(caught.value)
    assert str(caught.value).endswith("restore the ledger from a backup; `tourney check "
                                      "SCENARIO --ledger` judges with the scenario file")
    # tourney record: the entry is recorded, then the message (one line: recorded, not
    # judged), exit 2
    monkeypatch.setenv("TOURNEY_LEDGER", url)
    r = CliRunner().invoke(app, ["record", "filed", "mt-notice", "r2#1", "--on", "2027-03-01",
                                 "--by", "ann", "--as-of", "2027-03-15"])
    assert r.exit_code == 2, r.output
    assert r.stdout.startswith("Recorded mt-notice entry #2 in "), (r.stdout, r.stderr)
    assert r.stderr.startswith(f"tourney: {head}") and "Traceback" not in r.output
    assert r.stderr.endswith("the scenario file. Entry #2 is recorded, not judged (tourney "
                             "check --ledger judges it).\n") and r.stderr.count("\n") == 1


def test_adopt_refuses_a_schedule_row_short_of_cells(ledger: Ledger, tmp_path: Path) -> None:
    # a folder without .tourney-plan (an older tourney's) whose schedule.csv gained a line
    # "x": one cell where the header has 20 (schedule.csv's columns), named by its row
    folder = write_plan(run(progressive()), tmp_path / "plan")
    (folder / MANIFEST).unlink()
    rows = (folder / "schedule.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows[0].split(",")) == 20
    with (folder / "schedule.csv").open("a", encoding="utf-8") as fh:
        fh.write("x\n")
    with pytest.raises(LedgerError, match=rf"schedule\.csv: row {len(rows)} \(after the header\) "
                                          r"has 1 cell\(s\), the header 20"):
        api.adopt(ledger, folder, organization="Big Sky", by="ann")
    assert api.all_entries(ledger)["plan_versions"] == 0


def test_ledger_adopt_says_whether_it_kept_the_scenario(
        ledger: Ledger, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_LEDGER", url)
    new = write_plan(run(progressive()), tmp_path / "new")
    old = write_plan(run(_post_39(80, 75)), tmp_path / "old")
    _unlisted(old, "scenario.yaml")  # as an older tourney wrote it
    r = CliRunner().invoke(app, ["ledger", "adopt", str(new), "--organization", "Big Sky"])
    assert r.exit_code == 0 and ", its scenario kept, in " in r.stdout, r.output
    r = CliRunner().invoke(app, ["ledger", "adopt", str(old), "--organization", "Post 39"])
    assert r.exit_code == 0, r.output
    assert ", no scenario.yaml (an older tourney's folder: the ledger judges with the " \
           "operators it knows), in " in r.stdout
