"""deadlines.csv in every plan folder and the Deadlines table of report.html (issue #13): the
lines of ``tourney deadlines`` without a ledger, from the plan alone, through the deadline
functions of scheduler/core/timing.py.

- MT-NOTICE, MCA 23-5-317(1)(d): first day − 5 days.
- ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: received from 90 days before the first day
  to the 10th Maine business day before it.
- ME-REPORT, 16-633 CMR ch. 32 § 8: the 10th Maine business day after each licensed period.
- MT-PERMIT-FEES, MCA 23-5-317(1)(b): a permit of a permit year already begun when the plan
  is made (notice_from 2026-12-01, permit year from 2026-07-01): the day before the first day
  of play it covers.

No Maine state holiday falls in March 2027 (Patriots' Day is April 19).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.deadlines import deadlines_csv
from scheduler.export.report import report_html
from scheduler.export.write import write_plan
from scheduler.ledger.deadlines import deadlines
from scheduler.result.deadlines import DEADLINE_COLUMNS
from scheduler.result.plan import Plan

from builders.scenarios import load, mt_large, mt_room, run

POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}
ME_GAME: dict[str, Any] = {
    "id": "holdem", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
    "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00", "hours": 10,
    "fixed_dates": ["2027-03-13"]}


def _plan() -> Plan:
    # a title a spreadsheet would run as a formula: written with a leading '
    mt = mt_large("deep", fixed_dates=["2027-03-06"], title="=deep stack")
    return run(load(operators=[mt_room("room-a"), POST], tournaments=[mt, ME_GAME]))


def _rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def test_deadlines_csv_hand_computed_dates() -> None:
    rows = _rows(deadlines_csv(_plan()))
    assert list(rows[0]) == DEADLINE_COLUMNS
    got = [(r["date"], r["rule"], r["operator_id"], r["occurrence"], r["opens"]) for r in rows]
    assert got == [
        # ME: Sat 2027-03-13; 10 business days back: Fri 12, Thu 11, Wed 10, Tue 9, Mon 8,
        # Fri 5, Thu 4, Wed 3, Tue 2, Mon 1 -> 2027-03-01; opens 90 days before: 2026-12-13
        ("2027-03-01", "ME-APPLICATION-WINDOW", "post", "holdem#1", "2026-12-13"),
        # MT: Sat 2027-03-06 - 5 days = Mon 2027-03-01 (same day: sorted by rule ID)
        ("2027-03-01", "MT-NOTICE", "room-a", "deep#1", ""),
        # the large-stakes permit of 2026-07-01..2027-06-30: Sat 2027-03-06 - 1 day
        ("2027-03-05", "MT-PERMIT-FEES", "room-a", "", ""),
        # per-tournament licence, period ending 2027-03-13: Mon 15 .. Fri 19 (5), Mon 22 ..
        # Fri 26 (10) -> 2027-03-26
        ("2027-03-26", "ME-REPORT", "post", "holdem#1", ""),
    ]
    assert [r["citation"] for r in rows] == ["16-633 CMR ch. 32 § 2", "MCA 23-5-317(1)(d)",
                                             "MCA 23-5-317(1)(b)",
                                             "16-633 CMR ch. 32 § 8"]
    assert rows[1]["what"] == ("Notify the Montana Gambling Control Division of =deep stack, "
                               "first day Sat, Mar 6, 2027")  # mid-sentence: no quote
    assert rows[1]["operator"] == "Room-A" and rows[1]["file_by"] == rows[1]["date"]
    assert rows[0]["license_id"] == rows[3]["license_id"] != ""
    assert rows[2]["what"] == ("Buy or renew the Montana large-stakes permit for the permit "
                               "year Jul 1, 2026 – Jun 30, 2027 ($120)")
    # the window: Sat Mar 13 - 90 days = Dec 13 (18 + 31 + 28 + 13 = 90) to Mon Mar 1
    assert rows[0]["what"] == ("Apply for the Maine per-tournament licence (51–100 players) "
                               "for Mar 13, 2027: the Gambling Control Unit receives the "
                               "application from Dec 13, 2026 to Mon, Mar 1, 2027")
    assert rows[3]["what"] == ("File the disposition-of-funds report of the period ending "
                               "Sat, Mar 13, 2027 with the Gambling Control Unit (Maine "
                               "per-tournament licence (51–100 players) for Mar 13, 2027)")


def test_the_plan_folder_has_deadlines_csv_equal_to_tourney_deadlines(tmp_path: Path) -> None:
    plan = _plan()
    out = write_plan(plan, tmp_path / "plan")
    data = (out / "deadlines.csv").read_bytes()
    assert data == deadlines_csv(plan)
    df = deadlines(out)  # the ledger's reading of the same folder, no ledger
    ours = [(r["date"], r["rule"], r["operator_id"], r["what"], r["occurrence"],
             r["license_id"], r["opens"]) for r in _rows(data)]
    theirs = [(str(r["date"]), r["rule"], r["operator_id"], r["what"], r["occurrence"],
               r["license_id"], "" if r["opens"] is None else str(r["opens"]))
              for r in df.to_dict(orient="records")]
    assert ours == theirs
    assert write_plan(plan, tmp_path / "again").joinpath("deadlines.csv").read_bytes() == data


def test_a_plan_without_deadlines_has_the_header_only() -> None:
    # nothing to play: no MT-NOTICE, no permit, no licence to file for
    plan = run(load(operators=[mt_room("room-a")], tournaments=[]))
    assert deadlines_csv(plan) == (",".join(DEADLINE_COLUMNS) + "\n").encode()
    assert "Nothing to file" in report_html(plan)


def test_a_small_stakes_plan_has_its_permit_line_only() -> None:
    # a small-stakes Montana tournament: no MT-NOTICE, no licence; its $500 permit of the
    # permit year begun 2026-07-01 (before notice_from 2026-12-01): by Sat 2027-03-06 - 1 day
    sc = load(operators=[mt_room("room-a")],
              tournaments=[mt_large("small", type="small-stakes",
                                    fixed_dates=["2027-03-06"])])
    rows = _rows(deadlines_csv(run(sc)))
    assert [(r["date"], r["rule"], r["license_id"]) for r in rows] == [
        ("2027-03-05", "MT-PERMIT-FEES", "room-a/small-stakes-permit/2026-07-01")]
    assert rows[0]["what"] == ("Buy or renew the Montana small-stakes permit for the permit "
                               "year Jul 1, 2026 – Jun 30, 2027 ($500)")


def test_report_has_the_deadlines_table() -> None:
    page = report_html(_plan())
    section = page.split('<h2 id="deadlines">Deadlines</h2>')[1].split("<h2")[0]
    assert section.count('<tr><td data-label="Date">') == 4  # notice, permit, application, report
    # in words: the date with its weekday, the operator's and the tournament's names
    # deadlines.csv's columns in its order: date, file by (blank: the office is open),
    # operator, what, opens, rule with its citation, the ids
    # (each cell labelled with its column, read on a phone as a card)
    assert ('<tr><td data-label="Date">Mon, Mar 1, 2027</td><td data-label="File by"></td>'
            '<td data-label="Operator">Room-A</td><td data-label="What">Notify the Montana '
            "Gambling Control Division of =deep stack, first day Sat, Mar 6, 2027</td>"
            '<td data-label="Opens"></td><td data-label="Rule">MT-NOTICE, MCA 23-5-317(1)(d)'
            '</td><td data-label="Ids"><code class="id">room-a</code><br>'
            '<code class="id">deep#1</code></td></tr>') in section
    assert ('<td data-label="Opens"></td><td data-label="Rule">ME-REPORT, 16-633 CMR ch. 32 '
            '§ 8</td>') in section


def test_tourney_deadlines_exits_1_when_something_is_overdue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = write_plan(_plan(), tmp_path / "plan")
    monkeypatch.chdir(tmp_path)  # no ./tourney-ledger.sqlite: nothing is marked done
    monkeypatch.delenv("TOURNEY_LEDGER", raising=False)
    # as of the due day 2027-03-01 itself: the ME application and the MT notice are due
    r = CliRunner().invoke(app, ["deadlines", str(out), "--as-of", "2027-03-01"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1] == "4 due (no ledger: nothing marked done)"
    # a day later both are overdue: exit 1 and one line on stderr
    r = CliRunner().invoke(app, ["deadlines", str(out), "--as-of", "2027-03-02"])
    assert r.exit_code == 1
    assert r.stderr == ("tourney: 2 deadline(s) overdue, the first 2027-03-01 "
                        "ME-APPLICATION-WINDOW (post); exit 1.\n")
    assert r.stdout.splitlines()[-1].startswith("2 due, 2 overdue")  # report, permit due
