"""The scenario workbook's layout: its sheets, their columns (header, kind, the header comment
with unit and rule) and the example scenarios of ``tourney template --example``.

Part of :mod:`scheduler.core.workbook` (which re-exports every public name here); it knows the
columns, not the rules, and imports no scenario type.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler.core.fields import WEEKDAYS
from scheduler.core.jurisdiction import all_types, codes, installed

WEEKDAY_CHOICES = WEEKDAYS
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
    given_choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    """The choices, or a function giving them when asked (the installed jurisdictions' codes
    and types: :mod:`scheduler.core.jurisdiction`)."""
    width: int = 14

    @property
    def choices(self) -> tuple[str, ...]:
        """The values a ``choice`` cell may hold (a ``list`` cell's items)."""
        given = self.given_choices
        return given() if callable(given) else given

    @property
    def path(self) -> tuple[str, ...]:
        """The field path below the record (``window.start`` → ``("window", "start")``)."""
        return tuple(self.header.split("."))


def _c(header: str, kind: str, note: str,
       choices: Sequence[str] | Callable[[], tuple[str, ...]] = (), width: int = 14) -> Column:
    return Column(header, kind, note, choices if callable(choices) else tuple(choices), width)


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
    _c("settings.permit_year_count", "choice", "MT-LARGE-LIMIT (MCA 23-5-317(1)(a)): each = a "
       "tournament whose days of play fall in two permit years counts toward the 16 of each "
       "(default); first-day = only in its first day's permit year.", ("each", "first-day")),
    _c("settings.progressive_count", "choice", "MT-PROGRESSIVE (MCA 23-5-317(1)(d),(e)): round "
       "= each round counts toward the 16 of its venue (default); once = the progressive "
       "counts once per venue and permit year.", ("round", "once")),
    _c("settings.surcharge_cap", "choice", "ME-ENTRY-CAP (17 M.R.S. § 1836(4)): license-fee = "
       "the surcharge may not exceed the licence fee it defrays, nor $125 (default); flat = "
       "at most $125.", ("license-fee", "flat")),
    _c("settings.super_cribbage_licenses_issued", "years", "ME-SUPER-CRIBBAGE (17 M.R.S. "
       "§ 1836(4-A)): super cribbage licences already issued statewide to others, per "
       "calendar year, e.g. 2027: 11, 2028: 3 (each 0-15)."),
    _c("settings.closed_days", "days", "ME-APPLICATION-WINDOW, ME-REPORT (16-633 CMR ch. 32 "
       "§§ 2, 8): days the Governor closed Maine state offices by order, not business days: a "
       "comma list of dates and FIRST..LAST ranges (the holidays need not be listed)."),
    _c("as_of", "date", "Date. The day the plan is made as of (tourney solve --as-of): "
       "nothing new is placed whose notice or application is due before the later of it and "
       "notice_from. Default: today in the operators' time zones."),
)
"""The Settings sheet: one row a field (column A the field, column B the value)."""

OPERATORS = (
    _c("id", "text", "Required. Lower-case letters, digits and hyphens, e.g. room-a; "
       "tournaments name their operators by it."),
    _c("name", "text", "Required. Shown in reports and messages.", width=32),
    _c("jurisdiction", "choice", "Required. MT (MCA 23-5-317) or ME (17 M.R.S. § 1836).",
       codes),
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
    _c("held_in_current_month.games", "int", "ME. Licensed games (tournament games, super "
       "cribbage) already held before the horizon's start in its calendar month: they count "
       "toward the 2 of that month (ME-MONTHLY-LIMIT, 17 M.R.S. § 1836).", width=18),
)
"""The History sheet: what each operator held before the plan (when no ledger is used)."""

TOURNAMENTS = (
    _c("id", "text", "Required. Lower-case letters, digits and hyphens; occurrences are "
       "named id#1, id#2, ..."),
    _c("title", "text", "Required. Shown in the calendar and reports.", width=32),
    _c("type", "choice", "Required. MT: large-stakes (MCA 23-5-317(1)), small-stakes "
       "(23-5-317(2)); ME: tournament-game (17 M.R.S. § 1836), super-cribbage (§ 1836(4-A)), "
       "charitable-cribbage (§ 1836(4-B)).", all_types, width=20),
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
    _c("cancelled_dates", "days", "First days of occurrences recorded as cancelled: not "
       "placed again (CANCELLED); a re-plan publishes them cancelled. Comma list of dates."),
    _c("reuse_cancelled_days", "bool", "Allow placing the tournament again on a cancelled "
       "day (a new occurrence). Default FALSE."),
    _c("held_dates", "days", "First days of occurrences already held (tourney solve --ledger "
       "fills them from the ledger): history, kept where they are, comma list of dates."),
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
"""The Tours sheet: one tour a row."""

SESSIONS = (
    _c("tournament", "text", "Required. The id of the tournament played in flights "
       "(Tournaments sheet); one row a session, e.g. main-event, 1, 11:00, 10, Day 1A. A "
       "tournament with sessions leaves days, start_time and hours empty: its sessions "
       "replace them.", width=20),
    _c("day", "int", "Required. The day of play of this session, counted from the "
       "tournament's first day: 1, 2, ...; days between sessions may be empty (MT-DURATION: "
       "day 1 to the last session's day, at most 5 calendar days)."),
    _c("start", "time", "Required. Local time of day HH:MM the session starts (the "
       "operator's time zone), e.g. 11:00."),
    _c("hours", "hours", "Required. Elapsed hours of the session (a number, or H:MM as "
       "text), e.g. 10. MT-PLAY-HOURS (no play 2-8 a.m.), ME-DURATION (<= 48 from the "
       "first session's start to the last one's end), ME-SUPER-CRIBBAGE (<= 72)."),
    _c("name", "text", "The session's name in the calendar (Main Event - Day 1A); "
       "default Day <day>.", width=20),
)
"""The Sessions sheet: one session (flight, day 2) of a tournament a row; a tournament's
rows, in the order given, are its ``sessions``."""

SHEETS: dict[str, tuple[str, tuple[Column, ...]]] = {
    "Operators": ("operators", OPERATORS),
    "Tournaments": ("tournaments", TOURNAMENTS),
    "Sessions": ("tournaments", SESSIONS),
    "History": ("operators", HISTORY),
    "Tours": ("tours", TOURS),
}
"""Record sheets: name → (the scenario's list it fills, its columns). Sessions and History
add fields to the Tournaments' and Operators' records (by ``tournament`` and ``operator``)."""

class _Examples(Mapping[str, Mapping[str, Any]]):
    """The example scenarios of ``tourney template --example``, by the state's name in lower
    case (``montana``): each jurisdiction's ``example`` (a raw mapping, as YAML gives it)."""

    def _all(self) -> dict[str, Mapping[str, Any]]:
        return {j.name.lower(): j.example for j in installed() if j.example is not None}

    def __getitem__(self, name: str) -> Mapping[str, Any]:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


EXAMPLES: Mapping[str, Mapping[str, Any]] = _Examples()
"""The example scenarios of ``tourney template --example`` (raw mappings, as YAML gives
them), one a jurisdiction, by its name in lower case (``montana``, ``maine``)."""
