"""``tourney check --ledger``: audit what was held, filed and reported, not only what was
planned (issue #13 § 2).

:func:`read_actuals` turns the ledger's current entries into the plain values the rules read
(:class:`constraints.base.Actuals`); :func:`audit_actuals` runs every rule's ``actuals``
reading (``constraints/montana/``, ``constraints/maine/``, side by side with their
``encode`` and ``check``) on them:

- MT-LARGE-LIMIT (MCA 23-5-317(1)(a)): a 17th counted large-stakes tournament held in a
  permit year;
- MT-NOTICE (MCA 23-5-317(1)(d)): a large-stakes tournament held without a notice filed at
  least 5 days before its first day;
- ME-PRIZES (17 M.R.S. § 1836(5)): prizes paid under 75 % of entry fees;
- ME-SUPER-CRIBBAGE (17 M.R.S. § 1836(4-A)) and ME-CRIBBAGE-REG (§ 1836(4-B)): charity paid
  under the statute's share;
- ME-REPORT (16-633 CMR ch. 32 § 8): a disposition-of-funds report not filed by its due day;
- and every other rule a recorded fact can break (RULES.md, "What was held"), each with its
  ``actuals`` reading beside its ``check`` in ``constraints/``.

A rule that needs a figure not recorded says so in a note (``Actuals.notes``), not a
violation.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from constraints import maine, montana
from constraints.base import Actual, Actuals, ReportOwed, Violation
from constraints.maine import report_due
from constraints.registry import judge_actuals
from scheduler.core.clock import env_as_of, latest_today, now, today_in
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import DEFAULT_TIMEZONE
from scheduler.ledger.frames import Ledger
from scheduler.ledger.history import ledger_covers, ledger_covers_month, organization_of
from scheduler.ledger.lookups import planned_like
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    Organization,
    PlanEvent,
    PlanLicence,
    PlanVersion,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import ME_LICENCE_KINDS
from scheduler.ledger.record import report_periods
from scheduler.ledger.scenarios import ledger_scenario


def read_actuals(ledger: Ledger, scenario: Scenario, *, as_of: dt.date | None = None,
                 organization: str | None = None,
                 planned: Collection[tuple[str, str]] = ()) -> Actuals:
    """What the ledger records as held and reported by ``scenario``'s organization
    (``organization``, else the one with the scenario's operators), as of ``as_of``
    (default today):

    - ``held``: one :class:`~constraints.base.Actual` per current ``held`` entry with outcome
      ``held`` (cancelled ones are not audited) on the days it actually ran, its
      jurisdiction, type and charitable flag from the adopted plan that has its UID (one held
      unplanned: the newest plan event of its tournament at its operator, else the
      scenario's tournament), ``notice_filed_on`` from the current ``mt-notice`` filing of
      its UID at its operator, the figures recorded (players, entries, surcharge, charity
      and to whom, under-21 patrons, away from the establishment), the plan licence that
      covers it (its tier and first day) with the day its ``me-application`` was received
      and whether it was bought; sorted by first day, tournament, occurrence, operator; with
      ``planned`` ((UID, operator) pairs), also each of those occurrences not recorded held
      or cancelled, as held on the days the newest adopted plan has them (``entry`` None):
      what a filing for an occurrence still to come is judged on at record time
      (:func:`judge_entry`);
    - ``ledger_covers``: the Montana operators whose permit year containing
      ``horizon.start`` an adopted plan reaches into before it
      (:func:`scheduler.ledger.history.ledger_covers`), and the Maine ones with a game of an
      adopted plan before it counted in its month
      (:func:`scheduler.ledger.history.ledger_covers_month`);
    - ``reports``: one :class:`~constraints.base.ReportOwed` per licensed period of each Maine
      licence of an adopted plan that was applied for (a current ``me-application`` filing)
      or bought (a current ``licences`` entry naming it), due
      :func:`constraints.maine.report_due` of the period's last day (``settings.closed_days``
      skipped), as ``tourney deadlines`` computes it; ``filed_on`` from the current
      ``reports`` entry.

    Raises :class:`~scheduler.ledger.store.LedgerError` for an unknown ``organization`` or
    operators in several organizations."""
    as_of = as_of or env_as_of()
    if as_of is None:  # today where every operator is (a report is late once late there)
        at = now()
        as_of = min(today_in(o.tz, at=at) for o in scenario.operators)
    out = Actuals(scenario, [], [], as_of)
    with ledger.read() as s:
        org = organization_of(s, scenario, organization)
        if org is None:
            return out
        out.ledger_covers = frozenset(ledger_covers(s, org, scenario)
                                      | ledger_covers_month(s, org, scenario))
        notices: dict[tuple[str, str], dt.date] = {}
        received: dict[str, dt.date] = {}
        bought: set[str] = set()
        for f in s.scalars(select_current(Filing).where(Filing.organization_id == org.id)):
            if f.kind == "mt-notice" and f.uid is not None:
                notices[(f.uid, f.operator_id)] = f.filed_on
            elif f.kind == "me-application" and f.license_ref is not None:
                received[f.license_ref] = f.filed_on
        for b in s.scalars(select_current(LicenceBought).where(
                LicenceBought.organization_id == org.id)):
            if b.license_ref:
                bought.add(b.license_ref)
        applied = set(received) | bought
        licences: dict[str, PlanLicence | None] = {}

        def licence(ref: str) -> PlanLicence | None:
            """The newest adopted plan licence ``ref`` (None: none)."""
            if ref not in licences:
                licences[ref] = s.scalar(select(PlanLicence).where(
                    PlanLicence.license_id == ref).order_by(PlanLicence.id.desc()).limit(1))
            return licences[ref]
        recorded = list(s.scalars(select_current(Held).where(Held.organization_id == org.id)))
        done = {(x.uid, x.operator_id) for x in recorded}
        rows = [x for x in recorded if x.outcome == "held"]
        for uid, oid in sorted(set(planned) - done):
            ev = s.scalar(select(PlanEvent).where(
                PlanEvent.uid == uid, PlanEvent.operator_id == oid,
                PlanEvent.status == "CONFIRMED").order_by(PlanEvent.id.desc()).limit(1))
            if ev is not None:  # as planned, not held yet (never added to the session)
                rows.append(Held(organization_id=org.id, operator_id=oid, outcome="held",
                                 tournament_id=ev.tournament_id, occurrence=ev.occurrence,
                                 uid=uid, first_day=ev.first_day, last_day=ev.last_day))
        for x in rows:
            if x.first_day is None or x.last_day is None:
                continue
            own = s.scalar(select(PlanEvent).where(PlanEvent.uid == x.uid,
                                                   PlanEvent.operator_id == x.operator_id)
                           .order_by(PlanEvent.id.desc()).limit(1))
            ev = own or planned_like(s, x.tournament_id, x.operator_id)
            jur, typ, charitable = _kind(scenario, ev, x.tournament_id, x.operator_id)
            # its own event's licence; one held unplanned: a period licence of its operator
            # valid on every day it ran (another game's per-tournament licence covers none)
            ref = own.license_id if own is not None else _period_licence(
                s, x.operator_id, x.first_day, x.last_day)
            lic = licence(ref) if ref else None
            out.held.append(Actual(
                x.tournament_id, x.occurrence, x.operator_id,
                jur, typ, charitable, x.first_day, x.last_day,
                x.entry_fees_usd, x.prizes_usd, x.charity_usd,
                notices.get((x.uid, x.operator_id)), x.id, players=x.players,
                entries=x.entries, surcharge_usd=x.surcharge_usd, charity_to=x.charity_to,
                charity_is_licensee=x.charity_is_licensee,
                under_21_admitted=x.under_21_admitted,
                away_from_establishment=x.away_from_establishment, licence_id=ref,
                licence_tier=lic.tier if lic is not None and lic.tier else None,
                licence_first_day=lic.valid_from if lic is not None else None,
                application_received_on=received.get(ref), licence_bought=ref in bought))
        filed = {(r.license_ref, r.period_end): r.filed_on for r in s.scalars(
            select_current(ReportFiled).where(ReportFiled.organization_id == org.id))}
        seen: set[str] = set()
        for lic in s.scalars(select(PlanLicence).where(
                PlanLicence.license_id.in_(sorted(applied))).order_by(PlanLicence.id.desc())):
            if (lic.license_id in seen or lic.jurisdiction != maine.CODE
                    or lic.kind not in ME_LICENCE_KINDS):
                continue
            seen.add(lic.license_id)
            for end in report_periods(lic):
                out.reports.append(ReportOwed(lic.license_id, lic.operator_id, end,
                                              report_due(end, scenario.settings.closed_days),
                                              filed.get((lic.license_id, end))))
    out.held.sort(key=lambda a: (a.first_day, a.tournament_id, a.occurrence, a.operator_id))
    out.reports.sort(key=lambda r: (r.due, r.license_id, r.period_end))
    return out


def _period_licence(s: Session, operator_id: str, first: dt.date, last: dt.date) -> str:
    """ME-APPLICATION-WINDOW, ME-FEES: the newest adopted Maine annual or monthly licence of
    ``operator_id`` valid on ``first``..``last`` (its ``license_id``; empty: none), the
    licence an occurrence held unplanned on those days was held under."""
    lic = s.scalar(select(PlanLicence).where(
        PlanLicence.operator_id == operator_id, PlanLicence.jurisdiction == maine.CODE,
        PlanLicence.kind.in_(("me-annual", "me-monthly")), PlanLicence.valid_from <= first,
        PlanLicence.valid_to >= last).order_by(PlanLicence.id.desc()).limit(1))
    return lic.license_id if lic is not None else ""


def _kind(scenario: Scenario, ev: PlanEvent | None, tournament_id: str,
          operator_id: str) -> tuple[str, str, bool]:
    """Jurisdiction, type and charitable flag of an occurrence held: the adopted plan's
    (``ev``: its own event, else the newest of its tournament at its operator, for one held
    unplanned), else the scenario's tournament ``tournament_id``; ``("", "", False)`` when
    neither knows it."""
    if ev is not None:
        return ev.jurisdiction, ev.type, bool(ev.charitable)
    t = next((t for t in scenario.tournaments if t.id == tournament_id), None)
    if t is None or operator_id not in t.operators:
        return "", "", False
    return scenario.jurisdiction_of(t), t.type, t.charitable


def audit_actuals(actuals: Actuals) -> list[Violation]:
    """Every violation in ``actuals``, rule by rule in registry order
    (:func:`constraints.registry.judge_actuals`); the notes (figures a rule needs that were
    not recorded) are put in ``actuals.notes``, replacing what was there."""
    found = judge_actuals(actuals)
    actuals.notes = [v for v in found if v.note]
    return [v for v in found if not v.note]


def audit_ledger(ledger: Ledger | str | None, scenario: Scenario, *,
                 as_of: dt.date | None = None, organization: str | None = None
                 ) -> tuple[list[Violation], Actuals]:
    """``tourney check SCENARIO --ledger``: the violations in what ``ledger`` (a
    :class:`~scheduler.ledger.frames.Ledger`, a path or URL, None: ``$TOURNEY_LEDGER``) records
    as held and reported, and what was read (:func:`read_actuals`). Raises
    :class:`~scheduler.ledger.store.LedgerError` (exit 2)."""
    lg = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    actuals = read_actuals(lg, scenario, as_of=as_of, organization=organization)
    return audit_actuals(actuals), actuals


def _lineage_of(s: Session, uid: str | None = None, licence: str | None = None
                ) -> int | None:
    """The plan lineage (its row id) of the newest adopted plan event with UID ``uid``, or
    of the newest plan licence ``licence``; None when no adopted plan has it (an
    occurrence held unplanned)."""
    if uid is not None:
        q = select(PlanVersion.lineage_id).join(PlanEvent, PlanEvent.version_id
                                                == PlanVersion.id).where(PlanEvent.uid == uid)
        return s.scalar(q.order_by(PlanEvent.id.desc()).limit(1))
    if licence is not None:
        q = select(PlanVersion.lineage_id).join(PlanLicence, PlanLicence.version_id
                                                == PlanVersion.id).where(
            PlanLicence.license_id == licence)
        return s.scalar(q.order_by(PlanLicence.id.desc()).limit(1))
    return None


def _rounds(s: Session, scenario: Scenario, uid: str, operator_id: str
            ) -> set[tuple[str, str]]:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(d): when the occurrence ``uid`` at ``operator_id`` is
    a round of a progressive of ``scenario`` (its ``tours``), every confirmed round of that
    progressive in the newest adopted plan that has it, (UID, operator): the progressive's
    first round dates every round's notice. Empty otherwise."""
    ev = s.scalar(select(PlanEvent).where(PlanEvent.uid == uid,
                                          PlanEvent.operator_id == operator_id)
                  .order_by(PlanEvent.id.desc()).limit(1))
    tour = montana.progressive_rounds(scenario).get(ev.tournament_id) if ev else None
    if ev is None or tour is None:
        return set()
    return {(e.uid, e.operator_id) for e in s.scalars(select(PlanEvent).where(
        PlanEvent.version_id == ev.version_id, PlanEvent.status == "CONFIRMED",
        PlanEvent.tournament_id.in_(tour.stops)))}


def judge_entry(ledger: Ledger, entry: Held | Filing | ReportFiled | LicenceBought, *,
                as_of: dt.date | None = None) -> list[Violation]:
    """What the entry just recorded breaks, at once (``tourney record ...`` warns, and
    records it anyway: the ledger is the truth, ``tourney check --ledger`` the judge), read
    by the rules' own ``actuals`` (:func:`audit_actuals`) over the organization's ledger,
    with the scenario kept with the entry's adopted plan
    (:func:`scheduler.ledger.scenarios.ledger_scenario`: its tournaments, tours, settings
    and terms; for a plan adopted without one, the operators the ledger knows):

    - ``held``: every violation naming that occurrence at that operator (MT-NOTICE,
      MT-LARGE-LIMIT, MT-DURATION on its actual days, ME-PRIZES, ME-ENTRY-CAP, ...);
    - an ``mt-notice`` filing: MT-NOTICE of its occurrence, held or as planned (a notice
      filed after its due day), and MT-PROGRESSIVE of a round of a progressive (filed after
      the day 5 days before the progressive's first round, held or as planned);
    - an ``me-application`` filing: ME-APPLICATION-WINDOW of the occurrences its licence
      covers, held or as planned (when the rule has a reading of actuals);
    - an ME-REPORT report: ME-REPORT of that licence and period (filed late).

    A cancelled outcome and a licence bought break nothing at record time: []. ``as_of``
    (default today) is the day of the judgement. Raises
    :class:`~scheduler.ledger.store.LedgerError` as :func:`read_actuals` does, and when
    the scenario kept with the plan is damaged
    (:func:`scheduler.ledger.scenarios.version_scenario`)."""
    if isinstance(entry, LicenceBought) or (isinstance(entry, Held)
                                             and entry.outcome != "held"):
        return []
    planned: set[tuple[str, str]] = set()
    refs: set[str] = set()
    rules: set[str] | None = None
    with ledger.read() as s:
        org = s.get(Organization, entry.organization_id)
        assert org is not None
        days: list[dt.date] = []  # the days the entry is about
        when: list[dt.date] = [latest_today(DEFAULT_TIMEZONE.values(), as_of)]  # and now
        lineage: int | None = None
        notice = False
        if isinstance(entry, Held):
            refs.add(f"{entry.tournament_id}#{entry.occurrence}")
            days += [d for d in (entry.first_day, entry.last_day) if d is not None]
            lineage = _lineage_of(s, uid=entry.uid)
        elif isinstance(entry, Filing) and entry.kind == "mt-notice" and entry.uid:
            rules = {"MT-NOTICE", "MT-PROGRESSIVE"}
            planned.add((entry.uid, entry.operator_id))
            refs.add(f"{entry.tournament_id}#{entry.occurrence}")
            when.append(entry.filed_on)
            lineage, notice = _lineage_of(s, uid=entry.uid), True
        elif isinstance(entry, Filing) and entry.license_ref:
            rules = {"ME-APPLICATION-WINDOW"}
            lic = s.scalar(select(PlanLicence).where(
                PlanLicence.license_id == entry.license_ref).order_by(PlanLicence.id.desc())
                .limit(1))
            covers = set(lic.covers.split()) if lic is not None else set()
            for ev in s.scalars(select(PlanEvent).where(
                    PlanEvent.version_id == (lic.version_id if lic is not None else -1),
                    PlanEvent.operator_id == entry.operator_id)):
                if f"{ev.tournament_id}#{ev.occurrence}" in covers:
                    planned.add((ev.uid, ev.operator_id))
                    days.append(ev.first_day)
            refs |= covers
            when.append(entry.filed_on)
            lineage = _lineage_of(s, licence=entry.license_ref)
        elif isinstance(entry, ReportFiled):
            rules = {"ME-REPORT"}
            days.append(entry.period_end)
            when.append(entry.filed_on)
            lineage = _lineage_of(s, licence=entry.license_ref)
        scenario = ledger_scenario(s, org, days, when, lineage_id=lineage)
        if notice and isinstance(entry, Filing) and entry.uid:
            planned |= _rounds(s, scenario, entry.uid, entry.operator_id)
    actuals = read_actuals(ledger, scenario, as_of=as_of, organization=org.name,
                           planned=planned)
    out = []
    for v in audit_actuals(actuals):
        if v.operator_id != entry.operator_id or (rules is not None and v.rule not in rules):
            continue
        if isinstance(entry, ReportFiled):
            if v.dates == entry.period_end.isoformat() and entry.license_ref in v.message:
                out.append(v)
        elif refs & set(v.refs):
            out.append(v)
    return out


def settled_days(ledger: Ledger | str | None, scenario: Scenario) -> dict[str, set[dt.date]]:
    """What the ledger says is history, as ``tourney check --ledger`` exempts it in a
    schedule or calendar: tournament id -> the first days of occurrences whose MT notice
    (MT-NOTICE, MCA 23-5-317(1)(d)) or ME licence application (ME-APPLICATION-WINDOW,
    16-633 CMR ch. 32 § 2) is recorded filed, or which are recorded held (the planned day,
    and the actual first day when recorded). Their notice or application is not judged
    again from ``notice_from`` or the as-of day (:func:`scheduler.check.auditing.with_settled`).
    The planned day is the one the newest adopted version holding the UID gives. Only
    tournaments of ``scenario``; ``ledger`` None: ``$TOURNEY_LEDGER`` or the default file.
    Raises LedgerError when the ledger cannot be read."""
    ids = {t.id for t in scenario.tournaments}
    lg = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    out: dict[str, set[dt.date]] = {}

    def add(tid: str, day: dt.date | None) -> None:
        if tid in ids and day is not None:
            out.setdefault(tid, set()).add(day)

    try:
        with lg.read() as s:
            newest: dict[str, PlanEvent] = {}  # uid -> its event in the newest version
            by_ref: dict[tuple[int, str], PlanEvent] = {}
            for e in s.scalars(select(PlanEvent).order_by(PlanEvent.version_id, PlanEvent.id)):
                newest[e.uid] = e
                by_ref[(e.version_id, f"{e.tournament_id}#{e.occurrence}")] = e
            lics = {lic.license_id: lic for lic in
                    s.scalars(select(PlanLicence).order_by(PlanLicence.version_id))}
            for f in s.scalars(select_current(Filing)):
                if f.kind == "mt-notice" and f.uid in newest:
                    add(newest[f.uid].tournament_id, newest[f.uid].first_day)
                elif f.kind == "me-application" and f.license_ref in lics:
                    lic = lics[f.license_ref]
                    for ref in lic.covers.split():
                        ev = by_ref.get((lic.version_id, ref))
                        if ev is not None:
                            add(ev.tournament_id, newest.get(ev.uid, ev).first_day)
            for h in s.scalars(select_current(Held)):
                if h.outcome == "held":
                    add(h.tournament_id, h.first_day)
                    if h.uid in newest:
                        add(newest[h.uid].tournament_id, newest[h.uid].first_day)
    finally:
        if lg is not ledger:
            lg.dispose()
    return out


def judge_held(ledger: Ledger, entries: Sequence[Held], *,
               as_of: dt.date | None = None) -> list[Violation]:
    """What the held entries just recorded break (``tourney record --from``: many at once),
    as :func:`judge_entry` judges each, with one reading of the ledger per organization
    and plan lineage (the scenario kept with its plan) instead of one per entry: every
    violation naming one of the occurrences at its operator. Cancelled entries break
    nothing at record time. Raises :class:`~scheduler.ledger.store.LedgerError` as
    :func:`judge_entry` does."""
    held = [e for e in entries if e.outcome == "held"]
    out: list[Violation] = []
    with ledger.read() as s:  # each entry's plan (lineage): the scenario kept with it
        groups: dict[tuple[int, int], list[Held]] = {}
        for e in held:
            lineage = _lineage_of(s, uid=e.uid)
            groups.setdefault((e.organization_id, -1 if lineage is None else lineage),
                              []).append(e)
    for (org_id, lineage), mine in sorted(groups.items(), key=lambda g: g[0]):
        with ledger.read() as s:
            org = s.get(Organization, org_id)
            assert org is not None
            days = [d for e in mine for d in (e.first_day, e.last_day) if d is not None]
            scenario = ledger_scenario(s, org, days,
                                       [latest_today(DEFAULT_TIMEZONE.values(), as_of)],
                                       lineage_id=None if lineage < 0 else lineage)
        actuals = read_actuals(ledger, scenario, as_of=as_of, organization=org.name,
                               planned=set())
        wanted = {(e.operator_id, f"{e.tournament_id}#{e.occurrence}") for e in mine}
        out += [v for v in audit_actuals(actuals)
                if any((v.operator_id, r) in wanted for r in v.refs)]
    return out
