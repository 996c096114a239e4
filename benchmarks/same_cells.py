"""Do two .xlsx files read back the same? Every cell as openpyxl reads it, and the layout.

    .venv/bin/python benchmarks/same_cells.py OLD.xlsx NEW.xlsx

For each sheet (the same names, in the same order): every cell's value, Python type, data
type, number format, bold, fill and wrapping; each column's width; the frozen pane, the
autofilter, the used range, the print titles, orientation, fit to page and margins. Prints
the first differences and the count; exit code 0 when there is none, 1 otherwise. Used to
compare plan.xlsx written by XlsxWriter with the direct writer (issue #27,
docs/development.md).
"""

from __future__ import annotations

import sys
from typing import Any

import openpyxl


def describe(ws: Any) -> tuple[dict[str, tuple[Any, ...]], dict[int, Any], dict[str, Any]]:
    """A sheet as (cells by coordinate, widths by column number, layout)."""
    cells = {c.coordinate: (c.value, type(c.value).__name__, c.data_type, c.number_format,
                            bool(c.font.b), c.fill.patternType, c.fill.fgColor.rgb,
                            c.alignment.wrap_text, c.alignment.vertical)
             for row in ws.iter_rows() for c in row}
    widths = {j: d.width for d in ws.column_dimensions.values()
              for j in range(d.min, d.max + 1)}
    fit = ws.sheet_properties.pageSetUpPr
    margins = ws.page_margins
    layout = {"used": ws.dimensions, "pane": ws.freeze_panes, "filter": ws.auto_filter.ref,
              "titles": ws.print_title_rows, "orientation": ws.page_setup.orientation,
              "fit": (fit and fit.fitToPage, ws.page_setup.fitToWidth,
                      ws.page_setup.fitToHeight),
              "margins": (margins.left, margins.right, margins.top, margins.bottom,
                          margins.header, margins.footer)}
    return cells, widths, layout


def differences(old: str, new: str, show: int = 20) -> int:
    """The number of differences between ``old`` and ``new`` (printing the first ``show``)."""
    a, b = openpyxl.load_workbook(old), openpyxl.load_workbook(new)
    if a.sheetnames != b.sheetnames:
        print(f"sheets: {a.sheetnames} against {b.sheetnames}")
        return 1
    found = compared = 0
    for name in a.sheetnames:
        (ca, wa, la), (cb, wb, lb) = describe(a[name]), describe(b[name])
        pairs = [(f"{name} widths", wa, wb)] + [(f"{name} {k}", la[k], lb[k]) for k in la]
        pairs += [(f"{name}!{k}", ca.get(k), cb.get(k)) for k in sorted(ca.keys() | cb.keys())]
        compared += len(ca.keys() | cb.keys())
        for where, x, y in pairs:
            if x != y:
                found += 1
                if found <= show:
                    print(f"{where}: {x!r} against {y!r}")
    print(f"{compared:,} cells in {len(a.sheetnames)} sheets compared: {found} difference(s)")
    return found


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(1 if differences(sys.argv[1], sys.argv[2]) else 0)
