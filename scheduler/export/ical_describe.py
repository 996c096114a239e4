"""The words of a plan's calendars: event descriptions, checklists, and the deadline events
with their reminders (VALARM).

- An occurrence's or series' DESCRIPTION: title, dates, type, players, venues with their
  licences and MT-NOTICE day, the checklist of the *list*-kind rules that apply (each rule's
  own sentence, ``constraints.registry.checklist``) and the readings used.
- Deadlines are separate all-day VEVENTs with a display VALARM: the Montana notice
  (MT-NOTICE, one per operator), the Maine licence application window
  (ME-APPLICATION-WINDOW) and the disposition-of-funds report (ME-REPORT). Their days are
  those of :func:`scheduler.result.deadlines.list_deadlines` (the one list of a plan's deadlines,
  deadlines.csv's; its days from ``scheduler.core.timing``, as the model's and the check's), and
  their sentences from the rules (``constraints.montana.notice_text``,
  ``constraints.maine.application_window_text``, ``constraints.maine.report_text``); the
  window opens on the later of 90 days before and ``notice_from``, so no deadline of an
  occurrence not yet filed is before ``notice_from``.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal

from constraints import maine, montana
from constraints.base import License
from constraints.maine import (
    LICENCE_KINDS,
    application_window_text,
    report_text,
)
from constraints.montana import notice_note, notice_text, permit_held_before
from constraints.registry import checklist
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.timing import Closed, closed_note, file_by_note
from scheduler.core.uid import (
    DEADLINE_KIND,
    DEADLINE_PROPERTY,
    KIND_PROPERTY,
    OCCURRENCE_PROPERTY,
    OPERATORS_PROPERTY,
    TOURNAMENT_PROPERTY,
    local_part,
    notice_uid,
)
from scheduler.core.uid import licence_uid as new_licence_uid
from scheduler.export.checklist import readings
from scheduler.export.deadlines import plan_deadlines
from scheduler.export.ical_text import (
    DAY,
    CalendarItem,
    Text,
    VEvent,
    content_line,
    date_text,
    escape_text,
    fold,
    ical_day,
    midnight,
    operator_of,
    operators_value,
    plan_lineage,
    sequence_line,
    stamp_line,
    tournament_of,
    uid_line,
    vtext,
)
from scheduler.inputs.replan.assign import licence_deadline_uids
from scheduler.result.deadlines import Deadline
from scheduler.result.plan import OperatorOccurrence, Plan
from scheduler.result.words import licence_text as words_of_licence

_TYPE_LABEL = {
    "large-stakes": "Montana large-stakes tournament",
    "small-stakes": "Montana small-stakes tournament",
    "tournament-game": "Maine tournament game",
    "super-cribbage": "Maine super cribbage tournament",
    "charitable-cribbage": "Maine charitable cribbage tournament",
}
DEADLINE_ALARM = dt.timedelta(days=-7)
"""Reminder before a due date (notice, application, report)."""
WINDOW_ALARM = dt.timedelta(days=-1)
"""Reminder before an application window opens."""


def _venue(op: Operator) -> str:
    return op.address or op.name


def _place(op: Operator) -> str:
    """Name and address, without repeating a name the address already starts with."""
    if not op.address:
        return op.name
    return op.address if op.address.startswith(op.name) else f"{op.name}, {op.address}"


PERMIT_HELD = "permit already held (bought before the plan)"
"""What an event says of a Montana venue whose permit for the permit year was bought before
the plan (MT-PERMIT-FEES: not bought again), instead of a licence id."""


class Words(dict[str, str]):
    """Licence id -> the licence in people's words (:func:`licence_words`), and what the
    events of one plan say again and again, each made once: a tournament's checklist
    (:func:`constraints.registry.checklist`), the readings of a jurisdiction and type
    (:func:`scheduler.export.checklist.readings`), the end of a description they make
    (:meth:`tail`), a tournament's money line (:func:`money_lines`), an operator's venue
    and place."""

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        super().__init__(words or {})
        self._checklists: dict[str, list[str]] = {}
        self._readings: dict[tuple[str, str], list[str]] = {}
        self._tails: dict[tuple[str | None, str, str], tuple[str, str]] = {}
        self._money: dict[str, list[str]] = {}
        self._places: dict[str, tuple[str, str]] = {}
        self._locations: dict[tuple[str, ...], tuple[str, Text]] = {}

    def checklist(self, scenario: Scenario, t: Tournament) -> list[str]:
        """``checklist(scenario, t)``, once per tournament."""
        got = self._checklists.get(t.id)
        if got is None:
            got = self._checklists[t.id] = checklist(scenario, t)
        return got

    def readings(self, scenario: Scenario, jurisdiction: str, kind: str) -> list[str]:
        """``readings(scenario, jurisdiction, kind)``, once per jurisdiction and type."""
        got = self._readings.get((jurisdiction, kind))
        if got is None:
            got = self._readings[(jurisdiction, kind)] = readings(scenario, jurisdiction, kind)
        return got

    def tail(self, scenario: Scenario, t: Tournament | None, jurisdiction: str,
             kind: str) -> tuple[str, str]:
        """The end of the DESCRIPTION of an event of ``t`` (of that ``jurisdiction`` and
        type ``kind``): a line break, ``Checklist:`` and its obligations (:meth:`checklist`),
        the readings (:meth:`readings`), or ``""`` when there is neither; as it is and
        escaped (:func:`scheduler.export.ical_text.escape_text`). Once per tournament."""
        key = (t.id if t is not None else None, jurisdiction, kind)
        got = self._tails.get(key)
        if got is None:
            items = self.checklist(scenario, t) if t is not None else []
            lines = ["Checklist:", *(f"- {c}" for c in items)] if items else []
            lines += self.readings(scenario, jurisdiction, kind)
            text = "\n".join(lines)
            got = self._tails[key] = ("\n" + text, "\\n" + escape_text(text)) if lines \
                else ("", "")
        return got

    def money(self, t: Tournament) -> list[str]:
        """:func:`money_lines` of ``t``, once per tournament."""
        got = self._money.get(t.id)
        if got is None:
            got = self._money[t.id] = money_lines(t)
        return got

    def location(self, scenario: Scenario, operator_ids: tuple[str, ...]) -> tuple[str, Text]:
        """The LOCATION of an event at the venues of ``operator_ids`` (each :meth:`place`'s
        venue, `` / `` between them): its folded content line and value, once per set of
        venues."""
        got = self._locations.get(operator_ids)
        if got is None:
            where = Text(" / ".join([self.place(scenario, o)[0] for o in operator_ids]))
            got = self._locations[operator_ids] = (
                fold(f"LOCATION:{escape_text(where)}"), where)
        return got

    def place(self, scenario: Scenario, operator_id: str) -> tuple[str, str]:
        """An operator's venue (LOCATION: its address, else its name) and place (a venue
        line: name and address); the id for an operator not in the scenario."""
        got = self._places.get(operator_id)
        if got is None:
            op = operator_of(scenario, operator_id)
            got = self._places[operator_id] = (
                (_venue(op), _place(op)) if op is not None else (operator_id, operator_id))
        return got


def licence_words(licences: Iterable[License]) -> Words:
    """Licence id -> the licence in people's words (:func:`scheduler.result.words.licence_text`
    with its state: ``Maine annual licence (51–100 players) from Jan 2, 2027``), what an
    event says instead of the id."""
    out = Words()
    for lic in licences:
        words = words_of_licence(lic.kind, lic.tier, lic.valid_from, lic.valid_to, state=True)
        if words != lic.kind:  # a kind the words know (else its id says more)
            out[lic.license_id] = words
    return out


def licence_text(scenario: Scenario, row: OperatorOccurrence,
                 words: Mapping[str, str] | None = None) -> str:
    """The licence(s) or permit covering ``row`` as an event says it: in words (``words``:
    :func:`licence_words` of the plan's licences; ``licence/permit <id>`` for one not in
    it),
    else :data:`PERMIT_HELD` when its Montana permit was bought before the plan
    (:func:`constraints.montana.permit_held_before`: ``held_in_current_permit_year.permits``
    or the ledger's history), else ``"none"``."""
    if row.license_id:
        known = (words or {}).get(row.license_id)
        return known if known is not None else f"licence/permit {row.license_id}"
    op = operator_of(scenario, row.operator_id)
    if (row.jurisdiction == montana.CODE and op is not None
            and row.type in ("large-stakes", "small-stakes")
            and permit_held_before(op, scenario, row.first_day, row.type == "large-stakes")):
        return PERMIT_HELD
    return "none"


def _usd(amount: Decimal) -> str:
    return f"${amount:,.2f}".removesuffix(".00")


def money_lines(t: Tournament) -> list[str]:
    """What a player pays, as an event says it (USD): the entry fee, re-entries, rebuys and
    add-on, one line (``"Entry fee: $300; re-entries: up to 2; rebuys: up to 3 at $100
    each; add-on: $50."``); the terms MT-ENTRY-CAP and ME-ENTRY-CAP bound."""
    parts = [f"Entry fee: {_usd(t.entry_fee)}",
             f"re-entries: {'up to ' + str(t.reentries) if t.reentries else 'none'}",
             (f"rebuys: up to {t.max_rebuys} at {_usd(t.rebuy_fee)} each" if t.max_rebuys
              else "rebuys: none"),
             f"add-on: {_usd(t.addon_fee) if t.addon_fee else 'none'}"]
    return ["; ".join(parts) + "."]


_notice_note = functools.lru_cache(maxsize=4096)(notice_note)
"""``notice_note`` of a day, made once (a function of the day alone)."""


def venue_lines(scenario: Scenario, rows: list[OperatorOccurrence],
                licences: list[str], words: Words | None = None) -> list[str]:
    """One line per venue (``rows``: one per operator) with its licence(s) and notice."""
    if words is None:
        words = Words()
    lines = ["Venue(s):" if len(rows) > 1 else "Venue:"]
    for r, licence in zip(rows, licences, strict=True):
        place = words.place(scenario, r.operator_id)[1]
        if licence == "none" and r.type == "charitable-cribbage":  # ME-CRIBBAGE-REG: no
            line = f"- {place}"  # licence is bought for it, so none is named
        elif licence == "none":
            line = f"- {place}: licence/permit none"
        else:  # in words (or an id not in the plan's licences), or PERMIT_HELD
            line = f"- {place}: {licence}"
        if r.notice_due is not None:
            line += f"; {_notice_note(r.notice_due)}"
        lines.append(line + ".")
    return lines


def description(scenario: Scenario, tid: str, rows: list[OperatorOccurrence], dates: str,
                venues: list[str], which: str, words: Words | None = None
                ) -> tuple[dict[str, str], dict[str, object]]:
    """LOCATION, CATEGORIES, DESCRIPTION, X-TOURNEY-TOURNAMENT and X-TOURNEY-OPERATORS of an
    occurrence or series (``rows``: one per operator, its first operator first; ``words``:
    the plan's :class:`Words`, made once for all its events): their folded content lines
    and values, as ``VEvent.add`` makes them (:meth:`scheduler.export.ical_text.VEvent.put`)."""
    if words is None:
        words = Words()
    first = rows[0]
    t = tournament_of(scenario, tid)
    oids = tuple([r.operator_id for r in rows])
    location, where = words.location(scenario, oids)
    kind = _TYPE_LABEL.get(first.type, first.type)
    lines = [
        first.title,
        dates,
        f"Type: {first.type} ({kind}{', charitable' if first.charitable else ''}).",
        f"Players: {first.players if first.players is not None else 'not set'}.",
        *(words.money(t) if t is not None else []),
        *venues,
        f"Tournament {tid}, {which}.",
    ]
    # the checklist of its obligations and only the readings of its own rules (its
    # jurisdiction and type), escaped once per tournament: the line before ends with "."
    text = "\n".join(lines)
    tail, escaped_tail = words.tail(scenario, t, first.jurisdiction, first.type)
    operators = oids[0] if len(oids) == 1 else operators_value(dict.fromkeys(oids))
    return {
        "LOCATION": location,
        "CATEGORIES": _categories_line(first.type),
        "DESCRIPTION": fold(f"DESCRIPTION:{escape_text(text)}{escaped_tail}"),
        TOURNAMENT_PROPERTY: fold(f"{TOURNAMENT_PROPERTY}:{tid}"),
        OPERATORS_PROPERTY: fold(f"{OPERATORS_PROPERTY}:{operators}"),
    }, {
        "LOCATION": where, "CATEGORIES": [first.type],
        "DESCRIPTION": Text(text + tail),
        TOURNAMENT_PROPERTY: tid, OPERATORS_PROPERTY: operators,
    }


@functools.lru_cache(maxsize=64)
def _categories_line(kind: str) -> str:
    """CATEGORIES of an occurrence or series of type ``kind`` (folded, once per type)."""
    return fold(f"CATEGORIES:{vtext(kind)}")


def describe(ev: VEvent, scenario: Scenario, tid: str, rows: list[OperatorOccurrence], dates: str,
             venues: list[str], which: str, words: Words | None = None) -> None:
    """LOCATION, CATEGORIES, DESCRIPTION and X-TOURNEY-TOURNAMENT of an occurrence or series
    (``words``: the plan's :class:`Words`, made once for all its events): added to ``ev``
    (:func:`description`)."""
    ev.put(*description(scenario, tid, rows, dates, venues, which, words))


_DEADLINE_LINES = {k: fold(f"{DEADLINE_PROPERTY}:{k}") for k in DEADLINE_KIND}
"""X-TOURNEY-DEADLINE of a deadline event, by its kind (folded, made once)."""
_KIND_LINES = {k: fold(f"{KIND_PROPERTY}:{v}") for k, v in DEADLINE_KIND.items()}
"""X-TOURNEY-KIND of a deadline event, by its X-TOURNEY-DEADLINE (folded, made once)."""


@functools.lru_cache(maxsize=16)
def _trigger_line(trigger: dt.timedelta) -> str:
    """``content_line("TRIGGER", trigger)`` folded, once per duration."""
    return fold(content_line("TRIGGER", trigger))


def _deadline(uid: str, stamp: dt.datetime, summary: str, day: dt.date, description: str,
              kind: str, alarm: dt.timedelta, operator_id: str, sequence: int = 0,
              extra: Mapping[str, str] | None = None) -> CalendarItem:
    """An all-day deadline event on ``day`` (transparent: it takes no time) of the
    deadline ``kind`` (:data:`scheduler.core.uid.DEADLINE_KIND`), its DESCRIPTION
    ``description`` and "Not legal advice.", with a display VALARM ``alarm`` before it (a
    negative duration) saying ``summary``, and the X- properties ``extra`` (name -> value):
    its content lines made directly, as ``VEvent.add`` makes them."""
    after = day + DAY
    text = description + "\nNot legal advice."
    what = DEADLINE_KIND[kind]
    said = escape_text(summary)  # the SUMMARY, and what the reminder says
    lines = {
        "UID": uid_line(uid), "DTSTAMP": stamp_line(stamp),
        "SEQUENCE": sequence_line(sequence),
        "SUMMARY": fold(f"SUMMARY:{said}"),
        "DTSTART": f"DTSTART;VALUE=DATE:{date_text(day)}",
        "DTEND": f"DTEND;VALUE=DATE:{date_text(after)}",
        "TRANSP": "TRANSP:TRANSPARENT",
        "CATEGORIES": "CATEGORIES:deadline",
        "DESCRIPTION": fold(f"DESCRIPTION:{escape_text(text)}"),
        DEADLINE_PROPERTY: _DEADLINE_LINES[kind],
        KIND_PROPERTY: _KIND_LINES[kind],
    }
    values: dict[str, object] = {
        "UID": uid, "DTSTAMP": stamp, "SEQUENCE": sequence, "SUMMARY": Text(summary),
        "DTSTART": day, "DTEND": after, "TRANSP": "TRANSPARENT", "CATEGORIES": ["deadline"],
        "DESCRIPTION": Text(text), DEADLINE_PROPERTY: kind, KIND_PROPERTY: what}
    if extra:
        for name, value in extra.items():
            lines[name] = fold(f"{name}:{value}")
            values[name] = value
    # the reminder: a display VALARM saying the summary
    ev = VEvent("VEVENT", lines, values, [VEvent("VALARM", {
        "ACTION": "ACTION:DISPLAY", "DESCRIPTION": fold(f"DESCRIPTION:{said}"),
        "TRIGGER": _trigger_line(alarm),
    }, {"ACTION": "DISPLAY", "DESCRIPTION": Text(summary), "TRIGGER": alarm})])
    return CalendarItem((midnight(day), uid), frozenset((operator_id,)), ev, None, (day, day))


def _closed(due: dt.date, jurisdiction: str, closed: Closed = ()) -> str:
    """A deadline event's sentence when the state office is closed on ``due``
    (:func:`scheduler.core.timing.closed_note`, as deadlines.csv says it), else empty."""
    note = closed_note(due, jurisdiction, closed)
    return f" {note[0].upper()}{note[1:]}." if note else ""


@functools.lru_cache(maxsize=4096)
def _mt_closed(due: dt.date) -> str:
    """``_closed(due, montana.CODE)``, once per day (Montana has no scenario ``closed_days``)."""
    return _closed(due, montana.CODE)


@functools.lru_cache(maxsize=4096)
def _mt_file_by(due: dt.date) -> str:
    """``file_by_note(due, montana.CODE)``, once per day."""
    return file_by_note(due, montana.CODE)


def _plan_deadlines(plan: Plan) -> list[Deadline]:
    """:func:`scheduler.result.deadlines.list_deadlines` of ``plan`` (deadlines.csv's lines,
    listed once per plan: :func:`scheduler.export.deadlines.plan_deadlines`)."""
    return plan_deadlines(plan)


def deadline_items(plan: Plan, stamp: dt.datetime) -> Iterator[CalendarItem]:
    """The deadline events of a plan: :func:`notice_items`, then :func:`licence_items`, of
    its deadlines (:func:`scheduler.result.deadlines.list_deadlines`, listed once)."""
    deadlines = _plan_deadlines(plan)
    yield from notice_items(plan, stamp, deadlines)
    yield from licence_items(plan, stamp, deadlines)


def notice_items(plan: Plan, stamp: dt.datetime, deadlines: list[Deadline] | None = None
                 ) -> Iterable[CalendarItem]:
    """MT-NOTICE: each operator of a large-stakes tournament notifies the department
    (``deadlines``: the plan's, else listed here)."""
    notices = {(d.occurrence, d.operator_id): d
               for d in (_plan_deadlines(plan) if deadlines is None else deadlines)
               if d.rule == "MT-NOTICE"}
    words = licence_words(plan.license_list)
    for row in plan.rows:
        if row.jurisdiction != montana.CODE or row.notice_due is None:
            continue
        op = operator_of(plan.scenario, row.operator_id)
        who = op.name if op else row.operator_id
        summary = f"Notice due to the Montana Gambling Control Division: {row.title}"
        due = notices[(row.ref, row.operator_id)].date
        duty = notice_text(who, row.title, row.first_day, due)  # MT-NOTICE's own words
        permit = licence_text(plan.scenario, row, words).removeprefix("licence/permit ")
        text = f"{duty}{_mt_closed(due)} Permit: {permit}."
        summary += _mt_file_by(due)
        # the notice moves with its occurrence: same UID, the occurrence's SEQUENCE
        yield _deadline(notice_uid(row.uid, row.operator_id), stamp, summary, due,
                        text, "mt-notice", DEADLINE_ALARM, row.operator_id, row.sequence,
                        {TOURNAMENT_PROPERTY: row.tournament_id,
                         OCCURRENCE_PROPERTY: str(row.occurrence)})


def _covered_rows(plan: Plan, lic: License) -> list[OperatorOccurrence]:
    # in plan order (rows are sorted by first day, tournament, occurrence, operator)
    every = sorted((r for ref in set(lic.covers) for r in plan.rows_of_occurrence(ref)),
                   key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id))
    rows = [r for r in every if r.operator_id == lic.operator_id]
    return rows or every


