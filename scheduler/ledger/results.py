"""The results workbook: the sheet a treasurer fills after each night, and ``tourney record
--from FILE.xlsx|.csv``, which records every row of it in one transaction (issue #26).

``tourney template --results results.xlsx`` writes sheet :data:`SHEET` with one row per
planned occurrence of the newest adopted version of every plan lineage, named as a person
sees it (the tournament's title, its planned day, the venue; ``TOURNAMENT#N`` beside them),
the actual days pre-filled with the planned ones and the figures of ``tourney record held``
to fill in (:data:`COLUMNS`). An occurrence already recorded shows what was recorded.

``tourney record --from`` reads every row that says what became of the occurrence (an
``outcome``, or a figure: then ``held``); a row left as the template wrote it is not read.
Each is recorded as ``tourney record held|cancelled`` would record it (the same checks), all
in one transaction: one refused row refuses the file, every problem named by sheet, row and
column in one pass. A row the same as what the ledger holds is skipped (the sheet can be
given again after each night); one that differs is refused, or recorded as a correction
of the entry (``--corrects``) with ``apply_edits``.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scheduler.core.limits import (
    MAX_PROBLEMS_SHOWN,
    LimitError,
    NotText,
    read_csv_bounded,
    short,
)
from scheduler.ledger.checks import entry_problems
from scheduler.ledger.frames import Ledger
from scheduler.ledger.lookups import entry_fields, find_event, latest_versions, org_of
from scheduler.ledger.models import Held, PlanEvent, select_current
from scheduler.ledger.spellings import read_bool, read_count, read_day, read_usd
from scheduler.ledger.store import LedgerError, note_problem
from scheduler.ledger.transfer import problems_text

SHEET = "Results"
"""The sheet of the results workbook."""


@dataclass(frozen=True)
class Column:
    """A column of the results sheet: ``name`` (the held table's column, or what names the
    occurrence), its ``header`` as the sheet shows it, and the ``help`` of its header's
    comment."""

    name: str
    header: str
    help: str


COLUMNS = (
    Column("tournament", "Tournament", "The tournament, titled as in the plan."),
    Column("date", "Planned date", "The first day the plan has."),
    Column("operator", "Venue", "The operator (venue) it is at."),
    Column("occurrence", "Occurrence", "TOURNAMENT#N, as licenses.csv's covers: which "
           "occurrence the row is (else the tournament, planned date and venue say it)."),
    Column("outcome", "Outcome", "held or cancelled. Empty: held when a figure is filled "
           "in; a row without outcome or figure is not read."),
    Column("first_day", "First day", "The day it actually started (pre-filled: the plan's)."),
    Column("last_day", "Last day", "The day it actually ended: a final table past midnight "
           "ends the next day."),
    Column("players", "Players", "Unique players: persons who played."),
    Column("entries", "Entries", "Entries sold, re-entries included."),
    Column("entry_fees_usd", "Entry fees (USD)", "All participants paid to play, in US "
           "dollars (1234.50, $1,234.50 or 1234,50)."),
    Column("prizes_usd", "Prizes (USD)", "Prizes paid, US dollars."),
    Column("charity_usd", "Charity paid (USD)", "Paid to charity, US dollars."),
    Column("charity_to", "Charity paid to", "The charity paid, by name (ME-SUPER-CRIBBAGE)."),
    Column("charity_is_licensee", "Charity is the licensee", "TRUE when the charity paid is "
           "the licensee itself (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(F))."),
    Column("expenses_usd", "Expenses (USD)", "What running it cost, US dollars (the "
           "ME-REPORT expenses line)."),
    Column("surcharge_usd", "Surcharge (USD)", "Licence-fee surcharge collected from all "
           "players, US dollars (ME-ENTRY-CAP)."),
    Column("under_21_admitted", "Under 21 admitted", "TRUE when patrons under 21 were "
           "admitted (ME-CRIBBAGE-REG, § 1836(4-B))."),
    Column("away_from_establishment", "Away from establishment", "TRUE when held away from "
           "the licensed establishment (ME-CRIBBAGE-REG, § 1836(4-B))."),
    Column("note", "Note", "A remark kept with the entry."),
)
"""The columns of the results sheet, in order: what names the occurrence, the outcome, the
actual days, the figures ``tourney record held`` takes."""
_NAMING = ("tournament", "date", "operator", "occurrence")
_FIGURES = ("players", "entries", "entry_fees_usd", "prizes_usd", "charity_usd",
            "charity_to", "charity_is_licensee", "expenses_usd", "surcharge_usd",
            "under_21_admitted", "away_from_establishment")
_USD = ("entry_fees_usd", "prizes_usd", "charity_usd", "expenses_usd", "surcharge_usd")
_COUNTS = ("players", "entries")
_BOOLS = ("charity_is_licensee", "under_21_admitted", "away_from_establishment")
_DAYS = ("date", "first_day", "last_day")
_HEADERS = {k: c for c in COLUMNS for k in (c.name, c.header.lower())}


# ------------------------------------------------------------------------- template
def _planned(s: Session) -> list[PlanEvent]:
    """The confirmed occurrences of the newest adopted version of every lineage, by planned
    day, venue, tournament and number."""
    versions = [v.id for v in latest_versions(s)]
    events = list(s.scalars(select(PlanEvent).where(PlanEvent.version_id.in_(versions),
                                                    PlanEvent.status == "CONFIRMED")))
    return sorted(events, key=lambda e: (e.first_day, e.operator_id, e.tournament_id,
                                         e.occurrence))


def results_rows(ledger: Ledger) -> list[dict[str, Any]]:
    """The rows of the results template: one per planned occurrence (:func:`_planned`),
    values by :data:`COLUMNS` name, typed (days as dates, USD as ``Decimal``); an
    occurrence already recorded held or cancelled with what was recorded."""
    out = []
    with ledger.read() as s:
        recorded = {(h.organization_id, h.uid, h.recurrence_id, h.operator_id): h
                    for h in s.scalars(select_current(Held))}
        for e in _planned(s):
            row: dict[str, Any] = {"tournament": e.title, "date": e.first_day,
                                   "operator": e.operator_id,
                                   "occurrence": f"{e.tournament_id}#{e.occurrence}",
                                   "first_day": e.first_day, "last_day": e.last_day}
            h = recorded.get((org_of(e).id, e.uid, e.recurrence_id, e.operator_id))
            if h is not None:
                row.update({c.name: getattr(h, c.name) for c in COLUMNS
                            if c.name not in _NAMING})
            out.append(row)
    return out


def results_xlsx(ledger: Ledger) -> tuple[bytes, int]:
    """``tourney template --results``: the results workbook of ``ledger`` (sheet
    :data:`SHEET`, :data:`COLUMNS`, a comment on each header, days as dates, USD with cents,
    the outcome a drop-down of held/cancelled, header frozen). Returns the bytes and the
    number of rows. Deterministic: the same ledger, the same bytes.

    Raises
    ------
    LedgerError
        No plan is adopted (nothing to fill in).
    """
    # start-up time: openpyxl only when a workbook is written
    from openpyxl import Workbook
    from openpyxl.comments import Comment  # start-up time: openpyxl
    from openpyxl.styles import Font  # start-up time: openpyxl
    from openpyxl.utils import get_column_letter  # start-up time: openpyxl
    from openpyxl.worksheet.datavalidation import DataValidation  # start-up time: openpyxl

    from scheduler.ledger.workbook import FIXED_TIME, fixed_zip  # start-up time: openpyxl

    rows = results_rows(ledger)
    if not rows:
        raise LedgerError("no plan is adopted in the ledger, so there is no occurrence to "
                          "fill in: adopt a plan first (tourney ledger adopt PLAN_DIR)")
    wb = Workbook()
    ws = wb.worksheets[0]
    ws.title = SHEET
    for k, col in enumerate(COLUMNS, start=1):
        head = ws.cell(row=1, column=k, value=col.header)
        head.font = Font(bold=True)
        head.comment = Comment(col.help, "tourney")
        width = max(len(col.header), 12 if col.name in (*_DAYS, *_USD) else 0)
        ws.column_dimensions[get_column_letter(k)].width = width + 2
    ws.column_dimensions["A"].width = min(50, max(len(str(r["tournament"])) for r in rows)) + 2
    for r, row in enumerate(rows, start=2):
        for k, col in enumerate(COLUMNS, start=1):
            value = row.get(col.name)
            if value is None:
                continue
            cell = ws.cell(row=r, column=k)
            if isinstance(value, Decimal):
                cell.value, cell.number_format = float(value), "#,##0.00"
            elif isinstance(value, dt.date):
                cell.value, cell.number_format = value, "yyyy-mm-dd"
            else:
                cell.value = value
                if isinstance(value, str):
                    cell.data_type = "s"  # a title starting with '=' stays text
    outcome = get_column_letter(COLUMNS.index(_HEADERS["outcome"]) + 1)
    dv = DataValidation(type="list", formula1='"held,cancelled"', allow_blank=True)
    dv.add(f"{outcome}2:{outcome}{len(rows) + 1}")
    ws.add_data_validation(dv)
    ws.freeze_panes = "B2"
    wb.properties.creator = "tourney"
    wb.properties.created = wb.properties.modified = FIXED_TIME
    raw = io.BytesIO()
    wb.save(raw)
    return fixed_zip(raw.getvalue()), len(rows)


# ------------------------------------------------------------------------ record --from
@dataclass(frozen=True)
class Recorded:
    """What ``tourney record --from`` did: the entries recorded (``held`` and
    ``cancelled`` ones, corrections included: ``corrected`` of them), the rows the same as
    the ledger (``same``), the rows not filled in (``empty``)."""

    entries: tuple[Held, ...]
    corrected: int
    same: int
    empty: int


Locate = Callable[[int, str | None], str]


def read_results(path: str | os.PathLike[str]) -> tuple[list[dict[str, str]], Locate]:
    """The rows of a results file (.xlsx: sheet :data:`SHEET`; else a CSV, a UTF-8 BOM
    dropped) as texts by :data:`COLUMNS` name (a header is the sheet's, e.g. ``Prizes
    (USD)``, or the column's name, ``prizes_usd``, any case), and where each cell is.
    Rows of only empty cells are left out.

    Raises
    ------
    LedgerError
        A missing or unreadable file, no sheet :data:`SHEET`, a hidden row or column or a
        formula, a header the sheet does not have (named with its column), a column twice.
    """
    path = Path(path)
    if path.suffix.lower() == ".xlsx":
        from openpyxl.utils import get_column_letter  # start-up time: openpyxl

        # start-up time: openpyxl
        from scheduler.ledger.workbook import open_workbook, read_sheet, sheet_text

        wb, scans = open_workbook(path)
        try:
            if SHEET not in wb.sheetnames:
                raise LedgerError(f"{path} has no sheet {SHEET!r} (sheets: "
                                  + ", ".join(wb.sheetnames) + "): give a workbook written "
                                  "by `tourney template --results`")
            header, grid = read_sheet(path, wb, scans, SHEET)
        finally:
            wb.close()
        names = _names(header, lambda k: f"{path} {SHEET}!{get_column_letter(k + 1)}1")
        letters = {n: get_column_letter(k + 1) for k, n in enumerate(names) if n}
        rows = [{n: sheet_text(values[k] if k < len(values) else None, n in _DAYS)
                 for k, n in enumerate(names) if n} for _, values in grid]
        numbers = [r for r, _ in grid]

        def locate(i: int, column: str | None) -> str:
            r = numbers[i]
            if column is None or column not in letters:
                return f"{path} {SHEET} row {r}"
            return f"{path} {SHEET}!{letters[column]}{r} ({_HEADERS[column].header})"

        return rows, locate
    try:
        header, raw = read_csv_bounded(path)
    except FileNotFoundError:
        raise LedgerError(f"{path} does not exist") from None
    except LimitError as exc:
        raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                          ) from None
    except NotText as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    except (OSError) as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - csv.Error: not a CSV
        raise LedgerError(f"cannot read {path} as CSV: {exc}") from None
    if header and header[0].startswith("\ufeff"):  # Excel's "CSV UTF-8"
        raw = [{(k[1:] if k == header[0] else k): v for k, v in r.items()} for r in raw]
        header[0] = header[0][1:]
    names = _names(header, lambda k: f"{path} line 1 column {k + 1}")
    lines = []
    rows = []
    for line, r in enumerate(raw, start=2):
        cells = {n: (r.get(h) or "") for h, n in zip(header, names, strict=True) if n}
        if all(not v.strip() for v in cells.values()):
            continue  # a row of only commas (Excel writes them)
        rows.append(cells)
        lines.append(line)

    def locate_csv(i: int, column: str | None) -> str:
        if column is None:
            return f"{path} line {lines[i]}"
        return f"{path} line {lines[i]} column {_HEADERS[column].header}"

    return rows, locate_csv


def _names(header: Sequence[str], where: Callable[[int], str]) -> list[str]:
    """The :data:`COLUMNS` name of each header cell ('' for an empty one)."""
    names: list[str] = []
    problems = []
    for k, h in enumerate(header):
        text = (h or "").strip()
        col = _HEADERS.get(text.lower())
        if not text:
            names.append("")
        elif col is None:
            problems.append(f"{where(k)}: {short(text)} is not a column of the results "
                            "sheet (" + ", ".join(c.header for c in COLUMNS) + ")")
            names.append("")
        elif col.name in names:
            problems.append(f"{where(k)}: column {col.header} is there twice")
            names.append("")
        else:
            names.append(col.name)
    if "occurrence" not in names and not {"tournament", "date"} <= set(names):
        problems.append(f"{where(0)}: the sheet names no occurrence: give the column "
                        "Occurrence (TOURNAMENT#N), or Tournament and Planned date")
    if problems:
        raise LedgerError(problems_text(problems))
    return names


def _typed(row: dict[str, str], locate: Callable[[str], str]
           ) -> tuple[dict[str, Any], list[str]]:
    """The typed values of a row's filled cells, and the problems of those that cannot be
    read, each naming its cell."""
    values: dict[str, Any] = {}
    problems = []
    for name, text in row.items():
        if not text.strip():
            continue
        try:
            if name in _USD:
                values[name] = read_usd(text)
            elif name in _COUNTS:
                values[name] = read_count(text)
            elif name in _BOOLS:
                values[name] = read_bool(text)
            elif name in _DAYS:
                values[name] = read_day(text)
            else:
                values[name] = text.strip()
        except ValueError as exc:
            shown = text.strip() if len(text.strip()) <= 40 else short(text.strip(), 40)
            problems.append(f"{locate(name)}: {shown} is {exc}")
    return values, problems


def _find(s: Session, events: list[PlanEvent], values: dict[str, Any]) -> PlanEvent:
    """The planned occurrence a row names: its Occurrence (TOURNAMENT#N, with its Venue),
    else its Tournament title, Planned date and Venue."""
    operator = values.get("operator")
    if values.get("occurrence"):
        return find_event(s, values["occurrence"], operator=operator)
    title, day = values.get("tournament"), values.get("date")
    if not title or day is None:
        raise LedgerError("the row names no occurrence: fill in Occurrence (TOURNAMENT#N), "
                          "or Tournament and Planned date")
    found = [e for e in events if e.title.strip().lower() == str(title).strip().lower()
             and e.first_day == day and (operator is None or e.operator_id == operator)]
    if not found:
        raise LedgerError(f"no adopted plan has {title!r} planned on {day}"
                          + (f" at {operator}" if operator else ""))
    if len(found) > 1:
        raise LedgerError(f"{title!r} on {day} is at several venues ("
                          + ", ".join(e.operator_id for e in found) + "): fill in Venue")
    return found[0]


def _same_entry(h: Held, values: dict[str, Any]) -> list[str]:
    """The columns whose value differs from entry ``h`` (an empty cell: no value)."""
    return [c for c in ("outcome", "first_day", "last_day", *_FIGURES, "note")
            if getattr(h, c) != values.get(c)
            and not (isinstance(getattr(h, c), Decimal) and values.get(c) is not None
                     and Decimal(getattr(h, c)) == Decimal(values[c]))]


def record_from(ledger: Ledger, path: str | os.PathLike[str], *, by: str | None = None,
                today: dt.date | None = None, apply_edits: bool = False) -> Recorded:
    """``tourney record --from FILE``: record every filled row of a results file
    (:func:`read_results`) as ``tourney record held|cancelled`` would, in one transaction.

    A row is filled when it has an outcome or a figure (outcome empty: ``held``); an empty
    first or last day is the plan's. A cancelled row's days are not read; it may have no
    figure. A row about an occurrence already recorded with the same values is skipped;
    with other values it is refused, or recorded as a correction of that entry
    (``--corrects``) with ``apply_edits``.

    Raises
    ------
    LedgerError
        Every problem of every row, each naming its sheet, row and column (a value that
        cannot be read, the checks of ``tourney record held``, an occurrence no adopted
        plan has, two rows about one occurrence, a recorded occurrence given other values
        without ``apply_edits``); nothing is recorded.
    """
    rows, locate = read_results(path)
    problems: list[str] = []
    entries: list[Held] = []
    seen: dict[tuple[Any, ...], int] = {}
    same = empty = corrected = 0
    with ledger.write() as s:
        events = _planned(s)
        for i, row in enumerate(rows):
            if len(problems) > MAX_PROBLEMS_SHOWN:
                break
            values, bad = _typed(row, partial(locate, i))
            problems += bad
            filled = [c for c in _FIGURES if row.get(c, "").strip()]
            outcome = (values.get("outcome") or ("held" if filled else "")).lower()
            if not outcome and not bad:
                empty += 1
                continue
            try:
                ev = _find(s, events, values)
            except LedgerError as exc:
                problems.append(f"{locate(i, None)}: {exc}")
                continue
            if bad:
                continue
            fields: dict[str, Any] = {c: values.get(c) for c in (*_FIGURES, "note")}
            if outcome == "held":
                fields["first_day"] = values.get("first_day", ev.first_day)
                fields["last_day"] = values.get("last_day", ev.last_day)
            elif outcome == "cancelled":
                fields.update(first_day=None, last_day=None)
            fields["outcome"] = outcome

            def label(column: str, i: int = i) -> str:  # the cell, the file said once
                return locate(i, column if column in _HEADERS else None).removeprefix(
                    f"{Path(path)} ")
            found = entry_problems("held", fields, label, today)
            problems += [f"{Path(path)} {m}" for _, m in found]
            note = note_problem(fields.get("note"))
            if note:  # as `record --note` refuses it, with its cell
                problems.append(f"{Path(path)} {label('note')}: {note.removeprefix('note: ')}")
            if found or note:
                continue
            org = org_of(ev)
            ident = (org.id, ev.uid, ev.recurrence_id, ev.operator_id)
            if ident in seen:
                problems.append(f"{locate(i, None)}: {ev.tournament_id}#{ev.occurrence} at "
                                f"{ev.operator_id} is also in {locate(seen[ident], None)}")
                continue
            seen[ident] = i
            dup = s.scalar(select_current(Held).filter_by(
                organization_id=org.id, uid=ev.uid, recurrence_id=ev.recurrence_id,
                operator_id=ev.operator_id).limit(1))
            if dup is not None:
                differ = _same_entry(dup, fields)
                if not differ:
                    same += 1
                    continue
                if not apply_edits:
                    problems.append(
                        f"{locate(i, differ[0])}: {ev.tournament_id}#{ev.occurrence} at "
                        f"{ev.operator_id} is recorded already (entry #{dup.id}) with other "
                        "values (" + ", ".join(
                            f"{_HEADERS[c].header if c in _HEADERS else c} "
                            f"{_shown(getattr(dup, c))} → {_shown(fields.get(c))}"
                            for c in differ)
                        + "): give --apply-edits to record the row as a correction of "
                        f"entry #{dup.id}")
                    continue
                corrected += 1
            entry = Held(organization_id=org.id, operator_id=ev.operator_id,
                         tournament_id=ev.tournament_id, occurrence=ev.occurrence,
                         uid=ev.uid, recurrence_id=ev.recurrence_id,
                         supersedes_id=dup.id if dup is not None else None,
                         **fields, **entry_fields(by))
            s.add(entry)
            entries.append(entry)
        if problems:
            raise LedgerError(problems_text(problems))
        s.flush()
    return Recorded(tuple(entries), corrected, same, empty)


def _shown(value: Any) -> str:
    """A value in a message: USD with cents, days ISO, empty as ``(empty)``."""
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value)
