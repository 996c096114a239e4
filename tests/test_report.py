"""report.html (scheduler/export/report.py, ``tourney solve --report``): one self-contained,
deterministic page; opened in headless Chromium, every figure is a non-blank image.

The Chromium test skips when /usr/bin/chromium (Debian package ``chromium``) is missing,
unless TOURNEY_REQUIRE_CHROMIUM=1 (CI sets it): then it fails.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.report import NOT_LEGAL_ADVICE, report_html
from scheduler.export.write import write_plan
from scheduler.result.plan import Plan
from scheduler.result.publishing import with_replaced

from builders.commands import chromium
from builders.scenarios import load, me_game, me_post, mt_large, mt_room, run, scenario

# room-a: big on Fri 2027-03-05 (placed) and one wanted only on the blackout day 2027-07-04
# (not placed: BLACKOUT); post: a tournament game on Sat 2027-03-06.
DATA = scenario(
    name="Report <test> & \"friends\"",
    notice_from="2026-11-01",
    operators=[mt_room(name="Room <A> & Co", blackout=["2027-07-04"]), me_post()],
    tournaments=[
        mt_large("big", title="Big <Game>", fixed_dates=["2027-03-05"]),
        mt_large("july", title="July Fourth", window={"start": "2027-07-04",
                                                      "end": "2027-07-04"}),
        me_game(fixed_dates=["2027-03-06"]),
    ],
)


@pytest.fixture(scope="module")
def plan() -> Plan:
    return run(load(**{k: v for k, v in DATA.items()}))


class _Text(HTMLParser):
    """The visible text of a page (script and style left out) and its <img> sources."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.imgs: list[dict[str, str | None]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "img":
            self.imgs.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def _parse(page: str) -> _Text:
    p = _Text()
    p.feed(page)
    return p


def _plain(page: str) -> str:
    return re.sub(r"\s+", " ", " ".join(_parse(page).text))


def test_report_holds_every_section_with_the_plan_facts(plan: Plan) -> None:
    page = report_html(plan)
    text = _plain(page)
    for heading in ("Summary", "Limits used", "Fees by licence kind",
                    "The year, operator by operator", "Licences and permits to buy",
                    "Not placed", "Readings used", "Not legal advice"):
        assert heading in text
    # summary: big#1 and g#1 placed, july#1 not; fees: MT large-stakes permit for 2026-07-01
    # (nothing held before) $120 + ME per-tournament licence, 80 players = tier 51-100, $75
    # -> $195
    assert "Occurrences placed 2" in text and "Occurrences not placed 1" in text
    assert "Fees (USD) $195" in text
    # licences: their periods, fees and what they cover
    assert ("Montana large-stakes permit for the permit year from Jul 1, 2026 "
            "room-a/large-stakes-permit/2026-07-01 Room <A> & Co Jul 1, 2026 – Jun 30, 2027 "
            "$120") in text
    assert "Big <Game> on Fri, Mar 5, 2027" in text
    assert "MT-PERMIT-FEES" in text and "ME-FEES" in text
    # ME application due for Sat 2027-03-06: 10 Maine business days before -> Mon 2027-02-22
    assert "$75 Mon, Feb 22, 2027 Hold'em on Sat, Mar 6, 2027" in text
    # unscheduled with its reason and rule IDs
    assert "July Fourth july#1 Room <A> & Co no" in text and "BLACKOUT" in text
    # readings and the note
    assert "month_rule touch" in text and "notice_from 2026-11-01" in text
    assert NOT_LEGAL_ADVICE in text
    # each operator's year as a table (titled as its calendar picture), then the usage and
    # fees figures, each with an alt text
    assert page.count('<table class="year"') == 2
    assert "The year of Room <A> & Co" in text and "The year of Legion Post 1" in text
    assert "Room <A> & Co (room-a, MT): 1 occurrence(s), Jan 2027 to Dec 2027" in text
    imgs = _parse(page).imgs
    assert len(imgs) == 2
    assert imgs[1]["alt"] == "Licence and permit fees by kind (USD)"


def test_report_is_self_contained_and_escapes_user_text(plan: Plan) -> None:
    page = report_html(plan)
    assert "http" not in page and "url(" not in page and "<script" not in page
    assert "<link" not in page and "@import" not in page
    assert all(i["src"].startswith("data:image/png;base64,") for i in _parse(page).imgs)
    assert "<A>" not in page and "<Game>" not in page and "<test>" not in page
    assert "Room &lt;A&gt; &amp; Co" in page
    assert "Report &lt;test&gt; &amp; &#34;friends&#34;" in page


