"""``tourney ledger export`` and ``tourney ledger import``: every entry as one CSV and back,
references written as keys; and the counts of entries.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, String, func, select

from scheduler.core.clock import latest_today
from scheduler.core.limits import MAX_PROBLEMS_SHOWN, LimitError, read_csv_bounded, short
from scheduler.core.scenario_types import DEFAULT_TIMEZONE
from scheduler.core.text import csv_cells, uncell
from scheduler.ledger.checks import duplicate_problems, entry_problems, reference_problems
from scheduler.ledger.frames import Ledger
from scheduler.ledger.models import FACTS, Base, select_current
from scheduler.ledger.store import LedgerError


# ------------------------------------------------------------------ export / import
def ledger_tables() -> list[Any]:
    """Every table, parents before children."""
    return list(Base.metadata.sorted_tables)


def _fk_target(col: Any) -> Any | None:
    fks = list(col.foreign_keys)
    return fks[0].column.table if fks else None


EXPORT_HEAD = ("table", "key", "recorded_at", "recorded_by")
"""The first columns of every export's header, of this schema and of every earlier one."""


def export_columns() -> list[str]:
    """The columns of :func:`export_csv`'s header, in order: :data:`EXPORT_HEAD`, then the
    union of the tables' own columns (``id`` left out), parents first."""
    columns: list[str] = list(EXPORT_HEAD)
    for t in ledger_tables():
        for c in t.columns:
            if c.name not in columns and c.name != "id":
                columns.append(c.name)
    return columns


def export_csv(ledger: Ledger, out: io.TextIOBase | Any) -> int:
    """``tourney ledger export``: every entry of every table to ``out`` as one CSV, parents
    first, in id order: columns ``table, key, recorded_at, recorded_by`` and the union of the
    tables' own columns; references to other entries (``organization_id``, ``supersedes_id``,
    …) are written as the other entry's key, so :func:`import_csv` into any ledger rebuilds
    them. Dates ISO 8601, times UTC, USD with cents. Returns the number of entries."""
    tables = ledger_tables()
    columns = export_columns()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    n = 0
    with ledger.read() as s:
        keys: dict[tuple[str, int], str] = {}
        for t in tables:
            for row in s.execute(select(t).order_by(t.c.id)).mappings():
                keys[(t.name, row["id"])] = row["key"]
                rec: dict[str, str] = {"table": t.name}
                for c in t.columns:
                    if c.name == "id":
                        continue
                    v = row[c.name]
                    target = _fk_target(c)
                    if v is not None and target is not None:
                        v = keys[(target.name, v)]
                    text = _text(v)
                    # a note, a name: spreadsheet-safe ('=...' as "'=..."), read back by _value
                    rec[c.name] = csv_cells(text) if _is_text(c) else text
                writer.writerow(rec)
                n += 1
    return n


def _is_text(col: Any) -> bool:
    """Whether a column holds text (its cells written with :func:`scheduler.core.text.cell`)."""
    return isinstance(col.type, String) and _fk_target(col) is None


def _text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dt.datetime):
        v = v.replace(tzinfo=dt.UTC) if v.tzinfo is None else v.astimezone(dt.UTC)
        return v.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, Decimal):
        return f"{v:.2f}"
    return str(v)


def _value(col: Any, text: str, where: str) -> Any:
    if text == "":  # an empty cell: NULL, or the empty text of a column that has no NULL
        return "" if not col.nullable and isinstance(col.type, String) else None
    try:
        if isinstance(col.type, Boolean):
            if text not in ("true", "false"):
                raise ValueError("not true/false")
            return text == "true"
        if isinstance(col.type, DateTime):
            return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC)
        if isinstance(col.type, Date):
            return dt.date.fromisoformat(text)
        if isinstance(col.type, Numeric):
            return Decimal(text)
        if isinstance(col.type, Integer):
            return int(text)
    except (ValueError, InvalidOperation, OverflowError) as exc:
        raise LedgerError(f"{where}: column {col.name}: {short(text)} is not valid ({exc})"
                          ) from None
    return uncell(text) if _is_text(col) else text


