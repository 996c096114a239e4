"""The ledger (issue #13): every test runs on SQLite AND on a real PostgreSQL server.

PostgreSQL: one throwaway cluster for the whole test session, made by the fixtures of
tests/conftest.py (``initdb`` into a temporary folder, ``pg_ctl start`` on a free port, as
the ``postgres`` user when run as root), one new database per test. Without PostgreSQL's
binaries the PostgreSQL half is skipped, unless ``TOURNEY_REQUIRE_POSTGRES=1``
(``.ci/run`` sets it): then it fails.

The plan folder is written by hand (a few schedule.csv/licenses.csv rows) so every deadline
below is computed by hand in a comment. No mocks: a real database each time.
"""

from __future__ import annotations

import csv
import datetime as dt
import glob
import io
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.write import write_plan as write_solved
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.deadlines import deadlines
from scheduler.ledger.models import Base, Held, Organization

from builders.plans import (
    FIXTURE_0001,
    LINEAGE,
    ME_LICENCE,
    REPO,
    SCHEDULE_COLUMNS,
    TODAY,
    plan_row,
    plan_uid,
    write_plan,
)
from builders.scenarios import d, progressive, run
from builders.servers import new_database, require_postgres


# ----------------------------------------------------------------------- schema
def test_init_creates_the_newest_schema_and_is_idempotent(url: str) -> None:
    lg = Ledger(url)
    before, after = api.init(lg)
    assert (before, after) == (None, lg.head()) and lg.revision() == lg.head()
    assert {"organizations", "filings", "held", "licences", "reports", "plan_events",
            "plan_versions", "lineages", "alembic_version"} <= set(lg.tables())
    assert api.init(lg) == (lg.head(), lg.head())  # again: nothing to do
    lg.dispose()


def test_migrations_match_the_models_no_drift(ledger: Ledger) -> None:
    # what `alembic check` does: autogenerate against the upgraded database finds nothing
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with ledger.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                Base.metadata)
    assert diff == []


def test_a_ledger_of_the_first_revision_is_upgraded_not_rebuilt(url: str) -> None:
    # a database made by revision 0001 (the first schema), with an entry written as tourney
    # 0001 wrote it (a plain table construct: independent of today's models)
    import sqlalchemy as sa
    from alembic import command

    lg = Ledger(url)
    cfg = lg._alembic_config()
    with lg.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    orgs = sa.table("organizations", sa.column("name"), sa.column("key"),
                    sa.column("recorded_at"), sa.column("recorded_by"))
    with lg.engine.begin() as conn:
        conn.execute(orgs.insert().values(
            name="Old Room", key="a" * 32, recorded_by="bob",
            recorded_at=dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)))
    assert lg.upgrade() == ("0001", lg.head())
    with lg.read() as s:
        org = s.scalar(select(Organization))
        assert org is not None and (org.name, org.key, org.recorded_by) == (
            "Old Room", "a" * 32, "bob")
    lg.dispose()


def _make_fixture_0001(path: Path) -> None:  # pragma: no cover - run by hand, once
    import sqlite3

    lg = Ledger(path)
    api.init(lg)
    with tempfile.TemporaryDirectory() as tmp:
        plan = write_plan(Path(tmp) / "plan")
        api.adopt(lg, plan, organization="Big Sky Tour", by="ann")
    first = api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                            players=180, entries=240, entry_fees_usd="90000",
                            prizes_usd="84000.50", by="ann", today=TODAY)
    api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=181, entries=240, entry_fees_usd="90000", prizes_usd="84000.50",
                    corrects=first.id, by="bob", today=TODAY)
    api.record_filed(lg, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-27"),
                     by="ann", today=TODAY)
    api.record_filed(lg, "me-application", license_ref=ME_LICENCE, filed_on=d("2027-01-15"),
                     agency_number="ME-2027-0042", by="ann", today=TODAY)
    api.record_licence(lg, operator="room-a", agency_number="LS-7",
                       kind="mt-large-stakes-permit", fee_usd="120",
                       valid_from=d("2026-07-01"), valid_to=d("2027-06-30"), by="ann")
    api.record_report(lg, ME_LICENCE, period_end=d("2027-02-21"), filed_on=d("2027-03-01"),
                      by="ann", today=TODAY)
    lg.dispose()
    with sqlite3.connect(path) as conn:  # one self-contained file, no -wal beside it
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("PRAGMA page_size = 1024")  # small pages: a small file in the repo
        conn.execute("VACUUM")


def test_the_committed_0001_fixture_ledger_is_migrated_in_place(tmp_path: Path) -> None:
    copy = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE_0001, copy)
    lg = Ledger(copy)
    assert lg.upgrade() == ("0001", lg.head())
    held = lg.held(current=False)
    assert list(zip(held["players"], held["recorded_by"], strict=True)) == [
        (180, "ann"), (181, "bob")]
    assert list(lg.held()["prizes_usd"]) == [84000.5]
    assert list(lg.filings()["kind"]) == ["mt-notice", "me-application"]
    assert list(lg.licences()["agency_number"]) == ["LS-7"]
    assert list(lg.reports()["period_end"]) == [dt.datetime(2027, 2, 21)]
    # and it takes new entries after the migration
    api.record_cancelled(lg, "prog#1", operator="room-b")
    assert api.current_entries(lg)["held"] == 2
    lg.dispose()


