"""plan.xlsx: a plan as a workbook to print and filter (issue #14).

Sheets *Schedule* (schedule.csv's rows), *Licences* (licenses.csv), *Deadlines* (what to file
by when: :func:`scheduler.result.deadlines.list_deadlines`, as deadlines.csv), *Not placed*
(unscheduled.csv) and *Limits* (:meth:`scheduler.result.plan.Plan.usage`). Dates are Excel dates,
times local date-times (the ``time_zone`` column says which zone), fees USD currency; each
sheet has a bold frozen header, an autofilter, column widths and a landscape print setup
fitting the page width. Deterministic: the same plan gives byte-identical bytes
(:func:`scheduler.core.workbook.template.pinned_xlsx`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, cast

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from constraints.base import Usage
from constraints.catalogue import cite
from scheduler.core.workbook.template import pinned_xlsx
from scheduler.result.deadlines import list_deadlines
from scheduler.result.plan import Plan
from scheduler.result.usage import limit_usage

DATE, DATETIME, USD = "yyyy-mm-dd", "yyyy-mm-dd hh:mm", '"$"#,##0'

_Col = tuple[str, str, int]
"""(header, number format or "", width in characters)."""

SCHEDULE = [("tournament_id", "", 22), ("occurrence", "0", 11), ("operator_id", "", 16),
            ("jurisdiction", "", 8), ("type", "", 18), ("charitable", "", 10),
            ("title", "", 34), ("start", DATETIME, 17), ("end", DATETIME, 17),
            ("time_zone", "", 17), ("first_day", DATE, 11), ("last_day", DATE, 11),
            ("notice_due", DATE, 11), ("permit_year", DATE, 11), ("counted", "", 9),
            ("players", "0", 9), ("license_id", "", 24)]
LICENCES = [("license_id", "", 24), ("operator_id", "", 16), ("jurisdiction", "", 8),
            ("kind", "", 22), ("tier", "", 9), ("valid_from", DATE, 11), ("valid_to", DATE, 11),
            ("fee_usd", USD, 10), ("covers", "", 60)]
DEADLINES = [("due", DATE, 11), ("deadline", "", 34), ("rule", "", 40), ("operator_id", "", 16),
             ("for", "", 34), ("first_day", DATE, 11)]
NOT_PLACED = [("tournament_id", "", 22), ("occurrence", "0", 11), ("operators", "", 22),
              ("required", "", 9), ("reason", "", 90), ("rule_ids", "", 30)]
LIMITS = [("operator_id", "", 16), ("rule_id", "", 20), ("period_start", DATE, 12),
          ("period_end", DATE, 12), ("used", "0", 7), ("limit", "0", 7), ("charitable", "0", 10),
          ("held", "0", 7)]


def deadline_rows(plan: Plan) -> list[tuple[Any, ...]]:
    """The *Deadlines* sheet: the deadlines of :func:`scheduler.result.deadlines.list_deadlines`
    (the lines of deadlines.csv), an ME-APPLICATION-WINDOW as two rows (its window opens,
    its application due).

    Parameters
    ----------
    plan
        The plan.

    Returns
    -------
    list of tuple
        ``(due, deadline, rule, operator_id, for, first_day)`` per row, sorted by due day,
        operator, ``for``, ``deadline``: ``due`` and ``first_day`` dates; ``rule`` the rule
        ID with its citation; ``for`` the tournament (MT-NOTICE: ``TITLE (TOURNAMENT#N)``),
        the licence (``licence LICENSE_ID``) or the permit (MT-PERMIT-FEES: ``permit
        LICENSE_ID``, ``first_day`` its permit year's first day).
    """
    out: list[tuple[Any, ...]] = []
    for d in list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from,
                            closed=plan.scenario.settings.closed_days):
        rule = cite(d.rule)
        if d.rule == "MT-NOTICE":
            out.append((d.date, "Notice to the Montana Gambling Control Division", rule,
                        d.operator_id, f"{d.title} ({d.occurrence})", d.first_day))
            continue
        what = f"licence {d.license_id}"
        if d.rule == "MT-PERMIT-FEES":
            out.append((d.date, "Montana permit bought or renewed", rule, d.operator_id,
                        f"permit {d.license_id}", d.first_day))
        elif d.rule == "ME-APPLICATION-WINDOW":
            out.append((d.opens, "Maine licence application window opens", rule,
                        d.operator_id, what, d.first_day))
            out.append((d.date, "Maine licence application due", rule, d.operator_id, what,
                        d.first_day))
        else:
            end = d.period_end.isoformat() if d.period_end else ""
            out.append((d.date, f"Disposition-of-funds report (period ending {end})", rule,
                        d.operator_id, what, d.first_day))
    return sorted(out, key=lambda d: (d[0], d[3], d[4], d[1]))


def _sheet(wb: Workbook, title: str, columns: Sequence[_Col],
           rows: Sequence[Sequence[Any]]) -> None:
    """One sheet of ``wb`` (write-only: each row goes to the file as it is added, no cell is
    kept): the bold header, ``rows`` with each column's number format (on cells with a
    value) and long texts wrapped, column widths, filter, frozen header, print setup."""
    ws = wb.create_sheet(title)
    last = f"{get_column_letter(len(columns))}{max(1, len(rows) + 1)}"
    # <dimension>, which a write-only sheet leaves out when it does not know it
    ws.calculate_dimension = lambda: f"A1:{last}"
    for j, (_, _, width) in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(j)].width = width
    ws.auto_filter.ref = f"A1:{last}"
    ws.freeze_panes = "A2"
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    header = []
    for head, _, _ in columns:
        cell = WriteOnlyCell(ws, value=head)
        cell.font, cell.fill = bold, fill
        header.append(cell)
    ws.append(header)
    # a cell's style by (column, value type, number format set, wrapped): the first such cell
    # is styled through openpyxl's setters (which register its number format and alignment
    # with the workbook, in the same order as ever), the others copy its style (the same
    # workbook bytes, without the setters' look-ups for each of 100,000s of cells)
    styles: dict[tuple[int, type, bool, bool], Any] = {}  # a StyleArray, or None: unstyled
    for row in rows:
        out = []
        for j, ((_, fmt, _), value) in enumerate(zip(columns, row, strict=True), start=1):
            formatted = bool(fmt) and value is not None and value != ""
            wrapped = isinstance(value, str) and len(value) > 60
            key = (j, type(value), formatted, wrapped)
            formula = isinstance(value, str) and value.startswith("=")
            if key in styles and not formula:
                out.append(Cell(ws, row=1, column=1, value=value, style_array=styles[key]))
                continue
            cell = WriteOnlyCell(ws, value=value)
            if formula:  # text beginning with "=" stays text (writing.set_cell)
                cell.data_type = "s"
            if formatted:
                cell.number_format = fmt
            if wrapped:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            styles[key] = cast(Any, cell)._style
            out.append(cell)
        ws.append(out)


def _local(t: dt.datetime) -> dt.datetime:
    """An aware local time as the naive wall-clock time a spreadsheet shows."""
    return t.replace(tzinfo=None)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def plan_xlsx(plan: Plan, when: dt.datetime | None = None,
              usage: Sequence[Usage] | None = None) -> bytes:
    """plan.xlsx: the plan's Schedule, Licences, Deadlines, Not placed and Limits sheets.

    Parameters
    ----------
    plan
        The solved plan.
    when
        The document's created/modified time (SOURCE_DATE_EPOCH's when set); default a fixed
        date, so the same plan gives byte-identical bytes.
    usage
        :func:`scheduler.result.usage.limit_usage` of ``plan`` when the caller has it (the Limits
        sheet; the plan folder's writer computes it once for the summary too); default
        computed here.

    Returns
    -------
    bytes
        The .xlsx file. Dates are dates, ``start``/``end`` local date-times (zone in
        ``time_zone``), ``fee_usd`` USD; empty cells where schedule.csv has empty fields.
    """
    wb = Workbook(write_only=True)
    schedule = [(r.tournament_id, r.occurrence, r.operator_id, r.jurisdiction, r.type,
                 _yes(r.charitable), r.title, _local(r.start), _local(r.end),
                 str(getattr(r.start.tzinfo, "key", r.start.tzinfo)), r.first_day, r.last_day,
                 r.notice_due, r.permit_year, _yes(r.counted), r.players, r.license_id)
                for r in plan.rows]
    _sheet(wb, "Schedule", SCHEDULE, schedule)
    licences = [(lic.license_id, lic.operator_id, lic.jurisdiction, lic.kind, lic.tier,
                 lic.valid_from, lic.valid_to, lic.fee_usd, " ".join(lic.covers))
                for lic in plan.license_list]
    _sheet(wb, "Licences", LICENCES, licences)
    _sheet(wb, "Deadlines", DEADLINES, deadline_rows(plan))
    missing = [(u.tournament_id, u.occurrence, " ".join(u.operators), _yes(u.required),
                u.reason, " ".join(u.rule_ids)) for u in plan.unscheduled_list]
    _sheet(wb, "Not placed", NOT_PLACED, missing)
    # Plan.usage()'s rows, read from limit_usage without the DataFrame
    limits = [(u.operator_id, u.rule, u.period_start, u.period_end, u.used, u.limit,
               u.charitable, u.held)  # held before the plan, counted in used
              for u in (limit_usage(plan) if usage is None else usage)]
    _sheet(wb, "Limits", LIMITS, limits)
    return pinned_xlsx(wb, when)
