"""The pictures of a plan (scheduler/export/figures.py: plot_*(plan)): what each figure draws,
checked against facts worked out by hand for two tiny scenarios.

MT: room-a held 9 large-stakes and 1 charitable tournament before 2027-01-01 (permit year
2026-07-01); it holds ``big`` on Fri 2027-03-05 and Fri 2027-08-06 and a 3-day charitable
``charity`` Fri 2027-04-30 .. Sun 2027-05-02; blackouts 2027-07-04 and 2027-12-24..26.

ME: post holds a tournament game ``g`` on Sun 2027-01-31 (20:00 for 10 h: also Feb 1), Sat
2027-03-06, Sat 2027-03-13 and Sat 2027-04-03; beano every Tuesday 18:00-22:00.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from typing import Any

import pytest
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from scheduler.export import figures
from scheduler.export.figures import plot_calendar, plot_fees, plot_usage
from scheduler.result.plan import Plan

from builders.scenarios import (
    load,
    mt_large,
    mt_room,
    run,
    year_of_a_post,
    year_of_a_room,
)


@pytest.fixture(scope="module")
def mt_plan() -> Plan:
    return year_of_a_room(held_in_current_permit_year={"large_stakes": 9, "charitable": 1})


@pytest.fixture(scope="module")
def me_plan() -> Plan:
    return year_of_a_post()


def _gids(fig: Any, prefix: str) -> dict[str, Any]:
    return {a.get_gid(): a for a in fig.axes[0].get_children()
            if isinstance(a.get_gid(), str) and a.get_gid().startswith(prefix)}


def _bars(fig: Any, prefix: str) -> dict[str, float]:
    return {a.get_gid(): a.get_height() for ax in fig.axes for a in ax.patches
            if isinstance(a.get_gid(), str) and a.get_gid().startswith(prefix)}


def test_mt_calendar_bars_blackouts_and_notices(mt_plan: Plan) -> None:
    fig = plot_calendar(mt_plan, "room-a")
    ax = fig.axes[0]
    # rows: the 12 months of 2027, January on top
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        f"{dt.date(2027, m, 1):%b} 2027" for m in range(1, 13)]
    bars = _gids(fig, "tournament:")
    # one bar per occurrence and month: charity Apr 30 .. May 2 is split at the month end
    assert sorted(bars) == ["tournament:big#1:2027-03", "tournament:big#2:2027-08",
                            "tournament:charity#1:2027-04", "tournament:charity#1:2027-05"]
    apr, may = bars["tournament:charity#1:2027-04"], bars["tournament:charity#1:2027-05"]
    # Apr 30: x from 30 (+0.06 inset), 1 day wide (-0.12); May 1-2: x from 1, 2 days wide
    assert (apr.get_x(), apr.get_width()) == pytest.approx((30.06, 0.88))
    assert (may.get_x(), may.get_width()) == pytest.approx((1.06, 1.88))
    # month rows 0..11: April is row 3, May row 4 (bars sit 0.3 below the row's top)
    assert (apr.get_y(), may.get_y()) == pytest.approx((3.3, 4.3))
    colour = {gid: bar.get_facecolor()[:3] for gid, bar in bars.items()}
    assert colour["tournament:big#1:2027-03"] != colour["tournament:charity#1:2027-04"]
    # blackouts: 2027-07-04 and Dec 24, 25, 26 -> 4 hatched cells
    blackouts = _gids(fig, "blackout:")
    assert sorted(blackouts) == ["blackout:2027-07-04", "blackout:2027-12-24",
                                 "blackout:2027-12-25", "blackout:2027-12-26"]
    assert all(p.get_hatch() == "//" for p in blackouts.values())
    assert _gids(fig, "other-game:") == {}
    # MT-NOTICE: first day - 5 days: Mar 5 -> Feb 28, Apr 30 -> Apr 25, Aug 6 -> Aug 1
    notices = _gids(fig, "notice-due:")
    assert sorted(notices) == ["notice-due:2027-02-28", "notice-due:2027-04-25",
                               "notice-due:2027-08-01"]
    feb28 = notices["notice-due:2027-02-28"]
    assert isinstance(feb28, Line2D)
    # day 28 -> x 28.5 (mid-cell), February -> row 1, marker 0.17 below the row's top
    assert (feb28.get_xdata()[0], feb28.get_ydata()[0]) == pytest.approx((28.5, 1.17))
    # days that do not exist: Feb 29, 30, 31 and the 31st of Apr, Jun, Sep, Nov -> 7 cells
    grey = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_gid() is None
            and p.get_facecolor()[:3] == pytest.approx((0.902, 0.902, 0.902), abs=1e-3)]
    assert len(grey) == 7
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["MT large-stakes", "MT charitable large-stakes", "blackout",
                      "MT notice due"]


def test_me_calendar_other_games_and_application_deadlines(me_plan: Plan) -> None:
    fig = plot_calendar(me_plan, "post")
    bars = _gids(fig, "tournament:")
    # late#1 Sun Jan 31 20:00 + 10 h ends Mon Feb 1 06:00: a bar in January and in February
    assert sorted(bars) == ["tournament:g#1:2027-03", "tournament:g#2:2027-03",
                            "tournament:g#3:2027-04", "tournament:late#1:2027-01",
                            "tournament:late#1:2027-02"]
    # beano every Tuesday of 2027: Jan 5 + 7 x 51 = Dec 28 -> 52 hatched days
    other = _gids(fig, "other-game:")
    assert len(other) == 52
    assert "other-game:2027-01-05" in other and "other-game:2027-12-28" in other
    assert all(p.get_hatch() == "\\\\" for p in other.values())
    # ME-APPLICATION-WINDOW: 10 Maine business days before the first day, one per-tournament
    # licence each (tier 51-100: $75 x 2 = $150 < $200 monthly in March):
    #   Sun Jan 31: Jan 29 28 27 26 25 22 21 20 19 (Jan 18 MLK Day skipped) 15 -> Jan 15
    #   Sat Mar 6: Mar 5 4 3 2 1, Feb 26 25 24 23 22 -> Feb 22
    #   Sat Mar 13: Mar 12 11 10 9 8 5 4 3 2 1 -> Mar 1
    #   Sat Apr 3: Apr 2 1, Mar 31 30 29 26 25 24 23 22 -> Mar 22
    assert sorted(_gids(fig, "application-due:")) == [
        "application-due:2027-01-15", "application-due:2027-02-22", "application-due:2027-03-01",
        "application-due:2027-03-22"]
    assert _gids(fig, "notice-due:") == {}
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["ME tournament game", "other games of chance", "ME application due"]


def test_deadlines_before_the_horizon_are_listed_under_the_picture() -> None:
    # big on Mon 2027-01-04: notice due Dec 30 2026, before the horizon -> no marker, a note
    plan = run(load(operators=[mt_room()], tournaments=[
        mt_large("big", fixed_dates=["2027-01-04"])]))
    fig = plot_calendar(plan, "room-a")
    assert _gids(fig, "notice-due:") == {}
    assert fig.axes[0].get_xlabel() == ("1 notice deadline(s) fall before the horizon "
                                        "(the first on 2026-12-30)")


def test_calendar_of_an_unknown_operator_says_which_exist(mt_plan: Plan) -> None:
    with pytest.raises(ValueError, match="unknown operator 'room-z'.*room-a"):
        plot_calendar(mt_plan, "room-z")


def test_mt_usage_bars_are_the_counts_per_permit_year(mt_plan: Plan) -> None:
    fig = plot_usage(mt_plan)
    # permit year 2026-07-01: large 9 held + big#1 (Mar 5) = 10; charitable 1 held +
    # charity#1 (Apr 30) = 2. Permit year 2027-07-01: large big#2 (Aug 6) = 1; charitable 0.
    assert _bars(fig, "usage:") == {
        "usage:MT-LARGE-LIMIT:room-a:2026-07-01": 10,
        "usage:MT-LARGE-LIMIT:room-a:2027-07-01": 1,
        "usage:MT-CHARITY-LIMIT:room-a:2026-07-01": 2,
        "usage:MT-CHARITY-LIMIT:room-a:2027-07-01": 0,
    }
    limits = [line.get_ydata()[0] for ax in fig.axes for line in ax.get_lines()
              if str(line.get_gid()).startswith("limit:")]
    assert limits == [16, 3]
    assert [ax.get_title() for ax in fig.axes] == [
        "MT-LARGE-LIMIT: counted large-stakes per permit year (limit 16)",
        "MT-CHARITY-LIMIT: charitable not counted per permit year (first 3)"]
    assert _bars(fig, "usage-charitable:") == {}  # no charitable one beyond the first 3


def test_me_usage_bars_count_every_month_touched(me_plan: Plan) -> None:
    fig = plot_usage(me_plan)
    bars = _bars(fig, "usage:ME-MONTHLY-LIMIT:post:")
    # month_rule touch: late#1 counts in Jan and Feb; g#1, g#2 in March; g#3 in April
    expected = {1: 1, 2: 1, 3: 2, 4: 1}
    assert bars == {f"usage:ME-MONTHLY-LIMIT:post:2027-{m:02d}": expected.get(m, 0)
                    for m in range(1, 13)}
    limits = [line.get_ydata()[0] for line in fig.axes[0].get_lines()]
    assert limits == [2]


def test_usage_without_counted_limits_says_so() -> None:
    plan = run(load(operators=[mt_room()], tournaments=[]))
    # an MT operator always has its current permit year (0 of 16, 0 of 3)
    assert set(_bars(plot_usage(plan), "usage:").values()) == {0}
    pub = {"id": "pub", "name": "Pub", "jurisdiction": "ME",
           "licensed_establishment": "restaurant"}
    plan = run(load(operators=[pub], tournaments=[]))
    fig = plot_usage(plan)
    assert [t.get_text() for t in fig.axes[0].texts] == ["No counted limits in this plan"]


def test_fees_by_kind(mt_plan: Plan, me_plan: Plan) -> None:
    # MT: the 2026-07-01 permit is already bought (9 held); 2027-07-01 needs one: $120
    assert _bars(plot_fees(mt_plan), "fees:") == {"fees:mt-large-stakes-permit": 120}
    # ME: four per-tournament licences of tier 51-100 at $75: $300
    fig = plot_fees(me_plan)
    assert _bars(fig, "fees:") == {"fees:me-per-tournament": 300}
    assert [t.get_text() for t in fig.axes[0].texts] == [r"\$300 (4)"]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["ME per-tournament"]


def test_user_text_with_dollars_is_not_read_as_math() -> None:
    plan = run(load(name="$5 $10", operators=[mt_room(name="The $2 $5 Room")],
                    tournaments=[mt_large("big", fixed_dates=["2027-03-05"])]))
    fig = plot_calendar(plan, "room-a")
    assert fig.axes[0].get_title().startswith(r"The \$2 \$5 Room (room-a, MT)")
    assert figures.png_bytes(fig).startswith(b"\x89PNG")  # mathtext would raise here


def test_png_is_reproducible_and_carries_no_software_or_date(mt_plan: Plan) -> None:
    one = figures.png_bytes(plot_calendar(mt_plan, "room-a"))
    two = figures.png_bytes(plot_calendar(mt_plan, "room-a"))
    assert one == two
    assert b"matplotlib" not in one.lower() and b"Software" not in one
    assert b"tIME" not in one


def test_matplotlib_is_imported_only_when_plotting() -> None:
    code = ("import sys, scheduler.cli, scheduler.result.plan, scheduler.export.figures, "
            "scheduler.export.report, scheduler.export.write; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
