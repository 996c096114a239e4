"""What every entry of the ledger must be, however it arrives: ``tourney record`` (one
entry from the command line) and ``tourney ledger import`` (many, from a file) both call
:func:`entry_problems` on the typed values of an entry, and :func:`reference_problems` on
what it refers to, so an entry refused by one is refused by the other.

The checks are of two kinds:

- by column type, for every table (so a column added later gets them without a word here):
  an amount (``Numeric``) is a finite number of USD, 0 or more, below $10,000,000,000, in
  whole cents; a count (``Integer``) is 0 or more and at most :data:`MAX_COUNT`; a day
  (``Date``) lies in the years :data:`~scheduler.core.limits.FIRST_YEAR` to
  :data:`~scheduler.core.limits.LAST_YEAR`; a text (``String(n)``) has at most ``n`` characters;
- by table: an outcome is ``held`` or ``cancelled``; a held occurrence has its days, the
  last not before the first and not in the future; a cancelled one has neither days nor
  figures; a filing or report is not dated in the future; a licence's validity does not
  end before it starts; the kinds are the product's.

Each problem is ``(column, sentence)``; the sentence starts with ``label(column)``, the
caller's name for it (``--entry-fees`` for ``record``, ``column entry_fees_usd`` for
``import``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy import Date, Integer, Numeric, String, and_, func, select
from sqlalchemy.engine import Connection

from constraints import maine, montana
from scheduler.core.clock import latest_today
from scheduler.core.limits import FIRST_YEAR, LAST_YEAR
from scheduler.core.scenario_types import DEFAULT_TIMEZONE
from scheduler.core.text import control_character, describe_character, format_character
from scheduler.core.timing import report_periods
from scheduler.core.uid import unplanned_uid
from scheduler.ledger.models import (
    Base,
    Lineage,
    Operator,
    PlanEvent,
    PlanLicence,
    PlanVersion,
)
from scheduler.ledger.plans import LICENCE_KINDS, ME_LICENCE_KINDS

MAX_COUNT = 2_147_483_647
"""Largest whole number of a column (an occurrence number, a sequence): PostgreSQL's
INTEGER, what every database of the ledger stores."""
MAX_FIGURE_COUNT = 1_000_000
"""Largest ``players`` or ``entries`` (as a scenario's whole-number fields)."""
_FIGURE_COUNTS = ("players", "entries")
MAX_ENTRY_ID = 2**31 - 1
"""Largest entry id (PostgreSQL's INTEGER); a ``--corrects`` above it names no entry."""
MAX_USD = Decimal(10) ** 10
"""Amounts are below this (``Numeric(12, 2)``: ten digits before the point)."""
FILING_KINDS = ("mt-notice", "me-application")
"""What ``tourney record filed`` records."""
OUTCOMES = ("held", "cancelled")
"""What became of an occurrence (``tourney record held|cancelled``)."""
_FIGURES = ("players", "entries", "entry_fees_usd", "prizes_usd", "charity_usd",
            "expenses_usd")

Label = Callable[[str], str]
Problem = tuple[str, str]


def usd_problem(value: Decimal, label: str, shown: object = None) -> str | None:
    """Why ``value`` is not an amount in USD (not finite, negative, $10,000,000,000 or more,
    a fraction of a cent), else None; ``shown`` is how the sentence spells it (default
    ``value``)."""
    # the bound before quantizing: quantizing 1E+400 would itself raise InvalidOperation
    if not value.is_finite() or value < 0 or value >= MAX_USD \
            or value != value.quantize(Decimal("0.01")):
        return (f"{label}: {value if shown is None else shown} is not an amount in USD (0 or "
                "more, at most cents)")
    return None


def name_problem(name: str, label: str) -> str | None:
    """Why ``name`` (an organization's) cannot be one, else None: it must be one line of
    printable text, as a scenario's ``name`` (a control character such as ESC would drive
    a terminal and break the audit's scenario; an invisible format character such as
    U+202E would disguise it)."""
    ch = control_character(name)
    if ch is not None:
        return (f"{label}: must be one line of printable text; it holds the control "
                f"character {describe_character(ch)} at position {name.index(ch) + 1}")
    ch = format_character(name)
    if ch is not None:
        return (f"{label}: holds the invisible format character {describe_character(ch)} at "
                f"position {name.index(ch) + 1}")
    return None


def count_problem(value: int, label: str, most: int = MAX_COUNT) -> str | None:
    """Why ``value`` is not a count (negative, over ``most``, default :data:`MAX_COUNT`),
    else None."""
    if value < 0:
        return f"{label}: {value} is negative"
    if value > most:
        return f"{label}: {value} is more than {most:,}"
    return None


def future_problem(day: dt.date, label: str, today: dt.date | None) -> str | None:
    """Why ``day`` cannot be a day something happened (after ``today``), else None.
    ``today`` None: today where the operators are, the latest of today in America/Denver
    and America/New_York (:func:`scheduler.core.clock.latest_today`, never the machine's own
    zone)."""
    today = latest_today(DEFAULT_TIMEZONE.values(), today)
    if day > today:
        return f"{label} {day} is in the future (today is {today})"
    return None


def _by_type(table: Any, values: Mapping[str, Any], label: Label) -> list[Problem]:
    out: list[Problem] = []
    for c in table.columns:
        v = values.get(c.name)
        if v is None or c.name == "id" or c.foreign_keys:
            continue
        problem = None
        if isinstance(c.type, Numeric) and isinstance(v, Decimal):
            problem = usd_problem(v, label(c.name))
        elif isinstance(c.type, Integer) and isinstance(v, int) and not isinstance(v, bool):
            problem = count_problem(v, label(c.name), MAX_FIGURE_COUNT
                                    if c.name in _FIGURE_COUNTS else MAX_COUNT)
        elif isinstance(c.type, Date) and isinstance(v, dt.date) \
                and not FIRST_YEAR <= v.year <= LAST_YEAR:
            problem = f"{label(c.name)}: {v} is not in the years {FIRST_YEAR} to {LAST_YEAR}"
        elif isinstance(c.type, String) and isinstance(v, str) and c.type.length \
                and len(v) > c.type.length:
            problem = (f"{label(c.name)}: {len(v):,} characters, more than the "
                       f"{c.type.length:,} it may have")
        if problem:
            out.append((c.name, problem))
    return out


def _one_of(values: Mapping[str, Any], column: str, allowed: tuple[str, ...], label: Label
            ) -> list[Problem]:
    v = values.get(column)
    if v not in allowed:
        return [(column, f"{label(column)}: {v!r} is not one of {', '.join(allowed)}")]
    return []


def _order(values: Mapping[str, Any], first: str, last: str, label: Label) -> list[Problem]:
    a, b = values.get(first), values.get(last)
    if isinstance(a, dt.date) and isinstance(b, dt.date) and b < a:
        return [(last, f"{label(last)} {b} is before {label(first)} {a}")]
    return []


def entry_problems(table: str, values: Mapping[str, Any], label: Label,
                   today: dt.date | None = None) -> list[Problem]:
    """Every problem of an entry of ``table`` (its name: ``held``, ``filings``, ...) whose
    typed ``values`` are given by column name (references as ids; a column left out is
    not checked). ``label(column)`` names a column in the sentences; ``today`` (default
    today where the operators are) is the last day a fact may be dated. Empty when the
    entry is sound."""
    t = Base.metadata.tables.get(table)
    if t is None:
        return [("table", f"table {table!r} is not a ledger table")]
    out = _by_type(t, values, label)
    if table == "held":
        out += _one_of(values, "outcome", OUTCOMES, label)
        if values.get("outcome") == "held":
            out += [(c, f"{label(c)}: a held occurrence has its days")
                    for c in ("first_day", "last_day") if values.get(c) is None]
            out += _order(values, "first_day", "last_day", label)
            last = values.get("last_day")
            if isinstance(last, dt.date) and (p := future_problem(last, label("last_day"),
                                                                  today)):
                out.append(("last_day", p))
        elif values.get("outcome") == "cancelled":
            out += [(c, f"{label(c)}: a cancelled occurrence has no days and no figures")
                    for c in ("first_day", "last_day", *_FIGURES) if values.get(c) is not None]
    elif table == "filings":
        out += _one_of(values, "kind", FILING_KINDS, label)
    elif table == "licences":
        out += _one_of(values, "kind", LICENCE_KINDS, label)
        out += _order(values, "valid_from", "valid_to", label)
    elif table == "reports":
        out += _one_of(values, "rule", ("ME-REPORT",), label)
    elif table == "organizations" and isinstance(values.get("name"), str) \
            and (p := name_problem(values["name"], label("name"))):
        out.append(("name", p))
    elif table in ("plan_events", "plan_licences"):
        out += _order(values, "first_day", "last_day", label)
        out += _order(values, "valid_from", "valid_to", label)
    if table in ("filings", "reports"):
        day = values.get("filed_on")
        if isinstance(day, dt.date) and (p := future_problem(day, label("filed_on"), today)):
            out.append(("filed_on", p))
    return out


def _plan_licence(conn: Connection, organization_id: int, license_ref: str) -> Any | None:
    return conn.execute(
        select(PlanLicence.jurisdiction, PlanLicence.kind, PlanLicence.valid_from,
               PlanLicence.valid_to)
        .join(PlanVersion, PlanVersion.id == PlanLicence.version_id)
        .join(Lineage, Lineage.id == PlanVersion.lineage_id)
        .where(Lineage.organization_id == organization_id,
               PlanLicence.license_id == license_ref).limit(1)).first()


def reference_problems(conn: Connection, table: str, values: Mapping[str, Any], label: Label
                       ) -> list[Problem]:
    """What a fact entry of ``table`` refers to that its organization's adopted plans do not
    have, as :func:`entry_problems`: a held or cancelled occurrence (its UID, night and
    operator; held on days some adopted version planned), the occurrence of an MT-NOTICE
    (a Montana large-stakes one), the licence of an ME application or ME-REPORT (a Maine
    one; the report's period one of its licensed periods)."""
    org = values.get("organization_id")
    if org is None:
        return []
    first = values.get("first_day")
    if table == "held" and isinstance(first, dt.date) and values.get("uid") == unplanned_uid(
            str(values.get("tournament_id")), first, str(values.get("operator_id"))):
        # held with no plan (record held --unplanned): at an operator of the organization
        known = conn.execute(select(Operator.id).where(
            Operator.organization_id == org,
            Operator.operator_id == values.get("operator_id")).limit(1)).first()
        if known is None:
            return [("operator_id", f"{label('operator_id')}: {values.get('operator_id')!r} "
                     "is no operator of an adopted plan of its organization")]
        return []
    if table == "held" or (table == "filings" and values.get("kind") == "mt-notice"):
        rid = values.get("recurrence_id")
        events = conn.execute(
            select(PlanEvent.first_day, PlanEvent.last_day, PlanEvent.jurisdiction,
                   PlanEvent.type)
            .join(PlanVersion, PlanVersion.id == PlanEvent.version_id)
            .join(Lineage, Lineage.id == PlanVersion.lineage_id)
            .where(and_(Lineage.organization_id == org, PlanEvent.uid == values.get("uid"),
                        PlanEvent.operator_id == values.get("operator_id"),
                        PlanEvent.recurrence_id.is_(None) if rid is None
                        else PlanEvent.recurrence_id == rid))).all()
        what = f"{values.get('tournament_id')}#{values.get('occurrence')}"
        if not events:
            return [("uid", f"{label('uid')}: {what} at {values.get('operator_id')} (UID "
                     f"{values.get('uid')}) is not an occurrence of an adopted plan of its "
                     "organization")]
        if table == "filings":
            if not any(e.jurisdiction == montana.CODE and e.type == "large-stakes" for e in events):
                return [("uid", f"{label('uid')}: {what} is not a Montana large-stakes "
                         "tournament: MT-NOTICE (MCA 23-5-317(1)(d)) is for those")]
            return []
        days = (values.get("first_day"), values.get("last_day"))
        if values.get("outcome") == "held" and not any(
                (e.first_day, e.last_day) == days for e in events):
            planned = ", ".join(sorted({f"{e.first_day}..{e.last_day}" for e in events}))
            return [("first_day", f"{label('first_day')}: {what} was planned {planned}, not "
                     f"{days[0]}..{days[1]}")]
        return []
    if table in ("reports", "filings") and values.get("license_ref") is not None:
        ref = str(values.get("license_ref"))
        lic = _plan_licence(conn, org, ref)
        if lic is None or lic.jurisdiction != maine.CODE or lic.kind not in ME_LICENCE_KINDS:
            return [("license_ref", f"{label('license_ref')}: {ref} is not a Maine licence of "
                     "an adopted plan of its organization")]
        end = values.get("period_end")
        if table == "reports" and end not in report_periods(lic.kind, lic.valid_from,
                                                            lic.valid_to):
            return [("period_end", f"{label('period_end')}: {end} is not the end of a "
                     f"licensed period of {ref}")]
    return []


SAME_THING = {
    "held": ("organization_id", "uid", "recurrence_id", "operator_id"),
    "filings": ("organization_id", "kind", "operator_id", "uid", "license_ref"),
    "licences": ("organization_id", "agency_number", "kind"),
    "reports": ("organization_id", "license_ref", "period_end"),
}
"""The columns that say what a fact is about: two current entries (none superseding the
other) with the same values are two answers to one question, which ``tourney record``
refuses ("is already recorded ... --corrects ID")."""


def duplicate_problems(conn: Connection, table: str,
                       new: list[tuple[int, Mapping[str, Any]]]) -> list[tuple[int, str]]:
    """The entries of ``new`` (``(line, typed values)`` of ``table``, already inserted in
    the transaction of ``conn``) that make a second current entry about the same thing
    (:data:`SAME_THING`) as another of the ledger or of ``new``, as ``(line, sentence)``:
    what ``tourney record`` refuses without ``--corrects`` is refused by ``tourney ledger
    import`` too (a correction gives the entry it corrects in ``supersedes_id``)."""
    same = SAME_THING.get(table)
    t = Base.metadata.tables.get(table)
    if same is None or t is None or not new:
        return []
    newer = select(t.c.supersedes_id).where(t.c.supersedes_id.is_not(None))
    cols = [t.c[c] for c in same]
    twice = {tuple(row[:-1]) for row in conn.execute(
        select(*cols, func.count()).where(t.c.id.not_in(newer)).group_by(*cols)
        .having(func.count() > 1))}
    out = []
    for line, values in new:
        if tuple(values.get(c) for c in same) in twice:
            what = ", ".join(f"{c} {values.get(c)}" for c in same[1:]
                             if values.get(c) is not None)
            out.append((line, f"{table} entry about {what} is already recorded (another "
                              "current entry, in the ledger or in the file, is about the "
                              "same); a correction gives the entry it corrects in "
                              "supersedes_id"))
    return out
