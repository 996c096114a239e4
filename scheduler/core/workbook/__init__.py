"""A scenario as an Excel workbook (.xlsx): the layout, the template, the reading.

An operator keeps the year in a spreadsheet: ``tourney template year.xlsx`` writes a workbook
with the sheets *Settings* (one field a row), *Operators* and *Tournaments* (one record a
row, one column a field), *Sessions* (flights: one session a row), *History* (the
tournaments held before the plan, per operator) and *Tours*;
``tourney solve year.xlsx`` reads it back. The spelling of every field is in
``docs/scenario.md`` ("The workbook").

:func:`read_workbook` turns a workbook into the same raw mapping the YAML loader validates
(:func:`scheduler.inputs.load.load_scenario` dispatches on the ``.xlsx`` suffix), and a
:class:`Cells` map from field path to cell, so that every problem names the sheet, the cell
and the column header (``Tournaments!F7 (entry_fee)``), never a 0-based index.
:func:`write_workbook` is the writer (the template filled from a scenario's fields).

This package sits below the scenario types (it imports none of them): it knows the columns,
not the rules. openpyxl is imported when a workbook is read or written (start-up time). Its
modules, one way (``lint-imports``, contract ``workbook-layers``): :mod:`.template` (the
template writer, :func:`write_workbook`, :func:`pinned_xlsx`) > :mod:`.reader`
(:func:`read_workbook`) and :mod:`.writing` (writer helpers: :func:`set_cell`, formats,
drop-downs) > :mod:`.shown` (a sheet read as the spreadsheet shows it: :func:`cell_value`,
:func:`read_table`) > :mod:`.scan` (a workbook measured before it is loaded) > :mod:`.cells`
(:class:`WorkbookError`, :class:`Cells`) and :mod:`.layout` (:class:`Column`, the sheets'
columns, :data:`EXAMPLES`).
Import each name from the module that defines it
(``from scheduler.core.workbook.reader import read_workbook``).
"""


__all__ = [
]