_FACT_TABLES = frozenset(m.__tablename__ for m in FACTS)


def _refusal(problems: Sequence[str]) -> str:
    """One problem as it is; several as a count and one line each (at most
    :data:`~scheduler.core.limits.MAX_PROBLEMS_SHOWN`, the rest counted)."""
    if len(problems) == 1:
        return problems[0]
    shown = [f"  {p}" for p in problems[:MAX_PROBLEMS_SHOWN]]
    more = len(problems) - len(shown)
    return "\n".join([f"{len(problems) if not more else f'more than {len(shown)}'} problems "
                      "in the file:", *shown,
                      *(["  ... and more, not shown"] if more > 0 else [])])


@dataclass(frozen=True)
class Imported:
    """What ``tourney ledger import`` did: entries added, and entries already in the ledger
    (same key: skipped, so importing a file twice adds nothing)."""

    added: int
    skipped: int


def import_csv(ledger: Ledger, path: str | os.PathLike[str], *,
               today: dt.date | None = None) -> Imported:
    """``tourney ledger import FILE.csv``: add the entries of a file :func:`export_csv`
    wrote, in one transaction (all or nothing). Entries whose key the ledger already has are
    skipped; references are resolved by key (to entries of the file or of the ledger).

    Every row goes through the checks ``tourney record`` makes
    (:func:`scheduler.ledger.checks.entry_problems` and
    :func:`~scheduler.ledger.checks.reference_problems`: amounts, counts, days not after
    ``today`` (default the computer's), outcomes and kinds, the occurrence or licence an
    entry is about). Raises :class:`LedgerError` naming the line and column of every
    problem (at most :data:`~scheduler.core.limits.MAX_PROBLEMS_SHOWN`, the rest counted),
    nothing imported: an unreadable or refused value, an unknown table, a reference to a key
    that is nowhere, a file over the size or row limits, a file whose header is not the
    export's."""
    path = Path(path)
    try:
        header, rows = read_csv_bounded(path)  # its size and rows bounded (docs/limits.md)
    except FileNotFoundError:
        raise LedgerError(f"{path} does not exist") from None
    except LimitError as exc:
        raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                          ) from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    if header[:2] != ["table", "key"]:
        raise LedgerError(f"{path} line 1: not a file written by `tourney ledger export` "
                          "(its first line is the header table,key,...)")
    return import_rows(ledger, rows, lambda i, column: f"{path} line {i}", today=today)


