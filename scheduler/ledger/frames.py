"""The :class:`Ledger` and its DataFrames: what a notebook reads of a ledger.

``Ledger(url).held()``, ``.filings()``, ``.licences()``, ``.reports()``, ``.events()`` are
:func:`held_frame`, :func:`filings_frame`, :func:`licences_frame`, :func:`reports_frame` and
:func:`events_frame` of this module; ``.deadlines(plan_dir)`` is
:func:`scheduler.ledger.deadlines.deadlines`. The commands that write are in
:mod:`scheduler.ledger.adopt` and :mod:`scheduler.ledger.record`; export and import in
:mod:`scheduler.ledger.transfer` (all of them re-exported by :mod:`scheduler.ledger.api`).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from typing import Any, cast

import pandas as pd
from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, String, Text, select

from scheduler.ledger.deadlines import deadlines
from scheduler.ledger.models import (
    Base,
    Filing,
    Held,
    LicenceBought,
    Lineage,
    Organization,
    PlanEvent,
    PlanVersion,
    ReportFiled,
    select_current,
)
from scheduler.ledger.store import Store


class Ledger(Store):
    """A ledger database (``from scheduler.ledger import Ledger``). ``Ledger(url)`` opens
    nothing yet; ``url`` a file name or URL as :func:`~scheduler.ledger.store.resolve` takes
    it (None: ``$TOURNEY_LEDGER`` or ``./tourney-ledger.sqlite``). The database itself
    (migrations, sessions, writers serialized) is :class:`~scheduler.ledger.store.Store`;
    the methods here are the DataFrames of this module and the deadlines of a plan, for
    ``Ledger(url).held()`` in a notebook."""

    def held(self, **kw: Any) -> pd.DataFrame:
        """:func:`held_frame` of this ledger."""
        return held_frame(self, **kw)

    def filings(self, **kw: Any) -> pd.DataFrame:
        """:func:`filings_frame` of this ledger."""
        return filings_frame(self, **kw)

    def licences(self, **kw: Any) -> pd.DataFrame:
        """:func:`licences_frame` of this ledger."""
        return licences_frame(self, **kw)

    def reports(self, **kw: Any) -> pd.DataFrame:
        """:func:`reports_frame` of this ledger."""
        return reports_frame(self, **kw)

    def events(self) -> pd.DataFrame:
        """:func:`events_frame` of this ledger."""
        return events_frame(self)

    def deadlines(self, plan_dir: str | os.PathLike[str] | None = None,
                  as_of: dt.date | None = None) -> pd.DataFrame:
        """:func:`scheduler.ledger.deadlines.deadlines` of plan folder ``plan_dir`` (None:
        of every plan this ledger has adopted) as of ``as_of`` (default today), the states
        from this ledger: one row per deadline, sorted by date; columns
        (``scheduler.ledger.deadlines.COLUMNS``) ``date`` (a ``datetime.date``: the last
        day, inclusive), ``state`` (str: due, overdue, done, done late, not needed), ``rule``
        (str: MT-NOTICE, MT-PERMIT-FEES, ME-APPLICATION-WINDOW, ME-REPORT), ``operator_id``,
        ``what``, ``occurrence``, ``license_id`` (str), ``opens`` and ``done_on``
        (``datetime.date`` or None), ``entry`` (Int64: the ledger entry that did it)."""
        return deadlines(plan_dir, as_of=as_of, ledger=self)


_META = ("id", "key", "recorded_at", "recorded_by", "supersedes_id")
FRAME_DTYPES = {"Date": "datetime64[ns] (a calendar day, no time zone)",
                "DateTime": "datetime64[ns, UTC]", "Numeric": "Float64 (USD)", "Integer": "Int64",
                "String": "string", "Text": "string", "Boolean": "boolean"}
"""The dtype each column type of the ledger's tables has in :func:`held_frame`,
:func:`filings_frame`, :func:`licences_frame` and :func:`reports_frame` (``organization``:
string), whatever rows there are (none, or only empty values); :func:`events_frame` keeps
the same."""


def _frame(ledger: Ledger, model: Any, columns: Sequence[str], current: bool) -> pd.DataFrame:
    with ledger.read() as s:
        q: Any = select_current(model) if current else select(cast("type[Base]", model))
        rows = list(s.scalars(q.order_by(model.id)))
        org_names = {o.id: o.name for o in s.scalars(select(Organization))}
        data = [{"organization": org_names[r.organization_id],
                 **{c: getattr(r, c) for c in columns}} for r in rows]
    cols = ["organization", *columns]
    df = pd.DataFrame(data, columns=cols)
    for c in columns:
        col = model.__table__.c[c]
        if isinstance(col.type, Date):
            df[c] = pd.to_datetime(df[c]).astype("datetime64[ns]")
        elif isinstance(col.type, DateTime):
            df[c] = pd.to_datetime(df[c], utc=True).astype("datetime64[ns, UTC]")
        elif isinstance(col.type, Numeric):
            df[c] = df[c].astype("Float64")
        elif isinstance(col.type, Integer):
            df[c] = df[c].astype("Int64")
        elif isinstance(col.type, Boolean):
            df[c] = df[c].astype("boolean")
        elif isinstance(col.type, String | Text):
            # one dtype whatever the rows: a column of only empty values would be object
            df[c] = df[c].astype("string")
    df["organization"] = df["organization"].astype("string")
    return df


def held_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per occurrence outcome recorded (``tourney record held|cancelled``), in entry
    order; current entries only unless ``current=False`` (then corrected ones too).

    Columns and dtypes (:data:`FRAME_DTYPES`; missing values ``<NA>``/``NaT``):

    - ``organization``, ``operator_id``, ``tournament_id`` (string), ``occurrence`` (Int64:
      its number in the plan version it was recorded against), ``outcome`` (string:
      ``held`` or ``cancelled``);
    - ``first_day``, ``last_day`` (datetime64, a calendar day, no time zone; inclusive; NaT
      when cancelled);
    - ``players``, ``entries`` (Int64); ``entry_fees_usd``, ``prizes_usd``, ``charity_usd``,
      ``expenses_usd``, ``surcharge_usd`` (Float64, USD, cents exact to 2 places);
      ``charity_to`` (string), ``charity_is_licensee``, ``under_21_admitted``,
      ``away_from_establishment`` (boolean; schema 0003);
    - ``uid`` (string: the occurrence's calendar UID), ``recurrence_id`` (datetime64: the
      night of a weekly series, else NaT), ``note`` (string);
    - the entry's own: ``id`` (Int64, as ``--corrects`` takes it), ``key`` (string, 32 hex),
      ``recorded_at`` (datetime64, UTC), ``recorded_by`` (string), ``supersedes_id`` (Int64:
      the entry it corrects).

    Raises :class:`LedgerError` for a missing or uninitialised ledger."""
    return _frame(ledger, Held, ["operator_id", "tournament_id", "occurrence", "outcome",
                                 "first_day", "last_day", "players", "entries",
                                 "entry_fees_usd", "prizes_usd", "charity_usd",
                                 "expenses_usd", "surcharge_usd", "charity_to",
                                 "charity_is_licensee", "under_21_admitted",
                                 "away_from_establishment", "uid",
                                 "recurrence_id", "note", *_META], current)


