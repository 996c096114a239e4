"""The ledger's tables: SQLAlchemy 2 typed ORM models (the schema's one home; migrations in
``scheduler/ledger/migrations`` are generated from these and checked against them).

Every table is append-only. Each row is an *entry* with

- ``id``: its number in this database (shown to operators: ``--corrects ID``);
- ``key``: a random 32-hex identity that survives export and import (``tourney ledger
  export``/``import`` refer to other entries by key, never by id);
- ``recorded_at`` (UTC) and ``recorded_by`` (who typed it): who and when;
- on the fact tables (filings, licences, held, reports) ``supersedes_id``: a correction is a
  new entry naming the entry it replaces; the replaced one stays, so the record can be
  audited. An entry is *current* when no entry supersedes it. ``supersedes_id`` is unique: an
  entry is corrected at most once (a second correction corrects the correction).

Amounts are USD as ``Numeric(12, 2)`` (cents kept exactly); days are calendar dates.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by convention, so migrations name them alike on every backend."""

USD = Numeric(12, 2)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class _Entry:
    """Columns every entry has (see the module docstring)."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    recorded_by: Mapped[str] = mapped_column(String(200))


DEFAULT_ORGANIZATION = "default"
"""The organization of a ledger's first plan when ``--organization`` is not given (and
``tourney ledger init --name`` was not): a key, not a name, so funds.html never prints it."""


class Organization(_Entry, Base):
    """A card room, tour office or association keeping the ledger (``--organization``)."""

    __tablename__ = "organizations"
    name: Mapped[str] = mapped_column(String(200), unique=True)


class Operator(_Entry, Base):
    """An operator (scenario ``operators[].id``) of an organization."""

    __tablename__ = "operators"
    __table_args__ = (UniqueConstraint("organization_id", "operator_id"),)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organizations.id"))
    operator_id: Mapped[str] = mapped_column(String(100))
    jurisdiction: Mapped[str] = mapped_column(String(2))
    organization: Mapped[Organization] = relationship()


class Lineage(_Entry, Base):
    """A plan lineage (``scheduler/core/uid.py``: the 10 hex digits in every UID of its plans)."""

    __tablename__ = "lineages"
    organization_id: Mapped[int] = mapped_column(ForeignKey("organizations.id"))
    lineage: Mapped[str] = mapped_column(String(10), unique=True)
    organization: Mapped[Organization] = relationship()


class PlanVersion(_Entry, Base):
    """A plan of a lineage recorded as announced (``tourney ledger adopt``): versions 1, 2, …
    in adoption order. ``schedule_sha256`` is the SHA-256 of its schedule.csv (a plan is
    adopted once)."""

    __tablename__ = "plan_versions"
    __table_args__ = (UniqueConstraint("lineage_id", "version"),
                      UniqueConstraint("lineage_id", "schedule_sha256"))
    lineage_id: Mapped[int] = mapped_column(ForeignKey("lineages.id"))
    version: Mapped[int] = mapped_column(Integer)
    plan_dir: Mapped[str] = mapped_column(Text)
    schedule_sha256: Mapped[str] = mapped_column(String(64))
    lineage: Mapped[Lineage] = relationship()


class PlanEvent(_Entry, Base):
    """One occurrence at one operator in a plan version: its calendar identity (UID,
    RECURRENCE-ID of a series night, SEQUENCE, STATUS ``CONFIRMED`` or ``CANCELLED``) and its
    planned days. Shared tournaments have one row per venue, with the same UID.

    The UID (with the RECURRENCE-ID of a series night) is an occurrence's identity across
    versions; ``occurrence`` is its number in this version's schedule.csv (a re-plan may
    number it differently), or, when ``CANCELLED``, its number in the version before."""

    __tablename__ = "plan_events"
    __table_args__ = (UniqueConstraint("version_id", "uid", "operator_id", "recurrence_id"),)
    version_id: Mapped[int] = mapped_column(ForeignKey("plan_versions.id"), index=True)
    uid: Mapped[str] = mapped_column(String(300))
    recurrence_id: Mapped[dt.date | None] = mapped_column(Date)
    sequence: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    tournament_id: Mapped[str] = mapped_column(String(100))
    occurrence: Mapped[int] = mapped_column(Integer)
    operator_id: Mapped[str] = mapped_column(String(100))
    jurisdiction: Mapped[str] = mapped_column(String(2))
    type: Mapped[str] = mapped_column(String(40))
    charitable: Mapped[bool] = mapped_column(Boolean)
    title: Mapped[str] = mapped_column(Text)
    first_day: Mapped[dt.date] = mapped_column(Date)
    last_day: Mapped[dt.date] = mapped_column(Date)
    license_id: Mapped[str] = mapped_column(Text)
    version: Mapped[PlanVersion] = relationship()


class PlanLicence(_Entry, Base):
    """A licence or permit a plan version says to buy (a row of its licenses.csv)."""

    __tablename__ = "plan_licences"
    __table_args__ = (UniqueConstraint("version_id", "license_id"),)
    version_id: Mapped[int] = mapped_column(ForeignKey("plan_versions.id"), index=True)
    license_id: Mapped[str] = mapped_column(String(300))
    operator_id: Mapped[str] = mapped_column(String(100))
    jurisdiction: Mapped[str] = mapped_column(String(2))
    kind: Mapped[str] = mapped_column(String(40))
    tier: Mapped[str | None] = mapped_column(String(20))
    valid_from: Mapped[dt.date] = mapped_column(Date)
    valid_to: Mapped[dt.date] = mapped_column(Date)
    fee_usd: Mapped[Decimal] = mapped_column(USD)
    covers: Mapped[str] = mapped_column(Text)
    version: Mapped[PlanVersion] = relationship()


class PlanDeadline(_Entry, Base):
    """A line of a plan version's deadlines.csv (:class:`scheduler.result.deadlines.Deadline`),
    stored by ``tourney ledger adopt`` (schema 0004) so ``tourney deadlines`` without the
    folder lists the plan's own days: a progressive's notices 5 days before round 1
    (MT-PROGRESSIVE), Maine due days moved by ``settings.closed_days``. ``date`` the last
    day (inclusive); ``rule`` its rule ID and ``citation``; ``occurrence`` ``TOURNAMENT#N``
    (MT-NOTICE) or the occurrences a licence covers; ``license_id`` the licence or permit
    (empty for MT-NOTICE); ``opens`` the first day an ME application may be received.
    A version adopted before 0004 has none."""

    __tablename__ = "plan_deadlines"
    version_id: Mapped[int] = mapped_column(ForeignKey("plan_versions.id"), index=True)
    date: Mapped[dt.date] = mapped_column(Date)
    rule: Mapped[str] = mapped_column(String(40))
    citation: Mapped[str] = mapped_column(Text)
    operator_id: Mapped[str] = mapped_column(String(100))
    what: Mapped[str] = mapped_column(Text)
    occurrence: Mapped[str] = mapped_column(Text)
    license_id: Mapped[str] = mapped_column(String(300))
    opens: Mapped[dt.date | None] = mapped_column(Date)
    version: Mapped[PlanVersion] = relationship()


class PlanScenario(_Entry, Base):
    """A part of the scenario that made a plan version (the plan folder's scenario.yaml,
    stored by ``tourney ledger adopt`` since schema 0005), so what the ledger judges alone
    (``tourney record``'s warnings) reads the plan's tournaments, tours, settings and
    operators' terms: the scenario as JSON (UTF-8, its fields as the scenario file gives
    them), compressed (zlib, RFC 1950), in base64 (RFC 4648), cut into ``parts`` rows of at
    most :data:`scheduler.ledger.scenarios.PART_CHARS` characters (one spreadsheet cell, so
    ``tourney ledger export`` writes it to a workbook too): ``part`` 0, 1, ... in order,
    ``data`` the characters, ``sha256`` of the whole JSON on every row. A version adopted
    before 0005, or from a folder without scenario.yaml, has none."""

    __tablename__ = "plan_scenarios"
    __table_args__ = (UniqueConstraint("version_id", "part"),)
    version_id: Mapped[int] = mapped_column(ForeignKey("plan_versions.id"), index=True)
    part: Mapped[int] = mapped_column(Integer)
    parts: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[PlanVersion] = relationship()


class _Fact(_Entry):
    """A fact an operator records; corrections supersede (see the module docstring)."""

    organization_id: Mapped[int] = mapped_column(ForeignKey("organizations.id"))
    operator_id: Mapped[str] = mapped_column(String(100))
    note: Mapped[str | None] = mapped_column(Text)


class Filing(_Fact, Base):
    """A filing with the agency. ``kind``:

    - ``mt-notice`` (MT-NOTICE, MCA 23-5-317(1)(d)): the notice of one large-stakes
      occurrence (``uid``; ``tournament_id``/``occurrence`` as then numbered) filed on
      ``filed_on``;
    - ``me-application`` (ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2): the application for
      the plan's licence ``license_ref`` received on ``filed_on``; ``agency_number`` is the
      licence number issued (empty until issued: record a correction when it comes).
    """

    __tablename__ = "filings"
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("filings.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    tournament_id: Mapped[str | None] = mapped_column(String(100))
    occurrence: Mapped[int | None] = mapped_column(Integer)
    uid: Mapped[str | None] = mapped_column(String(300))
    license_ref: Mapped[str | None] = mapped_column(String(300))
    filed_on: Mapped[dt.date] = mapped_column(Date)
    agency_number: Mapped[str | None] = mapped_column(String(100))


class LicenceBought(_Fact, Base):
    """A licence or permit bought: the agency's number, ``kind`` (as in licenses.csv:
    ``mt-large-stakes-permit``, ``me-annual``, …), Maine ``tier``, ``fee_usd`` (USD) paid,
    valid ``valid_from``..``valid_to`` inclusive; ``license_ref`` the plan's licence id it
    buys, when it buys one."""

    __tablename__ = "licences"
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("licences.id"), unique=True)
    agency_number: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(40))
    tier: Mapped[str | None] = mapped_column(String(20))
    fee_usd: Mapped[Decimal] = mapped_column(USD)
    valid_from: Mapped[dt.date] = mapped_column(Date)
    valid_to: Mapped[dt.date] = mapped_column(Date)
    license_ref: Mapped[str | None] = mapped_column(String(300))


class Held(_Fact, Base):
    """What became of one occurrence at one operator: ``outcome`` ``held`` (actual
    ``first_day``..``last_day``, players (unique persons), entries, total entry fees, prizes
    paid, charity paid and expenses, USD; expenses since schema 0002) or ``cancelled`` (days
    and figures empty).

    Since schema 0003, the figures the rules judge on what was held (each optional, empty
    when not recorded): ``surcharge_usd`` the licence-fee surcharge collected from all
    players (ME-ENTRY-CAP, 17 M.R.S. § 1836(4)); ``charity_to`` the name of the charity paid
    and ``charity_is_licensee`` whether it is the licensee itself (ME-SUPER-CRIBBAGE,
    § 1836(4-A)(F)); ``under_21_admitted`` and ``away_from_establishment`` (ME-CRIBBAGE-REG,
    § 1836(4-B): patrons under 21 admitted; held away from the licensed establishment).

    The occurrence is ``uid`` (and ``recurrence_id`` for a night of a weekly series);
    ``tournament_id``/``occurrence`` name it as the plan version it was recorded against
    numbered it."""

    __tablename__ = "held"
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("held.id"), unique=True)
    outcome: Mapped[str] = mapped_column(String(10))
    tournament_id: Mapped[str] = mapped_column(String(100))
    occurrence: Mapped[int] = mapped_column(Integer)
    uid: Mapped[str] = mapped_column(String(300))
    recurrence_id: Mapped[dt.date | None] = mapped_column(Date)
    first_day: Mapped[dt.date | None] = mapped_column(Date)
    last_day: Mapped[dt.date | None] = mapped_column(Date)
    players: Mapped[int | None] = mapped_column(Integer)
    entries: Mapped[int | None] = mapped_column(Integer)
    entry_fees_usd: Mapped[Decimal | None] = mapped_column(USD)
    prizes_usd: Mapped[Decimal | None] = mapped_column(USD)
    charity_usd: Mapped[Decimal | None] = mapped_column(USD)
    expenses_usd: Mapped[Decimal | None] = mapped_column(USD)
    surcharge_usd: Mapped[Decimal | None] = mapped_column(USD)
    charity_to: Mapped[str | None] = mapped_column(String(200))
    charity_is_licensee: Mapped[bool | None] = mapped_column(Boolean)
    under_21_admitted: Mapped[bool | None] = mapped_column(Boolean)
    away_from_establishment: Mapped[bool | None] = mapped_column(Boolean)


class ReportFiled(_Fact, Base):
    """A report filed with the agency: ``rule`` ``ME-REPORT`` (16-633 CMR ch. 32 § 8), the
    disposition-of-funds report of licence ``license_ref`` for the licensed period ending
    ``period_end``, filed on ``filed_on``."""

    __tablename__ = "reports"
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), unique=True)
    rule: Mapped[str] = mapped_column(String(20))
    license_ref: Mapped[str] = mapped_column(String(300))
    period_end: Mapped[dt.date] = mapped_column(Date)
    filed_on: Mapped[dt.date] = mapped_column(Date)


FACTS: tuple[type[Filing] | type[LicenceBought] | type[Held] | type[ReportFiled], ...] = (
    Filing, LicenceBought, Held, ReportFiled)
"""The fact tables, whose entries supersede one another."""


def select_current(model: Any) -> Any:
    """A SELECT of ``model``'s current entries: those no entry supersedes (``model`` one of
    :data:`FACTS`)."""
    newer = select(model.supersedes_id).where(model.supersedes_id.is_not(None))
    return select(cast("type[Base]", model)).where(model.id.not_in(newer))