def test_same_plan_gives_the_same_bytes(plan: Plan) -> None:
    again = run(load(**DATA))
    assert report_html(plan) == report_html(plan) == report_html(again)


def test_figures_drawn_by_forked_workers_give_the_same_bytes(plan: Plan) -> None:
    # jobs=2: the 2 x 2 figures (usage, fees) of a plan beside itself drawn by two forked
    # processes
    one = report_html(plan, [plan])
    assert report_html(plan, [plan], jobs=2) == one
    assert len(_parse(one).imgs) == 4


def test_alternatives_are_shown_side_by_side(plan: Plan) -> None:
    page = report_html(plan, [plan])
    text = _plain(page)
    assert "Plan 1 (best)" in text and "Alternative 2" in text
    # every figure row holds one picture per plan (usage, fees), every operator's year one
    # table per plan, each captioned with its plan
    assert len(_parse(page).imgs) == 2 * 2
    assert page.count('<table class="year"') == 2 * 2
    assert "Alternative 2: The year of Legion Post 1" in text
    other = run(load(**{**DATA, "name": "another"}))
    with pytest.raises(ValueError, match="same scenario"):
        report_html(plan, [other])


def test_write_plan_adds_report_html_only_when_asked(plan: Plan, tmp_path: Path) -> None:
    out = tmp_path / "plan"
    write_plan(plan, out, report=True)
    assert (out / "report.html").read_text(encoding="utf-8") == report_html(plan)
    # a folder holding a report is a plan folder: replaced whole (by a plan made to replace
    # it, as solve(..., replacing=out) makes it)
    write_plan(with_replaced(plan, out), out)
    assert not (out / "report.html").exists()


def test_cli_report_option(tmp_path: Path) -> None:
    src = tmp_path / "s.yaml"
    src.write_text(yaml.safe_dump(DATA), encoding="utf-8")
    out = tmp_path / "plan"
    res = CliRunner().invoke(app, ["solve", str(src), "--out", str(out), "--report"])
    assert res.exit_code == 0, res.output
    assert "report.html" in res.output
    assert "Readings used" in (out / "report.html").read_text(encoding="utf-8")


# ------------------------------------------------------------------------ headless Chromium
_CHECK = """
<pre id="tourney-check">pending</pre>
<pre id="tourney-years">pending</pre>
<img id="blank-probe" alt="probe" src="data:image/png;base64,%s">
<script>
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('img').forEach(function (img) {
    var c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    var g = c.getContext('2d');
    var ink = 0, colours = {};
    if (c.width && c.height) {
      g.drawImage(img, 0, 0);
      var d = g.getImageData(0, 0, c.width, c.height).data;
      for (var i = 0; i < d.length; i += 4) {
        if (d[i + 3] > 0 && (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)) { ink++; }
        colours[d[i] + ',' + d[i + 1] + ',' + d[i + 2]] = 1;
      }
    }
    out.push({alt: img.alt, width: c.width, height: c.height, ink: ink,
              colours: Object.keys(colours).length});
  });
  document.getElementById('tourney-check').textContent = JSON.stringify(out);
  var years = [];
  document.querySelectorAll('table.year').forEach(function (t) {
    var bars = 0;
    t.querySelectorAll('i[class]').forEach(function (i) {
      var bg = getComputedStyle(i).backgroundColor;
      if (i.offsetWidth > 0 && i.offsetHeight > 0 && bg !== 'rgba(0, 0, 0, 0)') { bars++; }
    });
    var hatched = 0;
    t.querySelectorAll('td.blackout, td.other-game').forEach(function (td) {
      if (getComputedStyle(td).backgroundImage.indexOf('gradient') >= 0) { hatched++; }
    });
    years.push({width: t.offsetWidth, height: t.offsetHeight, rows: t.tBodies[0].rows.length,
                bars: bars, hatched: hatched});
  });
  document.getElementById('tourney-years').textContent = JSON.stringify(years);
});
</script>
"""


def _white_png() -> str:
    """A 4 x 4 all-white PNG (base64), to prove the check tells a blank image."""
    import base64
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(0.04, 0.04), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")




