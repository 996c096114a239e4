"""``tourney ledger export`` and ``tourney ledger import``: every entry as one CSV and back,
references written as keys; and the counts of entries.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, String, func, select

from scheduler.core.clock import latest_today
from scheduler.core.limits import (
    MAX_PROBLEMS_SHOWN,
    LimitError,
    NotText,
    read_csv_bounded,
    short,
)
from scheduler.core.scenario_types import DEFAULT_TIMEZONE
from scheduler.core.text import csv_cells, uncell
from scheduler.ledger.checks import duplicate_problems, entry_problems, reference_problems
from scheduler.ledger.frames import Ledger
from scheduler.ledger.models import FACTS, Base, select_current
from scheduler.ledger.spellings import read_bool, read_count, read_day, read_usd
from scheduler.ledger.store import LedgerError, note_problem, now, who


# ------------------------------------------------------------------ export / import
def ledger_tables() -> list[Any]:
    """Every table, parents before children."""
    return list(Base.metadata.sorted_tables)


def _fk_target(col: Any) -> Any | None:
    fks = list(col.foreign_keys)
    return fks[0].column.table if fks else None


LINEAGE_DIGITS = 10
"""A plan lineage is ten hex digits (:func:`scheduler.core.uid.lineage_key`); one of only
decimal digits that a spreadsheet read as a number lost its leading zeros, given back."""
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


def export_entries(ledger: Ledger) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every entry of every table, parents first, in id order, as ``(table, values)``:
    ``values`` by column name (``id`` left out), typed as the ledger holds them (dates,
    ``Decimal`` USD, booleans, ints), except references to other entries, written as the
    other entry's key (so an import into any ledger rebuilds them), and texts
    spreadsheet-safe (:func:`scheduler.core.text.csv_cells`: ``'=...``, read back by the
    import). What :func:`export_csv` and the workbook export write."""
    with ledger.read() as s:
        keys: dict[tuple[str, int], str] = {}
        for t in ledger_tables():
            for row in s.execute(select(t).order_by(t.c.id)).mappings():
                keys[(t.name, row["id"])] = row["key"]
                rec: dict[str, Any] = {}
                for c in t.columns:
                    if c.name == "id":
                        continue
                    v = row[c.name]
                    target = _fk_target(c)
                    if v is not None and target is not None:
                        v = keys[(target.name, v)]
                    elif isinstance(v, dt.datetime):
                        v = v.replace(tzinfo=dt.UTC) if v.tzinfo is None else v
                    rec[c.name] = csv_cells(v) if _is_text(c) else v
                yield t, rec


def export_csv(ledger: Ledger, out: io.TextIOBase | Any) -> int:
    """``tourney ledger export``: every entry of every table to ``out`` as one CSV, parents
    first, in id order: columns ``table, key, recorded_at, recorded_by`` and the union of the
    tables' own columns; references to other entries (``organization_id``, ``supersedes_id``,
    …) are written as the other entry's key, so :func:`import_csv` into any ledger rebuilds
    them. Dates ISO 8601, times UTC, USD with cents. Returns the number of entries."""
    writer = csv.DictWriter(out, fieldnames=export_columns(), lineterminator="\n")
    writer.writeheader()
    n = 0
    for t, values in export_entries(ledger):
        writer.writerow({"table": t.name, **{c: _text(v) for c, v in values.items()}})
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
    """The typed value of cell ``text`` of column ``col``, read as spreadsheets write it
    (:mod:`scheduler.ledger.spellings`: ``TRUE``, ``$1,234.50``, ``1234,50``, ``1/5/2027``);
    :class:`LedgerError` naming ``where``, the column and the text otherwise."""
    if text.strip() == "" and not _is_text(col):
        return None
    if text == "":  # an empty cell: NULL, or the empty text of a column that has no NULL
        return "" if not col.nullable and isinstance(col.type, String) else None
    if col.name == "lineage" and text.strip().isdigit() and len(text.strip()) < LINEAGE_DIGITS:
        # ten hex digits a spreadsheet took for a number: 0123456789 written as 123456789
        return text.strip().zfill(LINEAGE_DIGITS)
    try:
        if isinstance(col.type, Boolean):
            return read_bool(text)
        if isinstance(col.type, DateTime):
            return dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00")
                                             ).astimezone(dt.UTC)
        if isinstance(col.type, Date):
            return read_day(text)
        if isinstance(col.type, Numeric):
            try:
                return read_usd(text)
            except ValueError as exc:  # the amount checks' words: "... is not an amount"
                shown = text.strip() if len(text.strip()) <= 40 else short(text.strip(), 40)
                raise LedgerError(f"{where}: column {col.name}: {shown} is "
                                  f"{exc}") from None
        if isinstance(col.type, Integer):
            return read_count(text)
    except (ValueError, InvalidOperation, OverflowError) as exc:
        raise LedgerError(f"{where}: column {col.name}: {short(text)} is not valid ({exc})"
                          ) from None
    value = uncell(text) if _is_text(col) else text
    problem = note_problem(value) if col.name == "note" else None
    if problem:  # as `record --note` refuses it, with the line and column
        raise LedgerError(f"{where}: column {problem}")
    return value


