"""Days, times and licences in the words people read on a printed page (report.html,
funds.html): ``Jan 2, 2027``, ``Saturday``, ``annual licence (51–100 players) from Jan 2,
2027``, ``large-stakes permit for the permit year from Jul 1, 2026``.

English and independent of the locale (``%b`` and ``%A`` follow it; a page must not). Ids
(``post-39/annual/2027-01-02/51-100``) are never made here: a page shows them only beside
these words, where a command needs them.
"""

from __future__ import annotations

import datetime as dt

from constraints.maine import LICENCE_LABELS
from scheduler.core.fields import MONTH_ABBREVIATIONS, WEEKDAY_NAMES, dated_words, day_words

_PERMITS = {"mt-large-stakes-permit": "large-stakes permit",
            "mt-small-stakes-permit": "small-stakes permit"}


def day_text(d: dt.date) -> str:
    """``Jan 2, 2027`` (:func:`scheduler.core.fields.day_words`)."""
    return day_words(d)


def weekday_text(d: dt.date) -> str:
    """``Saturday``."""
    return WEEKDAY_NAMES[d.weekday()]


def dated_text(d: dt.date) -> str:
    """``Sat, Jan 2, 2027``: the weekday (three letters) and :func:`day_text`
    (:func:`scheduler.core.fields.dated_words`)."""
    return dated_words(d)


def span_text(first: dt.date, last: dt.date) -> str:
    """Days ``first``..``last`` (inclusive) as people write them: ``Jan 9, 2027`` (one day),
    ``Mar 5–6, 2027``, ``Mar 30 – Apr 2, 2027``, ``Dec 31, 2027 – Jan 1, 2028``."""
    if last <= first:
        return day_text(first)
    month = MONTH_ABBREVIATIONS[first.month - 1]
    if first.year != last.year:
        return f"{day_text(first)} – {day_text(last)}"
    if first.month != last.month:
        return f"{month} {first.day} – {MONTH_ABBREVIATIONS[last.month - 1]} {last.day}, " \
               f"{last.year}"
    return f"{month} {first.day}–{last.day}, {last.year}"


def hours_text(start: dt.datetime, end: dt.datetime) -> str:
    """Local hours of play ``start``..``end`` (``end`` exclusive): ``12:00–00:00`` when the
    play ends the same day or at the midnight after it, else with the weekdays
    (``Fri 09:00 – Sat 15:00``)."""
    same = end.date() == start.date() or (
        end.time() == dt.time() and end.date() == start.date() + dt.timedelta(days=1))
    # the fields formatted, not strftime: a report words thousands of rows (issue #27)
    hours = f"{start.hour:02d}:{start.minute:02d}", f"{end.hour:02d}:{end.minute:02d}"
    if same:
        return f"{hours[0]}–{hours[1]}"
    return (f"{weekday_text(start.date())[:3]} {hours[0]} – "
            f"{weekday_text(end.date())[:3]} {hours[1]}")


def tier_text(tier: str) -> str:
    """A Maine player tier (``51-100``) in words: ``51–100 players``; empty for none."""
    return f"{tier.replace('-', '–')} players" if tier else ""


def licence_text(kind: str, tier: str | None, valid_from: dt.date, valid_to: dt.date, *,
                 state: bool = False) -> str:
    """A licence or permit of licenses.csv in people's words.

    Parameters
    ----------
    kind
        ``mt-large-stakes-permit``, ``mt-small-stakes-permit`` (MT-PERMIT-FEES) or a Maine
        kind of :data:`constraints.maine.LICENCE_KINDS` (ME-FEES, ME-SUPER-CRIBBAGE); another
        kind is shown as it is.
    tier
        The Maine player tier (``51-100``), or empty/None.
    valid_from, valid_to
        The days it is valid (inclusive).
    state
        Name the state first (``Maine annual licence ...``).

    Returns
    -------
    str
        ``annual licence (51–100 players) from Jan 2, 2027``; ``per-tournament licence
        (1–50 players) for Jan 10, 2027``; ``super cribbage licence (101–150 players) for
        Mar 5–6, 2027``; ``large-stakes permit for the permit year from Jul 1, 2026``.
    """
    if kind in _PERMITS:
        words = f"{_PERMITS[kind]} for the permit year from {day_text(valid_from)}"
        return f"Montana {words}" if state else words
    if kind not in LICENCE_LABELS:
        return kind
    words = f"{LICENCE_LABELS[kind]} licence"
    if tier:
        words += f" ({tier_text(tier)})"
    if kind in ("me-annual", "me-monthly"):
        words += f" from {day_text(valid_from)}"
    else:
        words += f" for {span_text(valid_from, valid_to)}"
    return f"Maine {words}" if state else words
