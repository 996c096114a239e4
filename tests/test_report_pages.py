"""report.html and funds.html as a manager prints them (issue #28), opened in headless
Chromium at 1,024 px wide and in print mode (media print at the printable width of A4 and
Letter paper), through the DevTools protocol on a pipe (``--remote-debugging-pipe``: no
websocket library). Every check reads the DOM: nothing wider than the page (no horizontal
scroll, no box scrolled or cut), the dates table first with every placed occurrence,
no other state's rule in a one-state report, names where people read and ids only in
``<code>`` beside them.

Skips when /usr/bin/chromium is missing, unless TOURNEY_REQUIRE_CHROMIUM=1 (as
tests/test_report.py).
"""

from __future__ import annotations

import base64
import contextlib
import csv
import datetime as dt
import fcntl
import json
import os
import re
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scheduler.export.write import write_plan
from scheduler.ledger import Ledger, api
from scheduler.ledger.funds import funds, funds_html
from scheduler.result.plan import Plan

from builders.commands import chromium
from builders.plans import ANNUAL, CRIB, TODAY, write_me_plan
from builders.scenarios import load, me_game, me_post, mt_large, mt_room, run

SCREEN = 1024
"""The narrow screen the pages must fit (px)."""
PHONE = 420
"""A phone held upright (px): report.html's dates must read there too."""
A4_IN, LETTER_IN = 210 / 25.4, 8.5
"""Paper widths in inches."""


def _printable(paper_in: float, margin_in: float) -> int:
    """The printable width (CSS px, 96 a inch) of paper ``paper_in`` inches wide with the
    page's ``@page`` margin on each side."""
    return int((paper_in - 2 * margin_in) * 96)


# report.html: @page margin 12 mm -> A4 (210 - 24) mm = 702 px, Letter 725 px;
# funds.html: @page margin 0.6 in -> A4 (8.27 - 1.2) in = 678 px, Letter 700 px
REPORT_WIDTHS = {"screen": SCREEN, "A4": _printable(A4_IN, 12 / 25.4),
                 "Letter": _printable(LETTER_IN, 12 / 25.4)}
FUNDS_WIDTHS = {"screen": SCREEN, "A4": _printable(A4_IN, 0.6),
                "Letter": _printable(LETTER_IN, 0.6)}


