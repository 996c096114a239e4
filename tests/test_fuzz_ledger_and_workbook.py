"""A fuzz round over ``tourney ledger import``, ``tourney record`` and the workbook reader
(issue 24): whatever the input, the command exits 0, 1 or 2, never 3 (an internal error), and
never takes more than 1 GB.

Each property runs in one child process limited to 1 GB of address space
(``resource.RLIMIT_AS``) and a time bound; inside it Hypothesis drives the CLI in-process
(Typer's runner) with the profile of the run (``HYPOTHESIS_PROFILE``: ``ci`` is 12
derandomized examples here). A failure prints the example Hypothesis found.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GB = 1024 ** 3
TIMEOUT = 900.0  # seconds for one property's examples (12 in ci take about half a minute)
ALLOWED = (0, 1, 2)

# values a careless or hostile person types into a cell or an option
NASTY = ["", " ", "NaN", "nan", "Infinity", "-Infinity", "sNaN", "-1", "-0", "0", "0.001",
         "1E+400", "1e-400", "9" * 30, "2147483648", "-2147483649", "1,000", "$5", "5 USD",
         "maybe", "held", "cancelled", "true", "false", "2999-01-01", "1899-12-31",
         "1900-01-01", "2027-02-30", "2027-13-01", "0000-00-00", "2027-03-05T10:00:00Z",
         "yesterday", "\x00", "\x1b[31m", "=1+1", "@SUM(A1)", "+1", "a" * 5000, "é", "🂡",
         "\u202e", "line\nbreak", "'", '"', "0" * 32, "f" * 32, "deep#1", "deep#0",
         "deep#99999999999999999999", "post-1/nope"]


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


def _run_child(kind: str) -> None:
    code = (f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'tests')!r}]; "
            f"import test_fuzz_ledger_and_workbook as m; m.child({kind!r})")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True,
                         capture_output=True, timeout=TIMEOUT, preexec_fn=_limit_memory,
                         env={**os.environ, "PYTHONPATH": str(ROOT),
                              "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE",
                                                                   "ci")})
    assert res.returncode == 0, (res.stdout[-4000:], res.stderr[-4000:])
    assert "fuzz round passed" in res.stdout, res.stdout[-2000:]


def test_ledger_import_never_fails_internally() -> None:
    _run_child("import")


def test_record_never_fails_internally() -> None:
    _run_child("record")


def test_the_workbook_reader_never_fails_internally() -> None:
    _run_child("workbook")


# ----------------------------------------------------------------------------- the child
def _profile() -> None:
    from hypothesis import settings

    # ci: 12 examples, each a command (or three) on a fresh ledger (the suite's ci is 25)
    settings.register_profile("ci", max_examples=12, deadline=None, derandomize=True,
                              print_blob=True)
    settings.register_profile("default", max_examples=60, deadline=None)
    settings.register_profile("long", max_examples=1000, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _exit(args: list[str]) -> int:
    from typer.testing import CliRunner

    from scheduler.cli import app

    res = CliRunner().invoke(app, args)
    code = res.exit_code
    if code not in ALLOWED or (res.exception is not None
                               and not isinstance(res.exception, SystemExit)):
        raise AssertionError(f"tourney {args!r} exited {code}: {res.output[-2000:]} "
                             f"{res.exception!r}")
    return code


def _adopted(folder: Path) -> Path:
    """A SQLite ledger with the plan of builders.plans.write_plan adopted, its deep#1 held in
    March 2026 (so that a record of it is not in the future)."""
    from scheduler.ledger import Ledger, api

    from builders.plans import write_plan

    plan = write_plan(folder / "plan", deep_first="2026-03-05", deep_last="2026-03-07")
    lg = Ledger(folder / "ledger.sqlite")
    api.init(lg)
    api.adopt(lg, plan, organization="Big Sky Tour", by="ann")
    lg.dispose()
    return folder / "ledger.sqlite"


def _fresh(template: Path, work: Path) -> str:
    path = work / f"l{len(list(work.iterdir()))}.sqlite"
    shutil.copyfile(template, path)
    return str(path)


def child(kind: str) -> None:
    """Run the property ``kind`` (``import``, ``record`` or ``workbook``) in this process."""
    from hypothesis import given
    from hypothesis import strategies as st

    _profile()
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    nasty = st.sampled_from(NASTY)
    cell = st.one_of(nasty, nasty, nasty, st.text(max_size=40))

    if kind in ("import", "record"):
        template = _adopted(work / "base")
        from scheduler.ledger import Ledger, api

        lg = Ledger(template)
        api.record_held(lg, "deep#1", first_day=_d("2026-03-05"), last_day=_d("2026-03-07"),
                        players=10, entry_fees_usd="100.00", by="ann")
        buf = io.StringIO()
        api.export_csv(lg, buf)
        lg.dispose()
        exported = list(csv.reader(io.StringIO(buf.getvalue())))
        runs = work / "runs"
        runs.mkdir()

    if kind == "import":
        header = exported[0]
        facts = [i for i, r in enumerate(exported) if r and r[0] in ("held", "filings",
                                                                      "licences", "reports")]
        columns = [header.index(c) for c in header if c not in ("table", "key")]
        # mostly the fact rows' own columns; sometimes any cell of the file
        where = st.tuples(st.sampled_from(facts), st.sampled_from(columns)) | st.tuples(
            st.integers(0, 200), st.integers(0, 40))

        @given(edits=st.lists(st.tuples(where, cell), max_size=5),
               drop=st.integers(0, 20), raw=st.none() | st.none() | st.binary(max_size=300))
        def prop(edits: list[tuple[tuple[int, int], str]], drop: int, raw: bytes | None
                 ) -> None:
            rows = [list(r) for r in exported]
            for (i, j), v in edits:
                r = rows[i % len(rows)]
                r[j % len(r)] = v
            if drop and drop < len(rows[0]):
                del rows[drop % len(rows)][-1]
            path = runs / "l.csv"
            if raw is not None:
                path.write_bytes(raw)
            else:
                with path.open("w", newline="", encoding="utf-8", errors="replace") as f:
                    csv.writer(f, lineterminator="\n").writerows(rows)
            ledger = _fresh(template, runs)
            _exit(["ledger", "import", str(path), "--ledger", ledger])
            if raw is None:  # whatever went in, the pages that read the ledger still work
                _exit(["ledger", "funds", "--ledger", ledger])
                _exit(["deadlines", str(work / "base" / "plan"), "--ledger", ledger])

    elif kind == "record":
        licence = "post-1/per-tournament/2027-02-20/holdem"
        sound = {
            "held": ["record", "held", "deep#1", "--first-day", "2026-03-05", "--last-day",
                     "2026-03-07", "--players", "10", "--entries", "12", "--entry-fees", "100",
                     "--prizes", "80", "--note", "fine"],
            "cancelled": ["record", "cancelled", "deep#1", "--note", "fine"],
            "filed": ["record", "filed", "me-application", "--licence", licence, "--on",
                      "2026-11-25"],
            "licence": ["record", "licence", "--operator", "room-a", "--number", "LS-1",
                        "--kind", "mt-large-stakes-permit", "--fee", "120", "--valid-from",
                        "2026-07-01", "--valid-to", "2027-06-30"],
            "report": ["record", "report", licence, "--period-end", "2027-02-21", "--on",
                       "2026-11-30"],
        }

        @given(command=st.sampled_from(sorted(sound)),
               edits=st.lists(st.tuples(st.integers(2, 20), cell), max_size=3),
               corrects=st.none() | st.sampled_from(["1", "0", "-1", "9" * 25, "x"]))
        def prop(command: str, edits: list[tuple[int, str]], corrects: str | None) -> None:
            args = list(sound[command])
            for i, v in edits:  # a value changed (never an option's name)
                k = i % len(args)
                if k >= 2 and not args[k].startswith("--"):
                    args[k] = v
            if corrects is not None:
                args += ["--corrects", corrects]
            ledger = _fresh(template, runs)
            _exit([*args, "--ledger", ledger])
            _exit(["ledger", "funds", "--ledger", ledger])

    elif kind == "workbook":
        from scheduler.core.workbook.layout import EXAMPLES
        from scheduler.inputs.load import load_scenario

        base = load_scenario(EXAMPLES["montana"]).to_xlsx()
        (work / "schedule.csv").write_text("tournament_id,occurrence,operator_id,first_day,"
                                           "last_day\n")
        sheets = ["sheet1", "sheet2", "sheet3", "sheet4"]
        ref = st.tuples(st.integers(1, 1_048_600), st.integers(1, 16_400)) | st.tuples(
            st.integers(1, 210), st.integers(1, 45))

        @given(sheet=st.sampled_from(sheets), cells=st.lists(
            st.tuples(ref, st.sampled_from(["n", "s", "str", "f", "b", "e", "inlineStr"]),
                      cell), max_size=5),
            hidden=st.sampled_from(["", "row", "col", "sheet"]),
            flip=st.none() | st.tuples(st.integers(0, 40_000), st.integers(0, 255)))
        def prop(sheet: str, cells: list[tuple[tuple[int, int], str, str]], hidden: str,
                 flip: tuple[int, int] | None) -> None:
            data = _mutate(base, f"xl/worksheets/{sheet}.xml", cells, hidden)
            if flip is not None:  # one byte of the file changed
                i, v = flip
                data = data[:i % len(data)] + bytes([v]) + data[i % len(data) + 1:]
            path = work / "y.xlsx"
            path.write_bytes(data)
            _exit(["check", str(path), str(work / "schedule.csv")])

    else:
        raise ValueError(kind)
    prop()
    print("fuzz round passed", flush=True)


def _d(text: str) -> object:
    import datetime as dt

    return dt.date.fromisoformat(text)


def _letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .encode("utf-8", "replace").decode("utf-8"))


def _mutate(data: bytes, part: str, cells: list[tuple[tuple[int, int], str, str]],
            hidden: str) -> bytes:
    """The workbook ``data`` with ``cells`` (row, column, type, text) added to the worksheet
    ``part`` (as a spreadsheet or a script could write them: values, formulas, errors,
    inline text), and a row, a column or the sheet hidden."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == part:
                xml = body.decode("utf-8")
                rows = ""
                for (r, c), t, text in sorted(cells):
                    value = _escape(text)
                    inner = {"f": f"<f>{value}</f>", "inlineStr": f"<is><t>{value}</t></is>"
                             }.get(t, f"<v>{value}</v>")
                    typ = "" if t in ("n", "f") else f' t="{t}"'
                    rows += (f'<row r="{r}"' + (' hidden="1"' if hidden == "row" else "")
                             + f'><c r="{_letters(c)}{r}"{typ}>{inner}</c></row>')
                xml = xml.replace("<sheetData/>", "<sheetData></sheetData>")
                xml = xml.replace("</sheetData>", rows + "</sheetData>")
                if hidden == "col":
                    xml = xml.replace('<col width="14"', '<col hidden="1" width="14"', 1)
                body = xml.encode("utf-8")
            elif info.filename == "xl/workbook.xml" and hidden == "sheet":
                body = body.replace(b'state="visible"', b'state="veryHidden"', 1)
            dst.writestr(info.filename, body)
    return out.getvalue()