def licence_items(plan: Plan, stamp: dt.datetime, deadlines: list[Deadline] | None = None
                  ) -> Iterable[CalendarItem]:
    """ME-APPLICATION-WINDOW and ME-REPORT: each Maine licence's window opening, application
    due day and disposition-of-funds reports (``deadlines``: the plan's, else listed here)."""
    lineage = plan_lineage(plan)
    closed = plan.scenario.settings.closed_days
    announced = licence_deadline_uids(plan.previous_events)
    windows: dict[str, Deadline] = {}
    reports: dict[str, list[Deadline]] = {}
    for d in _plan_deadlines(plan) if deadlines is None else deadlines:
        if d.rule == "ME-APPLICATION-WINDOW":
            windows[d.license_id] = d
        elif d.rule == "ME-REPORT":
            reports.setdefault(d.license_id, []).append(d)

    def licence_uid(scenario: Scenario, kind: str, licence_id: str, operator_id: str,
                    lineage: str, suffix: str = "") -> str:
        # a re-plan keeps an announced deadline's UID (its domain may have changed since)
        fresh = new_licence_uid(scenario, kind, licence_id, operator_id, lineage, suffix)
        return announced.get(local_part(fresh), fresh)

    for lic in plan.license_list:
        if lic.jurisdiction != maine.CODE or lic.kind not in LICENCE_KINDS:
            continue
        rows = _covered_rows(plan, lic)
        titles = sorted({r.title for r in rows})
        label = words_of_licence(lic.kind, lic.tier, lic.valid_from, lic.valid_to, state=True)
        subject = f"{label} — {titles[0]}" if len(titles) == 1 else label
        games = "; ".join(f"{r.title} on {ical_day(r.first_day)}"
                          for r in sorted({(r.first_day, r.ref): r for r in rows}.values(),
                                          key=lambda r: (r.first_day, r.ref))) or "none"
        about = (f"{label}, valid {ical_day(lic.valid_from)} to {ical_day(lic.valid_to)}, fee "
                 f"${lic.fee_usd:,}. Covers: {games}.")
        w = windows[lic.license_id]
        opens, due = w.opens, w.date
        assert opens is not None and w.first_day is not None and w.earliest is not None
        window = application_window_text(opens, due, w.first_day, w.earliest)
        yield _deadline(licence_uid(plan.scenario, "application-opens", lic.license_id,
                                    lic.operator_id, lineage), stamp,
                        f"Application window opens: {subject}", opens,
                        f"{about}\n{window}", "me-application-opens", WINDOW_ALARM,
                        lic.operator_id)
        yield _deadline(licence_uid(plan.scenario, "application-due", lic.license_id,
                                    lic.operator_id, lineage), stamp,
                        f"Application due: {subject}{file_by_note(due, maine.CODE, closed)}", due,
                        f"{about}\n{window}{_closed(due, 'ME', closed)}", "me-application-due",
                        DEADLINE_ALARM,
                        lic.operator_id)
        for report in sorted(reports.get(lic.license_id, []), key=lambda d: d.date):
            end, due = report.period_end, report.date
            assert end is not None
            suffix = f"-{end:%Y-%m}" if lic.kind == "me-annual" else ""
            period = (f"the month ending {ical_day(end)}" if lic.kind == "me-annual"
                      else f"the licensed period ending {ical_day(end)}")
            text = f"{about}\n{report_text(period, due)}{_closed(due, 'ME', closed)}"
            yield _deadline(licence_uid(plan.scenario, "report", lic.license_id,
                                        lic.operator_id, lineage, suffix), stamp,
                            f"Disposition-of-funds report due: {subject}"
                            + (f", {end:%B %Y}" if lic.kind == "me-annual" else "")
                            + file_by_note(due, maine.CODE, closed), due, text,
                            "me-report", DEADLINE_ALARM, lic.operator_id)