def import_rows(ledger: Ledger, rows: Sequence[dict[str, str]],
                locate: Callable[[int, str | None], str], *,
                today: dt.date | None = None) -> Imported:
    """Add ``rows`` (dicts of text cells keyed by :func:`export_csv`'s columns; the first
    is line 2, after the header) in one transaction, as :func:`import_csv` does.
    ``locate(line, column)`` names where a value is for messages (``column`` None: the
    row), e.g. ``"ledger.csv line 7"`` or ``"ledger.xlsx Ledger!C7"``. Raises
    :class:`LedgerError` as :func:`import_csv`."""
    by_name = {t.name: t for t in ledger_tables()}
    added = skipped = 0
    with ledger.write() as s:
        conn = s.connection()
        ids: dict[tuple[str, str], int] = {}

        # the keys the ledger holds already, of the tables the file has rows of
        for name in sorted({r.get("table") or "" for r in rows} & set(by_name)):
            t = by_name[name]
            for k, i in conn.execute(select(t.c.key, t.c.id)):
                ids[(name, k)] = i

        # rows are inserted in batches of one table (executemany), flushed before a row
        # refers to one of them and at the end
        batch: list[dict[str, Any]] = []
        batch_table: list[Any] = []
        in_batch: set[tuple[str, str]] = set()

        def flush() -> None:
            if not batch:
                return
            t = batch_table[0]
            conn.execute(t.insert(), batch)
            keys = [b["key"] for b in batch]
            for j in range(0, len(keys), 500):
                for k, i in conn.execute(select(t.c.key, t.c.id)
                                         .where(t.c.key.in_(keys[j:j + 500]))):
                    ids[(t.name, k)] = i
            batch.clear()
            batch_table.clear()
            in_batch.clear()

        def resolve_key(table: Any, key: str, where: str) -> int:
            if (table.name, key) in in_batch:
                flush()
            if (table.name, key) not in ids:
                found = conn.execute(select(table.c.id).where(table.c.key == key)).scalar()
                if found is None:
                    raise LedgerError(f"{where}: refers to {table.name} entry {key}, which is "
                                      "neither in the file before it nor in the ledger")
                ids[(table.name, key)] = found
            return ids[(table.name, key)]

        problems: list[str] = []  # every problem of every row: nothing is imported
        facts: list[tuple[int, str, dict[str, Any]]] = []
        refused_keys: set[tuple[str, str]] = set()  # a row referring to one: no 2nd problem
        today = latest_today(DEFAULT_TIMEZONE.values(), today)  # where the operators are

        def label(column: str) -> str:
            return f"column {column}"

        for i, r in enumerate(rows, start=2):
            if len(problems) > MAX_PROBLEMS_SHOWN:
                break  # enough to say the file is refused; the count says there are more
            where = locate(i, None)
            t = by_name.get(r.get("table") or "")
            if t is None:
                problems.append(f"{locate(i, 'table')}: table {short(r.get('table') or '')} "
                                "is not a ledger table (a file written by `tourney ledger "
                                "export`?)")
                continue
            key = r.get("key") or ""
            if not re.fullmatch(r"[0-9a-f]{32}", key):
                problems.append(f"{locate(i, 'key')}: key {short(key)} is not 32 hex digits")
                continue
            if (t.name, key) in ids or (t.name, key) in in_batch:
                skipped += 1
                continue
            values: dict[str, Any] = {}
            refused = len(problems)
            follows = False  # refers to a refused row: refused with it, said once
            for c in t.columns:
                if c.name == "id":
                    continue
                text = r.get(c.name)
                if text is None and c.nullable:
                    text = ""  # a column added since (an export of an older ledger): empty
                if text is None:
                    problems.append(f"{where}: column {c.name} is missing")
                    continue
                at = locate(i, c.name)
                target = _fk_target(c)
                if target is not None and (target.name, text) in refused_keys:
                    follows = True
                    continue
                try:
                    if target is not None and text != "":
                        values[c.name] = resolve_key(target, text, at)
                    else:
                        values[c.name] = _value(c, text, at)
                except LedgerError as exc:
                    problems.append(str(exc))
                    continue
                if values[c.name] is None and not c.nullable:
                    problems.append(f"{at}: column {c.name} is empty")
            # the checks `tourney record` makes, on the same typed values (one home)
            problems += [f"{locate(i, column)}: {message}" for column, message
                         in entry_problems(t.name, values, label, today)]
            if len(problems) > refused or follows:
                refused_keys.add((t.name, key))
                continue
            if batch_table and batch_table[0] is not t:
                flush()
            batch_table[:1] = [t]
            batch.append(values)
            in_batch.add((t.name, key))
            added += 1
            if t.name in _FACT_TABLES:
                facts.append((i, t.name, values))
        if not problems:
            flush()
            for i, name, values in facts:  # what each fact refers to, the file's plans too
                problems += [f"{locate(i, column)}: {message}" for column, message
                             in reference_problems(conn, name, values, label)]
            for name in sorted({name for _, name, _ in facts}):  # one current answer each
                problems += [f"{locate(i, None)}: {message}" for i, message
                             in duplicate_problems(conn, name, [(i, v) for i, n, v in facts
                                                                if n == name])]
        if problems:
            raise LedgerError(_refusal(problems))
    return Imported(added, skipped)


def current_entries(ledger: Ledger) -> dict[str, int]:
    """How many current entries each fact table holds (for summaries and tests)."""
    with ledger.read() as s:
        return {m.__tablename__: len(list(s.scalars(select_current(m)))) for m in FACTS}


def all_entries(ledger: Ledger) -> dict[str, int]:
    """How many entries each table holds."""
    with ledger.read() as s:
        conn = s.connection()
        return {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
                for t in ledger_tables()}