def test_commands_refuse_a_missing_or_uninitialised_ledger(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="no ledger at .*tourney ledger init"):
        api.held_frame(Ledger(tmp_path / "nothing.sqlite"))
    assert not (tmp_path / "nothing.sqlite").exists()  # not created by a read
    (tmp_path / "empty.sqlite").touch()
    with pytest.raises(LedgerError, match="not a tourney ledger yet"):
        api.held_frame(Ledger(tmp_path / "empty.sqlite"))
    with pytest.raises(LedgerError, match="only SQLite files and PostgreSQL"):
        Ledger("mysql://x@y/z")


# --------------------------------------------------------------------------- adopt
def test_adopt_records_lineage_version_uids_and_licences(ledger: Ledger, plan: Path) -> None:
    a = api.adopt(ledger, plan, organization="Big Sky Tour", by="ann")
    assert (a.lineage, a.version, a.confirmed, a.cancelled, a.licences, a.new) == (
        LINEAGE, 1, 4, 0, 2, True)
    ev = ledger.events()
    assert list(ev["uid"]) == [plan_uid("holdem", 1, "post-1"), plan_uid("deep", 1, "room-a"),
                               plan_uid("prog", 1, "room-a"), plan_uid("prog", 1, "room-a")]
    assert set(ev["status"]) == {"CONFIRMED"} and set(ev["sequence"]) == {0}
    # the same plan again: nothing recorded
    again = api.adopt(ledger, plan, by="ann")
    assert (again.version, again.new) == (1, False) and len(ledger.events()) == 4
    # a re-plan moving deep#1 by a week is version 2
    moved = write_plan(plan.parent / "plan-v2", deep_first="2027-03-12", deep_last="2027-03-14")
    assert api.adopt(ledger, moved, by="ann").version == 2
    with pytest.raises(LedgerError, match="belongs to organization 'Big Sky Tour'"):
        api.adopt(ledger, moved, organization="Someone Else")


def test_adopt_records_what_a_replan_cancels(adopted: Ledger, plan: Path) -> None:
    # version 2 drops deep#1: its calendar cancels the event (STATUS:CANCELLED, SEQUENCE 1)
    v2 = write_plan(plan.parent / "v2")
    rows = (v2 / "schedule.csv").read_text().splitlines(keepends=True)
    (v2 / "schedule.csv").write_text("".join(r for r in rows if not r.startswith("deep,")))
    (v2 / "calendars").mkdir()
    (v2 / "calendars" / "room-a.ics").write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tourney//EN\r\nBEGIN:VEVENT\r\n"
        f"UID:{plan_uid('deep', 1, 'room-a')}\r\nDTSTAMP:20270101T000000Z\r\n"
        "DTSTART;VALUE=DATE:20270305\r\nDTEND;VALUE=DATE:20270308\r\nSEQUENCE:1\r\n"
        "STATUS:CANCELLED\r\nSUMMARY:Cancelled: Deepstack\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n")
    a = api.adopt(adopted, v2)
    assert (a.version, a.confirmed, a.cancelled) == (2, 3, 1)
    ev = adopted.events()
    gone = ev[(ev["version"] == 2) & (ev["tournament_id"] == "deep")]
    assert list(zip(gone["status"], gone["sequence"], gone["first_day"], gone["last_day"],
                    strict=True)) == [("CANCELLED", 1, pd.Timestamp("2027-03-05"),
                                       pd.Timestamp("2027-03-07"))]
    with pytest.raises(LedgerError, match="deep#1 is cancelled in plan version 2"):
        api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), today=TODAY)


