"""The result of a solve: placed occurrences, licences to buy, what could not be placed.

A :class:`Plan` is a finished, immutable value (a frozen dataclass, no solver objects):
writers in ``scheduler/export`` are functions of it, and nothing fills it in after
``scheduler.engine.solver.solve`` returns it (a changed plan is a new one, ``dataclasses.replace``).
Layers (docs/architecture.md): the engine below (``replan``, ``explain``, the rules) gives its
fields their types; the solver modules (``scheduler.engine.extract``, ``scheduler.engine.parts``,
``scheduler.result.publishing``) assemble a Plan; the export layer above reads it, and the plan
knows nothing of it: drawing, summarising and writing are export functions of a plan
(``scheduler.export.figures.plot_calendar``, ``plot_usage``, ``plot_fees``;
``scheduler.export.summary.summary_text``; ``scheduler.export.write.write_plan``,
``to_ics``), also in the public API (``from scheduler import write_plan``). A Plan keeps
what needs no export: its DataFrames (``schedule``, ``licenses``, ``unscheduled``,
``usage()``, ``fees()``, ``summary_table()``) and its Jupyter table.
"""

from __future__ import annotations

import datetime as dt
import html
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import pandas as pd

from constraints.base import License
from constraints.maine import per_tournament_usd
from scheduler.core.frozen import (
    FrozenDict as FrozenDict,  # read as scheduler.result.plan.FrozenDict too
)
from scheduler.core.scenario import Scenario
from scheduler.inputs.replan.previous import Cancelled, PreviousEvent, PreviousSeries
from scheduler.result.conflict import Conflict
from scheduler.result.usage import usage_table

SCHEDULE_COLUMNS = [
    "tournament_id", "occurrence", "operator_id", "jurisdiction", "type", "charitable", "title",
    "start", "end", "first_day", "last_day", "notice_due", "permit_year", "counted", "players",
    "license_id", "uid", "sequence", "recurrence_id", "status",
]
STATUSES = ("held", "cancelled", "filed", "announced", "new")
"""schedule.csv's ``status`` of a row: ``held`` (the ledger records it held: history),
``cancelled`` (recorded as cancelled), ``filed`` (its MT notice or ME application is filed,
or its deadline is before the day the plan is made as of: it stays on its day), ``announced``
(a previous plan published it, nothing filed yet: it may still move), ``new`` (first placed by
this plan). ``tourney check`` judges a ``held`` or ``filed`` row on what happened, never
again on notice from the scenario's ``notice_from``."""
LICENSE_COLUMNS = ["license_id", "operator_id", "jurisdiction", "kind", "tier", "valid_from",
                   "valid_to", "fee_usd", "covers"]
UNSCHEDULED_COLUMNS = ["tournament_id", "occurrence", "operators", "reason", "rule_ids"]


@dataclass(frozen=True)
class OperatorOccurrence:
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
    recurrence_id: str = ""
    """A night of a weekly series: its day (ISO 8601), the RECURRENCE-ID of the series'
    instance; ``uid`` is then the series' UID. Empty for an occurrence that is one event."""
    status: str = "new"
    """What the row is now (:data:`STATUSES`): held, cancelled, filed, announced or new."""

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


class PlanStatus(StrEnum):
    """How good a plan is known to be. The value is the text summary.txt, report.html and the
    comparisons print (a ``str``: ``PlanStatus.OPTIMAL == "OPTIMAL"``)."""

    OPTIMAL = "OPTIMAL"
    """Every lexicographic stage of every part was proven optimal."""
    FEASIBLE = "FEASIBLE"
    """Legal, not proven optimal (a time limit was reached, or the search was stopped)."""
    NOT_REACHED = "NOT_REACHED"
    """A part the search was stopped before reaching: nothing placed (never a whole plan)."""


