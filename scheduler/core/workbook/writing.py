"""Writer helpers: a field's value as a cell value (:func:`set_cell`, formats, drop-downs),
used by the template writer (:mod:`scheduler.core.workbook.template`) and plan.xlsx
(:mod:`scheduler.export.xlsx`). openpyxl is imported when a workbook is written (start-up
time).

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from scheduler.core.limits import FIRST_YEAR, LAST_YEAR
from scheduler.core.workbook.cells import hhmm
from scheduler.core.workbook.layout import Column

if TYPE_CHECKING:  # start-up time: openpyxl only when a workbook is written
    from openpyxl.worksheet.worksheet import Worksheet


# --------------------------------------------------------------------------- writing
def set_cell(ws: Worksheet, row: int, column: int, value: Any) -> Any:
    """Put ``value`` into the cell (1-based row and column) and return the cell; text
    beginning with ``=`` stays text (openpyxl would write it as a formula, which a
    spreadsheet would run)."""
    cell = ws.cell(row=row, column=column, value=value)
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"
    return cell


_FORMATS = {"date": "yyyy-mm-dd", "time": "hh:mm", "money": '"$"#,##0.00',
            "share": "0%", "hours": "0.##", "monthday": "@"}


def written(column: Column, value: Any) -> Any:
    """A field's value (as ``Scenario.model_dump()`` gives it) as a cell value."""
    kind = column.kind
    if value is None:
        return None
    if kind in ("money", "share", "hours") and isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        if Decimal(repr(float(value))) == value:
            return float(value)
        if kind == "hours" and (value * 60) == (value * 60).to_integral_value():
            whole = int(value)
            return hhmm(whole, int((value - whole) * 60))
        return str(value)
    if kind == "days":
        return ", ".join(_ranges(list(value)))
    if kind == "list":
        return ", ".join(str(v) for v in value)
    if kind == "names":
        return "; ".join(value)
    if kind == "games":
        return "; ".join(f"{g['weekday']} {g['start']:%H:%M}-{g['end']:%H:%M}" for g in value)
    if kind == "years":
        return ", ".join(f"{y}: {n}" for y, n in value.items()) or None
    return value


def _ranges(days: list[dt.date]) -> list[str]:
    """Sorted dates as dates and ``FIRST..LAST`` runs of three or more consecutive days."""
    out: list[str] = []
    i = 0
    while i < len(days):
        j = i
        while j + 1 < len(days) and days[j + 1] - days[j] == dt.timedelta(days=1):
            j += 1
        if j - i >= 2:
            out.append(f"{days[i].isoformat()}..{days[j].isoformat()}")
        else:
            out.extend(d.isoformat() for d in days[i:j + 1])
        i = j + 1
    return out


def value_at(record: Mapping[str, Any], path: Sequence[str]) -> Any:
    node: Any = record
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def validation(ws: Worksheet, column: Column, ref: str) -> None:
    # start-up time: openpyxl only when a workbook is written
    from openpyxl.worksheet.datavalidation import DataValidation

    kind = column.kind
    dv: DataValidation | None = None
    if kind == "choice":
        dv = DataValidation(type="list", formula1='"' + ",".join(column.choices) + '"',
                            allow_blank=True)
    elif kind == "list" and column.choices:
        # a comma list of weekdays ("fri, sat"): a list validation would refuse it (or pop up
        # a box for each); an input message says the choices when the cell is selected, and
        # the reading names a wrong one (rule SCENARIO)
        dv = DataValidation(allow_blank=True, showInputMessage=True,
                            promptTitle=column.header[:32],
                            prompt=("One or more of " + ", ".join(column.choices) +
                                    ", separated by commas, e.g. fri, sat")[:255])
        dv.showErrorMessage = False
        ws.add_data_validation(dv)
        dv.add(ref)
        return
    elif kind == "bool":
        dv = DataValidation(type="list", formula1='"TRUE,FALSE"', allow_blank=True)
    elif kind == "date":
        dv = DataValidation(type="date", operator="between",  # the loader's years
                            formula1=f"DATE({FIRST_YEAR},1,1)",
                            formula2=f"DATE({LAST_YEAR},12,31)", allow_blank=True,
                            error="A date, e.g. 2027-03-01")
    elif kind in ("money", "share"):
        dv = DataValidation(type="decimal", operator="between", formula1="0",
                            formula2="1" if kind == "share" else "1000000000",
                            allow_blank=True, errorStyle="warning",
                            error="A percentage from 0 % to 100 %" if kind == "share"
                            else "An amount in US dollars, e.g. 50")
    elif kind == "int":
        dv = DataValidation(type="whole", operator="between", formula1="0",
                            formula2="1000000", allow_blank=True,
                            error="A whole number")
    if dv is not None:
        dv.showErrorMessage = True
        dv.errorTitle = column.header
        ws.add_data_validation(dv)
        dv.add(ref)


def style(cell: Any, column: Column, value: Any) -> None:
    fmt = _FORMATS.get(column.kind)
    if fmt and (not isinstance(value, str) or fmt == "@"):
        cell.number_format = fmt