def _with_rows(folder: Path, drop: str, rows: list[dict[str, str]]) -> Path:
    """``folder``'s schedule.csv without the lines starting ``drop``, plus ``rows``."""
    lines = (folder / "schedule.csv").read_text().splitlines(keepends=True)
    buf = io.StringIO()
    csv.DictWriter(buf, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n").writerows(rows)
    (folder / "schedule.csv").write_text(
        "".join(x for x in lines if not (drop and x.startswith(drop))) + buf.getvalue())
    return folder


def test_an_occurrence_is_its_uid_across_renumbering_replans(ledger: Ledger,
                                                             tmp_path: Path) -> None:
    # v1: deep#1 (UID deep-1, Mar 5-7) and deep#2 (UID deep-2, Mar 19-21)
    v1 = _with_rows(write_plan(tmp_path / "v1"), "", [
        plan_row("deep", 2, "room-a", "MT", "large-stakes", "2027-03-19", "2027-03-21", "Deep")])
    api.adopt(ledger, v1)
    api.record_held(ledger, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=100, today=TODAY)
    # v2, re-planned after it: the held one is history, and the one left is numbered deep#1
    # in its schedule.csv, keeping its UID deep-2
    second = plan_row("deep", 2, "room-a", "MT", "large-stakes", "2027-03-19", "2027-03-21", "Deep")
    second["occurrence"] = "1"
    v2 = _with_rows(write_plan(tmp_path / "v2"), "deep,", [second])
    api.adopt(ledger, v2)
    # "deep#1" now means the newest plan's deep#1: not a duplicate of the one held
    api.record_held(ledger, "deep#1", first_day=d("2027-03-19"), last_day=d("2027-03-21"),
                    players=90, today=TODAY)
    held = ledger.held()
    assert list(zip(held["uid"], held["players"], strict=True)) == [
        (plan_uid("deep", 1, "room-a"), 100), (plan_uid("deep", 2, "room-a"), 90)]


def test_adopt_refuses_a_folder_that_is_not_a_plan(ledger: Ledger, tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="schedule.csv is missing"):
        api.adopt(ledger, tmp_path)
    old = write_plan(tmp_path / "old")
    text = (old / "schedule.csv").read_text().replace(f".{LINEAGE}.tourney.invalid",
                                                       ".tourney")
    (old / "schedule.csv").write_text(text)
    with pytest.raises(LedgerError, match="carry no plan lineage"):
        api.adopt(ledger, old)
    assert api.all_entries(ledger)["plan_versions"] == 0


def test_adopt_refuses_a_plan_folder_changed_since_tourney_wrote_it(ledger: Ledger,
                                                                     tmp_path: Path) -> None:
    # the progressive's plan, written by tourney (its .tourney-plan lists every file): a
    # date edited in schedule.csv, or a calendar put beside its own, is not what tourney
    # planned and announced; refused, nothing adopted. The file put back: adopted.
    folder = write_solved(run(progressive()), tmp_path / "plan")
    schedule = folder / "schedule.csv"
    good = schedule.read_bytes()
    schedule.write_bytes(good.replace(b"2027-03-06", b"2027-03-07"))
    with pytest.raises(LedgerError, match=r"schedule.csv \(changed since tourney wrote it\)"):
        api.adopt(ledger, folder)
    schedule.write_bytes(good)
    extra = folder / "calendars" / "room-z.ics"
    extra.write_bytes((folder / "calendars" / "room-a.ics").read_bytes())
    with pytest.raises(LedgerError, match=r"calendars/room-z.ics \(not written by tourney\)"):
        api.adopt(ledger, folder)
    extra.unlink()
    # a calendar gone (its cancellations would be lost) or the list itself damaged
    gone = folder / "calendars" / "room-a.ics"
    kept = gone.read_bytes()
    gone.unlink()
    with pytest.raises(LedgerError, match=r"calendars/room-a.ics \(missing; tourney wrote it\)"):
        api.adopt(ledger, folder)
    gone.write_bytes(kept)
    manifest = folder / ".tourney-plan"
    listed = manifest.read_bytes()
    manifest.write_bytes(listed + b"garbage\n")
    with pytest.raises(LedgerError, match=r"\.tourney-plan \(not the list tourney wrote\)"):
        api.adopt(ledger, folder)
    assert api.all_entries(ledger)["plan_versions"] == 0
    manifest.write_bytes(listed)
    assert api.adopt(ledger, folder).version == 1


# ---------------------------------------------------------------- record held / cancelled
def test_held_is_recorded_and_a_correction_supersedes_it(adopted: Ledger) -> None:
    first = api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                            last_day=d("2027-03-07"), players=180, entries=240,
                            entry_fees_usd="90000", prizes_usd=Decimal("84000.50"),
                            operator=None, by="ann", today=TODAY)
    # the same occurrence again: a duplicate, named with the entry to correct
    with pytest.raises(LedgerError, match=r"already recorded: held entry #\d+.*--corrects"):
        api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), players=181, today=TODAY)
    fixed = api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                            last_day=d("2027-03-07"), players=181, entries=240,
                            entry_fees_usd=90000, prizes_usd="84000.50", corrects=first.id,
                            by="bob", today=TODAY)
    assert fixed.supersedes_id == first.id
    everything = adopted.held(current=False)
    assert list(everything["players"]) == [180, 181]  # the first entry is still there
    assert list(everything["recorded_by"]) == ["ann", "bob"]
    now = adopted.held()
    assert list(now["id"]) == [fixed.id] and now["prizes_usd"].iloc[0] == 84000.5
    assert now["first_day"].iloc[0] == dt.datetime(2027, 3, 5)
    with pytest.raises(LedgerError, match=f"already corrected by #{fixed.id}"):
        api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), corrects=first.id, today=TODAY)
    with pytest.raises(LedgerError, match="no entry #999 in held"):
        api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), corrects=999, today=TODAY)


