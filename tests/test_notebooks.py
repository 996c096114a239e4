"""The analyst notebooks in ``notebooks/``: committed without outputs, and each runs top to
bottom on the bundled examples (``data/examples``) in a kernel of this test's own Python.

Each notebook runs in a temporary copy of the repository's layout (``notebooks/`` beside
``data/examples``, as Jupyter runs it from its own folder), so nothing it writes lands in the
work tree. A probe cell appended to the in-memory copy prints the values the tests check as JSON;
a cell that raises fails the test (nbclient's ``CellExecutionError``, with the cell and its
traceback).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "python3"


def test_the_three_notebooks_are_there() -> None:
    assert {p.stem for p in NOTEBOOKS} >= {
        "01_plan_a_year", "02_licence_what_if", "03_rules_study", "04_the_year_so_far"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == KERNEL
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    for cell in code:
        assert cell.outputs == [], cell.source
        assert cell.execution_count is None, cell.source
        assert "execution" not in cell.metadata, cell.source   # JupyterLab's timings


@pytest.fixture(scope="module")
def kernel_home(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A ``python3`` kernelspec that starts this interpreter (the project's venv), found first
    (``JUPYTER_PATH`` comes before the user's and the system's kernelspecs), and an
    IPython profile folder of its own."""
    home = tmp_path_factory.mktemp("jupyter")
    spec = home / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "tourney (tests)", "language": "python"}), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(home))
        mp.setenv("IPYTHONDIR", str(home / "ipython"))
        yield home


def run(name: str, probe: str, tmp_path: Path) -> dict[str, Any]:
    """Execute ``notebooks/<name>.ipynb`` with ``probe`` (code that sets ``result``, a
    JSON-able dict) appended; return ``result``, with the kernel's ``sys.executable``."""
    (tmp_path / "notebooks").mkdir()
    shutil.copytree(ROOT / "data" / "examples", tmp_path / "data" / "examples")
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "import json, sys\n" + probe +
        "\nresult['executable'] = sys.executable\nprint(json.dumps(result, default=str))"))
    NotebookClient(nb, kernel_name=KERNEL, timeout=300, allow_errors=False,
                   resources={"metadata": {"path": str(tmp_path / "notebooks")}}).execute()
    out = nb.cells[-1].outputs
    # standard output only (no error, nothing on stderr); the kernel may send the one
    # printed line in several pieces, as its output buffer is flushed
    assert out and all(o.output_type == "stream" and o.name == "stdout" for o in out), out
    result: dict[str, Any] = json.loads("".join(o.text for o in out))
    assert Path(result.pop("executable")).resolve() == Path(sys.executable).resolve()
    return result


def test_01_plan_a_year(kernel_home: Path, tmp_path: Path) -> None:
    r = run("01_plan_a_year", """result = {
        "status": plan.status, "fees": plan.total_fees_usd, "files": files,
        "unscheduled": [f"{u.tournament_id}#{u.occurrence}" for u in plan.unscheduled_list],
        "csv_rows": len(schedule_csv), "schedule_rows": len(schedule),
        "export_left": export.exists()}""", tmp_path)
    assert r["status"] == "OPTIMAL"
    # 3 MT rooms x ($500 small-stakes permit x 2 permit years + $120 large-stakes permit for
    # 2027-28; 2026-27's was bought with the events held before January) = 3,360
    # + Post 88 $1,500 annual (51-100) + $400 championship (151-200) = 1,900
    # + Sheepscot 6 x $75 = 450 + super cribbage 3 x $75 = 225  ->  5,935
    assert r["fees"] == 3 * (2 * 500 + 120) + 1500 + 400 + 6 * 75 + 3 * 75 == 5935
    # Hellgate: 12 held + 4 monthlies (Jan-Apr) = 16 by June 30 (MT-LARGE-LIMIT), none in May
    # or June, 6 from July (28-day gap): 10 of 12 monthlies;
    # Post 88: 12 months x 2 = 24 games, one of them the October championship (ME-MONTHLY-LIMIT)
    assert r["unscheduled"] == ["hellgate-monthly#11", "hellgate-monthly#12",
                                "post-88-holdem#24"]
    assert {"schedule.csv", "licenses.csv", "unscheduled.csv", "summary.txt", "calendar.ics",
            "calendars/post-88.ics", "calendars/hellgate.ics"} <= set(r["files"])
    assert r["csv_rows"] == r["schedule_rows"]
    assert r["export_left"] is False          # the notebook removes its temporary folder
    assert not (tmp_path / "notebooks" / "plan").exists()


