"""A plan's deadlines: what to file or do by when, the one list every output reads.

deadlines.csv and the report's table (:mod:`scheduler.export.deadlines`), plan.xlsx's
*Deadlines* sheet (:mod:`scheduler.export.xlsx`) and ``tourney deadlines``
(:mod:`scheduler.ledger.deadlines`) all read :func:`list_deadlines`; its days come from the
deadline functions of :mod:`scheduler.core.timing` that the model, the check and the calendars
read too:

- MT-NOTICE (MCA 23-5-317(1)(d)): each Montana large-stakes occurrence at each operator,
  the row's ``notice_due``: :func:`~scheduler.core.timing.notice_due` of its first day (5
  calendar days before), or of its progressive's first round for a round of a progressive
  (MT-PROGRESSIVE; :func:`constraints.montana.progressive_starts`);
- ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): each Maine licence, received between the
  two days of :func:`~constraints.maine.application_window` for the first day it covers (90
  days before it, or ``notice_from`` when that is later, to the 10th Maine business day
  before it);
- ME-REPORT (16-633 CMR ch. 32 § 8): each licensed period of each Maine licence,
  :func:`~constraints.maine.report_due` of the period's last day (the 10th Maine business day
  after it);
- MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b)): each Montana permit the plan buys,
  :func:`constraints.montana.permit_due` (a renewal: the day before its permit year starts,
  before July 1 by default; one of a permit year already begun: the day before the first
  day of play it covers).

Each line's sentence is its rule's own (``what``: :func:`constraints.montana.notice_line`,
:func:`constraints.maine.application_line`, :func:`constraints.maine.report_line`, beside
the calendars' wording of the same rule: ``notice_text``, ``application_window_text``,
``report_text``).

It works on what a plan holds and what a plan folder's CSV files hold alike (the
:class:`HeldRow` and :class:`HeldLicence` protocols), so it sits below the plan and the
ledger and imports neither.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from constraints import maine, montana
from constraints.catalogue import RULES
from constraints.maine import (
    LICENCE_KINDS,
    application_due,
    application_line,
    application_opens,
    application_window,
    report_due,
    report_line,
)
from constraints.montana import PERMIT_KINDS, notice_line, permit_due, permit_line
from scheduler.core.timing import (
    Closed,
    closed_note,
    last_office_day,
    notice_due,
    office_closed,
    report_periods,
)
from scheduler.result.words import licence_text


class HeldRow(Protocol):
    """An occurrence at one operator as the deadlines read it (a row of schedule.csv,
    :class:`scheduler.result.plan.OperatorOccurrence`)."""

    @property
    def tournament_id(self) -> str: ...
    @property
    def occurrence(self) -> int: ...
    @property
    def operator_id(self) -> str: ...
    @property
    def jurisdiction(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def first_day(self) -> dt.date: ...
    @property
    def notice_due(self) -> dt.date | None: ...
    @property
    def uid(self) -> str: ...


class HeldLicence(Protocol):
    """A licence as the deadlines read it (a row of licenses.csv,
    :class:`constraints.base.License`); ``valid_from``/``valid_to`` inclusive days."""

    @property
    def license_id(self) -> str: ...
    @property
    def operator_id(self) -> str: ...
    @property
    def jurisdiction(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def valid_from(self) -> dt.date: ...
    @property
    def valid_to(self) -> dt.date: ...
    @property
    def covers(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Deadline:
    """One thing to file or do by a day (a line of deadlines.csv and of ``tourney
    deadlines``)."""

    date: dt.date
    """The last day (inclusive) to do it."""
    rule: str
    """Its rule ID: ``MT-NOTICE``, ``MT-PERMIT-FEES``, ``ME-APPLICATION-WINDOW`` or
    ``ME-REPORT``."""
    citation: str
    """The law it comes from (:data:`constraints.catalogue.RULES`)."""
    operator_id: str
    """Who does it."""
    what: str
    """A sentence in people's words saying what to do, no id in it (the tournament's title
    for MT-NOTICE, the licence or permit in words), ending with
    :func:`scheduler.core.timing.closed_note` when the office is closed on ``date``."""
    occurrence: str
    """``TOURNAMENT#N`` (MT-NOTICE), or the occurrences a Maine licence covers, shortened
    past three (``a#1 … a#23 (23)``)."""
    license_id: str
    """The Maine licence or the Montana permit (licenses.csv) of an ME or MT-PERMIT-FEES
    line; empty for MT-NOTICE."""
    opens: dt.date | None
    """ME-APPLICATION-WINDOW: the first day the application may be received (never before
    ``notice_from`` while the window is open then); None for the other rules."""
    first_day: dt.date | None = None
    """The occurrence's first day (MT-NOTICE), the first day the licence covers (ME), the
    permit year's first day (MT-PERMIT-FEES); None for a line read back from deadlines.csv
    (which has no such column)."""
    title: str = ""
    """MT-NOTICE: the tournament's title; else empty."""
    uid: str = ""
    """MT-NOTICE: the occurrence's UID (schedule.csv), what the ledger's filings name."""
    period_end: dt.date | None = None
    """ME-REPORT: the last day (inclusive) of the licensed period reported on."""
    earliest: dt.date | None = None
    """ME-APPLICATION-WINDOW: the day 90 days before ``first_day``
    (:func:`~constraints.maine.application_opens`), which ``opens`` is when ``notice_from``
    is not later; None for the other rules and for a line read back from deadlines.csv."""

    @property
    def jurisdiction(self) -> str:
        """The state whose office it is filed with: ``MT`` or ``ME`` (the rule's prefix)."""
        return self.rule[:2]

    @property
    def closed(self) -> str:
        """Why that office is closed on ``date`` (:func:`scheduler.core.timing.office_closed`:
        ``a Sunday``, a holiday's name), else empty."""
        return office_closed(self.date, self.jurisdiction)

    @property
    def file_by(self) -> dt.date:
        """The last day on or before ``date`` the office is open
        (:func:`scheduler.core.timing.last_office_day`): ``date`` unless :attr:`closed`."""
        return last_office_day(self.date, self.jurisdiction)


def covers_text(covers: tuple[str, ...]) -> str:
    """The occurrences a licence covers, shortened past three: ``a#1 … a#23 (23)``."""
    if len(covers) <= 3:
        return " ".join(covers)
    return f"{covers[0]} … {covers[-1]} ({len(covers)})"


def list_deadlines(rows: Iterable[HeldRow], licences: Iterable[HeldLicence],
                   notice_from: dt.date | None, *, closed: Closed = ()) -> list[Deadline]:
    """The deadlines of a plan: its operator rows ``rows`` and its licences ``licences``.

    Parameters
    ----------
    rows
        The occurrences at each operator (schedule.csv's rows, ``Plan.rows``).
    licences
        The licences bought (licenses.csv's rows, ``Plan.license_list``); Maine licences
        (``constraints.maine.LICENCE_KINDS``) and Montana permits
        (``constraints.montana.PERMIT_KINDS``) have deadlines.
    notice_from
        The day the plan is made as of (``Scenario.notice_from``): an ME-APPLICATION-WINDOW
        opens no earlier (:func:`constraints.maine.application_window`), a Montana permit of
        a permit year starting after it is a renewal. None when unknown (a plan folder
        written before deadlines.csv, the ledger's adopted plans): the window opens 90 days
        before, and the plan's first day of play stands for the day it was made.
    closed
        Days the Governor closed Maine state offices (``settings.closed_days``): not Maine
        business days for the application's due date and the reports'
        (:func:`constraints.maine.is_maine_business_day`).

    Returns
    -------
    list of Deadline
        One per MT-NOTICE (per large-stakes occurrence and operator), MT-PERMIT-FEES (per
        Montana permit), ME-APPLICATION-WINDOW (per Maine licence) and ME-REPORT (per
        licensed period), sorted by date, rule,
        operator, occurrence, licence, what (deterministic). Empty when there is nothing to
        file.
    """
    out: list[Deadline] = []
    by_ref: dict[str, list[HeldRow]] = {}
    for r in rows:
        ref = f"{r.tournament_id}#{r.occurrence}"
        by_ref.setdefault(ref, []).append(r)
        if r.jurisdiction != montana.CODE or r.type != "large-stakes":
            continue
        # the row's own notice day (a round of a progressive: 5 days before its first round)
        due = r.notice_due or notice_due(r.first_day)
        out.append(Deadline(
            date=due, rule="MT-NOTICE",
            citation=RULES["MT-NOTICE"].citation, operator_id=r.operator_id,
            what=_noted(notice_line(r.title, r.first_day, due), due, montana.CODE),
            occurrence=ref, license_id="", opens=None, first_day=r.first_day, title=r.title,
            uid=r.uid))
    licences = list(licences)
    out.extend(_permit_lines(by_ref, licences, notice_from))
    for lic in licences:
        if lic.jurisdiction != maine.CODE or lic.kind not in LICENCE_KINDS:
            continue
        covered = [r for ref in lic.covers for r in by_ref.get(ref, [])]
        mine = [r for r in covered if r.operator_id == lic.operator_id] or covered
        first = min((r.first_day for r in mine), default=lic.valid_from)
        opens, due = ((application_opens(first), application_due(first, closed))
                      if notice_from is None else application_window(first, notice_from, closed))
        occ = covers_text(lic.covers)
        words = licence_text(lic.kind, getattr(lic, "tier", None), lic.valid_from,
                             lic.valid_to, state=True)
        out.append(Deadline(
            date=due, rule="ME-APPLICATION-WINDOW",
            citation=RULES["ME-APPLICATION-WINDOW"].citation, operator_id=lic.operator_id,
            what=_noted(application_line(words, opens, due), due, maine.CODE, closed),
            occurrence=occ, license_id=lic.license_id, opens=opens, first_day=first,
            earliest=application_opens(first)))
        for end in report_periods(lic.kind, lic.valid_from, lic.valid_to):
            report = report_due(end, closed)
            out.append(Deadline(
                date=report, rule="ME-REPORT",
                citation=RULES["ME-REPORT"].citation,
                operator_id=lic.operator_id,
                what=_noted(report_line(words, end), report, maine.CODE, closed),
                occurrence=occ, license_id=lic.license_id, opens=None, first_day=first,
                period_end=end))
    out.sort(key=lambda d: (d.date, d.rule, d.operator_id, d.occurrence, d.license_id,
                            d.what))
    return out


def _noted(what: str, due: dt.date, jurisdiction: str, closed: Closed = ()) -> str:
    """``what`` with :func:`scheduler.core.timing.closed_note` of ``due`` after it when the
    office of ``jurisdiction`` is closed that day."""
    note = closed_note(due, jurisdiction, closed)
    return f"{what}; {note}" if note else what


def _permit_lines(by_ref: dict[str, list[HeldRow]], licences: list[HeldLicence],
                  made: dt.date | None) -> list[Deadline]:
    """MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b)): one line per Montana permit of
    ``licences``, due by :func:`constraints.montana.permit_due` of the first day of play it
    covers at its operator (``by_ref``: the rows of each ``TOURNAMENT#N``) and ``made``, the
    day the plan was made as of (None: its first day of play)."""
    if made is None:
        made = min((r.first_day for rows in by_ref.values() for r in rows), default=None)
    out = []
    for lic in licences:
        if lic.kind not in PERMIT_KINDS:
            continue
        plays = [r.first_day for ref in lic.covers for r in by_ref.get(ref, [])
                 if r.operator_id == lic.operator_id]
        due = permit_due(lic.valid_from, min(plays, default=None), made)
        out.append(Deadline(
            date=due, rule="MT-PERMIT-FEES", citation=RULES["MT-PERMIT-FEES"].citation,
            operator_id=lic.operator_id,
            what=_noted(permit_line(lic.kind, lic.valid_from, lic.valid_to), due, montana.CODE),
            occurrence="", license_id=lic.license_id, opens=None, first_day=lic.valid_from))
    return out


DEADLINE_COLUMNS = ["date", "file_by", "operator", "what", "opens", "rule", "citation",
                    "operator_id", "occurrence", "license_id"]
"""The one shape of a deadlines table: deadlines.csv, plan.xlsx's *Deadlines* sheet, the
report's Deadlines table and ``tourney deadlines`` (which adds the ledger's ``state``,
``done_on`` and ``entry`` after them), the same columns in this order with the same words.
``date`` the last day (inclusive) to do it; ``file_by`` the last day on or before it the
state's office is open (``date`` unless it is a weekend or holiday:
:func:`scheduler.core.timing.last_office_day`); ``operator`` who does it, by name; ``what`` a
sentence in words, no id in it (:attr:`Deadline.what`); ``opens`` the first day an ME
application may be received (else empty); ``rule`` its rule ID and ``citation`` the law;
then the ids a command needs (``tourney record``): ``operator_id``, ``occurrence``
(``TOURNAMENT#N``, or the occurrences a Maine licence covers shortened past three:
``a#1 … a#23 (23)``) and ``license_id`` (the Maine licence or Montana permit of
licenses.csv)."""


def deadline_table(lines: Iterable[Deadline], names: dict[str, str] | None = None
                   ) -> list[dict[str, object]]:
    """``lines`` as rows of :data:`DEADLINE_COLUMNS`, in their order.

    Parameters
    ----------
    lines
        The deadlines (:func:`list_deadlines`, or read back from deadlines.csv).
    names
        Operator id -> name; an operator not in it is shown by its id.

    Returns
    -------
    list of dict
        One per line, in order: ``date``, ``file_by`` and ``opens`` as ``datetime.date``
        (``opens`` None but for ME-APPLICATION-WINDOW), the rest strings.
    """
    names = names or {}
    return [{"date": d.date, "file_by": d.file_by,
             "operator": names.get(d.operator_id, d.operator_id), "what": d.what,
             "opens": d.opens, "rule": d.rule, "citation": d.citation,
             "operator_id": d.operator_id, "occurrence": d.occurrence,
             "license_id": d.license_id} for d in lines]