def test_record_held_clear_errors(adopted: Ledger) -> None:
    def held(occ: str, first: str = "2027-03-05", last: str = "2027-03-07", **kw: object
             ) -> None:
        api.record_held(adopted, occ, first_day=d(first), last_day=d(last),
                        today=kw.pop("today", TODAY), **kw)  # type: ignore[arg-type]

    with pytest.raises(LedgerError, match="unknown occurrence 'deep#2'"):
        held("deep#2")
    # days other than the plan's are recorded as they ran (tests/test_ledger_facts.py);
    # a last day before the first is no run at all
    with pytest.raises(LedgerError, match="--last-day 2027-03-05 is before --first-day "
                                          "2027-03-06"):
        held("deep#1", "2027-03-06", "2027-03-05")
    with pytest.raises(LedgerError, match="shared by operators room-a, room-b: give --operator"):
        held("prog#1", "2027-04-10", "2027-04-11")
    with pytest.raises(LedgerError, match="planned at room-a, room-b, not at operator 'post-1'"):
        held("prog#1", "2027-04-10", "2027-04-11", operator="post-1")
    with pytest.raises(LedgerError, match="2027-03-07 is in the future"):
        held("deep#1", today=d("2027-03-06"))
    with pytest.raises(LedgerError, match="--players: -1 is negative"):
        held("deep#1", players=-1)
    with pytest.raises(LedgerError, match="--prizes: 1.001 is not an amount"):
        held("deep#1", prizes_usd="1.001")
    # a note is plain text: NUL (position 5 of "bad \x00 note") and U+202E refused, as
    # for a cancellation; line breaks and tabs are kept (a spreadsheet cell has them)
    with pytest.raises(LedgerError, match=r"note: holds the control character .*U\+0000.* "
                                          "at position 5"):
        held("deep#1", note="bad \x00 note")
    with pytest.raises(LedgerError, match=r"invisible format character .*U\+202E"):
        api.record_cancelled(adopted, "deep#1", note="moved \u202e")
    # a private-use character (no font shows it alike) and a Hangul filler (a note of them
    # looks empty): "ok \ue000" has it at position 4
    with pytest.raises(LedgerError, match=r"private-use character .*U\+E000.* at position 4"):
        api.record_cancelled(adopted, "deep#1", note="ok \ue000")
    with pytest.raises(LedgerError, match=r"blank filler character .*U\+3164.* at position 1"):
        api.record_cancelled(adopted, "deep#1", note="\u3164\u3164")
    # U+2028 LINE SEPARATOR is no control character: named as what it is ("a\u2028b": 2)
    with pytest.raises(LedgerError, match=r"line-separator character .*U\+2028.* at position 2; "
                                          r"a note's lines are ended by ordinary line breaks"):
        api.record_cancelled(adopted, "deep#1", note="a\u2028b")
    with pytest.raises(LedgerError, match=r"paragraph-separator character .*U\+2029.* at "
                                          r"position 1"):
        api.record_cancelled(adopted, "deep#1", note="\u2029")
    # at most one spreadsheet cell: 32,767 characters kept (below), 32,768 refused
    with pytest.raises(LedgerError, match=r"note: 32,768 characters as a spreadsheet counts "
                                          r"them \(an emoji is 2\); a note holds at most 32,767"):
        api.record_cancelled(adopted, "deep#1", note="x" * 32_768)
    # 16,384 emoji (U+1F600, two UTF-16 units each) are 32,768 in a cell: refused
    with pytest.raises(LedgerError, match=r"note: 32,768 characters as a spreadsheet"):
        api.record_cancelled(adopted, "deep#1", note="\U0001F600" * 16_384)
    assert api.current_entries(adopted)["held"] == 0  # nothing recorded by any of them
    # each venue its own; the longest note kept
    held("prog#1", "2027-04-10", "2027-04-11", operator="room-b", note="y" * 32_767)
    api.record_cancelled(adopted, "prog#1", operator="room-a", note="hall flooded\n\tsee mail")
    with pytest.raises(LedgerError, match=r"prog#1 at room-a \(cancelled\) is already"):
        held("prog#1", "2027-04-10", "2027-04-11", operator="room-a")
    # looked up by UID as well
    held(plan_uid("deep", 1, "room-a"))
    assert sorted(adopted.held()["outcome"]) == ["cancelled", "held", "held"]
    assert "hall flooded\n\tsee mail" in set(adopted.held()["note"])


def test_a_replanned_date_is_recorded_after_adopting_the_replan(adopted: Ledger,
                                                                plan: Path) -> None:
    moved = write_plan(plan.parent / "v2", deep_first="2027-03-12", deep_last="2027-03-14")
    api.adopt(adopted, moved)
    api.record_held(adopted, "deep#1", first_day=d("2027-03-12"), last_day=d("2027-03-14"),
                    today=TODAY)
    assert adopted.held()["first_day"].iloc[0] == dt.datetime(2027, 3, 12)


