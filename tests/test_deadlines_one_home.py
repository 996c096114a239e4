"""One home for a plan's deadlines (issue #12): deadlines.csv, the report's table, plan.xlsx's
Deadlines sheet and ``tourney deadlines`` all read
:func:`scheduler.result.deadlines.list_deadlines`,
and an ME-APPLICATION-WINDOW opens no earlier than the plan's ``notice_from``
(:func:`constraints.maine.application_window`), where deadlines.csv and the ledger used to
show the day 90 days before.

The scenario (tests/conftest.py): ``notice_from`` 2026-12-01; a Maine game on Sat 2027-02-13
and a Montana large-stakes tournament on Sat 2027-03-06.

- ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): 90 days before Sat 2027-02-13: 13 days back
  to Jan 31, 31 more to Dec 31 (44), 31 more to Nov 30 (75), 15 more -> 2026-11-15, before
  notice_from -> the window opens 2026-12-01. Due the 10th Maine business day before: Feb
  12, 11, 10, 9, 8, 5, 4, 3, 2, 1 -> Mon 2027-02-01 (no Maine holiday in Feb 1-12).
- ME-REPORT (16-633 CMR ch. 32 § 8), the per-tournament licence's period ending 2027-02-13:
  the 10th business day after: (Mon Feb 15 Washington's Birthday skipped) Feb 16, 17, 18,
  19, 22, 23, 24, 25, 26, Mar 1 -> 2027-03-01.
- MT-NOTICE (MCA 23-5-317(1)(d)): Sat 2027-03-06 - 5 days -> Mon 2027-03-01.
- MT-PERMIT-FEES (MCA 23-5-317(1)(b)): the large-stakes permit of the permit year
  2026-07-01..2027-06-30, begun before notice_from 2026-12-01, so not a renewal: due the day
  before the first day of play it covers, Sat 2027-03-06 - 1 -> Fri 2027-03-05. It is on the
  one list, so deadlines.csv, the Deadlines sheet, the report and ``tourney deadlines`` show it.
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
from pathlib import Path

from scheduler.export.deadlines import deadlines_csv
from scheduler.export.report import report_html
from scheduler.export.write import write_plan
from scheduler.export.xlsx import deadline_rows
from scheduler.ledger import Ledger, api
from scheduler.ledger.deadlines import deadlines
from scheduler.result.deadlines import list_deadlines
from scheduler.result.plan import Plan

from builders.scenarios import HOLDEM_FEB_13, POST_212, load, mt_large, mt_room, run

D = dt.date.fromisoformat


def _plan() -> Plan:
    mt = mt_large("deep", fixed_dates=["2027-03-06"], title="Deep stack")
    return run(load(operators=[mt_room("room-a"), POST_212], tournaments=[mt, HOLDEM_FEB_13]))


def test_the_one_list_by_hand() -> None:
    plan = _plan()
    got = [(d.date, d.rule, d.operator_id, d.opens, d.first_day, d.period_end)
           for d in list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from)]
    assert got == [
        # opens at notice_from 2026-12-01, not 2026-11-15 (90 days before)
        (D("2027-02-01"), "ME-APPLICATION-WINDOW", "post", D("2026-12-01"), D("2027-02-13"),
         None),
        (D("2027-03-01"), "ME-REPORT", "post", None, D("2027-02-13"), D("2027-02-13")),
        (D("2027-03-01"), "MT-NOTICE", "room-a", None, D("2027-03-06"), None),
        # the permit year's first day stands as the line's first_day
        (D("2027-03-05"), "MT-PERMIT-FEES", "room-a", None, D("2026-07-01"), None),
    ]
    # without notice_from (an old plan folder): the statutory 90 days before
    old = list_deadlines(plan.rows, plan.license_list, None)
    assert old[0].opens == D("2026-11-15") and old[0].date == D("2027-02-01")


def test_csv_xlsx_report_and_ledger_show_the_same_window(tmp_path: Path) -> None:
    plan = _plan()
    rows = list(csv.DictReader(io.StringIO(deadlines_csv(plan).decode("utf-8"))))
    assert (rows[0]["rule"], rows[0]["opens"], rows[0]["date"]) == \
        ("ME-APPLICATION-WINDOW", "2026-12-01", "2027-02-01")
    what = ("Apply for the Maine per-tournament licence (51–100 players) for Feb 13, 2027: "
            "the Gambling Control Unit receives the application from Dec 1, 2026 to Mon, "
            "Feb 1, 2027")
    assert rows[0]["what"] == what
    # plan.xlsx's Deadlines sheet: the same columns, the same line, dates as dates
    sheet = deadline_rows(plan)
    assert sheet[0][:5] == (D("2027-02-01"), D("2027-02-01"), rows[0]["operator"], what,
                            D("2026-12-01"))
    # the report says the same window in the same words: Tue 2026-12-01 .. Mon 2027-02-01
    assert html.escape(what, quote=False) in report_html(plan)
    folder = write_plan(plan, tmp_path / "plan")
    df = deadlines(folder, as_of=D("2027-01-01"))
    assert df["opens"].iloc[0] == D("2026-12-01")
    theirs = [(str(r["date"]), r["rule"], r["operator_id"], r["what"], r["occurrence"],
               r["license_id"], "" if r["opens"] is None else str(r["opens"]))
              for r in df.to_dict(orient="records")]
    ours = [(r["date"], r["rule"], r["operator_id"], r["what"], r["occurrence"],
             r["license_id"], r["opens"]) for r in rows]
    assert theirs == ours
    # a folder written before deadlines.csv: the same lines, the window from 90 days before
    (folder / "deadlines.csv").unlink()
    old = deadlines(folder, as_of=D("2027-01-01"))
    assert old["opens"].iloc[0] == D("2026-11-15")
    assert list(old["date"]) == list(df["date"]) and list(old["rule"]) == list(df["rule"])


def test_the_ledger_marks_lines_read_from_deadlines_csv_done(tmp_path: Path) -> None:
    # the MT notice (by the occurrence's UID) and the ME report (by its period's last day)
    # are matched to the lines of deadlines.csv, which carries neither
    folder = write_plan(_plan(), tmp_path / "plan")
    lg = Ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    try:
        api.init(lg)
        api.adopt(lg, folder, organization="Big Sky Tour", by="ann")
        licence = next(r["license_id"] for r in csv.DictReader(
            io.StringIO((folder / "licenses.csv").read_text())) if r["jurisdiction"] == "ME")
        today = D("2027-12-31")
        api.record_filed(lg, "mt-notice", occurrence="deep#1", filed_on=D("2027-03-01"),
                         today=today)                       # on the due day: done
        api.record_report(lg, licence, period_end=D("2027-02-13"), filed_on=D("2027-03-02"),
                          today=today)                      # a day late
        df = deadlines(folder, as_of=D("2027-03-02"), ledger=lg)
    finally:
        lg.dispose()
    assert [(r.rule, r.state, str(r.done_on)) for r in df.itertuples()] == [
        ("ME-APPLICATION-WINDOW", "overdue", "None"),
        ("ME-REPORT", "done late", "2027-03-02"),
        ("MT-NOTICE", "done", "2027-03-01"),
        ("MT-PERMIT-FEES", "due", "None"),      # 2027-03-05 is after 2027-03-02; not bought
    ]
