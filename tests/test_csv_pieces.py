"""The plan folder's CSV files are written a few thousand rows at a time
(:func:`scheduler.export.csv_text.csv_pieces`, issue #27): the pieces joined are the bytes of
the whole table written at once, whatever the piece size, and every piece but the first is
rows without the header."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest

from scheduler.export.csv_text import csv_pieces

COLUMNS = ["id", "n", "fee", "title", "note"]
ROWS: list[dict[str, object]] = [
    {"id": "a", "n": 1, "fee": 250, "title": "Hold'em, deep", "note": None},
    {"id": "b", "n": 2, "fee": Decimal("12.50"), "title": 'The "big" one', "note": ""},
    {"id": "c", "n": 3, "fee": 0, "title": "two\nlines", "note": "x"},
]


def test_three_rows_two_at_a_time_are_the_header_with_two_rows_then_one_row() -> None:
    # quoting as the csv module's QUOTE_MINIMAL: a comma, a quote (doubled) or a line break
    # quotes the cell; None an empty cell; a Decimal as written
    assert list(csv_pieces(ROWS, COLUMNS, rows=2)) == [
        b"id,n,fee,title,note\n"
        b'a,1,250,"Hold\'em, deep",\n'
        b'b,2,12.50,"The ""big"" one",\n',
        b'c,3,0,"two\nlines",x\n',
    ]


@pytest.mark.parametrize("rows", [1, 2, 3, 4])
def test_the_pieces_joined_are_the_whole_table_written_at_once(rows: int) -> None:
    # 3 rows: pieces of 1 and 3 rows end exactly at the last row (no empty piece after it)
    whole = pd.DataFrame(ROWS, columns=COLUMNS).to_csv(index=False, lineterminator="\n")
    pieces = list(csv_pieces(iter(ROWS), COLUMNS, rows=rows))
    assert b"".join(pieces) == whole.encode("utf-8")
    assert len(pieces) == -(-3 // rows)  # ceil(3 / rows): 3, 2, 1, 1


def test_no_rows_is_the_header_alone() -> None:
    assert list(csv_pieces([], COLUMNS, rows=2)) == [b"id,n,fee,title,note\n"]