_FACT_TABLES = frozenset(m.__tablename__ for m in FACTS)


def problems_text(problems: Sequence[str]) -> str:
    """One problem as it is; several as a count and one line each (at most
    :data:`~scheduler.core.limits.MAX_PROBLEMS_SHOWN`, the rest counted)."""
    if len(problems) == 1:
        return problems[0]
    shown = [f"  {p}" for p in problems[:MAX_PROBLEMS_SHOWN]]
    more = len(problems) - len(shown)
    return "\n".join([f"{len(problems) if not more else f'more than {len(shown)}'} problems "
                      "in the file:", *shown,
                      *(["  ... and more, not shown"] if more > 0 else [])])


EDITABLE: dict[str, tuple[str, ...]] = {
    "held": ("outcome", "first_day", "last_day", "players", "entries", "entry_fees_usd",
             "prizes_usd", "charity_usd", "expenses_usd", "surcharge_usd", "charity_to",
             "charity_is_licensee", "under_21_admitted", "away_from_establishment", "note"),
    "filings": ("filed_on", "agency_number", "note"),
    "licences": ("tier", "fee_usd", "valid_from", "valid_to", "license_ref", "note"),
    "reports": ("filed_on", "note"),
}
"""The columns of each fact table an edited export may change (``tourney ledger import
--apply-edits`` records each changed row as a correction): the figures and days, never what
the entry is about (:data:`scheduler.ledger.checks.SAME_THING`, a correction is about the
same thing, as ``--corrects`` requires), nor who recorded it and when."""


@dataclass(frozen=True)
class Change:
    """One field of an exported row that differs from the ledger: ``where`` the cell (or
    line), ``column``, the ledger's ``old`` text and the file's ``new`` one (as the export
    writes them: USD with cents, ISO days, true/false)."""

    where: str
    column: str
    old: str
    new: str


@dataclass(frozen=True)
class Edit:
    """A row of an edited export that differs from the ledger's entry of the same key:
    ``where`` the row, ``table``, the entry's ``entry_id`` and ``what`` (e.g. ``held
    deep#1 at room-a``), its :class:`Change` s, and ``corrected_by`` the id of the
    correction recorded (``--apply-edits``; None when not recorded)."""

    where: str
    table: str
    entry_id: int
    what: str
    changes: tuple[Change, ...]
    corrected_by: int | None = None

    def render(self) -> str:
        """One line: the row, the entry and each field's old → new."""
        fields = "; ".join(f"{c.column} {c.old or '(empty)'} → {c.new or '(empty)'}"
                           for c in self.changes)
        done = f", recorded as correction #{self.corrected_by}" if self.corrected_by else ""
        return f"{self.where}: {self.table} entry #{self.entry_id} ({self.what}): {fields}{done}"


@dataclass(frozen=True)
class Imported:
    """What ``tourney ledger import`` did: entries added, and entries already in the ledger
    (same key and values: skipped, so importing a file twice adds nothing); ``edits`` the
    rows that differ from the ledger's entry of their key, each recorded as a correction
    (``--apply-edits``: ``corrected`` of them)."""

    added: int
    skipped: int
    edits: tuple[Edit, ...] = ()
    corrected: int = 0


