"""The template writer: a scenario's fields as the scenario workbook (:func:`write_workbook`),
and a workbook saved as bytes that depend only on its content (:func:`pinned_xlsx`).
openpyxl is imported when a workbook is written (start-up time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any

from scheduler.core.workbook.cells import letter
from scheduler.core.workbook.layout import (
    FIXED_TIME,
    HISTORY,
    OPERATORS,
    SESSIONS,
    SETTINGS,
    TOURNAMENTS,
    TOURS,
    Column,
)
from scheduler.core.workbook.writing import set_cell, style, validation, value_at, written


def _records_sheet(wb: Any, sheet: str, columns: Sequence[Column],
                   records: Sequence[Mapping[str, Any]], rows: int) -> None:
    # start-up time: openpyxl only when a workbook is written
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill  # start-up time: openpyxl when written

    ws = wb.create_sheet(sheet)
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    for j, column in enumerate(columns, start=1):
        head = ws.cell(row=1, column=j, value=column.header)
        head.font, head.fill = bold, fill
        head.comment = Comment(column.note, "tourney", width=320, height=140)
        ws.column_dimensions[letter(j - 1)].width = max(column.width, len(column.header) + 2)
        for i, record in enumerate(records, start=2):
            value = written(column, value_at(record, column.path))
            if value is not None:
                style(set_cell(ws, i, j, value), column, value)
            else:  # an empty cell of the example's rows gets the column's format too
                style(ws.cell(row=i, column=j), column, None)
        for i in range(len(records) + 2, rows + 2):
            style(ws.cell(row=i, column=j), column, None)
        validation(ws, column, f"{letter(j - 1)}2:{letter(j - 1)}{rows + 1}")
    ws.freeze_panes = "B2"


def write_workbook(data: Mapping[str, Any], *, rows: int = 200,
                   when: dt.datetime | None = None) -> bytes:
    """The scenario workbook (the template filled with ``data``) as .xlsx bytes.

    Parameters
    ----------
    data
        The scenario's fields as ``Scenario.model_dump(exclude_defaults=True)`` gives them
        (dates as ``datetime.date``, money and shares as ``Decimal``, lists as tuples), with
        ``notice_from``.
    rows
        Rows below each header that get the column's formats and drop-downs (the filled
        ones included).
    when
        The document's created/modified time and its zip entries' time (default
        :data:`FIXED_TIME`): the same data give byte-identical bytes.

    Returns
    -------
    bytes
        An .xlsx file with the sheets Settings, Operators, Tournaments, Sessions (the
        flights of the tournaments played in sessions), History and Tours, header comments
        (unit and rule of each field), drop-downs, frozen headers.
    """
    # start-up time: openpyxl only when a workbook is written
    from openpyxl import Workbook
    from openpyxl.comments import Comment  # start-up time: openpyxl when written
    from openpyxl.styles import Font, PatternFill  # start-up time: openpyxl when written

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Settings"
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    for j, head in enumerate(("field", "value", "unit and rule"), start=1):
        cell = ws.cell(row=1, column=j, value=head)
        cell.font, cell.fill = bold, fill
    for i, column in enumerate(SETTINGS, start=2):
        ws.cell(row=i, column=1, value=column.header).font = bold
        value = written(column, value_at(data, column.path))
        cell = set_cell(ws, i, 2, value)
        style(cell, column, value)
        cell.comment = Comment(column.note, "tourney", width=320, height=140)
        ws.cell(row=i, column=3, value=column.note)
        validation(ws, column, f"B{i}")
    ws.column_dimensions["A"].width = 36
    ws.column_dimensions["B"].width = 32
    ws.column_dimensions["C"].width = 100
    ws.freeze_panes = "B2"
    operators = list(data.get("operators", ()))
    rows = max(rows, len(operators), len(data.get("tournaments", ())))
    _records_sheet(wb, "Operators", OPERATORS, operators, rows)
    _records_sheet(wb, "Tournaments", TOURNAMENTS, list(data.get("tournaments", ())), rows)
    sessions = [{"tournament": t["id"], **s} for t in data.get("tournaments", ())
                for s in t.get("sessions", ())]
    _records_sheet(wb, "Sessions", SESSIONS, sessions, max(rows, len(sessions)))
    history = [{"operator": o["id"],
                **{k: o[k] for k in ("held_in_current_permit_year", "held_in_current_month")
                   if o.get(k)}}
               for o in operators
               if o.get("held_in_current_permit_year") or o.get("held_in_current_month")]
    _records_sheet(wb, "History", HISTORY, history, rows)
    _records_sheet(wb, "Tours", TOURS, list(data.get("tours", ())), rows)
    return pinned_xlsx(wb, when)


def pinned_xlsx(wb: Any, when: dt.datetime | None = None) -> bytes:
    """An openpyxl workbook saved as bytes that depend only on its content: the document's
    created/modified time and every zip entry's time are ``when`` (default
    :data:`FIXED_TIME`; give SOURCE_DATE_EPOCH's time for reproducible builds)."""
    stamp = (when or FIXED_TIME).astimezone(dt.UTC).replace(tzinfo=None) \
        if (when and when.tzinfo) else (when or FIXED_TIME)
    stamp = max(stamp, dt.datetime(1980, 1, 1))  # the zip format starts in 1980
    wb.properties.created = wb.properties.modified = stamp
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            pinned = zipfile.ZipInfo(info.filename, date_time=stamp.timetuple()[:6])
            pinned.compress_type = zipfile.ZIP_DEFLATED
            pinned.external_attr = 0o600 << 16
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps "modified" when saving
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>" + f"{stamp:%Y-%m-%dT%H:%M:%SZ}".encode() + rb"\g<2>",
                              body)
            dst.writestr(pinned, body)
    return out.getvalue()
