"""What the ledger reads of a plan folder (written by ``tourney solve --out``): its CSV files
and their dates, each error a :class:`~scheduler.ledger.store.LedgerError` naming the file.
Shared by :mod:`scheduler.ledger.adopt`, :mod:`scheduler.ledger.record` and
:mod:`scheduler.ledger.deadlines`.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from constraints import maine
from scheduler.core.jurisdiction import installed
from scheduler.core.limits import LimitError, NotText, read_csv_bounded
from scheduler.ledger.store import LedgerError

ME_LICENCE_KINDS = maine.LICENCE_KINDS
"""The Maine licence kinds of licenses.csv (ME-APPLICATION-WINDOW and ME-REPORT apply)."""
LICENCE_KINDS = tuple(k for j in installed() for k in j.licence_kinds)
"""Every kind of licenses.csv (``tourney record licence --kind``), state by state: the Montana
permits (MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b)) and the Maine licences."""


def read_csv(path: Path, columns: Sequence[str] = ()) -> list[dict[str, str]]:
    """The rows of the CSV file ``path`` (header first). Raises :class:`LedgerError` when it
    is missing (not a plan folder), unreadable, over the size or row limits
    (:func:`scheduler.core.limits.read_csv_bounded`), its header lacks one of ``columns``
    (the message names the file and the missing columns), or a row has more or fewer
    cells than the header (named by its number)."""
    try:
        header, rows = read_csv_bounded(path)  # its size and rows bounded (docs/limits.md)
    except FileNotFoundError:
        raise LedgerError(f"{path} is missing: give a plan folder written by `tourney "
                          "solve --out`") from None
    except LimitError as exc:
        raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                          ) from None
    except NotText as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    except (OSError, csv.Error) as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    missing = [c for c in columns if c not in header]
    if missing:
        raise LedgerError(f"{path}: missing column(s) {', '.join(missing)}: give a "
                          "plan folder written by `tourney solve --out`")
    for n, row in enumerate(rows, start=1):  # a cell short or over: not a table tourney wrote
        extra: Any = dict(row).get(None)  # type: ignore[call-overload]  # csv's overflow
        if extra is not None or None in row.values():
            cells = sum(v is not None for v in row.values()) - (extra is not None) + len(
                extra or ())
            raise LedgerError(f"{path}: row {n} (after the header) has {cells} cell(s), the "
                              f"header {len(header)}: not the file `tourney solve --out` "
                              "wrote (solve the scenario again)")
    return rows


def parse_date(value: str, what: str) -> dt.date:
    """``value`` (YYYY-MM-DD, spaces around allowed) as a date; :class:`LedgerError` naming
    ``what`` (the file and line) otherwise."""
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise LedgerError(f"{what}: {value!r} is not a date (YYYY-MM-DD)") from None