class EditsNotApplied(LedgerError):
    """An edited export imported without ``--apply-edits``: rows differ from the ledger.
    Nothing is imported (exit 2: the command adds "Nothing was recorded."); the message
    lists every differing field."""

    def __init__(self, edits: Sequence[Edit]) -> None:
        self.edits = tuple(edits)
        shown = [f"  {e.render()}" for e in self.edits[:MAX_PROBLEMS_SHOWN]]
        more = len(self.edits) - len(shown)
        super().__init__("\n".join([
            f"{len(self.edits)} row(s) of the file differ from the ledger (edited after the "
            "export):", *shown, *([f"  ... and {more} more"] if more > 0 else []),
            "give --apply-edits to record each as a correction of its entry (the entry "
            "stays, superseded), or put the old values back"]))


def _csv_rows(path: Path) -> list[dict[str, str]]:
    """The rows of CSV file ``path`` as :func:`import_rows` takes them, read as spreadsheets
    write CSV: a UTF-8 byte-order mark (Excel's "CSV UTF-8") dropped; rows of only empty
    cells (``,,,,``: Excel writes them) left out."""
    try:
        header, rows = read_csv_bounded(path)  # its size and rows bounded (docs/limits.md)
    except FileNotFoundError:
        raise LedgerError(f"{path} does not exist") from None
    except LimitError as exc:
        raise LedgerError(f"{path}: {str(exc).removeprefix('cannot read the file: ')}"
                          ) from None
    except NotText as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    except (OSError, csv.Error) as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from None
    if header and header[0].startswith("\ufeff"):
        bom = header[0]
        header[0] = bom[1:]
        rows = [{(header[0] if k == bom else k): v for k, v in r.items()} for r in rows]
    if header[:2] != ["table", "key"]:
        raise LedgerError(f"{path} line 1: not a file written by `tourney ledger export` "
                          "(its first line is the header table,key,...)")
    return rows


def blank(row: dict[str, Any]) -> bool:
    """Whether a CSV or sheet row holds nothing but empty cells (a row of only commas)."""
    return all(v is None or (isinstance(v, str) and not v.strip())
               or (isinstance(v, list) and all(not str(x).strip() for x in v))
               for v in row.values())


def import_csv(ledger: Ledger, path: str | os.PathLike[str], *,
               today: dt.date | None = None, apply_edits: bool = False,
               by: str | None = None) -> Imported:
    """``tourney ledger import FILE.csv``: add the entries of a file :func:`export_csv`
    wrote, in one transaction (all or nothing). Entries whose key the ledger already has,
    with the same values, are skipped; references are resolved by key (to entries of the
    file or of the ledger). A row whose values differ from the ledger's entry of its key
    (the file was edited) is an :class:`Edit`: recorded as a correction of that entry with
    ``apply_edits`` (by ``by``), else :class:`EditsNotApplied` lists every one and nothing
    is imported.

    Cells are read as spreadsheets write them (:mod:`scheduler.ledger.spellings`: a BOM,
    ``TRUE``/``FALSE``, ``$1,234.50``, ``1234,50``, rows of only commas).

    Every row goes through the checks ``tourney record`` makes
    (:func:`scheduler.ledger.checks.entry_problems` and
    :func:`~scheduler.ledger.checks.reference_problems`: amounts, counts, days not after
    ``today`` (default the computer's), outcomes and kinds, the occurrence or licence an
    entry is about). Raises :class:`LedgerError` naming the line and column of every
    problem (at most :data:`~scheduler.core.limits.MAX_PROBLEMS_SHOWN`, the rest counted),
    nothing imported: an unreadable or refused value, an unknown table, a reference to a key
    that is nowhere, a file over the size or row limits, a file whose header is not the
    export's, an edit of a column that says what an entry is about (:data:`EDITABLE`)."""
    path = Path(path)
    rows = _csv_rows(path)
    lines = [i for i, r in enumerate(rows, start=2) if not blank(r)]
    kept = [rows[i - 2] for i in lines]
    return import_rows(ledger, kept, lambda i, column: f"{path} line {lines[i - 2]}",
                       today=today, apply_edits=apply_edits, by=by)


