"""Montana, the notice: MT-NOTICE (MCA 23-5-317(1)(d)): a large-stakes tournament's notice
5 days before its first day, and its deadline sentences.

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

from constraints.base import Actuals, Audit, Rule, Violation, day_text
from constraints.catalogue import cite
from constraints.montana.terms import CODE
from scheduler.core.fields import dated_words
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import (
    MT_NOTICE_DAYS,
    Timing,
    closed_note,
    filing_from,
    notice_due,
    notice_ok,
)


# ------------------------------------------------------------------ MT-NOTICE
def _notice_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """MT-NOTICE: the notice for a large-stakes start is due 5 days before, not before
    :func:`scheduler.core.timing.filing_from` (the later of ``notice_from`` and the as-of day)."""
    return (not t.is_large or tm.first_day in t.filed_dates
            or notice_ok(tm.first_day, filing_from(sc)))


def _check_notice(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        if p.tournament.is_large and p.first_day not in p.tournament.filed_dates:
            due = notice_due(p.first_day)
            if not notice_ok(p.first_day, filing_from(a.scenario)):
                for oid in p.tournament.operators:
                    yield Violation("MT-NOTICE", oid, (p.ref,), p.first_day.isoformat(),
                                    f"{p.ref} starts {p.first_day}; its notice was due {due}, "
                                    f"before the earliest filing day {filing_from(a.scenario)}")


def _held_notice(a: Actuals) -> Iterator[Violation]:
    """MT-NOTICE on what was held: every Montana large-stakes occurrence held needs its notice
    filed at least 5 days before its actual first day (filed on or before
    ``notice_due(first_day)``; day -5 is on time, day -4 late)."""
    for x in a.held:
        if x.jurisdiction != "MT" or x.type != "large-stakes":
            continue
        due = notice_due(x.first_day)
        if x.notice_filed_on is None:
            yield Violation("MT-NOTICE", x.operator_id, (x.ref,), x.first_day.isoformat(),
                            f"{x.ref} was held from {x.first_day} at {x.operator_id} and no "
                            f"notice of it is recorded; it was due by {due}")
        elif x.notice_filed_on > due:
            late = (x.notice_filed_on - due).days
            yield Violation("MT-NOTICE", x.operator_id, (x.ref,), x.first_day.isoformat(),
                            f"{x.ref} was held from {x.first_day} at {x.operator_id}; its "
                            f"notice was filed {x.notice_filed_on}, {late} day(s) after it was "
                            f"due ({due}, {MT_NOTICE_DAYS} days before the first day)")


def _notice_ok_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_notice_ok` of each of ``tms`` (MT-NOTICE), in one pass."""
    if not t.is_large:
        return [True] * len(tms)
    since, filed = filing_from(sc), frozenset(t.filed_dates)
    # notice_ok is monotone in the first day: true from the first day it holds on
    earliest = since + dt.timedelta(days=MT_NOTICE_DAYS)
    while not notice_ok(earliest, since):
        earliest += dt.timedelta(days=1)
    while notice_ok(earliest - dt.timedelta(days=1), since):
        earliest -= dt.timedelta(days=1)
    return [tm.days[0] >= earliest or tm.days[0] in filed for tm in tms]


MT_NOTICE = Rule("MT-NOTICE", allows=_notice_ok, check=_check_notice, actuals=_held_notice,
                 allows_many=_notice_ok_many)


def _progressive_words(first_day: dt.date, due: dt.date) -> str | None:
    """MT-PROGRESSIVE: the first round of the progressive a round belongs to, when its notice
    day ``due`` is earlier than 5 days before its own ``first_day``; else None."""
    start = due + dt.timedelta(days=MT_NOTICE_DAYS)
    return day_text(start) if start < first_day else None


def notice_text(who: str, title: str, first_day: dt.date, due: dt.date) -> str:
    """MT-NOTICE, MCA 23-5-317(1)(d), as a deadline: the sentence saying the notice of a
    large-stakes tournament ``title`` starting ``first_day`` is due on ``due``
    (:func:`scheduler.core.timing.notice_due`: ``MT_NOTICE_DAYS`` = 5 days before ``first_day``,
    as :func:`scheduler.result.deadlines.list_deadlines` lists it), for operator ``who`` (a name).
    A round of a progressive whose ``due`` is 5 days before the progressive's first round,
    earlier than its own first day's (MT-PROGRESSIVE), says so."""
    start = _progressive_words(first_day, due)
    if start is not None:
        return (f"{who} must notify the Montana Gambling Control Division of {title} by "
                f"{day_text(due)}, at least {MT_NOTICE_DAYS} days before the progressive's "
                f"first round {start}; this round's first day is {day_text(first_day)} "
                f"({cite('MT-NOTICE')}; {cite('MT-PROGRESSIVE')}). Every operator on whose "
                "premises a round is played files its own notice.")
    return (f"{who} must notify the Montana Gambling Control Division of {title} by "
            f"{day_text(due)}, at least {MT_NOTICE_DAYS} days before its first day "
            f"{day_text(first_day)} ({cite('MT-NOTICE')}). Each operator of a tournament "
            f"held on several premises files its own notice.")


def notice_line(title: str, first_day: dt.date, due: dt.date | None = None) -> str:
    """MT-NOTICE, MCA 23-5-317(1)(d), as a deadline's ``what`` (deadlines.csv, plan.xlsx,
    the report, ``tourney deadlines``: :func:`scheduler.result.deadlines.list_deadlines`), in
    people's words and without ids: ``Notify the Montana Gambling Control Division of
    <title>, first day Sat, Mar 6, 2027``. A round of a progressive whose notice day ``due``
    is 5 days before the progressive's first round (MT-PROGRESSIVE) adds ``, 5 days before
    the progressive's first round Sat, Mar 6, 2027``. The calendars word it
    :func:`notice_text`."""
    line = (f"Notify the Montana Gambling Control Division of {title}, first day "
            f"{dated_words(first_day)}")
    start = due + dt.timedelta(days=MT_NOTICE_DAYS) if due is not None else first_day
    if start < first_day:
        line += f", {MT_NOTICE_DAYS} days before the progressive's first round " \
                f"{dated_words(start)}"
    return line


def notice_note(due: dt.date) -> str:
    """MT-NOTICE in one venue line of an event: ``notice ... due <day> (MT-NOTICE, MCA
    23-5-317(1)(d))``, ``due`` the notice day (:func:`notice_text`); when the office is
    closed that day (:func:`scheduler.core.timing.closed_note`), the day to file by after it."""
    note = closed_note(due, CODE)
    return (f"notice to the Gambling Control Division due {day_text(due)} ({cite('MT-NOTICE')})"
            + (f" — {note.partition(' — ')[2]}" if note else ""))