def test_02_licence_what_if(kernel_home: Path, tmp_path: Path) -> None:
    r = run("02_licence_what_if", """result = {
        "saved": saved, "more": more, "cost": cost,
        "objectives": [p.objective for p in alternatives],
        "alternative_dates_differ": len(cmp.moved)}""", tmp_path)
    # Post 88's annual licence covers its 23 hold'em games of 80 players (51-100 tier):
    # 23 x $75 per tournament = $1,725 against $1,500 (ME-FEES)
    assert r["saved"] == 23 * 75 - 1500 == 225
    # notices from 2027-01-20: Post 88's first game is in February (January's 2 are lost);
    # from 2027-01-06 it can start on Saturday January 23, and a second January game would be
    # less than 10 days later (MIN-GAP): 1 more
    assert r["more"] == 1
    # the championship 2027-07-31 10:00 to 08-01 06:00 touches July and August: counted in
    # both (month_rule touch), July and August hold 1 hold'em each; counted in its starting
    # month only (start), August holds 2: 1 game more
    assert r["cost"] == 1
    # three alternatives, all as good as the best, differing in at least one first day
    assert len(r["objectives"]) == 3
    assert all(o == r["objectives"][0] for o in r["objectives"])
    assert r["alternative_dates_differ"] >= 1


def test_03_rules_study(kernel_home: Path, tmp_path: Path) -> None:
    r = run("03_rules_study", """result = {
        "days": [f"{d:%Y-%m-%d}" for d in notice_days],
        "me": {k: g.placed_ME.tolist() for k, g in study.groupby("reading")},
        "fees": {k: g.fees_usd.tolist() for k, g in study.groupby("reading")},
        "statuses": sorted(set(study.status))}""", tmp_path)
    assert r["days"] == ["2026-12-20", "2027-01-17", "2027-02-14", "2027-03-14"]
    assert r["statuses"] == ["OPTIMAL"]
    # Maine, filed early enough: Post 88 23 hold'em (12 months x 2, less 1 for October's
    # championship) + championship + 6 VFD + 24 Harborview + 2 + 1 super cribbage = 57.
    # Each month lost at the start to the 10-business-day application lead costs 2 hold'em
    # games: from 01-17 January (55), from 02-14 February too (53); from 03-14 the first March
    # game is late in the month and a second would break MIN-GAP (52).
    me = [23 + 1 + 6 + 24 + 2 + 1, 57 - 2, 57 - 4, 57 - 5]
    assert me == [57, 55, 53, 52]
    # fees: Post 88 with 20 games = 19 hold'em x $75 = $1,425 < $1,500 annual -> 75 less;
    # with 18 hold'em $1,350 -> 150 less
    fees = [5935, 5935, 5935 - (1500 - 19 * 75), 5935 - (1500 - 18 * 75)]
    assert fees == [5935, 5935, 5860, 5785]
    # every reading gives the same numbers on these requests
    assert len(r["me"]) == 4
    for reading in r["me"]:
        assert r["me"][reading] == me
        assert r["fees"][reading] == fees


def test_04_the_year_so_far(kernel_home: Path, tmp_path: Path) -> None:
    r = run("04_the_year_so_far", """result = {
        "usage": {str(k): int(v) for k, v in usage["held"].items()},
        "fees_paid": fees_paid, "states": {k: int(v) for k, v in states.items()},
        "march": [[str(x) for x in row] for row in march[
            ["period_end", "report_due", "prizes_pct", "proceeds_after_prizes_usd",
             "charity_required_usd"]].itertuples(index=False)],
        "bars": [float(p.get_height()) for p in fig.axes[0].patches],
        "left": Path(work.name).exists()}""", tmp_path)
    # games held per month (ME-MONTHLY-LIMIT, 2): Jan 9 + Jan 10; Feb 6 (Feb 7 cancelled);
    # the super cribbage Mar 5-6 + Mar 13
    assert r["usage"] == {"2027-01": 2, "2027-02": 1, "2027-03": 2}
    # licences bought: Saturday (100 players, 51-100) $75 x 3 + Sunday (48, up to 50) $40 x 2
    # + super cribbage $75 = 225 + 80 + 75
    assert r["fees_paid"] == 3 * 75 + 2 * 40 + 75 == 380
    # 24 per-tournament licences -> 24 application windows + 24 reports = 48 deadlines;
    # done: 5 applications on time + 3 reports; done late: Sunday #2's application (due
    # 2027-01-25, received 01-26); overdue as of 2027-03-20: the reports of the cancelled
    # Sunday #2 (due 02-22) and of the super cribbage (period ending 03-06, due 03-19)
    assert r["states"] == {"due": 48 - 8 - 1 - 2, "done": 5 + 3, "done late": 1,
                           "overdue": 2}
    # March (shares to the cent): super cribbage 7200 fees, 5400 prizes = 75.00 %, proceeds
    # 1800, half to charity 900 (17 M.R.S. § 1836(4-A)(F)); due Mar 8-12 (5), 15-19 (10)
    # -> 03-19. Saturday #3:
    # 8000 / 10000 = 80.00 %, proceeds 2000; due Mar 15-19 (5), 22-26 (10) -> 03-26
    assert r["march"] == [["2027-03-06", "2027-03-19", "75.00", "1800.00", "900.00"],
                          ["2027-03-13", "2027-03-26", "80.00", "2000.00", "None"]]
    assert r["bars"] == [2, 1, 2]             # the figure: one bar per month, as above
    assert r["left"] is False                 # the notebook removes its temporary folder