def filings_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per filing (``tourney record filed``), in entry order: ``organization``,
    ``operator_id``, ``kind`` (string: ``mt-notice`` for MT-NOTICE, MCA 23-5-317(1)(d);
    ``me-application`` for ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2), ``tournament_id``
    (string) and ``occurrence`` (Int64) of an MT notice, ``license_ref`` (string: the plan
    licence an ME application is for), ``filed_on`` (datetime64, a calendar day),
    ``agency_number`` (string: the licence number issued), ``uid`` (string), ``note``
    (string), and the entry's columns as :func:`held_frame`. ``current`` as there."""
    return _frame(ledger, Filing, ["operator_id", "kind", "tournament_id", "occurrence",
                                   "license_ref", "filed_on", "agency_number", "uid", "note",
                                   *_META], current)


def licences_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per licence or permit bought (``tourney record licence``), in entry order:
    ``organization``, ``operator_id``, ``kind`` (string, as licenses.csv:
    ``mt-large-stakes-permit``, ``me-annual``, ...), ``tier`` (string: the Maine tier, e.g.
    ``51-100``), ``agency_number`` (string), ``fee_usd`` (Float64, USD paid), ``valid_from``,
    ``valid_to`` (datetime64, calendar days, inclusive), ``license_ref`` (string: the plan
    licence it buys), ``note`` (string), and the entry's columns as :func:`held_frame`.
    ``current`` as there."""
    return _frame(ledger, LicenceBought, ["operator_id", "kind", "tier", "agency_number",
                                          "fee_usd", "valid_from", "valid_to", "license_ref",
                                          "note", *_META], current)


def reports_frame(ledger: Ledger, *, current: bool = True) -> pd.DataFrame:
    """One row per report filed (``tourney record report``), in entry order:
    ``organization``, ``operator_id``, ``rule`` (string: ``ME-REPORT``, 16-633 CMR ch. 32
    § 8), ``license_ref`` (string), ``period_end`` (datetime64: the last day of the licensed
    period reported), ``filed_on`` (datetime64), ``note`` (string), and the entry's columns
    as :func:`held_frame`. ``current`` as there."""
    return _frame(ledger, ReportFiled, ["operator_id", "rule", "license_ref", "period_end",
                                        "filed_on", "note", *_META], current)


def events_frame(ledger: Ledger) -> pd.DataFrame:
    """Every adopted plan version's occurrences, one row per occurrence and operator, in
    adoption order, with the dtypes of the other frames (:func:`held_frame`) whatever the
    rows: ``lineage`` (string, 10 hex), ``version`` (Int64), ``uid`` (string),
    ``recurrence_id`` (datetime64: the night of a weekly series, else NaT), ``sequence``
    (Int64, the calendar SEQUENCE), ``status`` (string: ``CONFIRMED`` or ``CANCELLED``),
    ``tournament_id`` (string), ``occurrence`` (Int64), ``operator_id``, ``jurisdiction``,
    ``type`` (string), ``first_day``, ``last_day`` (datetime64, calendar days, inclusive).
    Raises :class:`LedgerError` for a missing or uninitialised ledger."""
    with ledger.read() as s:
        rows = s.execute(select(Lineage.lineage, PlanVersion.version, PlanEvent)
                         .join(PlanVersion, PlanVersion.lineage_id == Lineage.id)
                         .join(PlanEvent, PlanEvent.version_id == PlanVersion.id)
                         .order_by(PlanEvent.id)).all()
        data = [{"lineage": lin, "version": ver, "uid": e.uid, "recurrence_id": e.recurrence_id,
                 "sequence": e.sequence, "status": e.status, "tournament_id": e.tournament_id,
                 "occurrence": e.occurrence, "operator_id": e.operator_id,
                 "jurisdiction": e.jurisdiction, "type": e.type, "first_day": e.first_day,
                 "last_day": e.last_day} for lin, ver, e in rows]
    df = pd.DataFrame(data, columns=["lineage", "version", "uid", "recurrence_id", "sequence",
                                     "status", "tournament_id", "occurrence", "operator_id",
                                     "jurisdiction", "type", "first_day", "last_day"])
    for c in df.columns:
        if c in ("recurrence_id", "first_day", "last_day"):
            df[c] = pd.to_datetime(df[c]).astype("datetime64[ns]")
        elif c in ("version", "sequence", "occurrence"):
            df[c] = df[c].astype("Int64")
        else:
            df[c] = df[c].astype("string")
    return df
