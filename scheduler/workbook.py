"""A scenario as an Excel workbook (.xlsx): the layout, the template, the reading.

An operator keeps the year in a spreadsheet: ``tourney template year.xlsx`` writes a workbook
with the sheets *Settings* (one field a row), *Operators* and *Tournaments* (one record a
row, one column a field) and *History* (the tournaments held before the plan, per operator);
``tourney solve year.xlsx`` reads it back. The spelling of every field is in
``docs/scenario.md`` ("The workbook").

:func:`read_workbook` turns a workbook into the same raw mapping the YAML loader validates
(:func:`scheduler.load.load_scenario` dispatches on the ``.xlsx`` suffix), and a
:class:`Cells` map from field path to cell, so that every problem names the sheet, the cell
and the column header (``Tournaments!F7 (entry_fee)``), never a 0-based index.
:func:`write_workbook` is the writer (the template filled from a scenario's fields).

This module sits below the scenario types (it imports none of them): it knows the columns,
not the rules. openpyxl is imported when a workbook is read or written (start-up time).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from scheduler.fields import ME_TYPES, MT_TYPES, WEEKDAYS
from scheduler.limits import FIRST_YEAR, LAST_YEAR

if TYPE_CHECKING:  # start-up time: openpyxl only when a workbook is read or written
    from openpyxl.worksheet.worksheet import Worksheet

WEEKDAY_CHOICES = WEEKDAYS
TYPE_CHOICES = MT_TYPES + ME_TYPES
FIXED_TIME = dt.datetime(2000, 1, 1)
"""The time written into a workbook's document properties and zip entries when
SOURCE_DATE_EPOCH is not set, so the same input gives a byte-identical file."""


@dataclass(frozen=True)
class Column:
    """One field of a sheet: its header, field path, kind and the header comment.

    ``kind`` says how a cell is written and read: ``text``, ``int``, ``count`` (int or
    ``all``), ``money`` (USD), ``share`` (a percentage, read as a fraction: 50 % → 0.5),
    ``date``, ``monthday`` (MM-DD), ``time`` (HH:MM), ``hours``, ``bool``, ``choice`` (one
    of ``choices``),
    ``list`` (comma list, e.g. ``tue, thu``), ``days`` (comma list of dates and
    ``FIRST..LAST`` ranges), ``names`` (semicolon list of names), ``games`` (semicolon list
    ``tue 18:00-22:00``), ``years`` (comma list ``2027: 11``).
    """

    header: str
    kind: str
    note: str
    choices: tuple[str, ...] = ()
    width: int = 14

    @property
    def path(self) -> tuple[str, ...]:
        """The field path below the record (``window.start`` → ``("window", "start")``)."""
        return tuple(self.header.split("."))


def _c(header: str, kind: str, note: str, choices: Sequence[str] = (), width: int = 14
       ) -> Column:
    return Column(header, kind, note, tuple(choices), width)


SETTINGS = (
    _c("name", "text", "Required. The plan's title, used in reports and calendars.", width=40),
    _c("horizon.start", "date", "Required. First day of the planning period (date). "
       "Every occurrence lies inside the horizon (HORIZON)."),
    _c("horizon.end", "date", "Required. Last day of the planning period, inclusive (date); "
       "a horizon is at most 2 years: it ends before the same day two years after the start "
       "(SCENARIO)."),
    _c("notice_from", "date", "Date. The earliest day a notice or application can still be "
       "filed: MT-NOTICE (MCA 23-5-317(1)(d),(f)), ME-APPLICATION-WINDOW. Default: today; "
       "give it so that the plan can be reproduced."),
    _c("uid_domain", "text", "A domain your organization controls (lower case, e.g. "
       "legion-post-88.example.org); every calendar UID ends with it. Default tourney.invalid."),
    _c("settings.month_rule", "choice", "ME-MONTHLY-LIMIT (17 M.R.S. § 1836): touch = a game "
       "counts in every calendar month it touches (default); start = only its first month.",
       ("touch", "start")),
    _c("settings.tier_coverage", "choice", "ME-FEES (17 M.R.S. § 1836(3-A)): up = a licence "
       "covers games up to its tier's maximum (default); exact = only its own tier.",
       ("up", "exact")),
    _c("settings.reentry_counts_toward_cap", "bool", "MT-ENTRY-CAP (MCA 23-5-317(1)(g)): "
       "TRUE = re-entries count toward the $1,875 a participant may pay (default)."),
    _c("settings.surcharge_cap", "choice", "ME-ENTRY-CAP (17 M.R.S. § 1836(4)): license-fee = "
       "the surcharge may not exceed the licence fee it defrays, nor $125 (default); flat = "
       "at most $125.", ("license-fee", "flat")),
    _c("settings.super_cribbage_licenses_issued", "years", "ME-SUPER-CRIBBAGE (17 M.R.S. "
       "§ 1836(4-A)): super cribbage licences already issued statewide to others, per "
       "calendar year, e.g. 2027: 11, 2028: 3 (each 0-15)."),
)
"""The Settings sheet: one row a field (column A the field, column B the value)."""

OPERATORS = (
    _c("id", "text", "Required. Lower-case letters, digits and hyphens, e.g. room-a; "
       "tournaments name their operators by it."),
    _c("name", "text", "Required. Shown in reports and messages.", width=32),
    _c("jurisdiction", "choice", "Required. MT (MCA 23-5-317) or ME (17 M.R.S. § 1836).",
       ("MT", "ME")),
    _c("timezone", "text", "IANA time zone of start times. Default America/Denver (MT), "
       "America/New_York (ME).", width=18),
    _c("address", "text", "The premises, printed as the event location.", width=32),
    _c("blackout", "days", "Days no occurrence may be conducted (BLACKOUT): a comma list of "
       "dates and FIRST..LAST ranges, e.g. 2027-07-04, 2027-12-24..2027-12-26.", width=30),
    _c("max_concurrent", "int", "Whole number >= 1, default 1: the most of this operator's "
       "tournaments in play at one moment (MAX-CONCURRENT; per calendar day with "
       "concurrency day)."),
    _c("concurrency", "choice", "How MAX-CONCURRENT counts: time (sessions overlapping in "
       "time, the default) or day (tournaments touching one calendar day).",
       ("time", "day")),
    _c("tables", "int", "Tournament tables available on each calendar day (TABLES); empty: "
       "not limited."),
    _c("dealers", "int", "MT. Licensed dealers available on each calendar day (MT-DEALER, "
       "MCA 23-5-317(6)); empty: not limited."),
    _c("live_tables", "int", "MT. Permitted live card tables (tables); >= 1 to hold any "
       "tournament: MT-PERMIT-PREREQ (MCA 23-5-317(1)(a), (2)(a))."),
    _c("permit_year_start", "monthday", "MT. First day of the permit year as MM-DD, default "
       "07-01 (MT-PERMIT-YEAR, MCA 23-5-317(1)(a),(b)); a date cell's month and day are "
       "read."),
    _c("late_hours_ordinance", "bool", "MT. TRUE when a local ordinance extends hours, so "
       "MT-PLAY-HOURS (ARM 23.16.1101, no play 2-8 a.m.) does not apply. Default FALSE."),
    _c("calendar_style", "choice", "MT. How the calendars show this operator's events: "
       "all-day (the default; play times in the description) or timed (start and end in "
       "its time zone).", ("all-day", "timed")),
    _c("owns_premises", "bool", "ME. TRUE when the licensee owns the premises: up to 300 "
       "players instead of 100 (ME-PLAYER-CAP, 17 M.R.S. § 1836(4)). Default FALSE."),
    _c("local_approval", "bool", "ME. Must be TRUE: the local authority approved "
       "(ME-LOCAL-APPROVAL, 17 M.R.S. § 1836(1))."),
    _c("beneficiaries", "names", "ME. Charitable organizations the proceeds benefit, "
       "separated by semicolons; at least one (ME-BENEFICIARY, 17 M.R.S. § 1836(2)).",
       width=32),
    _c("other_games", "games", "ME. Other weekly games on the premises (e.g. beano) that no "
       "licensed game may overlap (ME-OTHER-GAMES, 17 M.R.S. § 1836(4)): weekday start-end, "
       "separated by semicolons, e.g. tue 18:00-22:00; fri 19:00-01:00.", width=24),
    _c("organization_type", "choice", "ME. ME-ELIGIBLE (17 M.R.S. § 1832(2)); default "
       "nonprofit.", ("nonprofit", "agricultural-society", "volunteer-fire-department",
                      "national-cribbage-501c3"), width=20),
    _c("organized_on", "date", "ME. When the organization was organized in Maine (date), "
       ">= 2 years before the horizon (ME-ELIGIBLE)."),
    _c("licensed_establishment", "choice", "ME. Required for charitable cribbage "
       "(ME-CRIBBAGE-REG, 17 M.R.S. § 1836(4-B)).", ("restaurant", "manufacturer")),
    _c("uid_domain", "text", "The domain this operator's calendar UIDs end with; default "
       "the Settings' uid_domain."),
)
"""The Operators sheet: one operator a row."""

HISTORY = (
    _c("operator", "text", "Required. The operator's id (Operators sheet)."),
    _c("held_in_current_permit_year.large_stakes", "int", "MT. Large-stakes tournaments "
       "already held before the horizon's start in its permit year: they count toward the 16 "
       "(MT-LARGE-LIMIT, MCA 23-5-317(1)(a),(d)).", width=18),
    _c("held_in_current_permit_year.charitable", "int", "MT. Charitable large-stakes "
       "tournaments already held in that permit year; the first 3 are not counted "
       "(MT-CHARITY-LIMIT, MCA 23-5-317(1)(f)).", width=18),
    _c("held_in_current_permit_year.permits", "list", "MT. Permits already bought for that "
       "permit year (MT-PERMIT-FEES): large-stakes, small-stakes.", width=26),
)
"""The History sheet: what each operator held before the plan (when no ledger is used)."""

TOURNAMENTS = (
    _c("id", "text", "Required. Lower-case letters, digits and hyphens; occurrences are "
       "named id#1, id#2, ..."),
    _c("title", "text", "Required. Shown in the calendar and reports.", width=32),
    _c("type", "choice", "Required. MT: large-stakes (MCA 23-5-317(1)), small-stakes "
       "(23-5-317(2)); ME: tournament-game (17 M.R.S. § 1836), super-cribbage (§ 1836(4-A)), "
       "charitable-cribbage (§ 1836(4-B)).", TYPE_CHOICES, width=20),
    _c("operators", "list", "Required. Operator ids, comma list; more than one only for a "
       "Montana progressive (MT-PROGRESSIVE, MCA 23-5-317(1)(e)).", width=20),
    _c("charitable", "bool", "MT. TRUE for a charitable tournament (MT-CHARITY-LIMIT, "
       "MCA 23-5-317(1)(f)); needs charity_share >= 50 %. Default FALSE."),
    _c("days", "int", "Play days (MT), default 1: MT-DURATION (MCA 23-5-317(1)(c)), "
       "MT-SMALL-DAILY; 1 in Maine (ME-DURATION)."),
    _c("start_time", "time", "Local time of day HH:MM each play day starts; default 12:00."),
    _c("hours", "hours", "Elapsed hours of each play day's session (a number, or H:MM as "
       "text); default 10. MT-PLAY-HOURS, ME-DURATION (<= 48), ME-SUPER-CRIBBAGE (<= 72)."),
    _c("count", "count", "The most occurrences wanted (COUNT), a whole number >= 1, or all "
       "(small-stakes only); default 1."),
    _c("required", "int", "Occurrences that must be placed; default 0."),
    _c("window.start", "date", "First allowed first day (WINDOW), date; empty: the horizon."),
    _c("window.end", "date", "Last allowed first day (WINDOW), date, inclusive."),
    _c("weekdays", "list", "Allowed weekdays of the first day (WEEKDAYS), comma list: "
       "mon, tue, wed, thu, fri, sat, sun; empty: any.", WEEKDAY_CHOICES),
    _c("prefer_weekdays", "list", "Preferred weekdays of the first day (a soft wish), "
       "comma list.", WEEKDAY_CHOICES),
    _c("fixed_dates", "days", "First days pinned (FIXED-DATES), comma list of dates; each is "
       "a required occurrence."),
    _c("per_month.min", "int", "At least this many first days in each calendar month of the "
       "window (PER-MONTH-MIN); empty: none."),
    _c("per_month.max", "int", "At most this many first days in any calendar month "
       "(PER-MONTH); empty: no cap."),
    _c("per_week.min", "int", "At least this many first days in each ISO week, Mon-Sun, of the "
       "window (PER-WEEK-MIN); empty: none."),
    _c("per_week.max", "int", "At most this many first days in any ISO week (PER-WEEK); "
       "empty: no cap."),
    _c("spread", "choice", "even: the monthly counts in the window differ by at most 1 "
       "(SPREAD); empty: no rule.", ("even",)),
    _c("dealers_needed", "int", "Licensed dealers needed on each day of play (MT-DEALER); "
       "default 0."),
    _c("tables_needed", "int", "Tables needed on each day of play (TABLES); default 0."),
    _c("min_gap_days", "int", "Days at least between consecutive first days (MIN-GAP); "
       "default 0."),
    _c("priority", "int", "1-1000, default 1: the weight of each placed occurrence when a "
       "limit forces a choice."),
    _c("players", "int", "Player cap (players): ME-FEES tier, ME-PLAYER-CAP (17 M.R.S. "
       "§ 1836(4)), ME-SUPER-CRIBBAGE; needed in Maine."),
    _c("entry_fee", "money", "USD per entry. MT-ENTRY-CAP (MCA 23-5-317(1)(g), $1,875 in "
       "all), MT-SMALL-ENTRY (<= $80), ME-ENTRY-CAP (<= $100), ME-CRIBBAGE-REG (<= $25)."),
    _c("reentries", "int", "MT large-stakes: re-entries per person (MT-ENTRY-CAP); 0 "
       "otherwise."),
    _c("rebuy_fee", "money", "MT large-stakes: USD per rebuy (MT-ENTRY-CAP)."),
    _c("max_rebuys", "int", "MT large-stakes: rebuys per person (MT-ENTRY-CAP)."),
    _c("addon_fee", "money", "MT large-stakes: USD for the one add-on (MT-ENTRY-CAP)."),
    _c("charity_share", "share", "Percent of entry fees (MT, >= 50 %: MT-CHARITY-SHARE, "
       "MCA 23-5-317(8)) or of proceeds after prizes (super cribbage, >= 50 %: "
       "ME-SUPER-CRIBBAGE) paid to charity."),
    _c("prize_share", "share", "ME. Percent of entry fees paid as prizes, >= 75 % "
       "(ME-PRIZES, 17 M.R.S. § 1836(5))."),
    _c("rake", "bool", "MT. Must be FALSE (MT-NO-RAKE, MCA 23-5-317(9))."),
    _c("satellite.seat_value", "money", "MT. USD value of a seat in a higher-level "
       "tournament given as a prize; must equal the expected top prize (MT-SATELLITE, "
       "MCA 23-5-317(1)(h))."),
    _c("satellite.expected_top_prize", "money", "MT. USD expected top prize of the "
       "satellite (MT-SATELLITE)."),
    _c("elimination", "bool", "ME. Winners decided by elimination (ME-ELIMINATION); default "
       "TRUE."),
    _c("license_surcharge_total", "money", "ME. USD added to entry fees in all to defray the "
       "licence fee (ME-ENTRY-CAP, 17 M.R.S. § 1836(4))."),
    _c("raffles", "int", "ME. Raffles held during the game (ME-RAFFLE)."),
    _c("raffle_prize", "money", "ME. USD raffle prize (ME-RAFFLE: at most $2,000)."),
    _c("high_hand_competitions", "int", "ME. High-hand competitions (ME-HIGH-HAND)."),
    _c("organizer_member_years", "int", "ME super cribbage: the principal organizer's years "
       "of membership (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A))."),
    _c("description", "text", "Your own notes; not printed.", width=32),
    _c("locked", "bool", "Re-plans: keep every announced occurrence where it is. Default "
       "FALSE."),
    _c("filed_dates", "days", "First days whose MT notice / ME application is already filed "
       "(MT-NOTICE, ME-APPLICATION-WINDOW), comma list of dates."),
)
"""The Tournaments sheet: one tournament a row."""

TOURS = (
    _c("id", "text", "Required. The tour's id: lower-case letters, digits and hyphens."),
    _c("title", "text", "Required. The tour's name.", width=32),
    _c("stops", "list", "Required. Tournament ids of the stops (rounds), in the tour's order, "
       "comma list, at least 2; each a tournament with count 1 at its own venue(s) "
       "(TOUR-ORDER, TOUR-WHOLE: all placed or none).", width=32),
    _c("order", "choice", "strict (default): the stops in the listed order; any: in any "
       "order; never two stops on one day (TOUR-ORDER).", ("strict", "any")),
    _c("min_days_between", "int", "Days, at least, from one stop's first day to the next "
       "one's (TOUR-SPACING). Default 0."),
    _c("max_days_between", "int", "Days, at most, from one stop's first day to the next "
       "one's, order strict only (TOUR-SPACING). Empty: no bound."),
    _c("final", "text", "The final round's tournament id, the last of stops (TOUR-ORDER)."),
    _c("progressive", "bool", "TRUE: a progressive large-stakes tournament (MT-PROGRESSIVE, "
       "MCA 23-5-317(1)(e)): large-stakes rounds of at least two rooms, a final."),
)
"""The Tours sheet (written only for a scenario with tours): one tour a row."""

SHEETS: dict[str, tuple[str, tuple[Column, ...]]] = {
    "Operators": ("operators", OPERATORS),
    "Tournaments": ("tournaments", TOURNAMENTS),
    "History": ("operators", HISTORY),
    "Tours": ("tours", TOURS),
}
"""Record sheets: name → (the scenario's list it fills, its columns)."""

EXAMPLES: dict[str, dict[str, Any]] = {
    "montana": {
        "name": "Bitterroot Card Room 2027",
        "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-20",
        "operators": [{
            "id": "room-a", "name": "Bitterroot Card Room", "jurisdiction": "MT",
            "address": "2815 Brooks St, Missoula, MT 59801", "live_tables": 6,
            "blackout": ["2027-07-03..2027-07-05", "2027-12-24..2027-12-26"],
            "held_in_current_permit_year": {"large_stakes": 9, "charitable": 1,
                                            "permits": ["large-stakes", "small-stakes"]},
        }],
        "tournaments": [{
            "id": "deepstack", "title": "Bitterroot Deepstack Series", "type": "large-stakes",
            "operators": ["room-a"], "days": 3, "start_time": "12:00", "hours": 14,
            "count": 4, "required": 2, "weekdays": ["fri"], "min_gap_days": 75,
            "priority": 20, "players": 240, "entry_fee": 375, "reentries": 3,
        }, {
            "id": "food-share-classic", "title": "Five Valleys Food Share Classic",
            "type": "large-stakes", "operators": ["room-a"], "charitable": True,
            "charity_share": "0.5", "start_time": "12:00", "hours": 12,
            "weekdays": ["fri", "sat"], "prefer_weekdays": ["sat"],
            "window": {"start": "2027-02-01", "end": "2027-03-31"}, "priority": 40,
            "players": 100, "entry_fee": 200, "reentries": 1,
        }, {
            "id": "wednesday-bounty", "title": "Wednesday Night Bounty", "type": "small-stakes",
            "operators": ["room-a"], "count": "all", "weekdays": ["wed"],
            "start_time": "19:00", "hours": 4, "players": 40, "entry_fee": 60,
        }],
    },
    "maine": {
        "name": "American Legion Post 212 - 2027",
        "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-20",
        "operators": [{
            "id": "post-212", "name": "American Legion Post 212, Sebasticook Valley",
            "jurisdiction": "ME", "address": "48 Main St, Pittsfield, ME 04967",
            "organized_on": "1946-05-12", "local_approval": True,
            "beneficiaries": ["Sebasticook Valley Veterans Relief Fund",
                              "Post 212 Scholarship Fund"],
            "owns_premises": True,
            "other_games": [{"weekday": "tue", "start": "18:00", "end": "22:00"}],
            "blackout": ["2027-07-04", "2027-12-24..2027-12-26"],
        }],
        "tournaments": [{
            "id": "saturday-holdem", "title": "Saturday Hold'em", "type": "tournament-game",
            "operators": ["post-212"], "count": 12, "weekdays": ["sat"], "min_gap_days": 21,
            "start_time": "12:00", "hours": 12, "priority": 10, "players": 100,
            "entry_fee": 100, "prize_share": "0.8",
        }, {
            "id": "super-cribbage", "title": "Sebasticook Super Cribbage Weekend",
            "type": "super-cribbage", "operators": ["post-212"], "weekdays": ["fri"],
            "window": {"start": "2027-03-01", "end": "2027-03-31"}, "required": 1,
            "start_time": "09:00", "hours": 30, "priority": 40, "players": 120,
            "entry_fee": 60, "prize_share": "0.75", "charity_share": "0.5",
            "organizer_member_years": 8,
        }],
    },
}
"""The example scenarios of ``tourney template --example`` (raw mappings, as YAML gives
them; shortened from data/examples/montana-card-room.yaml and maine-legion-post.yaml)."""


# --------------------------------------------------------------------------- errors, cells
class WorkbookError(ValueError):
    """A workbook that cannot be read as a scenario at all (not an .xlsx file, a sheet
    missing, a History row of an unknown operator). ``problems`` lists ``(where, message)``
    pairs, ``where`` a sheet or cell (``History!A3 (operator)``)."""

    def __init__(self, problems: Sequence[tuple[str, str]]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{w}: {m}" for w, m in self.problems))


class Cells(dict[tuple[Any, ...], str]):
    """Field path → where it is in the workbook (``"Tournaments!F7 (entry_fee)"``).

    Used by the loader in place of YAML line numbers. A path deeper than any cell (an item
    of a comma list, a field of a column that does not exist) is found at its nearest
    enclosing cell or row, the rest of the path added (``Tournaments!M7 (weekdays), item 2``;
    ``Tournaments row 7, title``). ``notes`` lists what the reading accepted but an operator
    should know (a sheet read under another letter case, a sheet not read)."""

    notes: Sequence[str] = ()

    def _find(self, key: tuple[Any, ...]) -> str | None:
        for k in range(len(key), -1, -1):
            label = dict.get(self, key[:k])
            if label is not None:
                rest = key[k:]
                if not rest:
                    return label
                tail = ", ".join(f"item {p + 1}" if isinstance(p, int) else str(p)
                                 for p in rest)
                return f"{label}, {tail}"
        return None

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self._find(key) is not None

    def __getitem__(self, key: tuple[Any, ...]) -> str:
        found = self._find(key)
        if found is None:
            raise KeyError(key)
        return found

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        found = self._find(key)
        return default if found is None else found


# --------------------------------------------------------------------------- reading
_EMPTY = object()
_GAME = re.compile(r"^([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$")
_YEAR = re.compile(r"^(\d{4})\s*:\s*(\d+)$")


def _number(value: float) -> int | Decimal:
    """A spreadsheet number as the loader wants it: a whole one as int, else the Decimal of
    its shortest decimal spelling (0.8, not 0.8000000000000000444)."""
    if value.is_integer():
        return int(value)
    return Decimal(repr(value))


def _share(value: Any) -> Any:
    """A percentage cell as a share: the number 0.5 (shown 50 %) or the text ``50%``."""
    if isinstance(value, str) and value.endswith("%"):
        try:
            return Decimal(value[:-1].strip()) / 100
        except InvalidOperation:
            return value
    return value


def _hhmm(hours: int, minutes: int) -> str:
    return f"{hours}:{minutes:02d}"


def cell_value(column: Column, value: Any) -> Any:
    """A cell of ``column`` as the YAML loader reads it; ``_EMPTY`` for an empty cell.

    Numbers: a whole float is an int, others Decimal; a share reads ``50%`` text as 0.5;
    dates: a date-time cell is its date; times (``start_time``): a time cell is kept, text
    ``18:00`` too; hours: a time or duration cell becomes ``"H:MM"``; lists are split
    (commas, or semicolons for ``names`` and ``games``). Anything not understood is passed on
    as it is, for the loader to name the problem."""
    if value is None:
        return _EMPTY
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return _EMPTY
    if isinstance(value, float) and not isinstance(value, bool):
        value = _number(value)
    kind = column.kind
    if kind == "share":
        return _share(value)
    if kind == "date" and isinstance(value, dt.datetime):
        return value.date()
    if kind == "monthday" and isinstance(value, dt.date):  # a spreadsheet made 07-01 a date
        return f"{value:%m-%d}"
    if kind == "hours":
        if isinstance(value, dt.time):
            return _hhmm(value.hour, value.minute)
        if isinstance(value, dt.timedelta):
            minutes = round(value.total_seconds() / 60)
            return _hhmm(minutes // 60, minutes % 60)
    if kind == "time" and isinstance(value, dt.datetime):
        return value.time()
    if kind in ("list", "days"):
        if isinstance(value, dt.datetime):
            return [value.date()]
        if not isinstance(value, str):
            return [value]
        return [x for x in re.split(r"[\s,;]+", value) if x]
    if kind == "names":
        text = str(value)
        return [x.strip() for x in re.split(r"[;\n]", text) if x.strip()]
    if kind == "games":
        items = [x.strip() for x in re.split(r"[;,\n]", str(value)) if x.strip()]
        return [{"weekday": m.group(1).lower(), "start": m.group(2), "end": m.group(3)}
                if (m := _GAME.match(x)) else x for x in items]
    if kind == "years" and isinstance(value, str):
        pairs = [x.strip() for x in re.split(r"[,;\n]", value) if x.strip()]
        matched = [_YEAR.match(p) for p in pairs]
        if all(matched):
            return {int(m.group(1)): int(m.group(2)) for m in matched if m}
    return value


def _put(record: dict[str, Any], path: Sequence[str], value: Any) -> bool:
    """Set ``record[path]`` (creating nested mappings); False when it is already set."""
    node = record
    for part in path[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return False
    if path[-1] in node:
        return False
    node[path[-1]] = value
    return True


def _header(value: Any) -> str:
    return re.sub(r"\s*\.\s*", ".", str(value).strip()) if value is not None else ""


def _open(data: bytes) -> Any:
    # start-up time: openpyxl only when a workbook is read
    from openpyxl import load_workbook

    try:
        return load_workbook(io.BytesIO(data), data_only=True, read_only=False)
    except Exception as exc:  # noqa: BLE001 - zip, XML and openpyxl errors: all "not a workbook"
        raise WorkbookError([("<file>", "cannot be read as an Excel workbook (.xlsx): "
                                        f"{type(exc).__name__}: {str(exc)[:200]}")]) from None


REQUIRED_SHEETS = ("Settings", "Operators", "Tournaments")
"""The sheets every scenario workbook has (History and Tours are optional)."""


def _find_sheets(wb: Any) -> tuple[dict[str, str], list[tuple[str, str]], list[str]]:
    """The workbook's sheets by the names this module reads: (canonical name → the sheet's
    own name, problems, notes). A sheet named in other letter case or with spaces around
    (``tournaments``) is read, with a note; a required sheet missing is a problem naming
    the sheets found; a sheet of another name gets a note (it is not read)."""
    found = list(wb.sheetnames)
    names: dict[str, str] = {}
    notes: list[str] = []
    for sheet in SHEETS_READ:
        if sheet in found:
            names[sheet] = sheet
            continue
        same = [n for n in found if n.strip().lower() == sheet.lower()]
        if len(same) == 1:
            names[sheet] = same[0]
            notes.append(f"sheet {same[0]!r} is read as the {sheet} sheet")
    problems: list[tuple[str, str]] = []
    listed = ", ".join(repr(n) for n in found) or "none"
    for sheet in REQUIRED_SHEETS:
        if sheet not in names:
            near = [n for n in found if n not in names.values()
                    and sheet.lower() in n.lower()]
            hint = (f"; rename {near[0]!r} to {sheet}" if near
                    else "; tourney template writes one")
            problems.append((f"sheet {sheet}", "the workbook has no sheet of this name (its "
                             f"sheets: {listed}){hint}"))
    for n in found:
        if n not in names.values():
            notes.append(f"sheet {n!r} is not read (the sheets read are "
                         f"{', '.join(SHEETS_READ)})")
    return names, problems, notes


SHEETS_READ = ("Settings", "Operators", "Tournaments", "History", "Tours")
"""Every sheet a scenario workbook may have, in the order ``tourney template`` writes them."""


def _has_header(ws: Worksheet, sheet: str) -> bool:
    """True when row 1 of the record sheet names at least one of its known columns."""
    known = {c.header for c in SHEETS[sheet][1]}
    first = next(ws.iter_rows(min_row=1, max_row=1, values_only=True), ())
    return any(_header(v) in known for v in first)


def _uncomputed(data: bytes, wb: Any, names: Mapping[str, str]) -> list[tuple[str, str]]:
    """Cells that hold a formula with no computed value (a file written by a script, never
    opened in a spreadsheet program): openpyxl reads them as empty, so each is a problem
    (rule SCENARIO) naming the cell, its column header and the formula."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            if not any(b"<f" in z.read(n) for n in z.namelist()
                       if n.startswith("xl/worksheets/") and n.endswith(".xml")):
                return []
    except (zipfile.BadZipFile, KeyError, OSError):
        return []
    # start-up time: openpyxl only when a workbook is read
    from openpyxl import load_workbook

    formulas = load_workbook(io.BytesIO(data), data_only=False, read_only=False)
    out: list[tuple[str, str]] = []
    for sheet in SHEETS_READ:
        if sheet not in names:
            continue
        shown, raw = wb[names[sheet]], formulas[names[sheet]]
        for row in raw.iter_rows():
            for cell in row:
                text = cell.value
                if not (isinstance(text, str) and text.startswith("=")
                        and cell.data_type == "f"):
                    continue
                if shown[cell.coordinate].value is not None:
                    continue
                if sheet == "Settings":
                    header = _header(raw.cell(row=cell.row or 1, column=1).value)
                else:
                    header = _header(raw.cell(row=1, column=cell.column or 1).value)
                out.append((f"{names[sheet]}!{cell.coordinate} ({header})",
                            f"a formula with no computed value ({text}): open and save the "
                            "file in Excel, or type the value"))
    return out


def read_workbook(data: bytes) -> tuple[dict[str, Any], Cells]:
    """A scenario workbook (the bytes of an .xlsx file) as the raw scenario mapping.

    Parameters
    ----------
    data
        The file's bytes (read within the limits of :func:`scheduler.limits.read_bounded`).

    Returns
    -------
    (mapping, cells)
        The mapping :func:`scheduler.load.load_scenario` validates (as a YAML file gives
        it), and :class:`Cells`, every field path's sheet, cell and column header.

    Raises
    ------
    WorkbookError
        Not an .xlsx file; no Settings, Operators or Tournaments sheet (in any letter case;
        the message lists the sheets found); a record sheet with no header row; a formula
        cell with no computed value (a file written by a script); a History row naming no
        operator of the Operators sheet, or an operator twice.
    """
    wb = _open(data)
    names, problems, notes = _find_sheets(wb)
    for sheet in ("Operators", "Tournaments", "History", "Tours"):
        if sheet in names and not _has_header(wb[names[sheet]], sheet):
            problems.append((f"{names[sheet]}!1", "no header row: row 1 must name the columns "
                             f"({', '.join(c.header for c in SHEETS[sheet][1][:4])}, ...) "
                             "as tourney template writes them"))
    problems += _uncomputed(data, wb, names)
    if problems:
        raise WorkbookError(problems)
    cells = Cells()
    cells.notes = notes
    out: dict[str, Any] = {}
    cells[()] = "Settings"
    by_field = {c.header: c for c in SETTINGS}
    for row in wb[names["Settings"]].iter_rows(min_row=2, max_col=2):
        key, value = _header(row[0].value), row[1].value
        if not key:
            continue
        column = by_field.get(key, Column(key, "text", ""))
        where = f"{names['Settings']}!{row[1].coordinate} ({key})"
        for k in range(1, len(column.path) + 1):
            cells.setdefault(column.path[:k], where)
        read = cell_value(column, value)
        if read is not _EMPTY and not _put(out, column.path, read):
            problems.append((where, "given twice in the Settings sheet"))
    for sheet, (key, _columns) in SHEETS.items():
        if key not in out and sheet in names and sheet != "History":
            out[key] = []
            cells[(key,)] = f"{names[sheet]} sheet"
    for sheet in ("Operators", "Tournaments", "Tours"):
        if sheet in names:
            _read_records(wb[names[sheet]], sheet, out, cells, problems)
    if "History" in names:
        _read_history(wb[names["History"]], out, cells, problems)
    if problems:
        raise WorkbookError(problems)
    return out, cells


def _rows(ws: Worksheet) -> Iterable[tuple[int, list[Any]]]:
    """(row number, cells) of every row below the header that holds a value."""
    for row in ws.iter_rows(min_row=2):
        if any(c.value is not None and str(c.value).strip() for c in row):
            yield row[0].row or 0, list(row)


def _columns_of(ws: Worksheet, sheet: str) -> list[tuple[int, Column]]:
    known = {c.header: c for c in SHEETS[sheet][1]}
    out = []
    for i, head in enumerate(next(ws.iter_rows(min_row=1, max_row=1, values_only=True), ())):
        header = _header(head)
        if header:
            out.append((i, known.get(header, Column(header, "text", ""))))
    return out


def _read_records(ws: Worksheet, sheet: str, out: dict[str, Any], cells: Cells,
                  problems: list[tuple[str, str]]) -> None:
    key = SHEETS[sheet][0]
    columns = _columns_of(ws, sheet)
    records: list[dict[str, Any]] = out.setdefault(key, [])
    for number, row in _rows(ws):
        i = len(records)
        record: dict[str, Any] = {}
        cells[(key, i)] = f"{ws.title} row {number}"
        for j, column in columns:
            where = f"{ws.title}!{_letter(j)}{number} ({column.header})"
            for k in range(1, len(column.path) + 1):
                cells.setdefault((key, i, *column.path[:k]), where)
            value = cell_value(column, row[j].value if j < len(row) else None)
            if value is not _EMPTY and not _put(record, column.path, value):
                problems.append((where, "given twice (two columns of this name)"))
        records.append(record)


def _read_history(ws: Worksheet, out: dict[str, Any], cells: Cells,
                  problems: list[tuple[str, str]]) -> None:
    columns = _columns_of(ws, "History")
    operators = out.get("operators", [])
    index = {str(o.get("id")): i for i, o in enumerate(operators)}
    seen: dict[str, int] = {}
    for number, row in _rows(ws):
        values = {c.header: (j, cell_value(c, row[j].value if j < len(row) else None))
                  for j, c in columns}
        j, op = values.get("operator", (0, _EMPTY))
        where = f"{ws.title}!{_letter(j)}{number} (operator)"
        if op is _EMPTY or str(op) not in index:
            near = f"; the Operators sheet has {', '.join(sorted(index)) or 'none'}"
            problems.append((where, f"{'no operator given' if op is _EMPTY else repr(op)}: "
                             f"not an operator id of the Operators sheet{near}"))
            continue
        if str(op) in seen:
            problems.append((where, f"{op!r} has a History row already (row {seen[str(op)]})"))
            continue
        seen[str(op)] = number
        i = index[str(op)]
        for header, (j, value) in values.items():
            if header == "operator":
                continue
            path = tuple(header.split("."))
            where = f"{ws.title}!{_letter(j)}{number} ({header})"
            for k in range(1, len(path) + 1):
                cells[("operators", i, *path[:k])] = where
            if value is not _EMPTY and not _put(operators[i], path, value):
                problems.append((where, "given twice (in the Operators and History sheets)"))


def _letter(index: int) -> str:
    """0-based column index → Excel column letters (0 → A, 26 → AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


# --------------------------------------------------------------------------- writing
def set_cell(ws: Worksheet, row: int, column: int, value: Any) -> Any:
    """Put ``value`` into the cell (1-based row and column) and return the cell; text
    beginning with ``=`` stays text (openpyxl would write it as a formula, which a
    spreadsheet would run)."""
    cell = ws.cell(row=row, column=column, value=value)
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"
    return cell


_FORMATS = {"date": "yyyy-mm-dd", "time": "hh:mm", "money": '"$"#,##0.00',
            "share": "0%", "hours": "0.##", "monthday": "@"}


def _written(column: Column, value: Any) -> Any:
    """A field's value (as ``Scenario.model_dump()`` gives it) as a cell value."""
    kind = column.kind
    if value is None:
        return None
    if kind in ("money", "share", "hours") and isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        if Decimal(repr(float(value))) == value:
            return float(value)
        if kind == "hours" and (value * 60) == (value * 60).to_integral_value():
            whole = int(value)
            return _hhmm(whole, int((value - whole) * 60))
        return str(value)
    if kind == "days":
        return ", ".join(_ranges(list(value)))
    if kind == "list":
        return ", ".join(str(v) for v in value)
    if kind == "names":
        return "; ".join(value)
    if kind == "games":
        return "; ".join(f"{g['weekday']} {g['start']:%H:%M}-{g['end']:%H:%M}" for g in value)
    if kind == "years":
        return ", ".join(f"{y}: {n}" for y, n in value.items()) or None
    return value


def _ranges(days: list[dt.date]) -> list[str]:
    """Sorted dates as dates and ``FIRST..LAST`` runs of three or more consecutive days."""
    out: list[str] = []
    i = 0
    while i < len(days):
        j = i
        while j + 1 < len(days) and days[j + 1] - days[j] == dt.timedelta(days=1):
            j += 1
        if j - i >= 2:
            out.append(f"{days[i].isoformat()}..{days[j].isoformat()}")
        else:
            out.extend(d.isoformat() for d in days[i:j + 1])
        i = j + 1
    return out


def _get(record: Mapping[str, Any], path: Sequence[str]) -> Any:
    node: Any = record
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _validation(ws: Worksheet, column: Column, ref: str) -> None:
    # start-up time: openpyxl only when a workbook is written
    from openpyxl.worksheet.datavalidation import DataValidation

    kind = column.kind
    dv: DataValidation | None = None
    if kind == "choice":
        dv = DataValidation(type="list", formula1='"' + ",".join(column.choices) + '"',
                            allow_blank=True)
    elif kind == "list" and column.choices:  # one weekday from the list, or type a comma list
        dv = DataValidation(type="list", formula1='"' + ",".join(column.choices) + '"',
                            allow_blank=True, errorStyle="information",
                            error="For several weekdays type a comma list: fri, sat")
    elif kind == "bool":
        dv = DataValidation(type="list", formula1='"TRUE,FALSE"', allow_blank=True)
    elif kind == "date":
        dv = DataValidation(type="date", operator="between",  # the loader's years
                            formula1=f"DATE({FIRST_YEAR},1,1)",
                            formula2=f"DATE({LAST_YEAR},12,31)", allow_blank=True,
                            error="A date, e.g. 2027-03-01")
    elif kind in ("money", "share"):
        dv = DataValidation(type="decimal", operator="between", formula1="0",
                            formula2="1" if kind == "share" else "1000000000",
                            allow_blank=True, errorStyle="warning",
                            error="A percentage from 0 % to 100 %" if kind == "share"
                            else "An amount in US dollars, e.g. 50")
    elif kind == "int":
        dv = DataValidation(type="whole", operator="between", formula1="0",
                            formula2="1000000", allow_blank=True,
                            error="A whole number")
    if dv is not None:
        dv.showErrorMessage = True
        dv.errorTitle = column.header
        ws.add_data_validation(dv)
        dv.add(ref)


def _style(cell: Any, column: Column, value: Any) -> None:
    fmt = _FORMATS.get(column.kind)
    if fmt and (not isinstance(value, str) or fmt == "@"):
        cell.number_format = fmt


def _records_sheet(wb: Any, sheet: str, columns: Sequence[Column],
                   records: Sequence[Mapping[str, Any]], rows: int) -> None:
    # start-up time: openpyxl only when a workbook is written
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill  # start-up time: openpyxl when written

    ws = wb.create_sheet(sheet)
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    for j, column in enumerate(columns, start=1):
        head = ws.cell(row=1, column=j, value=column.header)
        head.font, head.fill = bold, fill
        head.comment = Comment(column.note, "tourney", width=320, height=140)
        ws.column_dimensions[_letter(j - 1)].width = max(column.width, len(column.header) + 2)
        for i, record in enumerate(records, start=2):
            value = _written(column, _get(record, column.path))
            if value is not None:
                _style(set_cell(ws, i, j, value), column, value)
            else:  # an empty cell of the example's rows gets the column's format too
                _style(ws.cell(row=i, column=j), column, None)
        for i in range(len(records) + 2, rows + 2):
            _style(ws.cell(row=i, column=j), column, None)
        _validation(ws, column, f"{_letter(j - 1)}2:{_letter(j - 1)}{rows + 1}")
    ws.freeze_panes = "B2"


def write_workbook(data: Mapping[str, Any], *, rows: int = 200,
                   when: dt.datetime | None = None) -> bytes:
    """The scenario workbook (the template filled with ``data``) as .xlsx bytes.

    Parameters
    ----------
    data
        The scenario's fields as ``Scenario.model_dump(exclude_defaults=True)`` gives them
        (dates as ``datetime.date``, money and shares as ``Decimal``, lists as tuples), with
        ``notice_from``.
    rows
        Rows below each header that get the column's formats and drop-downs (the filled
        ones included).
    when
        The document's created/modified time and its zip entries' time (default
        :data:`FIXED_TIME`): the same data give byte-identical bytes.

    Returns
    -------
    bytes
        An .xlsx file with the sheets Settings, Operators, Tournaments and History (and
        Tours when ``data`` has tours), header comments (unit and rule of each field),
        drop-downs, frozen headers.
    """
    # start-up time: openpyxl only when a workbook is written
    from openpyxl import Workbook
    from openpyxl.comments import Comment  # start-up time: openpyxl when written
    from openpyxl.styles import Font, PatternFill  # start-up time: openpyxl when written

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Settings"
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    for j, head in enumerate(("field", "value", "unit and rule"), start=1):
        cell = ws.cell(row=1, column=j, value=head)
        cell.font, cell.fill = bold, fill
    for i, column in enumerate(SETTINGS, start=2):
        ws.cell(row=i, column=1, value=column.header).font = bold
        value = _written(column, _get(data, column.path))
        cell = set_cell(ws, i, 2, value)
        _style(cell, column, value)
        cell.comment = Comment(column.note, "tourney", width=320, height=140)
        ws.cell(row=i, column=3, value=column.note)
        _validation(ws, column, f"B{i}")
    ws.column_dimensions["A"].width = 36
    ws.column_dimensions["B"].width = 32
    ws.column_dimensions["C"].width = 100
    ws.freeze_panes = "B2"
    operators = list(data.get("operators", ()))
    rows = max(rows, len(operators), len(data.get("tournaments", ())))
    _records_sheet(wb, "Operators", OPERATORS, operators, rows)
    _records_sheet(wb, "Tournaments", TOURNAMENTS, list(data.get("tournaments", ())), rows)
    history = [{"operator": o["id"], "held_in_current_permit_year":
                o["held_in_current_permit_year"]}
               for o in operators if o.get("held_in_current_permit_year")]
    _records_sheet(wb, "History", HISTORY, history, rows)
    if data.get("tours"):  # TOUR-ORDER: a Tours sheet only when the scenario has tours
        _records_sheet(wb, "Tours", TOURS, list(data["tours"]), rows)
    return pinned_xlsx(wb, when)


def pinned_xlsx(wb: Any, when: dt.datetime | None = None) -> bytes:
    """An openpyxl workbook saved as bytes that depend only on its content: the document's
    created/modified time and every zip entry's time are ``when`` (default
    :data:`FIXED_TIME`; give SOURCE_DATE_EPOCH's time for reproducible builds)."""
    stamp = (when or FIXED_TIME).astimezone(dt.UTC).replace(tzinfo=None) \
        if (when and when.tzinfo) else (when or FIXED_TIME)
    stamp = max(stamp, dt.datetime(1980, 1, 1))  # the zip format starts in 1980
    wb.properties.created = wb.properties.modified = stamp
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            pinned = zipfile.ZipInfo(info.filename, date_time=stamp.timetuple()[:6])
            pinned.compress_type = zipfile.ZIP_DEFLATED
            pinned.external_attr = 0o600 << 16
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps "modified" when saving
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>" + f"{stamp:%Y-%m-%dT%H:%M:%SZ}".encode() + rb"\g<2>",
                              body)
            dst.writestr(pinned, body)
    return out.getvalue()