# ----------------------------------------------------------------------- the browser
class DevTools:
    """One headless Chromium driven over ``--remote-debugging-pipe`` (fd 3: commands in,
    fd 4: replies out, each a JSON text ended by NUL)."""

    def __init__(self, exe: str, profile: Path) -> None:
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def child() -> None:  # the browser's fds 3 and 4 (via fds >= 10: no clash)
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--no-first-run", "--disable-sync",
             "--disable-component-update", f"--user-data-dir={profile}",
             "--remote-debugging-pipe"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child, close_fds=False,
            env={**os.environ, "HOME": str(profile)})
        os.close(to_r)
        os.close(from_w)
        self._w, self._r, self._buf, self._n = to_w, from_r, b"", 0

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self._buf += chunk
        text, self._buf = self._buf.split(b"\0", 1)
        return json.loads(text)  # type: ignore[no-any-return]

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 120) -> dict[str, Any]:
        self._n += 1
        msg: dict[str, Any] = {"id": self._n, "method": method, "params": params or {}}
        if session is not None:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._n:
                assert "error" not in reply, reply["error"]
                return reply["result"]  # type: ignore[no-any-return]

    def open(self, page: Path, width: int, media: str) -> Tab:
        """``page`` loaded in a new tab ``width`` CSS px wide (no scroll bar), ``media``
        ``screen`` or ``print``."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=session)
        self.send("Emulation.setScrollbarsHidden", {"hidden": True}, session=session)
        self.send("Emulation.setEmulatedMedia", {"media": media}, session=session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        self.send("Page.navigate", {"url": page.as_uri()}, session=session)
        deadline = time.monotonic() + 120
        while True:
            m = self._message(deadline)
            if m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session:
                return Tab(self, session)

    def close(self) -> None:
        with contextlib.suppress(EOFError, TimeoutError):  # it closes the pipe as it goes
            self.send("Browser.close", timeout=20)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(30)
        os.close(self._w)
        os.close(self._r)


class Tab:
    """A loaded page: :meth:`probe` reads its DOM, :meth:`pdf` prints it."""

    def __init__(self, browser: DevTools, session: str) -> None:
        self.browser, self.session = browser, session

    def probe(self, expression: str | None = None) -> dict[str, Any]:
        """:data:`PROBE` (or ``expression``) evaluated in the page, its value."""
        res = self.browser.send("Runtime.evaluate",
                                {"expression": expression or PROBE, "returnByValue": True},
                                session=self.session)
        return res["result"]["value"]  # type: ignore[no-any-return]

    def pdf(self, paper_in: tuple[float, float]) -> bytes:
        res = self.browser.send("Page.printToPDF",
                                {"paperWidth": paper_in[0], "paperHeight": paper_in[1]},
                                session=self.session)
        return base64.b64decode(res["data"])


PROBE = r"""(() => {
  const root = document.documentElement, width = root.clientWidth;
  const cut = [];
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    const right = el.getBoundingClientRect().right;
    if (right > width + 0.5) cut.push(el.tagName + ' ends at ' + Math.round(right));
    if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX) &&
        el.scrollWidth > el.clientWidth + 1) cut.push(el.tagName + ' scrolls');
  }
  const visible = document.body.cloneNode(true);   // what people read: ids (code) left out
  visible.querySelectorAll('code').forEach(c => c.remove());
  const alts = Array.from(document.images, i => i.alt);
  const dates = Array.from(document.querySelectorAll('table.dates'), t => ({
    operator: t.previousElementSibling.querySelector('code.id').textContent,
    heads: Array.from(t.tHead.rows[0].cells, c => c.textContent),
    rows: Array.from(t.tBodies[0].rows, r => ({
      ref: r.cells[2].querySelector('code.id').textContent,
      cells: Array.from(r.cells, c => {
        const x = c.cloneNode(true); x.querySelectorAll('code').forEach(k => k.remove());
        return x.textContent.trim(); })}))}));
  const column = name => Array.from(document.querySelectorAll('table'), t => {
    if (!t.tHead) return [];
    const heads = Array.from(t.tHead.rows[0].cells, c => c.textContent);
    const k = heads.indexOf(name);   // a total row (fewer cells, colspan) is no operator's
    return k < 0 ? [] : Array.from(t.tBodies[0].rows)
      .filter(r => r.cells.length === heads.length).map(r => r.cells[k].textContent);
  }).flat();
  const due = document.querySelector('#deadlines-section table');
  const deadlines = due ? {
    heads: Array.from(due.tHead.rows[0].cells, c => c.textContent),
    rows: Array.from(due.tBodies[0].rows, r => Array.from(r.cells, c => {
      const x = c.cloneNode(true); x.querySelectorAll('code').forEach(k => k.remove());
      return x.textContent.trim(); })),
    ids: Array.from(due.tBodies[0].rows, r => Array.from(r.querySelectorAll('code.id'),
                                                         c => c.textContent))} : null;
  return {
    scrollWidth: root.scrollWidth, clientWidth: width, cut: cut.slice(0, 20),
    deadlines: deadlines,
    pre: document.querySelectorAll('pre').length,
    h2: Array.from(document.querySelectorAll('h2'), h => h.id),
    text: (visible.textContent + ' ' + alts.join(' ')).replace(/\s+/g, ' '),
    alts: alts, dates: dates, operators: column('Operator'),
    theads: Array.from(document.querySelectorAll('thead'), h => getComputedStyle(h).display),
    tables: document.querySelectorAll('table').length,
    breaks: Array.from(document.querySelectorAll('section.page'),
                       s => getComputedStyle(s).breakBefore),
  };
})()"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    exe = chromium()
    b = DevTools(exe, tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


# ------------------------------------------------------------------------ the plans
# A Maine Legion post (Jan-Feb 2027): a Saturday game on Sat Jan 9 and Sat Feb 6, and 3
# Sunday games wanted where ME-MONTHLY-LIMIT leaves 2 (2 a month x 2 months = 4 slots, 5
# wanted: one not placed). Long names and titles, to wrap.
POST = "American Legion Post 39, Sebasticook Valley Veterans Memorial Hall and Auxiliary"
MAINE = {
    "name": "American Legion Post 39 - winter 2027",
    "horizon": {"start": "2027-01-01", "end": "2027-02-28"},
    "operators": [me_post(id="post-39", name=POST)],
    "tournaments": [
        me_game(id="saturday", operators=["post-39"], count=2,
                fixed_dates=["2027-01-09", "2027-02-06"],
                title="Saturday No-Limit Texas Hold'em for the Post 39 Scholarship Fund and "
                      "the Veterans Relief Fund"),
        me_game(id="sunday", operators=["post-39"], count=3, weekdays=["sun"], players=48,
                start_time="13:00", hours=8, title="Sunday Afternoon Hold'em"),
    ],
}
# A Montana card room (Jan-Mar 2027): a 3-day large-stakes series from Fri Mar 5, four
# Wednesday small-stakes nights, and one wanted only on its blackout day (not placed).
ROOM = "Yellowstone Poker Room of Billings, Montana (the Rimrock Lounge)"
MONTANA = {
    "name": "Yellowstone Poker Room - first quarter 2027",
    "horizon": {"start": "2027-01-01", "end": "2027-03-31"},
    "operators": [mt_room("billings", name=ROOM, blackout=["2027-02-14"])],
    "tournaments": [
        mt_large("deepstack", ("billings",), fixed_dates=["2027-03-05"], days=3,
                 title="Big Sky Deepstack Series Main Event"),
        mt_large("wednesday", ("billings",), type="small-stakes", count=4, weekdays=["wed"],
                 start_time="19:00", hours=4, title="Wednesday Night Bounty"),
        mt_large("valentine", ("billings",), title="Valentine's Day Heads-Up",
                 window={"start": "2027-02-14", "end": "2027-02-14"}),
    ],
}


def _written(data: dict[str, Any], folder: Path) -> tuple[Plan, Path]:
    plan = run(load(**data))
    return plan, write_plan(plan, folder, report=True)


@pytest.fixture(scope="module")
def maine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Plan, Path]:
    return _written(MAINE, tmp_path_factory.mktemp("maine") / "plan")