def test_the_ledger_is_append_only(adopted: Ledger) -> None:
    entry = api.record_cancelled(adopted, "deep#1")
    # the same cancellation again: named by its command's word, not the ledger's table "held"
    with pytest.raises(LedgerError, match=rf"\(cancelled\) is already recorded: cancelled "
                                          rf"entry #{entry.id}, by .*--corrects {entry.id}"):
        api.record_cancelled(adopted, "deep#1")
    with pytest.raises(LedgerError, match="append-only"), adopted.write() as s:
        row = s.get(Held, entry.id)
        assert row is not None
        row.outcome = "held"
    with pytest.raises(LedgerError, match="append-only"), adopted.write() as s:
        row = s.get(Held, entry.id)
        s.delete(row)
    assert list(adopted.held()["outcome"]) == ["cancelled"]


# ----------------------------------------------------------- filed, licence, report
def test_filings_licences_and_reports(adopted: Ledger) -> None:
    n = api.record_filed(adopted, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-27"),
                         today=TODAY)
    assert (n.kind, n.operator_id, n.uid) == ("mt-notice", "room-a", plan_uid("deep", 1, "room-a"))
    with pytest.raises(LedgerError, match="Maine tournament-game tournament: MT-NOTICE"):
        api.record_filed(adopted, "mt-notice", occurrence="holdem#1", filed_on=d("2027-01-02"),
                         today=TODAY)
    with pytest.raises(LedgerError, match="the MT-NOTICE of deep#1 at room-a is already"):
        api.record_filed(adopted, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-27"),
                         today=TODAY)
    with pytest.raises(LedgerError, match="say what was filed"):
        api.record_filed(adopted, "notice", occurrence="deep#1", filed_on=d("2027-02-27"))
    app_ = api.record_filed(adopted, "me-application", license_ref=ME_LICENCE,
                            filed_on=d("2027-01-15"), today=TODAY)
    # the licence number arrives later: a correction carrying it
    api.record_filed(adopted, "me-application", license_ref=ME_LICENCE,
                     filed_on=d("2027-01-15"), agency_number="ME-2027-0042", corrects=app_.id,
                     today=TODAY)
    f = adopted.filings()
    assert list(f["agency_number"].fillna("")) == ["", "ME-2027-0042"]
    with pytest.raises(LedgerError, match="unknown licence 'post-1/nope'"):
        api.record_filed(adopted, "me-application", license_ref="post-1/nope",
                         filed_on=d("2027-01-15"), today=TODAY)

    api.record_licence(adopted, operator="room-a", agency_number="LS-7", kind=
                       "mt-large-stakes-permit", fee_usd="120", valid_from=d("2026-07-01"),
                       valid_to=d("2027-06-30"),
                       license_ref="room-a/large-stakes-permit/2026-07-01")
    with pytest.raises(LedgerError, match="mt-large-stakes-permit number LS-7 is already"):
        api.record_licence(adopted, operator="room-a", agency_number="LS-7",
                           kind="mt-large-stakes-permit", fee_usd=120,
                           valid_from=d("2026-07-01"), valid_to=d("2027-06-30"))
    with pytest.raises(LedgerError, match="--operator 'room-z': no adopted plan"):
        api.record_licence(adopted, operator="room-z", agency_number="LS-8",
                           kind="mt-large-stakes-permit", fee_usd=120,
                           valid_from=d("2026-07-01"), valid_to=d("2027-06-30"))
    with pytest.raises(LedgerError, match="--valid-to 2026-06-30 is before"):
        api.record_licence(adopted, operator="room-a", agency_number="LS-9",
                           kind="mt-large-stakes-permit", fee_usd=120,
                           valid_from=d("2026-07-01"), valid_to=d("2026-06-30"))
    lic = adopted.licences()
    assert (lic["fee_usd"].iloc[0], lic["valid_to"].iloc[0]) == (120.0, dt.datetime(2027, 6, 30))

    # a per-tournament licence valid Feb 20-21 has one licensed period, ending Feb 21
    with pytest.raises(LedgerError, match="periods end on 2027-02-21"):
        api.record_report(adopted, ME_LICENCE, period_end=d("2027-02-28"),
                          filed_on=d("2027-03-01"), today=TODAY)
    api.record_report(adopted, ME_LICENCE, period_end=d("2027-02-21"), filed_on=d("2027-03-01"),
                      today=TODAY)
    with pytest.raises(LedgerError, match="ME-REPORT of .* is already recorded"):
        api.record_report(adopted, ME_LICENCE, period_end=d("2027-02-21"),
                          filed_on=d("2027-03-02"), today=TODAY)
    with pytest.raises(LedgerError, match="ME-REPORT is for Maine licences"):
        api.record_report(adopted, "room-a/large-stakes-permit/2026-07-01",
                          period_end=d("2027-06-30"), filed_on=d("2027-07-01"), today=TODAY)
    assert api.current_entries(adopted) == {"filings": 2, "licences": 1, "held": 0,
                                            "reports": 1}


