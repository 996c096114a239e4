"""CSV text of a table, in pieces: the plan folder's CSV files (schedule.csv, licenses.csv,
unscheduled.csv, deadlines.csv) are written a few thousand rows at a time, never whole in
memory (issue #27: at N = 1,000, schedule.csv's rows as one DataFrame were about 100 MB).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence

import pandas as pd

__all__ = ["ROWS_PER_PIECE", "csv_pieces"]

ROWS_PER_PIECE = 4096
"""Rows of each piece :func:`csv_pieces` gives."""


def csv_pieces(records: Iterable[Mapping[str, object]], columns: Sequence[str],
               rows: int = ROWS_PER_PIECE) -> Iterator[bytes]:
    """The CSV file of ``records`` (one mapping per row; ``columns`` in order): the header,
    then the rows, ``rows`` at a time, each piece UTF-8 with ``\\n`` line ends.

    The pieces joined are the bytes of ``pandas.DataFrame(list(records),
    columns=columns).to_csv(index=False, lineterminator="\\n")`` when each column holds
    text, whole numbers, ``Decimal`` or None (an empty cell), but no whole number beside a
    None (pandas would write that column as floats): each value is written as itself in any
    piece. No records give the header alone. The records are read as the pieces are asked
    for.
    """
    it = iter(records)
    header = True
    while True:
        chunk = list(itertools.islice(it, rows))
        if chunk or header:
            text = pd.DataFrame(chunk, columns=list(columns)).to_csv(
                index=False, header=header, lineterminator="\n")
            yield text.encode("utf-8")
        header = False
        if len(chunk) < rows:
            return
