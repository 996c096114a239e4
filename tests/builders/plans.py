"""Plan folders written by hand for the ledger tests: a few schedule.csv and licenses.csv rows,
so that every deadline a test asserts is computed by hand in its comment; and the committed
SQLite ledger of schema revision 0001.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from scheduler.core.scenario import Scenario
from scheduler.inputs.load import load_scenario

from builders.scenarios import mt_room, scenario

REPO = Path(__file__).resolve().parents[2]
LINEAGE = "0123456789"
TODAY = dt.date(2027, 12, 31)  # "today" for record commands: after every day of the plan

SCHEDULE_COLUMNS = ["tournament_id", "occurrence", "operator_id", "jurisdiction", "type",
                    "charitable", "title", "start", "end", "first_day", "last_day",
                    "notice_due", "permit_year", "counted", "players", "license_id", "uid",
                    "sequence", "recurrence_id"]
LICENCE_COLUMNS = ["license_id", "operator_id", "jurisdiction", "kind", "tier", "valid_from",
                   "valid_to", "fee_usd", "covers"]

FIXTURE_0001 = REPO / "tests" / "data" / "ledger-0001.sqlite"
"""A SQLite ledger made by schema revision 0001 (``_make_fixture_0001`` in
tests/test_ledger.py at the commit that added it): the plan of :func:`write_plan` adopted,
deep#1 held and corrected, its MT notice, the Maine application, a permit bought and the
ME-REPORT filed."""


def plan_uid(tid: str, n: int, host: str, lineage: str = LINEAGE) -> str:
    """The UID tourney gives occurrence ``n`` of ``tid`` hosted by operator ``host``."""
    return f"{tid}-{n}@{host}.{lineage}.tourney.invalid"


def plan_row(tid: str, n: int, op: str, jur: str, typ: str, first: str,
             last: str | None = None, title: str | None = None, *, host: str | None = None,
             charitable: bool = False, licence: str = "", lineage: str = LINEAGE
             ) -> dict[str, str]:
    """One schedule.csv row: occurrence ``n`` of ``tid`` at operator ``op``, ``first`` ..
    ``last`` (default: one day), titled ``title`` (default: the id), its UID hosted by
    ``host`` (default: ``op``)."""
    return {"tournament_id": tid, "occurrence": str(n), "operator_id": op, "jurisdiction": jur,
            "type": typ, "charitable": "true" if charitable else "false",
            "title": tid if title is None else title, "start": "", "end": "",
            "first_day": first, "last_day": last or first, "notice_due": "", "permit_year": "",
            "counted": "true", "players": "", "license_id": licence,
            "uid": plan_uid(tid, n, host or op, lineage), "sequence": "0", "recurrence_id": ""}


def write_plan_folder(folder: Path, rows: Iterable[dict[str, str]],
                      licences: Iterable[Sequence[Any]] = (), *, exist_ok: bool = True
                      ) -> Path:
    """``folder`` with schedule.csv of ``rows`` and licenses.csv of ``licences`` (rows in
    :data:`LICENCE_COLUMNS` order)."""
    folder.mkdir(parents=True, exist_ok=exist_ok)
    with (folder / "schedule.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with (folder / "licenses.csv").open("w", newline="") as f:
        w2 = csv.writer(f, lineterminator="\n")
        w2.writerow(LICENCE_COLUMNS)
        w2.writerows(licences)
    return folder


# ------------------------------------------------------------------ the ledger tests' plan
ME_LICENCE = "post-1/per-tournament/2027-02-20/holdem"


def write_plan(folder: Path, *, deep_first: str = "2027-03-05",
               deep_last: str = "2027-03-07") -> Path:
    """A plan folder: Montana ``deep#1`` at room-a, ``prog#1`` shared by room-a and room-b,
    a Maine game ``holdem#1`` at post-1 under a per-tournament licence."""
    rows = [
        plan_row("holdem", 1, "post-1", "ME", "tournament-game", "2027-02-20", "2027-02-21",
                 "Post Hold'em", licence=ME_LICENCE),
        plan_row("deep", 1, "room-a", "MT", "large-stakes", deep_first, deep_last, "Deepstack"),
        plan_row("prog", 1, "room-a", "MT", "large-stakes", "2027-04-10", "2027-04-11",
                 "Progressive", host="room-a"),
        plan_row("prog", 1, "room-b", "MT", "large-stakes", "2027-04-10", "2027-04-11",
                 "Progressive", host="room-a"),
    ]
    return write_plan_folder(folder, rows, [
        [ME_LICENCE, "post-1", "ME", "me-per-tournament", "51-100", "2027-02-20",
         "2027-02-21", "40", "holdem#1"],
        ["room-a/large-stakes-permit/2026-07-01", "room-a", "MT", "mt-large-stakes-permit",
         "", "2026-07-01", "2027-06-30", "120", "deep#1 prog#1"]])