# ------------------------------------------------------------------------- deadlines
def test_deadlines_dates_and_states(adopted: Ledger, plan: Path) -> None:
    # MT-NOTICE (MCA 23-5-317(1)(d)), first day - 5 calendar days:
    #   deep#1 Fri 2027-03-05 -> 2027-02-28; prog#1 2027-04-10 -> 2027-04-05 (room-a, room-b)
    # ME-APPLICATION-WINDOW, first day covered Sat 2027-02-20: due the 10th Maine business day
    #   before: Feb 19, 18, 17, 16 (Mon Feb 15 Washington's Birthday skipped), 12, 11, 10, 9,
    #   8, 5 -> Fri 2027-02-05; opens 90 days before: Feb 20 - 90 = 2026-11-22
    # ME-REPORT, period ending Sun 2027-02-21: the 10th business day after: Feb 22-26 (5),
    #   Mar 1-5 (10) -> Fri 2027-03-05
    # MT-PERMIT-FEES: room-a's permit of the permit year 2026-07-01, begun before the plan's
    #   first day of play (2027-02-20): due the day before the first day it covers, deep#1
    #   2027-03-05 -> 2027-03-04
    as_of = d("2027-03-01")
    api.record_filed(adopted, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-28"),
                     today=TODAY)                                   # on the day: done
    api.record_filed(adopted, "me-application", license_ref=ME_LICENCE,
                     filed_on=d("2027-02-08"), today=TODAY)         # 3 days late
    api.record_cancelled(adopted, "prog#1", operator="room-b")      # no notice needed
    df = deadlines(plan, as_of=as_of, ledger=adopted)
    got = [(str(r.date), r.state, r.rule, r.operator_id) for r in df.itertuples()]
    assert got == [
        ("2027-02-05", "done late", "ME-APPLICATION-WINDOW", "post-1"),
        ("2027-02-28", "done", "MT-NOTICE", "room-a"),
        ("2027-03-04", "due", "MT-PERMIT-FEES", "room-a"),
        ("2027-03-05", "due", "ME-REPORT", "post-1"),
        ("2027-04-05", "due", "MT-NOTICE", "room-a"),
        ("2027-04-05", "not needed", "MT-NOTICE", "room-b"),
    ]
    assert df["opens"].iloc[0] == d("2026-11-22")
    assert df["done_on"].iloc[1] == d("2027-02-28")
    # without the ledger, as of the report's due day + 1: everything before it is overdue
    bare = deadlines(plan, as_of=d("2027-03-06"))
    assert list(bare["state"]) == ["overdue", "overdue", "overdue", "overdue", "due", "due"]
    # as of the due day itself it is still due (the deadline day is included)
    assert deadlines(plan, as_of=d("2027-03-05"))["state"].iloc[3] == "due"
    assert adopted.deadlines(plan, as_of=as_of).equals(df)


# ----------------------------------------------------------------- export / import
def _export(lg: Ledger) -> str:
    buf = io.StringIO()
    api.export_csv(lg, buf)
    return buf.getvalue()


def test_export_import_round_trips(adopted: Ledger, tmp_path: Path) -> None:
    first = api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                            last_day=d("2027-03-07"), players=10, entry_fees_usd="1234.56",
                            note='a "quoted", note', today=TODAY)
    api.record_held(adopted, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=11, corrects=first.id, today=TODAY)
    api.record_filed(adopted, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-20"),
                     today=TODAY)
    text = _export(adopted)
    path = tmp_path / "ledger.csv"
    path.write_text(text, encoding="utf-8")
    other = Ledger(tmp_path / "other.sqlite")
    api.init(other)
    res = api.import_csv(other, path, today=TODAY)
    n = sum(api.all_entries(adopted).values())
    assert (res.added, res.skipped) == (n, 0)
    assert _export(other) == text                 # byte for byte, supersede links included
    assert api.import_csv(other, path, today=TODAY) == api.Imported(0, n)   # twice: nothing added
    assert list(other.held(current=False)["players"]) == [10, 11]
    assert other.held()["note"].isna().all()
    other.dispose()


def test_import_into_a_ledger_named_for_the_same_organization_joins_it(
        adopted: Ledger, tmp_path: Path) -> None:
    # `tourney ledger init --name "Big Sky Tour"` made the organization (another key): the
    # file's organization row is that one, not a second of the same name; its entries join
    api.record_cancelled(adopted, "deep#1", note="rain")
    path = tmp_path / "ledger.csv"
    path.write_text(_export(adopted), encoding="utf-8")
    other = Ledger(tmp_path / "named.sqlite")
    api.init(other, "Big Sky Tour")
    n = sum(api.all_entries(adopted).values())
    # every entry added but the organization (1 already there)
    assert api.import_csv(other, path, today=TODAY) == api.Imported(n - 1, 1)
    assert api.all_entries(other) == api.all_entries(adopted)
    assert list(other.held()["note"]) == ["rain"]
    assert api.import_csv(other, path, today=TODAY) == api.Imported(0, n)  # twice: nothing
    other.dispose()