def test_report_renders_in_headless_chromium(plan: Plan, tmp_path: Path) -> None:
    browser = chromium()
    out = write_plan(plan, tmp_path / "plan", report=True)
    page = (out / "report.html").read_text(encoding="utf-8")
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", (_CHECK % _white_png()) + "</body>"),
                     encoding="utf-8")
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()]
    res = subprocess.run(args, capture_output=True, text=True, timeout=180,
                         env={**os.environ, "HOME": str(tmp_path)})
    assert res.returncode == 0, res.stderr[-2000:]
    dom = res.stdout
    text = _plain(dom)
    assert "Report <test> & \"friends\"" in text
    assert "Licences and permits to buy" in text and NOT_LEGAL_ADVICE in text
    assert "Big <Game> on Fri, Mar 5, 2027" in text
    found = re.search(r'<pre id="tourney-check">(.*?)</pre>', dom, re.S)
    assert found is not None
    checks: list[dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    *figs, blank = checks
    # the probe: drawn, but white only -> no ink, one colour
    assert (blank["alt"], blank["ink"], blank["colours"]) == ("probe", 0, 1)
    # the report's 2 figures: usage, fees; each decoded, with ink (non-white pixels) and
    # more than the 2 colours of a bare frame
    assert [f["alt"] for f in figs][1:] == ["Licence and permit fees by kind (USD)"]
    for f in figs:
        assert f["width"] > 100 and f["height"] > 100, f
        assert f["ink"] > 0.01 * f["width"] * f["height"], f
        assert f["colours"] > 2, f
    # the years, laid out: 12 month rows each; room-a: big on Mar 5 (one bar piece, its
    # colour), the blackout Jul 4 hatched; post: its game on Mar 6, 52 Tuesdays of beano
    found = re.search(r'<pre id="tourney-years">(.*?)</pre>', dom, re.S)
    assert found is not None
    years: list[dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    assert [(y["rows"], y["bars"], y["hatched"]) for y in years] == [(12, 1, 1), (12, 1, 52)]
    assert all(y["width"] >= 500 and y["height"] >= 200 for y in years), years


def test_missing_chromium_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(os.path, "exists", lambda path: False)
    monkeypatch.delenv("TOURNEY_REQUIRE_CHROMIUM", raising=False)
    with pytest.raises(pytest.skip.Exception):
        chromium()
    monkeypatch.setenv("TOURNEY_REQUIRE_CHROMIUM", "1")
    with pytest.raises(pytest.fail.Exception, match="TOURNEY_REQUIRE_CHROMIUM=1"):
        chromium()


def test_alternatives_list_the_first_days_that_differ() -> None:
    # One 1-day tournament in Mon 2027-03-01 .. Wed 03-03: the best plan takes Mar 1, the
    # next Mar 2; the report lists the change: only in the best plan 2027-03-01, only in
    # alternative 2 2027-03-02 (in words: Mar 1, 2027 and Mar 2, 2027).
    from scheduler.engine.solver import solve_alternatives
    from scheduler.inputs.load import load_scenario

    sc = load_scenario({
        "name": "alt", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
        "notice_from": "2027-02-01",
        "operators": [{"id": "a", "name": "A", "jurisdiction": "MT", "live_tables": 1}],
        "tournaments": [{"id": "open", "title": "Open", "type": "large-stakes",
                         "operators": ["a"], "start_time": "12:00", "hours": 10,
                         "window": {"start": "2027-03-01", "end": "2027-03-03"}}]})
    best, second = solve_alternatives(sc, 2, seed=0)
    text = _plain(report_html(best, [second]))
    assert "First days that differ from the best plan" in text
    assert "Alternative 2 Open open Mar 1, 2027 Mar 2, 2027" in " ".join(text.split())
    assert "First days that differ" not in _plain(report_html(best))


def test_licence_notes_name_only_the_plans_jurisdictions(plan: Plan) -> None:
    # the combined plan buys a Montana permit and a Maine licence: both notes; a Montana-only
    # plan (one large-stakes tournament, its $120 permit) says nothing of Maine applications
    both = report_html(plan)
    assert "Apply by: the last day a Maine application" in both
    assert "Montana notices are due 5 days" in both
    mt_only = run(load(notice_from="2026-11-01", operators=[mt_room()],
                       tournaments=[mt_large("big", fixed_dates=["2027-03-05"])]))
    assert [lic.fee_usd for lic in mt_only.license_list] == [120]
    html_mt = report_html(mt_only)
    assert "Maine application" not in html_mt
    assert "Montana notices are due 5 days" in html_mt
