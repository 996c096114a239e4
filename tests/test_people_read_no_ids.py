"""What people read names no licence id and no organization key (issue #28): summary.txt,
report.html's text, every calendar's SUMMARY and DESCRIPTION, deadlines.csv's ``what``, and
funds.csv/funds.html from a small ledger, of every bundled example. An id stays only where a
command needs it, beside the name: deadlines.csv's id columns, report.html's and funds.html's
``<code class="id">`` and the commands they show (``tourney record report <licence id>``),
funds.csv's ``license_id``/``agency_number`` columns.

An id is any ``license_id`` of the plan's licenses.csv, a licence kind's key
(``me-annual``, ``mt-large-stakes-permit``, ...) or anything shaped like a generated licence
id (``post-39/annual/2027-01-02/51-100``, ``yellowstone/large-stakes-permit/2026-07-01``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path

import icalendar
import pytest
from lxml import html as lhtml

from scheduler.engine.solver import solve
from scheduler.export.report import report_html
from scheduler.export.summary import summary_text
from scheduler.export.write import plan_files
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.ledger.funds import funds, funds_csv, funds_html

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.yaml"))
KINDS = ("me-annual", "me-monthly", "me-per-tournament", "me-super-cribbage",
         "mt-large-stakes-permit", "mt-small-stakes-permit")
SHAPED = re.compile(r"[\w.-]+/(annual|monthly|per-tournament|super-cribbage|"
                    r"large-stakes-permit|small-stakes-permit)/\d{4}-\d{2}-\d{2}")


def _ids_in(text: str, licence_ids: set[str]) -> list[str]:
    found = [i for i in licence_ids if i and i in text]
    found += [k for k in KINDS if re.search(rf"(?<![\w-]){k}(?![\w-])", text)]
    found += [m.group(0) for m in SHAPED.finditer(text)]
    return found


def _page_text(page: str) -> str:
    """The text of an HTML page without its ``<code class="id">`` elements (ids beside a
    name), the commands it shows (``<code>tourney ...``: a command needs the id) and its
    styles."""
    tree = lhtml.fromstring(page.encode("utf-8"))
    for el in tree.xpath('//code[contains(concat(" ", @class, " "), " id ")]'
                         '|//code[starts-with(normalize-space(.), "tourney ")]'):
        el.drop_tree()
    for el in tree.xpath("//style|//script"):
        el.drop_tree()
    return tree.text_content()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_no_licence_id_where_people_read(example: Path) -> None:
    sc = load_scenario(example)
    plan = solve(sc, time_limit=60, seed=0, workers=1)
    files = plan_files(plan)
    lics = list(csv.DictReader(io.StringIO(files["licenses.csv"].decode("utf-8"))))
    ids = {r["license_id"] for r in lics}
    read: list[tuple[str, str]] = [("summary.txt", line)
                                   for line in summary_text(plan).splitlines()]
    read.append(("report.html", _page_text(report_html(plan))))
    for name, data in files.items():
        if name.endswith(".ics"):
            cal = icalendar.Calendar.from_ical(data)
            for ev in cal.walk("VEVENT"):
                read += [(f"{name} SUMMARY", str(ev.get("summary", ""))),
                         (f"{name} DESCRIPTION", str(ev.get("description", "")))]
    for r in csv.DictReader(io.StringIO(files["deadlines.csv"].decode("utf-8"))):
        read.append(("deadlines.csv what", r["what"]))
    bad = [(where, _ids_in(text, ids), text[:160]) for where, text in read
           if _ids_in(text, ids)]
    assert not bad, bad[:5]
    # the lines were there to read: every licence is named in words somewhere
    assert len(read) > 10


def test_funds_name_the_organization_and_no_licence_id(tmp_path: Path) -> None:
    sc = load_scenario(ROOT / "data" / "examples" / "maine-legion-post.yaml")
    plan = solve(sc, time_limit=60, seed=0, workers=1)
    folder = tmp_path / "plan"
    folder.mkdir()
    for name, data in plan_files(plan).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    first = min(plan.rows, key=lambda r: (r.first_day, r.ref))
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    try:
        api.init(ledger, name="American Legion Post 212")
        api.adopt(ledger, folder, by="ann")
        api.record_held(ledger, first.ref, first_day=first.first_day, last_day=first.last_day,
                        players=80, entries=80, entry_fees_usd="8000", prizes_usd="6400",
                        charity_usd="1000", by="ann", today=dt.date(2027, 2, 1))
        periods = funds(ledger)
    finally:
        ledger.dispose()
    assert periods
    ids = {p.license_id for p in periods}
    page = _page_text(funds_html(periods))
    assert "American Legion Post 212" in page
    assert not re.search(r"\bdefault\b", page)
    assert not _ids_in(page, ids), _ids_in(page, ids)
    for row in csv.DictReader(io.StringIO(funds_csv(periods))):
        assert row["organization"] == "American Legion Post 212"
        people = {k: v for k, v in row.items()
                  if k not in ("license_id", "license_ref", "agency_number", "operator_id",
                               "kind")}
        assert not _ids_in(" ".join(people.values()), ids), people