def test_import_refuses_a_bad_file_and_writes_nothing(ledger: Ledger, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("table,key,recorded_at,recorded_by,name\n"
                   f"organizations,{'b' * 32},2027-01-01T00:00:00Z,ann,Room B\n"
                   "tables,x,,,\n")
    with pytest.raises(LedgerError, match="line 3: table 'tables' is not a ledger table"):
        api.import_csv(ledger, bad, today=TODAY)
    assert api.all_entries(ledger)["organizations"] == 0   # line 2 rolled back with it


def test_import_refuses_a_note_with_a_control_character_naming_its_line(
        adopted: Ledger, tmp_path: Path) -> None:
    # an export whose one held entry's note was edited to hold ESC at position 5 of
    # "snow\x1b[2J": refused as `record --note` refuses it, naming the line; nothing added
    api.record_cancelled(adopted, "deep#1", note="snow")
    text = _export(adopted)
    lines = text.splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines, start=1) if ",snow," in line)
    bad = tmp_path / "bad.csv"
    bad.write_text(text.replace(",snow,", ",snow\x1b[2J,"), encoding="utf-8")
    target = Ledger(tmp_path / "other.sqlite")
    try:
        api.init(target)
        with pytest.raises(LedgerError, match=rf"line {n}: column note: holds the control "
                                              r"character '\\x1b' \(U\+001B\) at position 5"):
            api.import_csv(target, bad, today=TODAY)
        assert api.all_entries(target)["held"] == 0
    finally:
        target.dispose()


# ------------------------------------------------------------------- nothing lost
def _big_export(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "big.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["table", "key", "recorded_at", "recorded_by", "name"])
        for i in range(n):
            w.writerow(["organizations", f"{i:032x}", "2027-01-01T00:00:00Z", "bulk",
                        f"Room {i}"])
    return path


def _import_process(url: str, path: Path) -> subprocess.Popen[str]:
    """`api.import_csv` in a child process that prints "ready" just before it starts."""
    code = ("import sys; from scheduler.ledger import Ledger, api; lg = Ledger(sys.argv[1]); "
            "lg.ready(); print('ready', flush=True); "
            "api.import_csv(lg, sys.argv[2]); print('done', flush=True)")
    return subprocess.Popen([sys.executable, "-c", code, url, str(path)], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _ready(p: subprocess.Popen[str]) -> float:
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line == "ready\n", (line, p.stderr.read() if p.stderr else "")
    return time.monotonic()


# slow: 10,000 rows imported four times, so that a kill lands mid-import (a scale test); one
# transaction per import is tested in the default run by
# test_import_refuses_a_bad_file_and_writes_nothing, and a killed command's committed entry
# by test_ledger_backup_and_refusals.py
@pytest.mark.slow
def test_a_killed_bulk_import_leaves_the_ledger_unchanged_or_complete(
        ledger: Ledger, tmp_path: Path) -> None:
    n = 10_000
    path = _big_export(tmp_path, n)
    # how long the import itself takes here, from "ready" to its end
    p = _import_process(ledger.url, path)
    t0 = _ready(p)
    assert p.wait(timeout=120) == 0, p.stderr.read() if p.stderr else ""
    full = time.monotonic() - t0
    assert api.all_entries(ledger)["organizations"] == n
    fresh = None
    outcomes = []
    for fraction in (0.3, 0.7):
        fresh = Ledger(_sibling(ledger.url, tmp_path, fraction))
        api.init(fresh)
        p = _import_process(fresh.url, path)
        time.sleep(max(0.0, _ready(p) + full * fraction - time.monotonic()))
        p.send_signal(signal.SIGKILL)   # no clean-up: as a power cut would
        p.wait(timeout=60)
        count = api.all_entries(fresh)["organizations"]
        assert count in (0, n), count     # all or nothing, never a part
        outcomes.append(count)
    assert outcomes[0] == 0  # killed 30 % into the import: nothing of it is in the ledger
    # and a ledger whose import was killed still works: the whole file imports afterwards
    assert fresh is not None
    api.import_csv(fresh, path, today=TODAY)
    assert api.all_entries(fresh)["organizations"] == n
    fresh.dispose()


def _sibling(url: str, tmp_path: Path, tag: float) -> str:
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / f'fresh-{tag}.sqlite'}"
    admin = url.rsplit("/", 1)[0] + "/postgres"
    return new_database(admin)


_WRITER = """
import sys, datetime as dt
from scheduler.ledger import Ledger, api
lg = Ledger(sys.argv[1])
for i in range(int(sys.argv[3])):
    api.record_licence(lg, operator="room-a", agency_number=f"{sys.argv[2]}-{i}",
                       kind="mt-large-stakes-permit", fee_usd=120,
                       valid_from=dt.date(2026, 7, 1), valid_to=dt.date(2027, 6, 30),
                       by=sys.argv[2])
print("done")
"""


# slow: the same boundary with more writers (3 processes and 3 threads) is
# test_ledger_history.py::test_many_processes_and_threads_recording_at_once_lose_nothing
@pytest.mark.slow
def test_two_people_recording_at_once_lose_nothing(adopted: Ledger) -> None:
    per = 15
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, adopted.url, who, str(per)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for who in ("ann", "bob")]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()[-2000:]
    lic = adopted.licences()
    numbers = sorted(lic["agency_number"])
    assert numbers == sorted(f"{w}-{i}" for w in ("ann", "bob") for i in range(per))
    assert len(set(lic["key"])) == 2 * per


