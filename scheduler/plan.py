"""The result of a solve: placed occurrences, licences to buy, what could not be placed.

A :class:`Plan` is a plain value (no solver objects): writers in ``scheduler/export`` are pure
functions of it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from constraints.base import License
from scheduler.scenario import Scenario

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from scheduler.explain import Member
    from scheduler.replan import Cancelled, PreviousEvent, PreviousSeries

SCHEDULE_COLUMNS = [
    "tournament_id", "occurrence", "operator_id", "jurisdiction", "type", "charitable", "title",
    "start", "end", "first_day", "last_day", "notice_due", "permit_year", "counted", "players",
    "license_id", "uid", "sequence",
]
LICENSE_COLUMNS = ["license_id", "operator_id", "jurisdiction", "kind", "tier", "valid_from",
                   "valid_to", "fee_usd", "covers"]
UNSCHEDULED_COLUMNS = ["tournament_id", "occurrence", "operators", "reason", "rule_ids"]


@dataclass(frozen=True)
class Row:
    """One placed occurrence at one operator (a row of schedule.csv).

    ``start``/``end`` are aware local datetimes (``end`` exclusive); ``first_day``/``last_day``
    inclusive calendar days; ``notice_due`` (MT large-stakes, MT-NOTICE) and ``permit_year``
    (MT, first day of the permit year, MT-PERMIT-YEAR) are None elsewhere.
    """

    tournament_id: str
    occurrence: int
    operator_id: str
    jurisdiction: str
    type: str
    charitable: bool
    title: str
    start: dt.datetime
    end: dt.datetime
    first_day: dt.date
    last_day: dt.date
    notice_due: dt.date | None
    permit_year: dt.date | None
    counted: bool
    players: int | None
    license_id: str
    uid: str
    sequence: int = 0
    """iCalendar SEQUENCE: how many times this announced occurrence has moved (re-plans)."""

    @property
    def ref(self) -> str:
        return f"{self.tournament_id}#{self.occurrence}"


@dataclass(frozen=True)
class Unscheduled:
    """A wanted occurrence that was not placed, with the computed reason and rule IDs."""

    tournament_id: str
    occurrence: int
    operators: tuple[str, ...]
    reason: str
    rule_ids: tuple[str, ...]
    required: bool = False


@dataclass
class Plan:
    """A solved scenario.

    ``status`` is ``OPTIMAL`` (proven) or ``FEASIBLE`` (time limit reached); ``objective`` holds
    the three lexicographic values (priority-weighted occurrences placed, fees in USD,
    occurrences on preferred weekdays) and ``bound`` the proven bound of each stage.
    """

    scenario: Scenario
    rows: list[Row]
    license_list: list[License]
    """The licences and permits to buy (``licenses`` is the same as a DataFrame)."""
    unscheduled_list: list[Unscheduled]
    """Wanted occurrences not placed (``unscheduled`` is the same as a DataFrame)."""
    status: str
    objective: dict[str, int] = field(default_factory=dict)
    bound: dict[str, float] = field(default_factory=dict)
    seed: int = 0
    cancelled: list[Cancelled] = field(default_factory=list)
    previous_series: list[PreviousSeries] = field(default_factory=list)
    """Re-plan: the weekly series of the previous calendar (updated or cancelled by UID)."""
    previous_events: list[PreviousEvent] = field(default_factory=list)
    """Re-plan: every event the previous calendars published; one this plan no longer writes
    is published as cancelled."""
    previous_dtstamp: dt.datetime | None = None
    """Re-plan: the previous calendar's DTSTAMP; this plan's calendars are stamped later."""
    """Re-plan: announced occurrences the new plan drops (published as STATUS:CANCELLED)."""
    conflicts: list[list[Member]] = field(default_factory=list)
    """When required occurrences cannot all be placed: minimal sets of conflicting rule
    instances and requests (``scheduler.explain``)."""
    interrupted: bool = False
    """The search was stopped (Ctrl-C) and this is the best plan found until then: legal,
    not proven optimal; parts not reached list their occurrences as unscheduled."""
    components: int = 1
    """How many independent parts the scenario was solved in (operators linked by a shared
    tournament or by the statewide super cribbage cap are one part)."""
    rank: int = 1
    """Among alternatives (``solve(..., alternatives=K)``): 1 for the best plan, 2 for the
    next best that differs from it, and so on."""

    @property
    def gap(self) -> dict[str, float]:
        """Per objective stage, the distance between the value found and the proven bound,
        relative to the value (0.0 when proven optimal): ``|bound - value| / max(1, |value|)``.
        """
        return {k: abs(self.bound[k] - v) / max(1, abs(v))
                for k, v in self.objective.items() if k in self.bound}

    @property
    def required_met(self) -> bool:
        return not any(u.required for u in self.unscheduled_list)

    @property
    def total_fees_usd(self) -> int:
        return sum(lic.fee_usd for lic in self.license_list)

    @property
    def schedule(self) -> pd.DataFrame:
        """schedule.csv as a DataFrame: dates as datetime64, ``occurrence`` int64."""
        df = pd.DataFrame([r.__dict__ for r in self.rows], columns=SCHEDULE_COLUMNS)
        for c in ("first_day", "last_day", "notice_due", "permit_year"):
            df[c] = pd.to_datetime(df[c])
        df["players"] = df["players"].astype("Int64")
        df["occurrence"] = df["occurrence"].astype("int64")
        return df

    @property
    def licenses(self) -> pd.DataFrame:
        """licenses.csv as a DataFrame, one row per licence or permit to buy: ``license_id,
        operator_id, jurisdiction, kind, tier`` (str), ``valid_from, valid_to`` (datetime64,
        inclusive), ``fee_usd`` (int64, USD), ``covers`` (str: space-separated ``tid#k``)."""
        df = pd.DataFrame([{**lic.__dict__, "covers": " ".join(lic.covers)}
                           for lic in self.license_list], columns=LICENSE_COLUMNS)
        for c in ("valid_from", "valid_to"):
            df[c] = pd.to_datetime(df[c])
        df["fee_usd"] = df["fee_usd"].astype("int64")
        return df

    @property
    def unscheduled(self) -> pd.DataFrame:
        """unscheduled.csv as a DataFrame: ``tournament_id`` (str), ``occurrence`` (int64),
        ``operators, reason, rule_ids`` (str, space-separated lists)."""
        return pd.DataFrame([{"tournament_id": u.tournament_id, "occurrence": u.occurrence,
                              "operators": " ".join(u.operators), "reason": u.reason,
                              "rule_ids": " ".join(u.rule_ids)} for u in self.unscheduled_list],
                            columns=UNSCHEDULED_COLUMNS)

    # ------------------------------------------------------------------ pictures
    def plot_calendar(self, operator_id: str) -> Figure:
        """The year of one operator as a matplotlib Figure: rows = months of the horizon,
        columns = days 1-31; tournaments as bars coloured by type, blackouts (BLACKOUT) and
        other games of chance (ME-OTHER-GAMES) hatched, MT-NOTICE and ME-APPLICATION-WINDOW
        deadlines marked. Raises ``ValueError`` for an unknown operator id. See
        :func:`scheduler.export.figures.plot_calendar`."""
        from scheduler.export.figures import plot_calendar

        return plot_calendar(self, operator_id)

    def plot_usage(self) -> Figure:
        """Bar charts of the counted limits: MT-LARGE-LIMIT (16) and MT-CHARITY-LIMIT (3) per
        operator and permit year, ME-MONTHLY-LIMIT (2) per operator and month. See
        :func:`scheduler.export.figures.plot_usage`."""
        from scheduler.export.figures import plot_usage

        return plot_usage(self)

    def plot_fees(self) -> Figure:
        """A bar chart of the licence and permit fees by kind (USD). See
        :func:`scheduler.export.figures.plot_fees`."""
        from scheduler.export.figures import plot_fees

        return plot_fees(self)
