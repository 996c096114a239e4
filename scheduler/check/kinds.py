"""What a calendar's event is: its ``X-TOURNEY-KIND`` (:data:`scheduler.core.uid.KIND_PROPERTY`),
else its ``X-TOURNEY-DEADLINE`` or its UID; the properties an event may hold only once; a game
dressed as a deadline (a forged kind)."""

from __future__ import annotations

from typing import Any

from scheduler.check.schedule import short
from scheduler.core.uid import DEADLINE_KINDS, GAME_KINDS, KIND_PROPERTY, NOTICE, kind_of_uid
from scheduler.core.uid import parse as parse_uid


def event_kind(ev: Any) -> str | None:
    """What a VEVENT is: the value of its ``X-TOURNEY-KIND`` (``occurrence``, ``series``,
    ``notice``, ``application``, ``report``; lower case), which the product writes on every
    event. For a calendar written before that property existed: ``notice``/``application``/
    ``report`` when it has ``X-TOURNEY-DEADLINE`` or its whole UID parses as a deadline UID of
    the product (:func:`scheduler.core.uid.parse`; never a prefix: a tournament may be called
    ``report-night``), else None (a game, or an event of another application)."""
    kind = str(ev.get(KIND_PROPERTY, "")).strip().lower()
    if kind:
        return kind
    deadline = str(ev.get("X-TOURNEY-DEADLINE", "")).strip().lower()
    parsed = parse_uid(str(ev.get("UID", "")))
    if parsed is not None and parsed.kind not in GAME_KINDS:
        return kind_of_uid(parsed)
    if deadline:
        return next((k for k in DEADLINE_KINDS if k in deadline), NOTICE)
    return None


SINGLE_PROPERTIES = (KIND_PROPERTY, "UID", "X-TOURNEY-TOURNAMENT", "X-TOURNEY-OCCURRENCE",
                     "X-TOURNEY-DEADLINE", "X-TOURNEY-PLAY", "STATUS", "SUMMARY",
                     "X-TOURNEY-SESSION")
"""Properties that ``check`` reads of an event and that it may hold only once."""


def repeated_property(ev: Any) -> str | None:
    """``two X-TOURNEY-KIND values (occurrence, notice)`` for the first of
    :data:`SINGLE_PROPERTIES` that ``ev`` holds more than once, else None."""
    for name in SINGLE_PROPERTIES:
        value = ev.get(name)
        if isinstance(value, list) and len(value) > 1:
            count = "two" if len(value) == 2 else f"{len(value):,}"
            shown = ", ".join(short(str(v), 40) for v in value[:5])
            more = ", ..." if len(value) > 5 else ""
            return f"{count} {name} values ({shown}{more})"
    return None


def kind_contradiction(ev: Any, uid: str, kind: str | None) -> str | None:
    """Why an event whose kind is a deadline (``notice``, ``application``, ``report``) is a
    game dressed as one, else None: it has ``X-TOURNEY-PLAY`` (the hours of play, written on
    games only), its UID is that of one of the product's games (:func:`scheduler.core.uid.parse`),
    or its explicit ``X-TOURNEY-KIND`` comes without the ``X-TOURNEY-DEADLINE`` that the
    product writes beside it on every deadline it has not cancelled. (``X-TOURNEY-TOURNAMENT``
    is no sign: a notice names its tournament too.)"""
    if kind not in DEADLINE_KINDS:
        return None
    if ev.get("X-TOURNEY-PLAY") is not None:
        return "it has X-TOURNEY-PLAY (the hours of play of a game)"
    parsed = parse_uid(uid)
    if parsed is not None and parsed.kind in GAME_KINDS:
        return f"its UID is that of a game ({parsed.kind} of {short(parsed.tournament_id or '-')})"
    if (ev.get(KIND_PROPERTY) is not None and ev.get("X-TOURNEY-DEADLINE") is None
            and str(ev.get("STATUS", "")).upper() != "CANCELLED"):
        return "it has no X-TOURNEY-DEADLINE"
    return None


def kind_source(ev: Any) -> str:
    if ev.get(KIND_PROPERTY):
        return KIND_PROPERTY
    return "X-TOURNEY-DEADLINE" if ev.get("X-TOURNEY-DEADLINE") else "its UID"