_SAME = """
import sys
from scheduler.ledger import Ledger, LedgerError, api
try:
    api.record_cancelled(Ledger(sys.argv[1]), "deep#1", by=sys.argv[2])
except LedgerError as exc:
    print(exc)
    sys.exit(2)
"""


def test_two_people_recording_the_same_occurrence_at_once_record_it_once(
        adopted: Ledger) -> None:
    # writers are serialized (SQLite BEGIN IMMEDIATE, a PostgreSQL advisory lock), so the
    # duplicate check of the second sees the first's entry
    procs = [subprocess.Popen([sys.executable, "-c", _SAME, adopted.url, who], cwd=REPO,
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for who in ("ann", "bob")]
    results = [(p.wait(timeout=120), p.communicate()[0]) for p in procs]
    assert sorted(code for code, _ in results) == [0, 2], results
    assert any("is already recorded" in out for _, out in results)
    assert len(adopted.held(current=False)) == 1


# ------------------------------------------------------------------------------ CLI
def test_cli_the_years_loop(url: str, plan: Path, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_LEDGER", url)
    monkeypatch.setenv("TOURNEY_USER", "ann")
    run = CliRunner().invoke
    r = run(app, ["ledger", "init"])
    assert r.exit_code == 0 and "Created the ledger" in r.output
    r = run(app, ["ledger", "adopt", str(plan)])
    assert r.exit_code == 0 and f"version 1 of plan lineage {LINEAGE}" in r.output
    r = run(app, ["record", "filed", "mt-notice", "deep#1", "--on", "2999-01-01"])
    assert r.exit_code == 2 and "--on 2999-01-01 is in the future" in r.output
    r = run(app, ["record", "cancelled", "deep#9"])
    assert r.exit_code == 2 and "unknown occurrence 'deep#9'" in r.output
    assert "Traceback" not in r.output
    r = run(app, ["record", "cancelled", "deep#1", "--as-of", "20270105"])
    assert r.exit_code == 2 and "--as-of '20270105' is not a date (YYYY-MM-DD)" in r.output
    r = run(app, ["record", "cancelled", "deep#1", "--note", "snowed in", "--as-of",
                  "2027-01-05"])  # taken as by every record command; a day before it too
    assert r.exit_code == 0 and "Recorded cancelled entry #1" in r.output
    r = run(app, ["record", "cancelled", "deep#1"])
    assert r.exit_code == 2 and "--corrects 1" in r.output
    r = run(app, ["record", "held", "deep#1", "--first-day", "2027-3-5", "--last-day", "x"])
    assert r.exit_code == 2 and "--first-day '2027-3-5' is not a date" in r.output
    r = run(app, ["deadlines", str(plan), "--as-of", "2027-03-01", "--format", "csv"])
    assert r.exit_code == 1  # one overdue (below): exit 1, like a failed check
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    # deep#1 was cancelled: its notice (due 2027-02-28) is not needed
    assert (rows[1]["date"], rows[1]["state"], rows[1]["rule"]) == (
        "2027-02-28", "not needed", "MT-NOTICE")
    r = run(app, ["deadlines", str(plan), "--as-of", "2027-03-01"])
    assert r.exit_code == 1
    assert r.stderr == ("tourney: 1 deadline(s) overdue, the first 2027-02-05 "
                        "ME-APPLICATION-WINDOW (post-1); exit 1.\n")
    lines = r.stdout.splitlines()
    # deadlines.csv's order: date, file by (Sun Feb 28: the office is closed, Fri Feb 26),
    # operator, what; then the ledger's state
    assert lines[1].split()[:2] == ["2027-02-28", "2027-02-26"]
    assert lines[1].endswith("file by Fri, Feb 26, 2027  [not needed]  MT-NOTICE")
    # as of 2027-03-01: overdue the ME application (due 2027-02-05); due room-a's permit
    # (2027-03-04), the ME report (2027-03-05) and the 2 notices of prog#1 (2027-04-05)
    assert lines[-1].startswith("4 due, 1 overdue, 1 not needed (done from the ledger")
    out = tmp_path / "export.csv"
    r = run(app, ["ledger", "export", "--out", str(out)])
    assert r.exit_code == 0 and out.exists()
    r = run(app, ["ledger", "import", str(out)])
    assert r.exit_code == 0 and "0 entries added" in r.output


def test_missing_postgres_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("TOURNEY_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_postgres()
    monkeypatch.setenv("TOURNEY_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="TOURNEY_REQUIRE_POSTGRES=1"):
        require_postgres()


if __name__ == "__main__":  # pragma: no cover - writes the fixture of revision 0001
    FIXTURE_0001.parent.mkdir(exist_ok=True)
    FIXTURE_0001.unlink(missing_ok=True)
    _make_fixture_0001(FIXTURE_0001)
    print(f"wrote {FIXTURE_0001}")