@pytest.fixture(scope="module")
def montana(tmp_path_factory: pytest.TempPathFactory) -> tuple[Plan, Path]:
    return _written(MONTANA, tmp_path_factory.mktemp("montana") / "plan")


def _schedule(folder: Path) -> list[dict[str, str]]:
    with (folder / "schedule.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _licence_ids(folder: Path) -> list[str]:
    with (folder / "licenses.csv").open(encoding="utf-8", newline="") as f:
        return [r["license_id"] for r in csv.DictReader(f)]


def _fits(probe: dict[str, Any]) -> None:
    assert probe["scrollWidth"] <= probe["clientWidth"], probe["cut"]
    assert probe["cut"] == []
    assert probe["pre"] == 0  # the summary wraps: no <pre> with a scroll bar


# ------------------------------------------------------------------------ report.html
@pytest.mark.parametrize("mode", list(REPORT_WIDTHS))
@pytest.mark.parametrize("which", ["maine", "montana"])
def test_report_fits_1024_px_and_a4_and_letter_print(
        browser: DevTools, which: str, mode: str, request: pytest.FixtureRequest) -> None:
    _, folder = request.getfixturevalue(which)
    tab = browser.open(folder / "report.html", REPORT_WIDTHS[mode],
                       "screen" if mode == "screen" else "print")
    probe = tab.probe()
    assert probe["clientWidth"] == REPORT_WIDTHS[mode]  # 1024, 702 (A4), 725 (Letter)
    _fits(probe)


PHONE_PROBE = r"""(() => {
  const root = document.documentElement;
  const cells = Array.from(document.querySelectorAll('table.dates td'), td => {
    const r = document.createRange(); r.selectNodeContents(td.firstChild || td);
    return {label: getComputedStyle(td, '::before').content,
            width: td.getBoundingClientRect().width,
            lines: td.firstChild ? new Set(Array.from(r.getClientRects(),
                                                      q => Math.round(q.top))).size : 0,
            text: td.firstChild ? td.firstChild.textContent.trim() : ''};
  });
  const scrolls = Array.from(document.querySelectorAll('table'))
    .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.className || 'table');
  const due = Array.from(document.querySelectorAll('#deadlines-section table.cards td'),
                        td => ({label: getComputedStyle(td, '::before').content,
                                width: td.getBoundingClientRect().width,
                                text: td.textContent.trim()}));
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, cells: cells, due: due,
          scrolls: scrolls, heads: Array.from(document.querySelectorAll('table.dates thead'),
                                              h => getComputedStyle(h).display)};
})()"""


@pytest.mark.parametrize("which", ["maine", "montana"])
def test_report_dates_read_on_a_phone_as_one_card_per_tournament(
        browser: DevTools, which: str, request: pytest.FixtureRequest) -> None:
    _, folder = request.getfixturevalue(which)
    probe = browser.open(folder / "report.html", PHONE, "screen").probe(PHONE_PROBE)
    assert probe["clientWidth"] == PHONE
    assert probe["scrollWidth"] <= PHONE  # the page never scrolls sideways
    assert set(probe["heads"]) == {"none"}  # each value says its column's name instead
    labels = ['"Date: "', '"Day: "', '"Tournament: "', '"Days of play: "', '"Hours: "',
              '"Notice or application due: "', '"Licence or permit: "']
    cells = probe["cells"]
    assert cells and [c["label"] for c in cells[:7]] == labels
    # a card is the phone's width less the page's margins (0.8 em = 12.8 px each side) and
    # the card's borders (1 px each side): 420 - 2 * 12.8 - 2 = 392.4 px
    assert {round(c["width"], 1) for c in cells if c["text"]} == {392.4}
    assert all(c["width"] == 0 for c in cells if not c["text"])  # an empty value not shown
    # dates and weekdays on one line each ("Date: Sat, Jan 9, 2027" would wrap one character
    # a line in a 7-column table 420 px wide)
    assert all(c["lines"] == 1 for c in cells if c["label"] in labels[:2])
    assert "dates cards" not in probe["scrolls"]
    # the deadlines too: one card a line, each value after its column's name, as wide
    due = probe["due"]
    assert [c["label"] for c in due[:7]] == ['"Date: "', '"File by: "', '"Operator: "',
                                             '"What: "', '"Opens: "', '"Rule: "', '"Ids: "']
    assert {round(c["width"], 1) for c in due if c["text"]} == {392.4}
    assert "cards" not in probe["scrolls"]


def test_report_prints_sections_on_new_pages_with_table_headers_repeated(
        browser: DevTools, maine: tuple[Plan, Path]) -> None:
    tab = browser.open(maine[1] / "report.html", REPORT_WIDTHS["A4"], "print")
    probe = tab.probe()
    # every table but the readings' settings has a header row, repeated on each printed page
    assert len(probe["theads"]) == probe["tables"] - 1
    assert set(probe["theads"]) == {"table-header-group"}
    # summary, pictures, deadlines, fees, not placed: each starts a page
    assert probe["breaks"] == ["page"] * 5
    pdf = tab.pdf((A4_IN, 11.69))
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 5


def test_report_opens_with_the_dates_of_every_placed_occurrence(
        browser: DevTools, maine: tuple[Plan, Path], montana: tuple[Plan, Path]) -> None:
    for _, folder in (maine, montana):
        probe = browser.open(folder / "report.html", SCREEN, "screen").probe()
        assert probe["h2"][0] == "dates"  # the first section
        rows = _schedule(folder)
        assert sum(len(t["rows"]) for t in probe["dates"]) == len(rows)
        for table in probe["dates"]:
            mine = [f"{r['tournament_id']}#{r['occurrence']}" for r in rows
                    if r["operator_id"] == table["operator"]]
            assert sorted(r["ref"] for r in table["rows"]) == sorted(mine)
            assert table["heads"] == ["Date", "Day", "Tournament", "Days of play", "Hours",
                                      "Notice or application due", "Licence or permit"]
    # by hand, Maine: saturday#1 on Sat 2027-01-09, noon for 10 h; its per-tournament licence
    # (80 players: tier 51-100) must be received by the 10th Maine business day before:
    # Jan 8, 7, 6, 5, 4 (5), [Fri Jan 1 New Year's Day], Dec 31, 30, 29, 28 (9), [Fri Dec 25
    # Christmas], Thu Dec 24 (10); its window opens 90 days before (Oct 11), but not before
    # notice_from 2026-12-01.
    me = browser.open(maine[1] / "report.html", SCREEN, "screen").probe()
    (post,) = me["dates"]
    assert post["operator"] == "post-39"
    first = next(r["cells"] for r in post["rows"] if r["ref"] == "saturday#1")
    assert first == ["Jan 9, 2027", "Saturday", "Saturday No-Limit Texas Hold'em for the Post "
                     "39 Scholarship Fund and the Veterans Relief Fund", "Jan 9, 2027",
                     "12:00–22:00", "application received Dec 1, 2026 to Thu, Dec 24, 2026",
                     "per-tournament licence (51–100 players) for Jan 9, 2027"]
    # by hand, Montana: deepstack#1 Fri 2027-03-05 for 3 days (to Sun Mar 7); MT-NOTICE 5
    # days before: Sun 2027-02-28; its permit: the large-stakes permit of the permit year
    # Jul 1, 2026 - Jun 30, 2027 (none held before the plan)
    mt = browser.open(montana[1] / "report.html", SCREEN, "screen").probe()
    (room,) = mt["dates"]
    deep = next(r["cells"] for r in room["rows"] if r["ref"] == "deepstack#1")
    assert deep[:4] == ["Mar 5, 2027", "Friday", "Big Sky Deepstack Series Main Event",
                        "Mar 5–7, 2027"]
    # Sun Feb 28: the office is closed; the working day before it is Fri Feb 26
    assert deep[5:] == ["notify the Gambling Control Division by Sun, Feb 28, 2027 (office "
                        "closed: file by Fri, Feb 26, 2027)",
                        "large-stakes permit for the permit year from Jul 1, 2026"]


MT_RULE = re.compile(r"\bMT-[A-Z]+(?:-[A-Z]+)*")
ME_RULE = re.compile(r"\bME-[A-Z]+(?:-[A-Z]+)*")


def test_a_maine_only_report_names_no_montana_rule(
        browser: DevTools, maine: tuple[Plan, Path]) -> None:
    probe = browser.open(maine[1] / "report.html", SCREEN, "screen").probe()
    text = probe["text"]
    assert MT_RULE.findall(text) == []
    assert "Montana" not in text and "permit year" not in text
    assert "ME-MONTHLY-LIMIT" in text and "month_rule" in text
    # the limits chart: Maine's limit only
    assert "Maine games counted against ME-MONTHLY-LIMIT (2 per month)" in probe["alts"]


def test_a_montana_only_report_names_no_maine_rule_or_reading(
        browser: DevTools, montana: tuple[Plan, Path]) -> None:
    probe = browser.open(montana[1] / "report.html", SCREEN, "screen").probe()
    text = probe["text"]
    assert ME_RULE.findall(text) == []
    for word in ("month_rule", "tier_coverage", "surcharge_cap", "super_cribbage", "Maine",
                 "17 M.R.S."):
        assert word not in text, word
    assert "permit_year_count" in text and "MT-LARGE-LIMIT" in text
    assert ("Counted tournaments against MT-LARGE-LIMIT (16 per permit year; charitable ones "
            "beyond the first 3 hatched) and charitable ones not counted (MT-CHARITY-LIMIT, "
            "the first 3)") in probe["alts"]


def test_report_shows_names_and_licences_in_words_not_ids(
        browser: DevTools, maine: tuple[Plan, Path], montana: tuple[Plan, Path]) -> None:
    for (_, folder), name in ((maine, POST), (montana, ROOM)):
        probe = browser.open(folder / "report.html", SCREEN, "screen").probe()
        ids = _licence_ids(folder)
        assert ids  # each plan buys licences or permits
        for lid in ids:  # only in <code> beside the licence's words, for the commands
            assert lid not in probe["text"], lid
        # every Operator cell (licences, deadlines) holds the operator's name
        assert probe["operators"] and set(probe["operators"]) == {name}
    text = browser.open(maine[1] / "report.html", SCREEN, "screen").probe()["text"]
    assert "Maine per-tournament licence (51–100 players) for Jan 9, 2027" in text
    assert "Apply for the Maine per-tournament licence (1–50 players) for Jan 3, 2027" in text
    text = browser.open(montana[1] / "report.html", SCREEN, "screen").probe()["text"]
    assert "Montana small-stakes permit for the permit year from Jul 1, 2026" in text
    assert ("Notify the Montana Gambling Control Division of Big Sky Deepstack Series Main "
            "Event") in text


def test_report_deadlines_say_when_the_office_is_closed(
        browser: DevTools, montana: tuple[Plan, Path], maine: tuple[Plan, Path]) -> None:
    # deadlines.csv's columns, in its order (rule with its citation, the ids in one cell)
    mt = browser.open(montana[1] / "report.html", SCREEN, "screen").probe()["deadlines"]
    assert mt["heads"] == ["Date", "File by", "Operator", "What", "Opens", "Rule", "Ids"]
    with (montana[1] / "deadlines.csv").open(encoding="utf-8", newline="") as f:
        lines = list(csv.DictReader(f))
    assert [r[3] for r in mt["rows"]] == [x["what"] for x in lines]  # the same words
    # by hand: deepstack#1 Fri 2027-03-05 - 5 days = Sun 2027-02-28 (closed): file by Fri
    # Feb 26. The small-stakes permit: the day before the first Wednesday night, a Tuesday
    # (no Tuesday is a Montana holiday in Jan-Mar 2027: open, File by blank)
    notice = next(r for r in mt["rows"] if "Big Sky Deepstack" in r[3])
    assert notice[:3] == ["Sun, Feb 28, 2027", "Fri, Feb 26, 2027", ROOM]
    assert notice[3].endswith("; due Sun, Feb 28, 2027 — the office is closed (a Sunday): "
                              "file by Fri, Feb 26, 2027")
    assert notice[5] == "MT-NOTICE, MCA 23-5-317(1)(d)"
    permit = next(r for r in mt["rows"] if "small-stakes permit" in r[3])
    assert permit[0].startswith("Tue, ") and permit[1] == "" and "closed" not in permit[3]
    # Maine's deadlines are counted in Maine business days: never on a closed day
    me = browser.open(maine[1] / "report.html", SCREEN, "screen").probe()["deadlines"]
    assert me["rows"] and all(r[1] == "" and "closed" not in r[3] for r in me["rows"])
    assert all(len(ids) >= 2 for ids in me["ids"])  # operator and licence, for commands


# ------------------------------------------------------------------------- funds.html
def _funds_page(folder: Path, name: str | None) -> Path:
    """funds.html of the plan of tests/test_ledger_funds.py (holdem#1 held Sat 2027-01-16,
    crib#1 held 2027-02-20..21) in a SQLite ledger made with ``init --name name``: the
    periods of January and February 2027 (annual: Jan 9-31, Feb 1-28; super cribbage:
    Feb 20-21)."""
    ledger = Ledger(folder / "ledger.sqlite")
    try:
        api.init(ledger, name)
        api.adopt(ledger, write_me_plan(folder / "plan"), by="ann")
        api.record_held(ledger, "holdem#1", first_day=dt.date(2027, 1, 16),
                        last_day=dt.date(2027, 1, 16), players=80, entries=80,
                        entry_fees_usd="8000", prizes_usd="6400", charity_usd="1000",
                        by="ann", today=TODAY)
        api.record_held(ledger, "crib#1", first_day=dt.date(2027, 2, 20),
                        last_day=dt.date(2027, 2, 21), players=120, entries=120,
                        entry_fees_usd="12000", prizes_usd="9000", charity_usd="1400",
                        by="ann", today=TODAY)
        periods = funds(ledger, period="2027-01") + funds(ledger, period="2027-02")
    finally:
        ledger.dispose()
    page = folder / "funds.html"
    page.write_text(funds_html(periods), encoding="utf-8")
    return page


def test_funds_page_fits_and_prints_one_page_per_period_with_names_in_words(
        browser: DevTools, tmp_path: Path) -> None:
    page = _funds_page(tmp_path, "American Legion Post 1")
    for mode, width in FUNDS_WIDTHS.items():  # 1024, 678 (A4), 700 (Letter)
        probe = browser.open(page, width, "screen" if mode == "screen" else "print").probe()
        _fits(probe)
    text = probe["text"]
    # three periods: annual Jan 9-31 and Feb 1-28, super cribbage Feb 20-21
    assert text.count("Disposition of funds: ") == 3
    assert ("Disposition of funds: Maine annual licence (51–100 players) from Jan 9, 2027 "
            "American Legion Post 1") in text
    assert "Disposition of funds: Maine super cribbage licence for Feb 20–21, 2027" in text
    assert "Licensed period Jan 9–31, 2027" in text and "Hold'em" in text
    for lid in (ANNUAL, CRIB):  # only in the tourney record report command (<code>)
        assert lid not in text
    assert "default" not in text
    tab = browser.open(page, FUNDS_WIDTHS["Letter"], "print")
    pdf = tab.pdf((LETTER_IN, 11.0))
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 3  # one printed page a period


def test_funds_page_of_an_unnamed_organization_never_says_default(
        browser: DevTools, tmp_path: Path) -> None:
    # init without --name: the organization is kept as the key "default", not a name
    page = _funds_page(tmp_path, None)
    probe = browser.open(page, SCREEN, "screen").probe()
    _fits(probe)
    assert "default" not in probe["text"]
    assert "Operator post-1; licence" not in probe["text"]  # no agency number recorded
    assert "Operator post-1." in probe["text"]
