"""What the workbook's reader and writer share: :class:`WorkbookError`, the :class:`Cells`
map from field path to cell, hours as ``H:MM`` text and column letters.

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


# --------------------------------------------------------------------------- errors, cells
class WorkbookError(ValueError):
    """A workbook that cannot be read as a scenario at all (not an .xlsx file, a sheet
    missing, a History row of an unknown operator). ``problems`` lists ``(where, message)``
    pairs, ``where`` a sheet or cell (``History!A3 (operator)``)."""

    def __init__(self, problems: Sequence[tuple[str, str]]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{w}: {m}" for w, m in self.problems))


class Cells(dict[tuple[Any, ...], str]):
    """Field path → where it is in the workbook (``"Tournaments!F7 (entry_fee)"``).

    Used by the loader in place of YAML line numbers. A path deeper than any cell (an item
    of a comma list, a field of a column that does not exist) is found at its nearest
    enclosing cell or row, the rest of the path added (``Tournaments!M7 (weekdays), item 2``;
    ``Tournaments row 7, title``). ``problems`` lists the cells left out (see below);
    ``notes`` lists what the reading accepted but an operator
    should know (a sheet read under another letter case, a sheet not read)."""

    notes: Sequence[str] = ()
    problems: Sequence[tuple[str, Any, str]] = ()
    """Problems of single cells the reading left out, the rest read: (where, the value as
    the cell shows it or None, message), rule SCENARIO; the loader reports them with the
    fields' problems, in one pass."""

    def _find(self, key: tuple[Any, ...]) -> str | None:
        for k in range(len(key), -1, -1):
            label = dict.get(self, key[:k])
            if label is not None:
                rest = key[k:]
                if not rest:
                    return label
                tail = ", ".join(f"item {p + 1}" if isinstance(p, int) else str(p)
                                 for p in rest)
                return f"{label}, {tail}"
        return None

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self._find(key) is not None

    def __getitem__(self, key: tuple[Any, ...]) -> str:
        found = self._find(key)
        if found is None:
            raise KeyError(key)
        return found

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        found = self._find(key)
        return default if found is None else found


def hhmm(hours: int, minutes: int) -> str:
    return f"{hours}:{minutes:02d}"


def letter(index: int) -> str:
    """0-based column index → Excel column letters (0 → A, 26 → AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