def _same(col: Any, old: Any, new: Any) -> bool:
    """Whether the ledger's ``old`` value of ``col`` is the file's ``new`` one (an empty
    text is no text; times to the second, in UTC)."""
    if _is_text(col):
        return (old or "") == (new or "")
    if old is None or new is None:
        return old is None and new is None
    if isinstance(col.type, DateTime):
        def utc(v: dt.datetime) -> dt.datetime:
            v = v.replace(tzinfo=dt.UTC) if v.tzinfo is None else v.astimezone(dt.UTC)
            return v.replace(microsecond=0)
        return bool(utc(old) == utc(new))
    if isinstance(col.type, Numeric):
        return Decimal(str(old)) == Decimal(str(new))
    return bool(old == new)


def _what(table: str, stored: Any) -> str:
    """What an entry is about, in a few words (``held deep#1 at room-a``)."""
    if table == "held":
        return (f"{stored['outcome']} {stored['tournament_id']}#{stored['occurrence']} at "
                f"{stored['operator_id']}")
    if table == "filings":
        about = stored["license_ref"] or f"{stored['tournament_id']}#{stored['occurrence']}"
        return f"{stored['kind']} {about}"
    if table == "licences":
        return f"{stored['kind']} {stored['agency_number']}"
    if table == "reports":
        return f"{stored['rule']} {stored['license_ref']} period ending {stored['period_end']}"
    return table


