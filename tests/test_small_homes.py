"""Small things with one home (issue #12): a session UID read back, the X-TOURNEY-*
property names, the weekday words, the Maine licence-kind words."""

from __future__ import annotations

from pathlib import Path

from constraints.maine import LICENCE_KINDS, LICENCE_LABELS, LICENCE_RULES
from scheduler.core.fields import WEEKDAY_NAMES, WEEKDAYS
from scheduler.core.uid import session_occurrence, session_uid
from scheduler.export.figures import FEE_KINDS
from scheduler.studies.generate.tables import WEEKDAY_INDEX

OCC = "deep.20270101-3@room-a.0123456789.tourney.invalid"


def test_session_uid_read_back() -> None:
    # the 2nd session's UID is <local>.s2@<rhs>; reading it back gives the occurrence's
    assert session_uid(OCC, 2) == "deep.20270101-3.s2@room-a.0123456789.tourney.invalid"
    assert session_occurrence(session_uid(OCC, 2), 2) == OCC
    assert session_occurrence(OCC, 1) == OCC  # the first session's UID is the occurrence's
    assert session_occurrence("deep-1.s3", 3) == "deep-1"  # no right-hand side


def test_property_names_only_in_uid() -> None:
    root = Path(__file__).resolve().parent.parent / "scheduler"
    for name in ("inputs/replan/previous.py", "export/ical_events.py", "export/caldav/sync.py",
                 "export/ical_describe.py", "export/ical.py", "export/ical_text.py",
                 "export/diff.py"):
        text = (root / name).read_text("utf-8").lower().replace('"""x-tourney-', "")
        assert '"x-tourney-' not in text, name  # a docstring may name one


def test_weekdays() -> None:
    assert WEEKDAY_NAMES[WEEKDAYS.index("wed")] == "Wednesday"
    assert WEEKDAY_INDEX == {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5,
                             "sun": 6}


def test_licence_kinds() -> None:
    assert set(LICENCE_LABELS) == set(LICENCE_RULES) == set(LICENCE_KINDS)
    assert FEE_KINDS["me-super-cribbage"] == "ME super cribbage"
    assert FEE_KINDS["me-per-tournament"] == "ME per-tournament"
    assert LICENCE_RULES["me-super-cribbage"] == "ME-SUPER-CRIBBAGE"
