"""The planner reads the ledger: ``tourney solve SCENARIO --ledger`` (issue #13 § 2).

:func:`read_history` gathers what the ledger records of a scenario's operators and
:func:`with_history` returns the scenario with it filled in, so the plan counts what was held
and does not move what was filed:

- MT-LARGE-LIMIT / MT-CHARITY-LIMIT (MCA 23-5-317(1)(a), (1)(f)): the Montana large-stakes
  tournaments each operator held (current ``held`` entries) from the first day of the permit
  year containing ``horizon.start`` up to the day before it become its
  ``held_in_current_permit_year.large_stakes`` (non-charitable) and ``.charitable``;
- MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b)): a Montana permit bought (current ``licences``
  entry of kind ``mt-large-stakes-permit`` / ``mt-small-stakes-permit``) valid on
  ``horizon.start`` is a permit already held (``held_in_current_permit_year.permits``), not
  bought again;
- ME-MONTHLY-LIMIT (17 M.R.S. § 1836): the Maine licensed games (tournament games, super
  cribbage) each organization held before ``horizon.start`` that count in its calendar month
  (``settings.month_rule``: a game touching the month, or starting in it) become its
  ``held_in_current_month.games``; a game of the newest adopted plan in those days that is
  recorded neither held nor cancelled is counted too (it may have been held: the
  conservative reading), and said so on the terminal;
- ME-SUPER-CRIBBAGE (17 M.R.S. § 1836(4-A)): super cribbage licences the organization bought
  that ended before ``horizon.start`` count toward the 15 of their calendar year
  (added to ``settings.super_cribbage_licenses_issued``); those reaching into the horizon are
  the plan's own and are counted by the model;
- occurrences held (first day in the horizon) are history: pinned to their actual first day
  (``fixed_dates``, ``filed_dates`` and ``held_dates``: schedule.csv's status ``held``);
- occurrences recorded as cancelled (past or future, first day as the adopted plan had it,
  in the horizon) become their tournament's ``cancelled_dates`` (rule CANCELLED): counted
  toward no limit, never pinned, the day not reused by the tournament (unless
  ``reuse_cancelled_days``), and a re-plan publishes the announced occurrence as
  STATUS:CANCELLED with its UID and a higher SEQUENCE;
- occurrences with an MT notice filed (MT-NOTICE, MCA 23-5-317(1)(d)) or whose ME licence
  application was received (ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2) are pinned to the
  day the newest adopted plan has them (``fixed_dates`` and ``filed_dates``); one recorded
  as cancelled is not.

A count typed in the YAML that differs from the ledger's is an input error
(:class:`~scheduler.core.scenario.ScenarioError`) naming the field, both values and the rule, when
an adopted plan of the ledger reaches into that permit year (Maine: that month) before the
horizon (the ledger is then the record of it); otherwise the ledger knows nothing of those
months (a ledger started with this year's plan) and the typed count stands, said on the
terminal.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from constraints import maine, montana
from scheduler.core.problems import InputProblem, ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator as Operator_
from scheduler.ledger.frames import Ledger
from scheduler.ledger.lookups import planned_like
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    Lineage,
    Operator,
    Organization,
    PlanEvent,
    PlanLicence,
    PlanVersion,
    select_current,
)
from scheduler.ledger.store import LedgerError

PERMIT_KINDS = {"mt-large-stakes-permit": "large-stakes",
                "mt-small-stakes-permit": "small-stakes"}
"""Ledger licence kinds (as licenses.csv) -> ``held_in_current_permit_year.permits`` values."""


@dataclass
class History:
    """What the ledger records of a scenario's operators, as the scenario's fields read it.

    ``large_stakes`` / ``charitable``: operator id -> Montana large-stakes tournaments
    (non-charitable / charitable) held in the permit year containing ``horizon.start``,
    before it; ``permits``: operator id -> permit kinds held on ``horizon.start``
    (``large-stakes``, ``small-stakes``); ``super_cribbage``: calendar year -> super cribbage
    licences of the organization that ended before ``horizon.start``; ``pins``: tournament id
    -> first day -> why it is pinned (``held``, ``MT notice filed 2027-02-20``, ...);
    ``cancelled``: tournament id -> first day -> what was recorded (``cancelled, entry
    #4``), the occurrences recorded as cancelled in the horizon;
    ``start``: the scenario's ``horizon.start``; ``covered``: the ids of the Montana
    operators of which an adopted plan of the ledger has an occurrence in the permit year
    containing ``horizon.start``, before it (the ledger's
    counts of those are the record; of the others the ledger knows nothing, so a count typed
    in the YAML stands); ``me_held``: Maine operator id -> licensed games held before
    ``horizon.start`` counted in its month (ME-MONTHLY-LIMIT), the planned ones recorded
    neither held nor cancelled included, which ``me_unrecorded`` also lists (``ref on day``);
    ``me_covered``: the Maine operators of which an adopted plan has an occurrence counted in
    that month before ``horizon.start`` (as ``covered``); ``notes``: what was ignored, one
    sentence each."""

    organization: str | None = None
    start: dt.date | None = None
    covered: set[str] = field(default_factory=set)
    large_stakes: dict[str, int] = field(default_factory=dict)
    charitable: dict[str, int] = field(default_factory=dict)
    permits: dict[str, set[str]] = field(default_factory=dict)
    me_covered: set[str] = field(default_factory=set)
    me_held: dict[str, int] = field(default_factory=dict)
    me_unrecorded: dict[str, list[str]] = field(default_factory=dict)
    super_cribbage: dict[int, int] = field(default_factory=dict)
    pins: dict[str, dict[dt.date, str]] = field(default_factory=dict)
    cancelled: dict[str, dict[dt.date, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def organization_of(s: Session, sc: Scenario, name: str | None) -> Organization | None:
    """The organization whose operators the scenario's are: ``name``, else the only one
    that has one of the scenario's operator ids; None when none has."""
    if name is not None:
        org = s.scalar(select(Organization).where(Organization.name == name))
        if org is None:
            raise LedgerError(f"--organization {name!r} is not in the ledger")
        return org
    ids = [o.id for o in sc.operators]
    orgs = list(s.scalars(select(Organization).join(
        Operator, Operator.organization_id == Organization.id).where(
        Operator.operator_id.in_(ids)).distinct().order_by(Organization.id)))
    if len(orgs) > 1:
        raise LedgerError("the scenario's operators are in several organizations of the "
                          "ledger (" + ", ".join(o.name for o in orgs)
                          + "): give --organization")
    return orgs[0] if orgs else None


def _newest_events(s: Session, org: Organization) -> dict[tuple[str, str], PlanEvent]:
    """(UID, operator) -> the occurrence in the newest adopted version of its lineage."""
    newest = (select(PlanVersion.lineage_id, func.max(PlanVersion.version).label("v"))
              .group_by(PlanVersion.lineage_id).subquery())
    q = (select(PlanEvent).join(PlanVersion, PlanVersion.id == PlanEvent.version_id)
         .join(newest, (PlanVersion.lineage_id == newest.c.lineage_id)
               & (PlanVersion.version == newest.c.v))
         .join(Lineage, Lineage.id == PlanVersion.lineage_id)
         .where(Lineage.organization_id == org.id).order_by(PlanEvent.id))
    return {(e.uid, e.operator_id): e for e in s.scalars(q) if e.recurrence_id is None}


def _any_event(s: Session, uid: str, operator: str) -> PlanEvent | None:
    """The newest adopted plan event of ``uid`` at ``operator`` (any lineage version)."""
    return s.scalar(select(PlanEvent).where(PlanEvent.uid == uid,
                                            PlanEvent.operator_id == operator)
                    .order_by(PlanEvent.id.desc()).limit(1))


def ledger_covers(s: Session, org: Organization, sc: Scenario) -> set[str]:
    """MT-LARGE-LIMIT (MCA 23-5-317(1)(a)): the ids of ``sc``'s Montana operators whose
    permit year containing ``horizon.start`` an adopted plan of ``org`` reaches into before
    ``horizon.start``: the ledger is the record of what they held then, and the YAML's
    ``held_in_current_permit_year`` is not added to it (``solve --ledger`` and ``check
    --ledger`` alike)."""
    start = sc.horizon.start
    out = set()
    for op in sc.operators:
        if op.jurisdiction == montana.CODE and s.scalar(
                select(PlanEvent.id).join(PlanVersion, PlanVersion.id == PlanEvent.version_id)
                .join(Lineage, Lineage.id == PlanVersion.lineage_id)
                .where(Lineage.organization_id == org.id, PlanEvent.operator_id == op.id,
                       PlanEvent.first_day >= op.permit_year_of(start),
                       PlanEvent.first_day < start).limit(1)) is not None:
            out.add(op.id)
    return out


def ledger_covers_month(s: Session, org: Organization, sc: Scenario) -> set[str]:
    """ME-MONTHLY-LIMIT (17 M.R.S. § 1836): the ids of ``sc``'s Maine operators with a game
    of an adopted plan of ``org`` before ``horizon.start`` that counts in its calendar month
    (``settings.month_rule``): the ledger is the record of that month before the horizon,
    and the YAML's ``held_in_current_month.games`` is not added to it (``solve --ledger``
    and ``check --ledger`` alike)."""
    start = sc.horizon.start
    month_first = start.replace(day=1)
    out = set()
    for op in sc.operators:
        if op.jurisdiction == maine.CODE and s.scalar(
                select(PlanEvent.id).join(PlanVersion, PlanVersion.id == PlanEvent.version_id)
                .join(Lineage, Lineage.id == PlanVersion.lineage_id)
                .where(Lineage.organization_id == org.id, PlanEvent.operator_id == op.id,
                       PlanEvent.first_day < start,
                       (PlanEvent.first_day if sc.settings.month_rule == "start"
                        else PlanEvent.last_day) >= month_first).limit(1)) is not None:
            out.add(op.id)
    return out


def _planned_day(s: Session, uid: str, operator: str) -> dt.date | None:
    """The first day the newest adopted plan event of ``uid`` at ``operator`` that was
    confirmed had (a cancelled event keeps the day it was cancelled on)."""
    return s.scalar(select(PlanEvent.first_day).where(
        PlanEvent.uid == uid, PlanEvent.operator_id == operator,
        PlanEvent.recurrence_id.is_(None)).order_by(PlanEvent.id.desc()).limit(1))


def read_history(ledger: Ledger, scenario: Scenario, *,
                 organization: str | None = None) -> History:
    """What ``ledger`` records of ``scenario``'s operators (see the module docstring), in
    one read transaction. The organization is ``organization`` or the only one of the ledger
    with one of the scenario's operator ids; a ledger with none (nothing adopted yet) gives
    an empty :class:`History`. Raises :class:`~scheduler.ledger.store.LedgerError` for an
    unknown ``organization``, or operators found in several organizations."""
    sc = scenario
    start, end = sc.horizon.start, sc.horizon.end
    known = {o.id: o for o in sc.operators}
    h = History()
    with ledger.read() as s:
        org = organization_of(s, sc, organization)
        if org is None:
            return h
        h.organization = org.name
        h.start = start
        events = _newest_events(s, org)
        held = [x for x in s.scalars(select_current(Held).where(
            Held.organization_id == org.id).order_by(Held.id))]
        cancelled = {(x.uid, x.operator_id) for x in held if x.outcome == "cancelled"}

        h.covered |= ledger_covers(s, org, sc)

        # ME-MONTHLY-LIMIT: the games counted in horizon.start's month before it
        h.me_covered |= ledger_covers_month(s, org, sc)
        recorded = {(x.uid, x.operator_id) for x in held}
        for pe in events.values():
            if (pe.jurisdiction == maine.CODE and pe.operator_id in known
                    and pe.type in ME_LICENSED and pe.status == "CONFIRMED"
                    and (pe.uid, pe.operator_id) not in recorded
                    and _in_month(pe.first_day, pe.last_day, start, sc.settings.month_rule)):
                h.me_held[pe.operator_id] = h.me_held.get(pe.operator_id, 0) + 1
                h.me_unrecorded.setdefault(pe.operator_id, []).append(
                    f"{pe.tournament_id}#{pe.occurrence} on {pe.first_day}")

        # what was held: counted before the horizon, pinned inside it
        for x in held:
            if x.outcome != "held" or x.first_day is None or x.operator_id not in known:
                continue
            ev = (events.get((x.uid, x.operator_id)) or _any_event(s, x.uid, x.operator_id)
                  or planned_like(s, x.tournament_id, x.operator_id))  # held unplanned
            t = next((t for t in sc.tournaments if t.id == x.tournament_id), None)
            jur = ev.jurisdiction if ev is not None else known[x.operator_id].jurisdiction
            typ = ev.type if ev is not None else t.type if t is not None else ""
            charitable = (bool(ev.charitable) if ev is not None
                          else bool(t is not None and t.charitable))
            op = known[x.operator_id]
            if x.first_day < start:
                # MT-LARGE-LIMIT: it counts in the current permit year when one of its days
                # of play falls in it (permit_year_count: each), or its first day
                # (first-day)
                last = (x.first_day if x.last_day is None
                        or sc.settings.permit_year_count == "first-day" else x.last_day)
                if (jur == montana.CODE and typ == "large-stakes"
                        and op.permit_year_of(start) <= last):
                    counts = h.charitable if charitable else h.large_stakes
                    counts[op.id] = counts.get(op.id, 0) + 1
                elif (jur == montana.CODE and typ == "large-stakes"
                        and op.permit_year_of(start) <= (x.last_day or x.first_day)):
                    # MT-PERMIT-FEES, (1)(b): not counted here (permit_year_count:
                    # first-day), but a day of play fell in this permit year, under its
                    # permit (Jun 29 - Jul 3 needed the permit of Jul 1 too): not bought again
                    h.permits.setdefault(op.id, set()).add("large-stakes")
                # a Maine game held that no plan has (type unknown) counts: conservative
                elif (jur == maine.CODE and typ != "charitable-cribbage"
                      and _in_month(x.first_day, x.last_day or x.first_day, start,
                                    sc.settings.month_rule)):
                    h.me_held[op.id] = h.me_held.get(op.id, 0) + 1
            elif x.first_day <= end:
                h.pins.setdefault(x.tournament_id, {})[x.first_day] = "held"

        # what was cancelled: the day the adopted plan had it, never used again
        for x in held:
            if x.outcome != "cancelled" or x.operator_id not in known:
                continue
            day = x.recurrence_id or _planned_day(s, x.uid, x.operator_id)
            if day is not None and start <= day <= end:
                why = f"cancelled (entry #{x.id}{': ' + x.note if x.note else ''})"
                h.cancelled.setdefault(x.tournament_id, {}).setdefault(day, why)

        # what was filed: pinned where the newest adopted plan has it
        lic_covers: dict[str, tuple[str, ...]] = {}
        for f in s.scalars(select_current(Filing).where(Filing.organization_id == org.id)
                           .order_by(Filing.id)):
            if f.kind == "mt-notice" and f.uid is not None:
                targets = [events.get((f.uid, f.operator_id))]
                why = f"MT notice filed {f.filed_on}"
            elif f.kind == "me-application" and f.license_ref is not None:
                if f.license_ref not in lic_covers:
                    lic = s.scalar(select(PlanLicence).where(
                        PlanLicence.license_id == f.license_ref)
                        .order_by(PlanLicence.id.desc()).limit(1))
                    lic_covers[f.license_ref] = tuple(lic.covers.split()) if lic else ()
                refs = set(lic_covers[f.license_ref])
                targets = [e for e in events.values() if e.operator_id == f.operator_id
                           and f"{e.tournament_id}#{e.occurrence}" in refs]
                why = f"ME licence application received {f.filed_on}"
            else:
                continue
            for ev in targets:
                if (ev is None or ev.status != "CONFIRMED" or ev.operator_id not in known
                        or (ev.uid, ev.operator_id) in cancelled
                        or not start <= ev.first_day <= end):
                    continue
                h.pins.setdefault(ev.tournament_id, {}).setdefault(ev.first_day, why)

        # licences and permits bought
        for lic_b in s.scalars(select_current(LicenceBought).where(
                LicenceBought.organization_id == org.id).order_by(LicenceBought.id)):
            if lic_b.kind in PERMIT_KINDS and lic_b.operator_id in known:
                if lic_b.valid_from <= start <= lic_b.valid_to:
                    h.permits.setdefault(lic_b.operator_id, set()).add(
                        PERMIT_KINDS[lic_b.kind])
            elif lic_b.kind == "me-super-cribbage" and lic_b.valid_to < start:
                year = lic_b.valid_from.year
                h.super_cribbage[year] = h.super_cribbage.get(year, 0) + 1
    return h


ME_LICENSED = ("tournament-game", "super-cribbage")
"""The Maine types that count toward ME-MONTHLY-LIMIT (17 M.R.S. § 1836)."""


def _in_month(first: dt.date, last: dt.date, start: dt.date, month_rule: str) -> bool:
    """ME-MONTHLY-LIMIT: whether a game played ``first``..``last`` (inclusive), starting
    before ``start``, counts in ``start``'s calendar month: it touches the month (``touch``)
    or starts in it (``start``)."""
    month_first = start.replace(day=1)
    return first < start and (first if month_rule == "start" else last) >= month_first


def _problem(i: int, name: str, typed: int, ledger_n: int, rule: str, op_id: str,
             py: dt.date, start: dt.date, what: str) -> InputProblem:
    return InputProblem(
        f"operators[{i}].held_in_current_permit_year.{name}", typed, rule,
        f"the YAML says {typed} {what} held by {op_id} in the permit year beginning {py} "
        f"before {start}, the ledger records {ledger_n}: remove the field (the ledger's count "
        f"is used) or record what is missing in the ledger (tourney ledger adopt, tourney "
        f"record held)")


def with_history(scenario: Scenario, history: History) -> Scenario:
    """``scenario`` with ``history`` (:func:`read_history`) filled in: the held counts and
    permits of each Montana operator, super cribbage licences issued, and the pinned
    occurrences added to ``fixed_dates`` and ``filed_dates`` (see the module docstring).

    Raises :class:`~scheduler.core.scenario.ScenarioError` (exit 2) when a count typed in the
    YAML (``held_in_current_permit_year.large_stakes`` / ``.charitable``) differs from the
    ledger's, naming both values, the field and MT-LARGE-LIMIT / MT-CHARITY-LIMIT; when a
    held occurrence in the horizon belongs to a tournament the scenario does not have; or
    when more occurrences of a tournament are pinned than its ``count``."""
    sc = scenario
    start = sc.horizon.start
    problems: list[InputProblem] = []
    ops = []
    for i, op in enumerate(sc.operators):
        if op.jurisdiction == maine.CODE:
            ops.append(_with_month(i, op, history, start, problems))
            continue
        typed = op.held_in_current_permit_year
        given = typed.model_fields_set if (
            "held_in_current_permit_year" in op.model_fields_set) else set()
        py = op.permit_year_of(start)
        n_large = history.large_stakes.get(op.id, 0)
        n_char = history.charitable.get(op.id, 0)
        if op.id not in history.covered:
            # no adopted plan reaches before the horizon: the ledger cannot know what was
            # held then (0 is no record, not a count); a typed count is the record
            note = (f"{op.id}: no adopted plan of the ledger has occurrences in the permit "
                    f"year beginning {py} before {start}: the YAML's counts are used "
                    f"({typed.large_stakes} non-charitable, {typed.charitable} charitable "
                    "large-stakes tournaments held; MT-LARGE-LIMIT, MT-CHARITY-LIMIT)")
            if given & {"large_stakes", "charitable"} and note not in history.notes:
                history.notes.append(note)
            n_large = typed.large_stakes if "large_stakes" in given else n_large
            n_char = typed.charitable if "charitable" in given else n_char
        if "large_stakes" in given and typed.large_stakes != n_large:
            problems.append(_problem(i, "large_stakes", typed.large_stakes, n_large,
                                     "MT-LARGE-LIMIT", op.id, py, start,
                                     "non-charitable large-stakes tournaments"))
        if "charitable" in given and typed.charitable != n_char:
            problems.append(_problem(i, "charitable", typed.charitable, n_char,
                                     "MT-CHARITY-LIMIT", op.id, py, start,
                                     "charitable large-stakes tournaments"))
        permits = tuple(sorted({*typed.permits, *history.permits.get(op.id, set())}))
        new = typed.model_copy(update={
            "large_stakes": n_large if "large_stakes" not in given else typed.large_stakes,
            "charitable": n_char if "charitable" not in given else typed.charitable,
            "permits": permits})
        changed = (new.large_stakes, new.charitable, new.permits) != (
            typed.large_stakes, typed.charitable, typed.permits)
        ops.append(op.model_copy(update={"held_in_current_permit_year": new}) if changed
                   else op)
    by_id = {t.id: t for t in sc.tournaments}
    for tid, days in sorted(history.pins.items()):
        if tid not in by_id:
            held = sorted(d for d, why in days.items() if why == "held")
            if held:
                problems.append(InputProblem(
                    "tournaments", tid, "SCENARIO",
                    f"the ledger records {tid} held on {', '.join(map(str, held))}, in the "
                    f"horizon, but the scenario has no tournament {tid}: add it (its held "
                    f"occurrences count toward the limits) or start the horizon after them"))
    ts = []
    for i, t in enumerate(sc.tournaments):
        gone = history.cancelled.get(t.id, {})
        if set(gone) - set(t.cancelled_dates):
            t = t.model_copy(update={
                "cancelled_dates": tuple(sorted({*t.cancelled_dates, *gone}))})
        days = history.pins.get(t.id, {})
        extra = sorted(d for d in days if d not in t.fixed_dates)
        n_fixed = len(set(t.fixed_dates) | set(days))
        if isinstance(t.count, int) and n_fixed > t.count:
            problems.append(InputProblem(
                f"tournaments[{i}].count", t.count, "SCENARIO",
                f"{n_fixed} occurrences of {t.id} must stay where they are (fixed_dates, and "
                "in the ledger: " + "; ".join(f"{d} {why}" for d, why in sorted(days.items()))
                + f"); raise count to at least {n_fixed}"))
        held_days = {d for d, why in days.items() if why == "held"}
        if extra or set(days) - set(t.filed_dates) or held_days - set(t.held_dates):
            t = t.model_copy(update={
                "fixed_dates": tuple(sorted({*t.fixed_dates, *extra})),
                "filed_dates": tuple(sorted({*t.filed_dates, *days})),
                "held_dates": tuple(sorted({*t.held_dates, *held_days}))})
        ts.append(t)
    if problems:
        raise ScenarioError(problems)
    update: dict[str, Any] = {"operators": tuple(ops), "tournaments": tuple(ts)}
    if history.super_cribbage:
        issued = defaultdict(int, sc.settings.super_cribbage_licenses_issued)
        for year, n in history.super_cribbage.items():
            issued[year] += n
        update["settings"] = sc.settings.model_copy(
            update={"super_cribbage_licenses_issued": dict(sorted(issued.items()))})
    return sc.model_copy(update=update)


def _with_month(i: int, op: Operator_, history: History, start: dt.date,
                problems: list[InputProblem]) -> Operator_:
    """Maine operator ``op`` (``operators[i]``) with ``held_in_current_month.games`` from
    ``history`` (ME-MONTHLY-LIMIT, 17 M.R.S. § 1836): the ledger's count when an adopted plan
    reaches into the month before ``start`` (a typed count that differs is a problem added to
    ``problems``), else the typed count, said in ``history.notes`` when typed."""
    typed = op.held_in_current_month.games
    given = "held_in_current_month" in op.model_fields_set
    n = history.me_held.get(op.id, 0)
    month = f"{start.year}-{start.month:02d}"
    if op.id not in history.me_covered and n == 0:
        if given:
            history.notes.append(
                f"{op.id}: no adopted plan of the ledger has games in {month} before {start}: "
                f"the YAML's count is used ({typed} licensed game(s) held; ME-MONTHLY-LIMIT)")
        return op
    if given and typed != n:
        problems.append(InputProblem(
            f"operators[{i}].held_in_current_month.games", typed, "ME-MONTHLY-LIMIT",
            f"the YAML says {typed} licensed games held by {op.id} in {month} before {start}, "
            f"the ledger records {n}: remove the field (the ledger's count is used) or record "
            f"what is missing in the ledger (tourney record held, tourney record cancelled)"))
        return op
    if typed == n:
        return op
    return op.model_copy(update={"held_in_current_month": op.held_in_current_month.model_copy(
        update={"games": n})})


def from_ledger(scenario: Scenario, ledger: Ledger | str | None = None, *,
                organization: str | None = None) -> tuple[Scenario, History]:
    """``tourney solve SCENARIO --ledger``: ``scenario`` with its history from ``ledger`` (a
    :class:`~scheduler.ledger.frames.Ledger`, or a path or URL; None: ``$TOURNEY_LEDGER`` or
    ``./tourney-ledger.sqlite``), and that history. Pass the result to
    :func:`scheduler.engine.solver.solve`. Raises :class:`~scheduler.ledger.store.LedgerError` and
    :class:`~scheduler.core.scenario.ScenarioError` (both exit 2) as :func:`read_history` and
    :func:`with_history` do."""
    lg = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    history = read_history(lg, scenario, organization=organization)
    return with_history(scenario, history), history


def describe(history: History) -> list[str]:
    """What :func:`with_history` took from the ledger, one line each (for the terminal)."""
    if history.organization is None:
        return ["the ledger has no operator of this scenario yet: no history taken from it",
                *history.notes]
    lines = list(history.notes)
    for op in sorted({*history.large_stakes, *history.charitable}):
        lines.append(f"{op}: {history.large_stakes.get(op, 0)} non-charitable and "
                     f"{history.charitable.get(op, 0)} charitable large-stakes tournament(s) "
                     "held earlier in the permit year (MT-LARGE-LIMIT, MT-CHARITY-LIMIT)")
    for op, n in sorted(history.me_held.items()):
        late = history.me_unrecorded.get(op, [])
        month = f"{history.start:%Y-%m} before {history.start}" if history.start else ""
        lines.append(f"{op}: {n} licensed game(s) held in {month} (ME-MONTHLY-LIMIT)" + (
                         f", of which {len(late)} planned and not recorded yet, counted as "
                         f"held: {', '.join(late)} (tourney record held or cancelled)"
                         if late else ""))
    for op, kinds in sorted(history.permits.items()):
        lines.append(f"{op}: permit(s) already held: {', '.join(sorted(kinds))} "
                     "(MT-PERMIT-FEES)")
    for year, n in sorted(history.super_cribbage.items()):
        lines.append(f"{n} super cribbage licence(s) issued in {year} before the horizon "
                     "(ME-SUPER-CRIBBAGE)")
    for tid, days in sorted(history.pins.items()):
        for day, why in sorted(days.items()):
            lines.append(f"{tid} stays on {day}: {why}")
    for tid, days in sorted(history.cancelled.items()):
        for day, why in sorted(days.items()):
            lines.append(f"{tid} on {day}: {why}; not placed there again, counted toward "
                         "no limit (CANCELLED)")
    return lines or [f"nothing of organization {history.organization!r} before or in the "
                     "horizon in the ledger"]
