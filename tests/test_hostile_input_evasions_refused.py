"""Hostile and careless input that tries ways around the refusals (issue 24 re-probed).

Each finding of the re-probe has a test here, named by the behaviour that must hold:

- credentials in a ``--ledger`` or ``--caldav`` URL whose password holds a character that ends
  a word (a space, ``;``, ``'``, ``)``), that holds an ``@`` SQLAlchemy cuts at, or that sits
  in the query (``?password=``), and in usage errors of an argument without a scheme;
- ``tourney record`` of a fact dated more than ten years from today (an ME application of
  1900) and a ledger organization named with an escape code ended in exit 3 (the audit's
  scenario of the record-time warnings did not validate);
- ``ledger import`` took a second current entry about the same thing (a held occurrence
  held twice, neither correcting the other), which ``record`` refuses; the audit then
  counted one game many times (ME-MONTHLY-LIMIT) while ``ledger funds`` showed one of them;
- a workbook cell whose reference is written ``b2`` or ``$B$2`` (openpyxl reads both) in a
  hidden column, and a very hidden sheet sharing its name with a visible one, were planned
  without a word;
- ``sweep --dask ucx://HOST``: a scheme that is neither encrypted nor loopback-only went
  through the trust check.

The commands that read what an attacker wrote to the network run in child processes limited
to 2 GB of address space with a timeout; those refused on their arguments or a ledger's
contents run in this process (:func:`builders.commands.tourney`).
"""

from __future__ import annotations

import csv
import io
import os
import re
import resource
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from scheduler.core.problems import ScenarioError
from scheduler.core.text import mask_credentials
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, LedgerError, api

from builders.caldav import ical, vevent
from builders.commands import last_line, sweep, sweep_in_process, tourney
from builders.plans import ME_LICENCE, TODAY, write_csv_rows, write_plan
from builders.scenarios import d

ROOT = Path(__file__).resolve().parents[1]


def _limits() -> None:  # in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _tourney(*args: str, cwd: Path, timeout: float = 120,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([sys.executable, "-m", "scheduler.cli", *args], cwd=cwd, text=True,
                       capture_output=True, timeout=timeout, preexec_fn=_limits,
                       env={**os.environ, "PYTHONPATH": str(ROOT),
                            "TOURNEY_AS_OF": TODAY.isoformat(), **(env or {})})
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode in (0, 1, 2), (r.returncode, r.stdout, r.stderr)
    return r


