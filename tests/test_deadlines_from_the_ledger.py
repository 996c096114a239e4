"""``tourney deadlines`` with no plan folder (issue #22 § 6): the to-do list of every plan the
ledger has adopted, across organizations and operators, the Montana permits to buy or renew
included (MT-PERMIT-FEES, MCA 23-5-317(1)(b): a renewal is due before its permit year starts,
July 1).

Every test runs on SQLite and on a real PostgreSQL server (``ledger`` fixture). The two plan
folders are written by hand, so every day below is computed by hand in a comment.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, api

from builders.plans import plan_row, write_plan_folder

TODAY = dt.date(2027, 12, 31)
HOLDEM = "post-1/per-tournament/2027-02-20/holdem"
PERMIT_NOW = "room-a/large-stakes-permit/2026-07-01"
PERMIT_NEXT = "room-a/large-stakes-permit/2027-07-01"


def _row(lineage: str, tid: str, op: str, jur: str, typ: str, first: str,
         last: str | None = None, licence: str = "") -> dict[str, str]:
    """Occurrence 1 of ``tid`` at ``op`` in a plan of lineage ``lineage``."""
    return plan_row(tid, 1, op, jur, typ, first, last, licence=licence, lineage=lineage)


def _folder(folder: Path, rows: list[dict[str, str]], licences: list[list[str]]) -> Path:
    return write_plan_folder(folder, rows, licences, exist_ok=False)


def test_deadlines_without_a_folder_list_every_adopted_plan(ledger: Ledger,
                                                            tmp_path: Path) -> None:
    # Billings: room-a, deep#1 Fri 2027-03-05..07 under the permit of 2026-07-01 (bought),
    # summer#1 Sat 2027-07-10 under the next permit year's (a renewal)
    room = _folder(tmp_path / "room", [
        _row("1111111111", "deep", "room-a", "MT", "large-stakes", "2027-03-05", "2027-03-07"),
        _row("1111111111", "summer", "room-a", "MT", "large-stakes", "2027-07-10")], [
        [PERMIT_NOW, "room-a", "MT", "mt-large-stakes-permit", "", "2026-07-01", "2027-06-30",
         "120", "deep#1"],
        [PERMIT_NEXT, "room-a", "MT", "mt-large-stakes-permit", "", "2027-07-01",
         "2028-06-30", "120", "summer#1"]])
    # the Legion: post-1, holdem#1 Sat 2027-02-20 (per-tournament licence)
    post = _folder(tmp_path / "post", [
        _row("2222222222", "holdem", "post-1", "ME", "tournament-game", "2027-02-20",
             licence=HOLDEM)],
        [[HOLDEM, "post-1", "ME", "me-per-tournament", "51-100", "2027-02-20", "2027-02-20",
          "75", "holdem#1"]])
    api.adopt(ledger, room, organization="Billings", by="ann")
    api.adopt(ledger, post, organization="Legion", by="bob")
    api.record_licence(ledger, operator="room-a", agency_number="LS-1",
                       kind="mt-large-stakes-permit", fee_usd="120",
                       valid_from=dt.date(2026, 7, 1), valid_to=dt.date(2027, 6, 30),
                       organization="Billings", license_ref=PERMIT_NOW, by="ann")
    df = ledger.deadlines(as_of=dt.date(2027, 3, 1))
    # ME-APPLICATION-WINDOW: the 10th Maine business day before Sat 2027-02-20: Feb 19, 18,
    #   17, 16 (Mon 15 a holiday), 12, 11, 10, 9, 8, 5 -> 2027-02-05 (overdue on 03-01)
    # MT-NOTICE deep#1: 2027-03-05 - 5 = 2027-02-28 (overdue); summer#1: 07-10 - 5 = 07-05
    # MT-PERMIT-FEES of 2026-07-01: begun before the plan's first day of play (03-05): the
    #   day before the first day it covers, 2027-03-04 (bought: done)
    # ME-REPORT: the period ending Sat 2027-02-20: Feb 22-26, Mar 1-5 -> 2027-03-05
    # MT-PERMIT-FEES of 2027-07-01: a renewal, the day before its permit year, 2027-06-30
    assert [(str(r.date), r.state, r.rule, r.operator_id) for r in df.itertuples()] == [
        ("2027-02-05", "overdue", "ME-APPLICATION-WINDOW", "post-1"),
        ("2027-02-28", "overdue", "MT-NOTICE", "room-a"),
        ("2027-03-04", "done", "MT-PERMIT-FEES", "room-a"),
        ("2027-03-05", "due", "ME-REPORT", "post-1"),
        ("2027-06-30", "due", "MT-PERMIT-FEES", "room-a"),
        ("2027-07-05", "due", "MT-NOTICE", "room-a"),
    ]
    assert df["what"].iloc[4] == ("Buy or renew the Montana large-stakes permit for the "
                                  "permit year Jul 1, 2027 – Jun 30, 2028 ($120)")
    # closed days: Sun 2027-02-28 -> file by Fri Feb 26; Mon 2027-07-05, Independence Day
    # observed (Jul 4 is a Sunday) -> Sat 3, Sun 4 closed too -> file by Fri Jul 2
    assert [str(d) for d in df["file_by"]] == ["2027-02-05", "2027-02-26", "2027-03-04",
                                               "2027-03-05", "2027-06-30", "2027-07-02"]
    assert df["what"].iloc[5].endswith(
        "; due Mon, Jul 5, 2027 — the office is closed (Independence Day (observed)): file "
        "by Fri, Jul 2, 2027")
    # the CLI, no folder: the same lines, exit 1 (overdue ones)
    r = CliRunner().invoke(app, ["deadlines", "--as-of", "2027-03-01", "--ledger", ledger.url,
                                 "--format", "csv"])
    assert r.exit_code == 1, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(x["date"], x["rule"]) for x in rows] == [
        (str(d), rule) for d, rule in zip(df["date"], df["rule"], strict=True)]
    assert "2 deadline(s) overdue, the first 2027-02-05 ME-APPLICATION-WINDOW" in r.stderr


def test_deadlines_without_a_folder_or_adopted_plan_is_refused(ledger: Ledger) -> None:
    r = CliRunner().invoke(app, ["deadlines", "--ledger", ledger.url])
    assert r.exit_code == 2
    assert "no plan is adopted in the ledger" in r.output and "Traceback" not in r.output
