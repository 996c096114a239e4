"""One home for the ``X-TOURNEY-KIND`` vocabulary (issue #12): :mod:`scheduler.core.uid` holds the
values (occurrence, series, notice, application, report) and the deadline-to-kind table;
the calendar writers, the re-plan's cancellations and ``tourney check`` read them there."""

from __future__ import annotations

import datetime as dt

import icalendar

from scheduler.check import kinds as check_kinds
from scheduler.core import uid
from scheduler.export.ical import calendar_files
from scheduler.inputs.replan import cancel

from builders.scenarios import HOLDEM_FEB_13, POST_212, load, mt_large, mt_room, run


def test_the_vocabulary() -> None:
    assert uid.KINDS == ("occurrence", "series", "notice", "application", "report")
    assert uid.GAME_KINDS + uid.DEADLINE_KINDS == uid.KINDS
    # both ME-APPLICATION-WINDOW events (opening, due) are of kind application
    assert uid.DEADLINE_KIND == {"mt-notice": "notice", "me-application-opens": "application",
                                 "me-application-due": "application", "me-report": "report"}
    # the readers and writers hold the very same objects, not copies
    assert check_kinds.GAME_KINDS is uid.GAME_KINDS
    assert check_kinds.DEADLINE_KINDS is uid.DEADLINE_KINDS
    assert cancel.DEADLINE_KIND is uid.DEADLINE_KIND


def test_kind_of_a_product_uid() -> None:
    occ = uid.parse("deep-1@room-a.0123456789.tourney.invalid")
    due = uid.parse("application-due-post/me-per-tournament/2027-02-13/holdem"
                    "@post.0123456789.tourney.invalid")
    assert occ is not None and due is not None
    assert (uid.kind_of_uid(occ), uid.kind_of_uid(due)) == ("occurrence", "application")


def test_every_event_says_its_kind() -> None:
    # one MT large-stakes occurrence (its notice) and one Maine game (its licence's
    # application opening and due, its report): 2 occurrences + 4 deadlines
    mt = mt_large("deep", fixed_dates=["2027-03-06"], title="Deep stack")
    plan = run(load(operators=[mt_room("room-a"), POST_212], tournaments=[mt, HOLDEM_FEB_13]))
    ics = icalendar.Calendar.from_ical(
        calendar_files(plan, dt.datetime(2027, 1, 1, tzinfo=dt.UTC))["calendar.ics"])
    kinds = sorted(str(ev[uid.KIND_PROPERTY]) for ev in ics.walk("VEVENT"))
    assert kinds == ["application", "application", "notice", "occurrence", "occurrence",
                     "report"]
    assert all(check_kinds.event_kind(ev) in uid.KINDS for ev in ics.walk("VEVENT"))