@dataclass(frozen=True)
class Plan:
    """A solved scenario: a finished, immutable result.

    ``status`` is :attr:`PlanStatus.OPTIMAL` (proven) or :attr:`PlanStatus.FEASIBLE` (time
    limit reached or search stopped); ``objective`` holds the three lexicographic values
    (priority-weighted occurrences placed, fees in USD, occurrences on preferred weekdays) and
    ``bound`` the proven bound of each stage; ``runtime_s`` the wall seconds the solve took
    (not compared: equal plans of two runs are equal). The publishing state (``lineage``,
    ``cancelled``, ``previous_*``, ``replaced_*``, ``replanned``) is set by the solver
    (:mod:`scheduler.result.publishing`), so ``write_plan(plan, dir)`` writes what ``tourney solve``
    writes.

    Nothing in it can be changed in place: fields are not reassigned (a frozen dataclass),
    its sequences are tuples and its mappings (``objective``, ``bound``,
    ``replaced_events``) :class:`FrozenDict`; a mapping given as a dict, or a sequence as a
    list, is frozen when the plan is made. A changed plan is a new one
    (``dataclasses.replace``).
    """

    scenario: Scenario
    rows: tuple[OperatorOccurrence, ...]
    license_list: tuple[License, ...]
    """The licences and permits to buy (``licenses`` is the same as a DataFrame)."""
    unscheduled_list: tuple[Unscheduled, ...]
    """Wanted occurrences not placed (``unscheduled`` is the same as a DataFrame)."""
    status: PlanStatus
    objective: Mapping[str, int] = field(default_factory=lambda: FrozenDict[str, int]())
    bound: Mapping[str, float] = field(default_factory=lambda: FrozenDict[str, float]())
    seed: int = 0
    cancelled: tuple[Cancelled, ...] = ()
    """Re-plan: announced occurrences the new plan drops (published as STATUS:CANCELLED)."""
    previous_series: tuple[PreviousSeries, ...] = ()
    """Re-plan: the weekly series of the previous calendar (updated or cancelled by UID)."""
    previous_events: tuple[PreviousEvent, ...] = ()
    """Re-plan: every event the previous calendars published; one this plan no longer writes
    is published as cancelled."""
    previous_dtstamp: dt.datetime | None = None
    """Re-plan: the previous calendar's DTSTAMP; this plan's calendars are stamped later."""
    departed: tuple[tuple[str, str], ...] = ()
    """Re-plan: the previous plan's operators that are not in the scenario (venues that
    left), as (operator id, name): their calendars cancel their future events."""
    departed_events: tuple[PreviousEvent, ...] = ()
    """Re-plan: the events the previous calendars showed only for ``departed`` venues."""
    lineage: str = ""
    """The plan lineage's key in every UID (``scheduler.core.uid``; a re-plan inherits its
    previous plan's); empty: the scenario's own (:func:`scheduler.core.uid.lineage_key`)."""
    replaced_events: Mapping[str, tuple[int, str]] = field(
        default_factory=lambda: FrozenDict[str, tuple[int, str]]())
    """Solved again into a folder holding an earlier plan of the same lineage without a
    re-plan: UID -> (SEQUENCE, content fingerprint) of the earlier calendar's events, so an
    event that changed gets a higher SEQUENCE (RFC 5545 §3.8.7.4)."""
    replaced_dtstamp: dt.datetime | None = None
    """The earlier plan's DTSTAMP in that case: a changed calendar is stamped later."""
    replaced_folder: str = ""
    """The folder (absolute, resolved) whose earlier plan this one was solved to replace
    without a re-plan (``solve(..., replacing=folder)`` when it held a plan); empty
    otherwise. ``write_plan`` writes into a folder holding a plan only a plan solved for
    it so, or a re-plan."""
    replanned: bool = False
    """Solved with ``previous`` (a re-plan): its UIDs and SEQUENCEs continue the previous
    plan's."""
    conflicts: tuple[Conflict, ...] = ()
    """When required occurrences cannot all be placed: minimal sets of conflicting rule
    instances and requests (``scheduler.engine.explain``)."""
    overasked: tuple[str, ...] = ()
    """When more occurrences are wanted than the law allows: one line per counting argument
    (``scheduler.engine.reasons.overasked``), which the summary prints before the reasons."""
    interrupted: bool = False
    """The search was stopped (Ctrl-C) and this is the best plan found until then: legal,
    not proven optimal; parts not reached list their occurrences as unscheduled."""
    components: int = 1
    """How many independent parts the scenario was solved in (operators linked by a shared
    tournament or by the statewide super cribbage cap are one part)."""
    rank: int = 1
    """Among alternatives (:func:`scheduler.engine.solver.solve_alternatives`): 1 for the best plan,
    2 for the next best that differs from it, and so on."""
    runtime_s: float = field(default=0.0, compare=False)
    """Wall seconds the solve took (0.0 for a plan not made by ``solve``); never written to
    the plan folder (its files stay byte-identical from run to run)."""

    def __post_init__(self) -> None:
        # freeze what a caller gave as a list or a dict (the plan is finished once made)
        for name in _SEQUENCES:
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        for name in _MAPPINGS:
            value = getattr(self, name)
            if not isinstance(value, FrozenDict):
                object.__setattr__(self, name, FrozenDict(value))

    @property
    def gap(self) -> dict[str, float]:
        """Per objective stage, the distance between the value found and the proven bound,
        relative to the value (0.0 when proven optimal): ``|bound - value| / max(1, |value|)``.
        """
        return {k: abs(self.bound[k] - v) / max(1, abs(v))
                for k, v in self.objective.items() if k in self.bound}

    def rows_of(self, operator_id: str) -> tuple[OperatorOccurrence, ...]:
        """The rows of one operator, in plan order (indexed once; the rows never change).

        Parameters
        ----------
        operator_id
            An operator's ``id``.

        Returns
        -------
        tuple of OperatorOccurrence
            Its rows of schedule.csv; empty for an operator with none placed (or unknown).
        """
        return self._rows_index[0].get(operator_id, ())

    def rows_of_occurrence(self, ref: str) -> tuple[OperatorOccurrence, ...]:
        """The rows (one per operator) of one occurrence.

        Parameters
        ----------
        ref
            The occurrence, ``tournament_id#k`` (k from 1).

        Returns
        -------
        tuple of OperatorOccurrence
            One row per operator holding it (a progressive: one per venue); empty when it
            was not placed (or is unknown).
        """
        return self._rows_index[1].get(ref, ())

    @cached_property
    def _rows_index(self) -> tuple[Mapping[str, tuple[OperatorOccurrence, ...]],
                                   Mapping[str, tuple[OperatorOccurrence, ...]]]:
        by_op: dict[str, list[OperatorOccurrence]] = {}
        by_ref: dict[str, list[OperatorOccurrence]] = {}
        for r in self.rows:
            by_op.setdefault(r.operator_id, []).append(r)
            by_ref.setdefault(r.ref, []).append(r)
        return (FrozenDict({k: tuple(v) for k, v in by_op.items()}),
                FrozenDict({k: tuple(v) for k, v in by_ref.items()}))

    @property
    def required_met(self) -> bool:
        """No required occurrence is missing: none unscheduled is required, and no conflict
        was found (a per-month or per-week minimum, PER-MONTH-MIN / PER-WEEK-MIN, short in
        some period while the count is reached elsewhere shows only as a conflict)."""
        return not any(u.required for u in self.unscheduled_list) and not self.conflicts

    @property
    def total_fees_usd(self) -> int:
        """The fees of every licence and permit to buy, in whole USD (the sum of
        licenses.csv's ``fee_usd``; MT-PERMIT-FEES, ME-FEES, ME-SUPER-CRIBBAGE)."""
        return sum(int(lic.fee_usd) for lic in self.license_list)

    @property
    def schedule(self) -> pd.DataFrame:
        """schedule.csv as a DataFrame, one row per occurrence and operator: its columns
        (:data:`SCHEDULE_COLUMNS`), with ``start, end`` as ``datetime64[ns, UTC]`` (the
        instants; ``end`` exclusive) followed by ``start_local, end_local`` (naive
        ``datetime64[ns]``: the wall clock in the tournament's zone, as the calendars show
        it); ``first_day, last_day, notice_due, permit_year`` datetime64 (days; NaT where
        none); ``occurrence`` int64, ``players`` Int64."""
        df = pd.DataFrame([r.__dict__ for r in self.rows], columns=SCHEDULE_COLUMNS)
        for c in ("first_day", "last_day", "notice_due", "permit_year"):
            df[c] = pd.to_datetime(df[c])
        at = int(df.columns.get_loc("end")) + 1  # type: ignore[arg-type]
        for k, c in enumerate(("start", "end")):
            local = pd.Series([getattr(r, c).replace(tzinfo=None) for r in self.rows],
                              dtype=object)
            df.insert(at + k, f"{c}_local", pd.to_datetime(local).astype("datetime64[ns]"))
            df[c] = pd.to_datetime(df[c].astype(object), utc=True).astype(
                "datetime64[ns, UTC]")
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

    # ------------------------------------------------------------------ analyst API
    def summary_table(self) -> pd.DataFrame:
        """The numbers of :func:`scheduler.export.summary.summary_text`, per operator.

        Returns
        -------
        pandas.DataFrame
            One row per operator, in scenario order: ``operator_id, name, jurisdiction``
            (str), ``placed`` (occurrences held there; a shared progressive counts at each
            venue), ``wanted`` (placed + not placed), ``not_placed`` and ``fees_usd`` (the
            licences and permits it buys, USD), those four int64.
        """
        missing: Counter[str] = Counter(o for u in self.unscheduled_list for o in u.operators)
        fees: Counter[str] = Counter()
        for lic in self.license_list:
            fees[lic.operator_id] += int(lic.fee_usd)
        records = []
        for op in self.scenario.operators:
            placed = len(self.rows_of(op.id))
            records.append({
                "operator_id": op.id, "name": op.name, "jurisdiction": op.jurisdiction,
                "placed": placed, "wanted": placed + missing[op.id],
                "not_placed": missing[op.id], "fees_usd": fees[op.id]})
        return pd.DataFrame(records, columns=SUMMARY_COLUMNS).astype(
            {c: "int64" for c in SUMMARY_COLUMNS[3:]})

    def usage(self) -> pd.DataFrame:
        """Each counted limit per operator and period (:func:`scheduler.result.usage.usage_table`).

        Returns
        -------
        pandas.DataFrame
            One row per operator, rule and period: MT-LARGE-LIMIT (16) and MT-CHARITY-LIMIT
            (3) per Montana operator and permit year (MCA 23-5-317(1)(a),(d),(f));
            ME-MONTHLY-LIMIT (2) per Maine operator and calendar month (17 M.R.S. § 1836);
            ME-SUPER-CRIBBAGE (15 licences) statewide (``operator_id`` ``"(statewide)"``)
            per calendar year. Columns: ``operator_id, rule_id`` (str), ``period_start,
            period_end`` (datetime64, days, inclusive), ``used, limit, charitable, held``
            (int64; ``charitable``: how many of ``used`` are charitable large-stakes
            tournaments; ``held``: how many were held, or issued, before the plan).
        """
        return usage_table(self)

    def fees(self) -> pd.DataFrame:
        """Licence and permit fees per operator and licence kind (MT-PERMIT-FEES, ME-FEES,
        ME-SUPER-CRIBBAGE).

        Returns
        -------
        pandas.DataFrame
            One row per operator and kind bought: ``operator_id, jurisdiction, kind`` (str:
            ``mt-large-stakes-permit``, ``mt-small-stakes-permit``, ``me-per-tournament``,
            ``me-annual``, ``me-super-cribbage``), ``licences`` (int64, how many),
            ``fee_usd`` (int64, USD) and ``per_tournament_usd`` (int64, USD): what
            per-tournament licences of each game's tier would cost for the games these
            licences cover (ME-FEES, 17 M.R.S. § 1836(3-A)); equal to ``fee_usd`` except for
            ``me-annual``. So what an annual licence saves on the same dates::

                f = plan.fees()
                saved = (f.per_tournament_usd - f.fee_usd).sum()
        """
        totals: dict[tuple[str, str, str], list[int]] = {}
        for lic in self.license_list:
            fee = int(lic.fee_usd)
            if lic.kind == "me-annual":
                fee = per_tournament_usd(self.scenario, lic.covers)
            row = totals.setdefault((lic.operator_id, lic.jurisdiction, lic.kind), [0, 0, 0])
            row[0] += 1
            row[1] += int(lic.fee_usd)
            row[2] += fee
        return pd.DataFrame([(*k, *v) for k, v in totals.items()], columns=FEE_COLUMNS).astype(
            {c: "int64" for c in FEE_COLUMNS[3:]})

    def __repr__(self) -> str:
        """One line (the dataclass's own repr would print every row)."""
        placed = len({(r.tournament_id, r.occurrence) for r in self.rows})
        return (f"<Plan {self.scenario.name!r}: {self.status}, {placed} occurrences placed, "
                f"{len(self.unscheduled_list)} not placed, fees ${self.total_fees_usd:,}, "
                f"rank {self.rank}, {self.components} part(s)>")

    def _repr_html_(self) -> str:
        """The summary table for Jupyter (every text HTML-escaped)."""
        placed = len({(r.tournament_id, r.occurrence) for r in self.rows})
        head = (f"<p><b>{html.escape(self.scenario.name)}</b>: {html.escape(self.status)} "
                f"plan, {placed:,} occurrence{'' if placed == 1 else 's'} placed, "
                f"{len(self.unscheduled_list)} not placed, fees ${self.total_fees_usd:,}</p>")
        return head + self.summary_table().to_html(index=False, escape=True)


_SEQUENCES = ("rows", "license_list", "unscheduled_list", "cancelled", "previous_series",
              "previous_events", "departed", "departed_events", "conflicts", "overasked")
_MAPPINGS = ("objective", "bound", "replaced_events")

SUMMARY_COLUMNS = ["operator_id", "name", "jurisdiction", "placed", "wanted", "not_placed",
                   "fees_usd"]
FEE_COLUMNS = ["operator_id", "jurisdiction", "kind", "licences", "fee_usd",
               "per_tournament_usd"]
