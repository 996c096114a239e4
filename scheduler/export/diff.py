"""``tourney diff OLD NEW``: what changed between two plan folders.

Occurrences are matched by UID (re-plans keep the UID of an announced occurrence; a night of a
weekly series by its series UID and RECURRENCE-ID): moved
(another first day), retimed (other times on the same days, or a session of flights and day 2s
with other times, from the calendars' X-TOURNEY-SESSION events), added (a UID only in NEW),
cancelled (a UID only in OLD that NEW's calendar cancels; one it does not is history before
NEW's horizon); and the total of licence and permit fees before and after (USD).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from icalendar import Calendar

from scheduler.core.calendar_limits import read_calendar
from scheduler.core.errors import TourneyError
from scheduler.core.text import uncell
from scheduler.core.uid import PLAY_PROPERTY, SESSION_PROPERTY, session_occurrence


class DiffError(TourneyError, ValueError):
    """A plan folder cannot be read."""


def _read(folder: Path) -> tuple[pd.DataFrame, int]:
    sched, lic = folder / "schedule.csv", folder / "licenses.csv"
    if not sched.is_file() or not lic.is_file():
        raise DiffError(f"{folder}: not a plan folder (schedule.csv and licenses.csv expected)")
    try:
        df = pd.read_csv(sched, dtype=str, keep_default_na=False)
        fees = pd.read_csv(lic, dtype={"fee_usd": "int64"}, keep_default_na=False)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise DiffError(f"{folder}: {exc}") from None
    if "fee_usd" not in fees.columns:
        raise DiffError(f"{lic}: missing column(s) fee_usd")
    need = {"uid", "tournament_id", "first_day", "last_day", "title"}
    if need - set(df.columns):
        raise DiffError(f"{sched}: missing column(s) {', '.join(sorted(need - set(df.columns)))}")
    df["title"] = df["title"].map(uncell)  # written with ' before = + - @ (spreadsheets)
    if "recurrence_id" in df.columns:
        # a night of a weekly series: the series UID and the night's RECURRENCE-ID
        df["uid"] = [f"{u} RECURRENCE-ID {r}" if r else u
                     for u, r in zip(df["uid"], df["recurrence_id"], strict=True)]
    one = df.drop_duplicates("uid").set_index("uid")
    return one, int(fees["fee_usd"].sum()) if len(fees) else 0


def _cancelled_uids(folder: Path) -> set[str] | None:
    """UIDs the plan's calendar.ics publishes as STATUS:CANCELLED (None without a calendar).
    Raises :class:`DiffError` when the calendar cannot be read: an unreadable calendar must
    not pass for one that cancels nothing."""
    ics = folder / "calendar.ics"
    if not ics.is_file():
        return None
    try:
        cal = Calendar.from_ical(read_calendar(ics))  # bounded: docs/limits.md
    except Exception as exc:  # LimitError; icalendar raises ValueError, KeyError, ...
        raise DiffError(f"{ics}: not a readable iCalendar file ({exc})") from None
    return {str(e.get("UID", "")) for e in cal.walk("VEVENT")
            if str(e.get("STATUS", "")).upper() == "CANCELLED"}


def _sessions(folder: Path) -> dict[str, dict[int, str]]:
    """The sessions of each occurrence given as ``sessions`` (flights and day 2s) that the
    plan's calendar.ics publishes (not cancelled): occurrence UID -> {session number: its
    play ``start/end`` (X-TOURNEY-PLAY, else DTSTART/DTEND), ISO 8601}; empty without a
    calendar. Raises :class:`DiffError` when the calendar cannot be read."""
    ics = folder / "calendar.ics"
    if not ics.is_file():
        return {}
    try:
        cal = Calendar.from_ical(read_calendar(ics))  # bounded: docs/limits.md
    except Exception as exc:  # LimitError; icalendar raises ValueError, KeyError, ...
        raise DiffError(f"{ics}: not a readable iCalendar file ({exc})") from None
    out: dict[str, dict[int, str]] = {}
    for e in cal.walk("VEVENT"):
        k = str(e.get(SESSION_PROPERTY, "")).strip()
        if not k.isdigit() or str(e.get("STATUS", "")).upper() == "CANCELLED":
            continue
        occ = session_occurrence(str(e.get("UID", "")), int(k))
        play = str(e.get(PLAY_PROPERTY, "")) or (
            f"{e.decoded('DTSTART').isoformat()}/{e.decoded('DTEND').isoformat()}"
            if e.get("DTSTART") is not None and e.get("DTEND") is not None else "")
        out.setdefault(occ, {})[int(k)] = play
    return out


def diff_plans(old: str | Path, new: str | Path) -> str:
    """The differences as text, one line per moved, added or cancelled occurrence."""
    a, fee_a = _read(Path(old))
    b, fee_b = _read(Path(new))
    lines = []
    sa, sb = _sessions(Path(old)), _sessions(Path(new))
    for uid in sorted(set(a.index) & set(b.index), key=lambda u: (b.loc[u, "first_day"], u)):
        x, y = a.loc[uid], b.loc[uid]
        if (x["first_day"], x["last_day"]) != (y["first_day"], y["last_day"]):
            lines.append(f"moved      {y['title']} ({uid}): {x['first_day']}..{x['last_day']}"
                         f" -> {y['first_day']}..{y['last_day']}")
        elif (x.get("start"), x.get("end")) != (y.get("start"), y.get("end")):
            lines.append(f"retimed    {y['title']} ({uid}): {x.get('start')}..{x.get('end')}"
                         f" -> {y.get('start')}..{y.get('end')}")
        elif uid in sa and uid in sb and sa[uid] != sb[uid]:
            # the occurrence keeps its days and span; a session's times changed
            was, now = sa[uid], sb[uid]
            lines.append(f"retimed    {y['title']} ({uid}): " + "; ".join(
                f"session {k} {was.get(k, '(none)').replace('/', '..')} -> "
                f"{now.get(k, '(none)').replace('/', '..')}"
                for k in sorted(set(was) | set(now)) if was.get(k) != now.get(k)))
    for uid in sorted(set(b.index) - set(a.index), key=lambda u: (b.loc[u, "first_day"], u)):
        y = b.loc[uid]
        lines.append(f"added      {y['title']} ({uid}): {y['first_day']}..{y['last_day']}")
    published = _cancelled_uids(Path(new))
    first_new = min(b["first_day"], default="")
    for uid in sorted(set(a.index) - set(b.index), key=lambda u: (a.loc[u, "first_day"], u)):
        x = a.loc[uid]
        if published is None or uid in published or x["first_day"] >= first_new:
            lines.append(f"cancelled  {x['title']} ({uid}): {x['first_day']}..{x['last_day']}")
        else:  # not cancelled by the new plan: before its horizon (held already)
            lines.append(f"history    {x['title']} ({uid}): {x['first_day']}..{x['last_day']}"
                         " (outside the new plan's horizon)")
    change = fee_b - fee_a
    lines.append(f"{sum(ln.startswith(('moved', 'retimed')) for ln in lines)} moved, "
                 f"{sum(ln.startswith('added') for ln in lines)} added, "
                 f"{sum(ln.startswith('cancelled') for ln in lines)} cancelled; fees "
                 f"${fee_a:,} -> ${fee_b:,} ({'+' if change >= 0 else '-'}${abs(change):,})")
    return "\n".join(lines) + "\n"