# ------------------------------------------------------------------ a Maine year (funds)
ANNUAL = "post-1/annual/2027-01-09/51-100"
CRIB = "post-1/super-cribbage/2027-02-20"


def write_me_plan(folder: Path) -> Path:
    """post-1 (ME): ``holdem#1..3`` on Sat 2027-01-16, 01-30, 02-13 under one annual licence
    (ANNUAL), ``crib#1`` 2027-02-20..21 under a super cribbage licence (CRIB)."""
    rows = [plan_row("holdem", n, "post-1", "ME", "tournament-game", day, day, "Hold'em",
                     licence=ANNUAL)
            for n, day in ((1, "2027-01-16"), (2, "2027-01-30"), (3, "2027-02-13"))]
    rows.append(plan_row("crib", 1, "post-1", "ME", "super-cribbage", "2027-02-20",
                         "2027-02-21", "Super Cribbage", licence=CRIB))
    return write_plan_folder(folder, rows, [
        [ANNUAL, "post-1", "ME", "me-annual", "51-100", "2027-01-09", "2028-01-08", "1500",
         "holdem#1 holdem#2 holdem#3"],
        [CRIB, "post-1", "ME", "me-super-cribbage", "", "2027-02-20", "2027-02-21", "75",
         "crib#1"]], exist_ok=False)


# ------------------------------------------------------------------ a year with a past
def weekly(start: str, n: int) -> list[str]:
    """``n`` days a week apart from ``start``."""
    first = dt.date.fromisoformat(start)
    return [(first + dt.timedelta(weeks=k)).isoformat() for k in range(n)]


PAST = weekly("2026-07-06", 17)
"""17 Mondays of the permit year 2026-07-01..2027-06-30, 2026-07-06 .. 2026-10-26, all
before the horizon (2027-01-01)."""
GALA = weekly("2026-07-08", 4)
"""4 Wednesdays 2026-07-08 .. 2026-07-29 (charitable)."""
YEAR_HOLDEM = "post-1/per-tournament/2027-02-20/holdem"
YEAR_CRIB = "post-1/super-cribbage/2027-04-10/crib"


def write_year_plan(folder: Path) -> Path:
    """room-a (MT): ``past#1..17`` (PAST), charitable ``gala#1..4`` (GALA), ``june#1`` on
    2026-06-30 (the permit year before), ``cross#1`` 2026-06-30..2026-07-02 (across July 1),
    ``a#1..3`` in the horizon (2027-02-10, -17, -24);
    post-1 (ME): ``holdem#1`` 2027-02-20..21 (per-tournament licence), ``crib#1``
    2027-04-10..11 (super cribbage licence)."""
    rows = [plan_row("past", k, "room-a", "MT", "large-stakes", day)
            for k, day in enumerate(PAST, start=1)]
    rows += [plan_row("gala", k, "room-a", "MT", "large-stakes", day, charitable=True)
             for k, day in enumerate(GALA, start=1)]
    rows.append(plan_row("june", 1, "room-a", "MT", "large-stakes", "2026-06-30"))
    rows.append(plan_row("cross", 1, "room-a", "MT", "large-stakes", "2026-06-30",
                         "2026-07-02"))
    rows += [plan_row("a", k, "room-a", "MT", "large-stakes", day)
             for k, day in enumerate(("2027-02-10", "2027-02-17", "2027-02-24"), start=1)]
    rows.append(plan_row("holdem", 1, "post-1", "ME", "tournament-game", "2027-02-20",
                         "2027-02-21", licence=YEAR_HOLDEM))
    rows.append(plan_row("crib", 1, "post-1", "ME", "super-cribbage", "2027-04-10",
                         "2027-04-11", licence=YEAR_CRIB))
    return write_plan_folder(folder, rows, [
        [YEAR_HOLDEM, "post-1", "ME", "me-per-tournament", "51-100", "2027-02-20",
         "2027-02-21", "75", "holdem#1"],
        [YEAR_CRIB, "post-1", "ME", "me-super-cribbage", "51-100", "2027-04-10",
         "2027-04-11", "75", "crib#1"]])


def mt_scenario(tournaments: list[dict[str, Any]] | None = None, **room: Any) -> Scenario:
    """room-a (permit year from 07-01), horizon 2027-01-01..2027-02-28."""
    return load_scenario(scenario(
        horizon={"start": "2027-01-01", "end": "2027-02-28"},
        operators=[mt_room(**room)], tournaments=tournaments or []))
