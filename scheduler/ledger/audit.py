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
- ME-REPORT (16-633 CMR ch. 32 § 8): a disposition-of-funds report not filed by its due day.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from constraints.base import Actual, Actuals, ReportOwed, Violation
from constraints.registry import check_actuals
from scheduler.ledger.frames import Ledger
from scheduler.ledger.history import organization_of
from scheduler.ledger.models import (
    Filing,
    Held,
    LicenceBought,
    PlanEvent,
    PlanLicence,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import ME_LICENCE_KINDS
from scheduler.ledger.record import report_periods
from scheduler.scenario import Scenario
from scheduler.timing import report_due


def read_actuals(ledger: Ledger, scenario: Scenario, *, as_of: dt.date | None = None,
                 organization: str | None = None) -> Actuals:
    """What the ledger records as held and reported by ``scenario``'s organization
    (``organization``, else the one with the scenario's operators), as of ``as_of``
    (default today):

    - ``held``: one :class:`~constraints.base.Actual` per current ``held`` entry with outcome
      ``held`` (cancelled ones are not audited), its jurisdiction, type and charitable flag
      from the adopted plan that has its UID, and ``notice_filed_on`` from the current
      ``mt-notice`` filing of its UID at its operator; sorted by first day, tournament,
      occurrence, operator;
    - ``reports``: one :class:`~constraints.base.ReportOwed` per licensed period of each Maine
      licence of an adopted plan that was applied for (a current ``me-application`` filing)
      or bought (a current ``licences`` entry naming it), due
      :func:`scheduler.timing.report_due` of the period's last day (``settings.closed_days``
      skipped), as ``tourney deadlines`` computes it; ``filed_on`` from the current
      ``reports`` entry.

    Raises :class:`~scheduler.ledger.store.LedgerError` for an unknown ``organization`` or
    operators in several organizations."""
    as_of = as_of or dt.date.today()
    out = Actuals(scenario, [], [], as_of)
    with ledger.read() as s:
        org = organization_of(s, scenario, organization)
        if org is None:
            return out
        notices: dict[tuple[str, str], dt.date] = {}
        applied: set[str] = set()
        for f in s.scalars(select_current(Filing).where(Filing.organization_id == org.id)):
            if f.kind == "mt-notice" and f.uid is not None:
                notices[(f.uid, f.operator_id)] = f.filed_on
            elif f.kind == "me-application" and f.license_ref is not None:
                applied.add(f.license_ref)
        for b in s.scalars(select_current(LicenceBought).where(
                LicenceBought.organization_id == org.id)):
            if b.license_ref:
                applied.add(b.license_ref)
        for x in s.scalars(select_current(Held).where(Held.organization_id == org.id,
                                                      Held.outcome == "held")):
            if x.first_day is None or x.last_day is None:
                continue
            ev = s.scalar(select(PlanEvent).where(PlanEvent.uid == x.uid,
                                                  PlanEvent.operator_id == x.operator_id)
                          .order_by(PlanEvent.id.desc()).limit(1))
            out.held.append(Actual(
                x.tournament_id, x.occurrence, x.operator_id,
                ev.jurisdiction if ev is not None else "", ev.type if ev is not None else "",
                bool(ev is not None and ev.charitable), x.first_day, x.last_day,
                x.entry_fees_usd, x.prizes_usd, x.charity_usd,
                notices.get((x.uid, x.operator_id)), x.id))
        filed = {(r.license_ref, r.period_end): r.filed_on for r in s.scalars(
            select_current(ReportFiled).where(ReportFiled.organization_id == org.id))}
        seen: set[str] = set()
        for lic in s.scalars(select(PlanLicence).where(
                PlanLicence.license_id.in_(sorted(applied))).order_by(PlanLicence.id.desc())):
            if (lic.license_id in seen or lic.jurisdiction != "ME"
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


def audit_actuals(actuals: Actuals) -> list[Violation]:
    """Every violation in ``actuals``, rule by rule in registry order
    (:func:`constraints.registry.check_actuals`)."""
    return check_actuals(actuals)


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