def import_rows(ledger: Ledger, rows: Sequence[dict[str, str]],
                locate: Callable[[int, str | None], str], *,
                today: dt.date | None = None, apply_edits: bool = False,
                by: str | None = None) -> Imported:
    """Add ``rows`` (dicts of text cells keyed by :func:`export_csv`'s columns; the first
    is line 2, after the header) in one transaction, as :func:`import_csv` does.
    ``locate(line, column)`` names where a value is for messages (``column`` None: the
    row), e.g. ``"ledger.csv line 7"`` or ``"ledger.xlsx Held!C7"``. Rows that differ from
    the ledger's entry of their key are :class:`Edit` s, recorded as corrections with
    ``apply_edits``. Raises :class:`LedgerError` (:class:`EditsNotApplied` for edits without
    ``apply_edits``) as :func:`import_csv`."""
    by_name = {t.name: t for t in ledger_tables()}
    added = skipped = 0
    edits: list[Edit] = []
    with ledger.write() as s:
        conn = s.connection()
        ids: dict[tuple[str, str], int] = {}

        # the keys the ledger holds already, of the tables the file has rows of
        for name in sorted({r.get("table") or "" for r in rows} & set(by_name)):
            t = by_name[name]
            for k, i in conn.execute(select(t.c.key, t.c.id)):
                ids[(name, k)] = i
        held_before = set(ids)
        stored_rows: dict[str, dict[str, Any]] = {}

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
        corrections: list[tuple[int, str, str]] = []  # (edit index, table, new key)
        refused_keys: set[tuple[str, str]] = set()  # a row referring to one: no 2nd problem
        today = latest_today(DEFAULT_TIMEZONE.values(), today)  # where the operators are

        def label(column: str) -> str:
            return f"column {column}"

        def add(t: Any, values: dict[str, Any], key: str) -> None:
            if batch_table and batch_table[0] is not t:
                flush()
            batch_table[:1] = [t]
            batch.append(values)
            in_batch.add((t.name, key))

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
            key = (r.get("key") or "").strip()
            if not re.fullmatch(r"[0-9a-f]{32}", key):
                problems.append(f"{locate(i, 'key')}: key {short(key)} is not 32 hex digits")
                continue
            if (t.name, key) in in_batch or ((t.name, key) in ids
                                             and (t.name, key) not in held_before):
                skipped += 1  # twice in the file
                continue
            if t.name == "organizations" and (t.name, key) not in ids:
                # the ledger's organization of that name (`ledger init --name` made it) is
                # the file's: its entries join it
                same = conn.execute(select(t.c.id).where(
                    t.c.name == (r.get("name") or "").strip())).scalar()
                if same is not None:
                    ids[(t.name, key)] = same
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
                if target is not None and (target.name, text.strip()) in refused_keys:
                    follows = True
                    continue
                try:
                    if target is not None and text.strip() != "":
                        values[c.name] = resolve_key(target, text.strip(), at)
                    else:
                        values[c.name] = _value(c, text, at)
                except LedgerError as exc:
                    problems.append(str(exc))
                    continue
                if values[c.name] is None and not c.nullable:
                    problems.append(f"{at}: column {c.name} is empty")
            if len(problems) > refused or follows:
                problems += [f"{locate(i, column)}: {message}" for column, message
                             in entry_problems(t.name, values, label, today)]
                refused_keys.add((t.name, key))
                continue
            if (t.name, key) in held_before:  # in the ledger: the same, or edited
                if t.name not in stored_rows:  # the table's entries, read once
                    stored_rows[t.name] = {m["key"]: m for m in
                                           conn.execute(select(t)).mappings()}
                stored = stored_rows[t.name][key]
                changed = [c for c in t.columns if c.name != "id"
                           and not _same(c, stored[c.name], values.get(c.name))]
                if not changed:
                    skipped += 1
                    continue
                fixed = [c.name for c in changed if c.name not in EDITABLE.get(t.name, ())]
                if fixed:
                    why = ("a plan's entries are as adopted (adopt a new plan instead)"
                           if t.name not in EDITABLE else
                           "it says what the entry is about, or who recorded it and when "
                           "(record a new entry with `tourney record` instead)")
                    problems += [f"{locate(i, c)}: column {c} differs from the ledger's entry "
                                 f"#{stored['id']} ({_shown(t.c[c], stored[c])} → "
                                 f"{_shown(t.c[c], values.get(c))}) and cannot be edited: {why}"
                                 for c in fixed]
                    continue
                newer = conn.execute(select(t.c.id).where(t.c.supersedes_id == stored["id"])
                                     ).scalar()
                if newer is not None:
                    problems.append(f"{where}: {t.name} entry #{stored['id']} was already "
                                    f"corrected by #{newer}: edit the row of #{newer} instead")
                    continue
                edits.append(Edit(where, t.name, int(stored["id"]), _what(t.name, stored),
                                  tuple(Change(locate(i, c.name), c.name,
                                               _shown(c, stored[c.name]),
                                               _shown(c, values.get(c.name)))
                                        for c in changed)))
                if not apply_edits:
                    continue
                # a correction (what `tourney record ... --corrects ID` records): a new
                # entry about the same thing, superseding the entry edited
                key = uuid.uuid4().hex
                values.update(key=key, recorded_at=now(), recorded_by=who(by),
                              supersedes_id=int(stored["id"]))
                corrections.append((len(edits) - 1, t.name, key))
            # the checks `tourney record` makes, on the same typed values (one home)
            problems += [f"{locate(i, column)}: {message}" for column, message
                         in entry_problems(t.name, values, label, today)]
            if len(problems) > refused:
                refused_keys.add((t.name, key))
                continue
            if t.name == "operators" and (t.name, key) not in held_before:
                flush()  # the ledger's operator of that id in that organization is the file's
                same = conn.execute(select(t.c.id).where(
                    t.c.organization_id == values.get("organization_id"),
                    t.c.operator_id == values.get("operator_id"))).scalar()
                if same is not None:
                    ids[(t.name, key)] = same
                    skipped += 1
                    continue
            add(t, values, key)
            if not corrections or corrections[-1][2] != key:
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
            raise LedgerError(problems_text(problems))
        if edits and not apply_edits:
            raise EditsNotApplied(edits)
        for k, name, key in corrections:
            edits[k] = replace(edits[k], corrected_by=ids[(name, key)])
    return Imported(added, skipped, tuple(edits), len(corrections))


def _shown(col: Any, value: Any) -> str:
    """A value as the export writes it (references as the entry id they are)."""
    if value is not None and _fk_target(col) is not None:
        return f"#{value}"
    return _text(value)


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