def _in_process(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tourney ARGS`` in this process, in folder ``cwd``, as of :data:`TODAY` (what
    :func:`_tourney` does in a child)."""
    r = tourney(*args, cwd=cwd, env={"TOURNEY_AS_OF": TODAY.isoformat()})
    assert r.returncode in (0, 1, 2), (r.returncode, r.stdout, r.stderr)
    return r


# ------------------------------------------------------------------------- credentials
@pytest.mark.parametrize("text, shown", [
    ("https://alice:sec ret@cal.example.org/dav/", "https://***@cal.example.org/dav/"),
    ("https://alice:p;w@cal.example.org/", "https://***@cal.example.org/"),
    ("https://alice:p(w)@cal.example.org/", "https://***@cal.example.org/"),
    ("https://alice:p'w@cal.example.org/", "https://***@cal.example.org/"),
    ('https://alice:p"w@cal.example.org/', "https://***@cal.example.org/"),
    ("https://alice:p,w|x>y@cal.example.org/", "https://***@cal.example.org/"),
    ("--ledger 'postgresql://u:p;w@db:notaport/t' is neither",
     "--ledger 'postgresql://***@db:notaport/t' is neither"),
    ("postgresql://u@db/t?password=hunter2&sslmode=require",
     "postgresql://***@db/t?password=***&sslmode=require"),
    ("host=db password=hunter2 dbname=t", "host=db password=*** dbname=t"),
    # kept: an address in a path, a UID, an e-mail address after a URL with a path
    ("https://cal.example.org/a@b.ics", "https://cal.example.org/a@b.ics"),
    ("uid deep-1@room-a.0123456789.tourney.invalid",
     "uid deep-1@room-a.0123456789.tourney.invalid"),
    ("see https://cal.example.org/dav/ or ask ann@example.org",
     "see https://cal.example.org/dav/ or ask ann@example.org"),
])
def test_credentials_are_masked_whatever_the_password_holds(text: str, shown: str) -> None:
    assert mask_credentials(text) == shown


@pytest.mark.parametrize("url, secret", [
    ("postgresql://u:p;w@db:notaport/t", "p;w"),           # does not parse: the raw text
    ("postgresql://u:hun)ter2@db:x/t", "hun)ter2"),
    ("postgresql://u:p@w0rd@127.0.0.1:1/t", "w0rd"),       # SQLAlchemy cuts at the first @
    ("postgresql://u@127.0.0.1:1/t?password=hunter2", "hunter2"),
    ("postgresql://u:sec ret@127.0.0.1:1/t", "sec ret"),
])
def test_a_ledger_url_password_is_never_printed(tmp_path: Path, url: str, secret: str
                                                ) -> None:
    r = _in_process("ledger", "init", "--ledger", url, cwd=tmp_path)
    assert r.returncode == 2
    assert secret not in r.stderr + r.stdout, r.stderr
    assert "***" in r.stderr, r.stderr


def test_a_usage_error_never_prints_the_password_of_an_argument_without_a_scheme(
        tmp_path: Path) -> None:
    r = _in_process("ledger", "init", "alice:hunter2@db.example.org/t", cwd=tmp_path)
    assert r.returncode == 2
    assert "hunter2" not in r.stderr and "***@db.example.org/t" in r.stderr, r.stderr
    r = _in_process("ledger", "init", "postgresql://u@db/t?password=hunter2", cwd=tmp_path)
    assert r.returncode == 2 and "hunter2" not in r.stderr, r.stderr


# ------------------------------------------------------------- record never exits 3
def _cli_ledger(tmp_path: Path, name: str = "Big Sky Tour") -> Path:
    path = tmp_path / "ledger.sqlite"
    lg = Ledger(path)
    api.init(lg)
    api.adopt(lg, write_plan(tmp_path / "plan"), organization=name, by="ann")
    lg.dispose()
    return path


def test_an_me_application_dated_1900_is_recorded_with_its_warning(tmp_path: Path) -> None:
    path = _cli_ledger(tmp_path)
    r = _in_process("record", "filed", "me-application", "--licence", ME_LICENCE, "--on",
                    "1900-01-01", "--ledger", str(path), cwd=tmp_path)
    # 1900 is a year the ledger keeps (1900 to 2199); the warning's audit spans 1900 to 2027,
    # more than a scenario's ten years: judged over the years of the game (2027)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Recorded me-application entry #1 in"), r.stdout
    # holdem#1 is planned from 2027-02-20: an application received 1900-01-01 is 46,437
    # days before it (1900-01-01 .. 2027-01-01 is 127 years of 365 days and 31 leap days,
    # 46,386; then 50 days to 2027-02-20): at most 90 (from 2026-11-22)
    assert "ME-APPLICATION-WINDOW" in r.stderr and "received 1900-01-01" in r.stderr, r.stderr


def test_a_fact_held_more_than_ten_years_ago_is_recorded(tmp_path: Path) -> None:
    path = _cli_ledger(tmp_path)
    # held 2015-03-06 (a Friday), recorded as of 2027-12-31: 13 years apart
    r = _in_process("record", "held", "--unplanned", "--tournament", "deep", "--operator",
                    "room-a", "--first-day", "2015-03-06", "--last-day", "2015-03-06",
                    "--players", "40", "--ledger", str(path), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Recorded held entry #1"), r.stdout


@pytest.mark.parametrize("name, shown", [
    ("Post\x1b]0;pwned\x07 39", "the control character '\\x1b' (U+001B) at position 5"),
    ("Post \u202e93", "the invisible format character '\\u202e' (U+202E) at position 6"),
])
def test_an_organization_name_that_is_not_one_printable_line_is_refused(
        tmp_path: Path, name: str, shown: str) -> None:
    r = _in_process("ledger", "init", "--ledger", "l.sqlite", "--name", name, cwd=tmp_path)
    assert r.returncode == 2 and shown in r.stderr, r.stderr
    assert "\x1b" not in r.stderr
    assert not (tmp_path / "l.sqlite").exists()  # refused before the ledger is made
    write_plan(tmp_path / "plan")
    # ledger init and ledger adopt as a real tourney process once (the escape code's case)
    run = _tourney if "\x1b" in name else _in_process
    run("ledger", "init", "--ledger", "l.sqlite", cwd=tmp_path)
    r = run("ledger", "adopt", "plan", "--ledger", "l.sqlite", "--organization", name,
            cwd=tmp_path)
    assert r.returncode == 2 and shown in r.stderr, r.stderr


def test_import_refuses_an_organization_name_with_an_escape_code(
        adopted: Ledger, tmp_path: Path) -> None:
    rows = _export(adopted)
    rows[0]["name"] = "Big Sky\x1b[2J Tour"  # line 2: the organization
    other = Ledger(tmp_path / "other.sqlite")
    api.init(other)
    with pytest.raises(LedgerError, match=re.escape(
            "line 2: column name: must be one line of printable text; it holds the control "
            "character '\\x1b' (U+001B) at position 8")):
        api.import_csv(other, write_csv_rows(rows, tmp_path / "l.csv"), today=TODAY)
    other.dispose()


# ------------------------------------------------------ import: one current answer
def _export(lg: Ledger) -> list[dict[str, str]]:
    api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=10, entry_fees_usd="1000.00", prizes_usd="800.00", today=TODAY)
    buf = io.StringIO()
    api.export_csv(lg, buf)
    return list(csv.DictReader(io.StringIO(buf.getvalue())))




def test_import_refuses_a_second_held_entry_of_an_occurrence_as_record_does(
        adopted: Ledger, tmp_path: Path) -> None:
    rows = _export(adopted)
    held = next(r for r in rows if r["table"] == "held")
    # the same occurrence held, with other figures, under another key: record refuses it
    # ("already recorded ... --corrects"); so does import, naming the line, adding nothing
    twin = {**held, "key": "f" * 32, "prizes_usd": "100.00"}
    before = api.all_entries(adopted)
    with pytest.raises(LedgerError) as err:
        api.import_csv(adopted, write_csv_rows([*rows, twin], tmp_path / "l.csv"), today=TODAY)
    line = len(rows) + 2  # the header is line 1, the twin the last row
    assert f"l.csv line {line}: held entry about uid " in str(err.value), str(err.value)
    assert "is already recorded" in str(err.value)
    assert api.all_entries(adopted) == before
    # a correction of it (supersedes_id: the held entry's key) is imported
    fixed = {**twin, "supersedes_id": held["key"]}
    assert api.import_csv(adopted, write_csv_rows([*rows, fixed], tmp_path / "m.csv"),
                          today=TODAY).added == 1
    # and the same file again adds nothing (its keys are there)
    assert api.import_csv(adopted, tmp_path / "m.csv", today=TODAY).added == 0


def test_two_held_rows_of_one_occurrence_in_one_file_are_refused(
        adopted: Ledger, tmp_path: Path) -> None:
    rows = _export(adopted)
    held = next(r for r in rows if r["table"] == "held")
    twin = {**held, "key": "e" * 32}
    other = Ledger(tmp_path / "other.sqlite")
    api.init(other)
    with pytest.raises(LedgerError, match="is already recorded"):
        api.import_csv(other, write_csv_rows([*rows, twin], tmp_path / "l.csv"), today=TODAY)
    assert sum(api.all_entries(other).values()) == 0
    other.dispose()


# ----------------------------------------------------------------- the workbook reader
def _book(tmp_path: Path) -> Path:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["montana"]).to_xlsx())
    return path


def _rewrite(path: Path, part: str, change: Callable[[str], str]) -> Path:
    """The workbook at ``path`` with the XML of ``part`` changed by ``change`` (a copy)."""
    out = path.with_name(f"changed-{path.name}")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == part:
                data = change(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info.filename, data)
    return out


def _tournaments_part(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        wb = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
    rid = re.search(r'<sheet [^>]*name="Tournaments"[^>]*r:id="(rId\d+)"', wb)
    assert rid is not None
    target = re.search(rf'Target="([^"]+)"[^>]*Id="{rid.group(1)}"|Id="{rid.group(1)}"'
                       r'[^>]*Target="([^"]+)"', rels)
    assert target is not None
    return (target.group(1) or target.group(2)).lstrip("/")


def _problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return err.value.render().splitlines()[1:]


def test_a_hidden_column_is_seen_when_its_cell_references_are_lower_case(
        tmp_path: Path) -> None:
    # column B (title) hidden, and its cells written b2, b3, ... (openpyxl reads them at B)
    # first in each row: a scan that took only "B2" counted them as column A
    path = _book(tmp_path)
    written = "b{row}"

    def change(xml: str) -> str:
        xml = re.sub(r'(<col [^>]*min="2" max="2"[^>]*?)(/?>)', r'\1 hidden="1"\2', xml, count=1)
        if 'min="2" max="2"' not in xml:
            xml = xml.replace("<sheetData>", '<cols><col min="2" max="2" width="9" '
                              'hidden="1"/></cols><sheetData>', 1)

        def row(m: re.Match[str]) -> str:
            cells = re.findall(r"<c [^>]*?(?:/>|>.*?</c>)", m.group(2))
            b = [c for c in cells if re.search(r'r="B\d+"', c)]
            rest = [c for c in cells if c not in b]
            b = [re.sub(r'r="B(\d+)"', lambda n: 'r="' + written.format(row=n.group(1)) + '"',
                        c) for c in b]
            return m.group(1) + "".join(b + rest) + "</row>"
        return re.sub(r"(<row [^>]*>)(.*?)</row>", row, xml, flags=re.S)

    changed = _rewrite(path, _tournaments_part(path), change)
    lines = _problems_of(changed)
    assert any("Tournaments column B (title): the column is hidden and holds values" in line
               for line in lines), lines


def test_a_very_hidden_sheet_named_as_a_visible_one_is_refused(tmp_path: Path) -> None:
    # a very hidden sheet "Tournaments" first (openpyxl reads it), a visible one of the same
    # name after it (the one a person sees): the scan described the visible one
    path = _book(tmp_path)

    def change(xml: str) -> str:
        m = re.search(r'<sheet [^>]*name="Tournaments"[^>]*/>', xml)
        assert m is not None
        hidden = re.sub(r'state="\w+"', 'state="veryHidden"', m.group(0))
        if "state=" not in hidden:
            hidden = hidden.replace("<sheet ", '<sheet state="veryHidden" ', 1)
        twin = re.sub(r'sheetId="\d+"', 'sheetId="99"', m.group(0))
        return xml.replace(m.group(0), hidden + twin, 1)

    changed = _rewrite(path, "xl/workbook.xml", change)
    lines = _problems_of(changed)
    assert lines == [f"  {changed}: sheet Tournaments: two sheets are named 'Tournaments' and "
                     "'Tournaments', which a spreadsheet does not allow (letter case aside); "
                     "rename or delete one (SCENARIO)"], lines


def test_a_value_whose_number_format_shows_nothing_is_refused(tmp_path: Path) -> None:
    import openpyxl

    path = _book(tmp_path)
    wb = openpyxl.load_workbook(path)
    tours = wb["Tournaments"]
    col = next(c.column_letter for c in tours[1] if c.value == "title")
    tours[f"{col}2"].number_format = ";;;"  # the title is there, a person sees an empty cell
    wb.save(path)
    lines = _problems_of(path)
    assert lines == [f"  {path}: Tournaments!{col}2: the cell holds a value its number format "
                     "(;;;) shows as nothing: tourney reads only what a person can see; give it "
                     "a format that shows the value, or delete the value (SCENARIO)"], lines


def test_a_cell_reference_no_spreadsheet_writes_is_named(tmp_path: Path) -> None:
    # "$B$2": openpyxl's reader fails on it ("'$B$' is not a valid column name", no file,
    # no sheet, no cell); the scan names it
    path = _book(tmp_path)
    changed = _rewrite(path, _tournaments_part(path),
                       lambda xml: xml.replace('r="B2"', 'r="$B$2"', 1))
    lines = _problems_of(changed)
    assert lines == [f"  {changed}: Tournaments!B2: the cell reference '$B$2' is not one a "
                     "spreadsheet writes (such as B2): save the file again from a spreadsheet "
                     "application (SCENARIO)"], lines


# ------------------------------------------------------------------------------ Dask
@pytest.mark.parametrize("address", ["ucx://192.0.2.1:8786", " tcp://192.0.2.1:8786",
                                     "UCX://192.0.2.1:8786"])
def test_a_dask_scheme_that_does_not_encrypt_reaches_only_this_machine(
        tmp_path: Path, address: str) -> None:
    # ucx:// neither encrypts nor authenticates (nor does a scheme Dask does not know): only
    # tls:// and wss:// may reach another machine; 192.0.2.1 (TEST-NET-1) routes nowhere
    r, took = sweep_in_process(tmp_path, "--dask", address, "--timeout", "20")
    assert r.returncode == 2, r.stderr
    assert "to another machine is refused" in last_line(r), r.stderr
    assert took < 20


# --------------------------------------------------------------------------- publish
def test_publish_deletes_a_dropped_timed_event_whose_time_zone_begins_in_1970() -> None:
    # a timed event of this lineage on 2027-03-05, inside the plan's horizon (2027), no longer
    # in the plan: deleted. Its resource holds a VTIMEZONE first (as calendar applications
    # write it, DTSTART 19700101): the history rule read that DTSTART, took the event for one
    # of 1970 (before the horizon) and kept it on the server for ever
    import datetime as dt
    from zoneinfo import ZoneInfo

    from scheduler.export.caldav.calendars import OperatorCalendar
    from scheduler.export.caldav.sync import ServerObject, plan_sync

    lineage = {"x-tourney-lineage": "0123456789"}
    kept = vevent("kept-1@op", dt.date(2027, 1, 9), **lineage)
    cal = OperatorCalendar("op", "Op", {"kept-1@op": ical(kept)}, lineage="0123456789",
                           horizon=("2027-01-01", "2027-12-31"))
    start = dt.datetime(2027, 3, 5, 19, tzinfo=ZoneInfo("America/New_York"))
    dropped = vevent("old-1@op", start, **lineage)
    old = ServerObject("http://h/u/op/old.ics", ical(dropped, tz=True).decode(), '"e1"')
    assert old.data.index("DTSTART:1970") < old.data.index("BEGIN:VEVENT")
    assert old.first_day == "20270305" and old.lineage == "0123456789"
    plan = plan_sync(cal, [old], "http://h/u/op")
    assert sorted((c.action, c.uid) for c in plan.changes) == [("create", "kept-1@op"),
                                                                ("delete", "old-1@op")]


def _fake_scheduler_announcing(size: int) -> tuple[object, int]:
    """A listener on 127.0.0.1 that answers as a Dask scheduler does (its handshake), then,
    to the client's first message, announces a frame of ``size`` bytes and sends zeros."""
    import socket
    import struct
    import threading

    import msgpack

    def message(obj: object) -> bytes:
        body = msgpack.dumps(obj, use_bin_type=True)
        nosplit = struct.pack("QQ", 1, len(body)) + body
        return struct.pack("Q", len(nosplit)) + nosplit

    def serve(conn: socket.socket) -> None:
        try:
            conn.sendall(message({"compression": None, "python": list(sys.version_info)[:3],
                                  "pickle-protocol": 5}))
            conn.recv(65536)
            conn.recv(65536)
            nosplit = struct.pack("QQQ", 2, 1, size) + b"\x80"
            conn.sendall(struct.pack("Q", len(nosplit)) + nosplit)
            while True:
                conn.sendall(b"\0" * (1 << 20))
        except OSError:
            pass
        finally:
            conn.close()

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)

    def accept() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return srv, int(srv.getsockname()[1])


@pytest.mark.xfail(strict=True, reason=(
    "issue 24 round three, left undone: a Dask frame is not bounded. A listener on this "
    "machine that passes the probe and then announces a 6 GiB frame makes distributed "
    "allocate it (6.4 GB without a memory limit; here MemoryError under 2 GB, said as 'does "
    "not answer as a Dask scheduler (MemoryError)'). distributed has no setting for a largest "
    "frame; a scheduler tourney trusts can run code in the process anyway, so the bound is "
    "defence in depth only"))
def test_a_dask_endpoint_announcing_a_6_gib_frame_is_refused_by_its_size(
        tmp_path: Path) -> None:
    srv, port = _fake_scheduler_announcing(6 << 30)
    try:
        r, took = sweep(tmp_path, "--dask", f"tcp://127.0.0.1:{port}", "--timeout", "10")
    finally:
        srv.close()  # type: ignore[attr-defined]
    assert r.returncode == 2 and took < 30, r.stderr
    assert "MemoryError" not in r.stderr and "6,442,450,944" in last_line(r), r.stderr
