"""Synthetic statewide scenarios for benchmarks and scale tests (``tourney generate``).

``generate(operators, seed)`` returns a realistic, valid :class:`Scenario` for one calendar
year: Montana card rooms (MCA 23-5-317) and Maine organizations (17 M.R.S. § 1836) in the
proportions below. It is a pure function of its arguments: every draw comes from one
``random.Random(seed)`` in a fixed order, holidays are computed by hand (not from a library
whose data may change), so the same ``(operators, seed, year)`` always gives the same scenario
and ``Scenario.to_yaml()`` the same bytes. Bump :data:`GENERATOR_VERSION` whenever a change
alters the output.

Who is generated (``N`` = ``operators``; integer arithmetic, rounding halves up):

- Maine operators: ``n_me = (3 N + 5) // 10`` (30 %); Montana card rooms: ``N - n_me``.
- Of the Maine operators: ``ceil(n_me / 10)`` cribbage clubs (super cribbage, under the
  statewide cap of 15 licences a year, ME-SUPER-CRIBBAGE), ``n_me // 6`` licensed restaurants
  or breweries (charitable cribbage, ME-CRIBBAGE-REG), and the rest organizations holding
  tournament games (American Legion and VFW posts, fire departments, granges, agricultural
  societies, lodges).

What each one asks for (every occurrence lies inside the horizon; windows are first days):

- A Montana card room: 18-22 large-stakes requests, each with a window of 2-8 weeks, 1-5 play
  days (MT-DURATION respected) and one or two allowed first weekdays (any day for a few
  one-day events), spread over the year (one request per slice of the year); one of them is
  the room's flagship (a fixed date or ``required: 1``); 3-4 charitable large-stakes events
  (MT-CHARITY-LIMIT: first 3 not counted); a weekly small-stakes night (``count: all``) and
  sometimes a second, fortnightly one; holiday and closure blackouts; tournaments already
  held in the permit year that began the July before (MT-LARGE-LIMIT, MT-CHARITY-LIMIT), so
  some rooms want more than the 16 allow before June 30. Fees respect MT-ENTRY-CAP ($1,875)
  and MT-SMALL-ENTRY ($80); play respects MT-PLAY-HOURS (08:00-02:00).
- Tours: rooms are spread over ``ceil(rooms / 6)`` of 8 Montana regions (at most 8); in each
  region, runs of 2-4 rooms share 1-2 progressive large-stakes events (MT-PROGRESSIVE; each
  counts toward every venue's 16, and every venue's blackouts apply).
- A Maine organization: "2 a month" (a 24-game series, or two 12-game series with different
  player tiers) with players in mixed licence tiers (ME-FEES); about half own their premises,
  most of those run weekly beano nights (ME-OTHER-GAMES) and many hold a championship of
  101-300 players (ME-PLAYER-CAP), which makes its month one game too many
  (ME-MONTHLY-LIMIT).
- A cribbage club: one super cribbage weekend in a 4-8-week window, or two at least 150 days
  apart; with many clubs (N >= about 400) they want more than the 15 licences a year allow.
- A restaurant or brewery: 12 or 24 fortnightly charitable cribbage nights (entry <= $25,
  every entry dollar a prize or donated: ME-CRIBBAGE-REG).

Sizes (candidate first days, measured with ``build_model``) stay near 200 per operator (N = 10:
2,008; N = 200: about 40,000), and most operators are linked only to their tour partners (and
cribbage clubs through the statewide cap), so a large N splits into small components.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from scheduler.atomic import write_files
from scheduler.scenario import Scenario

GENERATOR_VERSION = 1
"""Bumped whenever a change to this module changes generated scenarios (cache keys)."""

MAX_OPERATORS = 100_000
"""The largest ``operators`` accepted (about 2.5 million candidate days)."""

YEARS = (2000, 2100)
"""The horizon years accepted (inclusive)."""

Data = dict[str, Any]

# --------------------------------------------------------------------------- places and names
# Montana regions: (key, tour name, towns with ZIP codes).
MT_REGIONS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("missoula", "Garden City", (("Missoula", "59801"), ("Hamilton", "59840"),
                                 ("Polson", "59860"))),
    ("billings", "Magic City", (("Billings", "59101"), ("Laurel", "59044"), ("Hardin", "59034"))),
    ("great-falls", "Electric City", (("Great Falls", "59401"), ("Havre", "59501"),
                                      ("Shelby", "59474"))),
    ("bozeman", "Gallatin Valley", (("Bozeman", "59715"), ("Belgrade", "59714"),
                                    ("Livingston", "59047"))),
    ("helena", "Queen City", (("Helena", "59601"), ("East Helena", "59635"),
                              ("Townsend", "59644"))),
    ("butte", "Mining City", (("Butte", "59701"), ("Anaconda", "59711"), ("Dillon", "59725"))),
    ("kalispell", "Flathead", (("Kalispell", "59901"), ("Whitefish", "59937"),
                               ("Columbia Falls", "59912"))),
    ("eastern", "Big Open", (("Miles City", "59301"), ("Glendive", "59330"),
                             ("Sidney", "59270"))),
)
MT_ROOM_NAMES = ("Big Sky", "Treasure State", "Copper King", "Silver Dollar", "Stockman",
                 "Mint", "Oxford", "Rialto", "Frontier", "Gold Rush", "Bison", "Elk Horn",
                 "Grizzly", "Prospector", "Wild Horse", "Last Chance", "Bitterroot",
                 "Cattlemen's", "Headframe", "Sapphire", "Two Rivers", "High Plains")
MT_ROOM_KINDS = ("Card Room", "Casino", "Poker Room", "Saloon & Card Room", "Bar & Casino")
STREETS = ("Main St", "Broadway", "1st Ave N", "Central Ave", "Park St", "River Rd",
           "Front St", "Grand Ave", "Division St", "Railroad St", "Elm St", "Water St")
EVENT_NAMES = ("Deepstack", "Big Stack", "Bounty", "Classic", "Shootout", "Monster Stack",
               "Freezeout", "Main Event", "Mystery Bounty", "Double Stack", "Omaha Classic",
               "Turbo Series", "Ladies' Event", "Seniors' Event")
SEASONS = ("Winter", "Winter", "Spring", "Spring", "Spring", "Summer", "Summer", "Summer",
           "Fall", "Fall", "Fall", "Holiday")
MT_CHARITIES = ("Food Bank", "Youth Hockey", "Humane Society", "Hospice", "Toys for Kids",
                "Little League", "Veterans Relief", "4-H Club", "Library Foundation",
                "Boys & Girls Club", "Search and Rescue", "Scholarship Fund")
ME_TOWNS = (("Portland", "04101"), ("Lewiston", "04240"), ("Bangor", "04401"),
            ("Augusta", "04330"), ("Biddeford", "04005"), ("Saco", "04072"),
            ("Waterville", "04901"), ("Brunswick", "04011"), ("Rockland", "04841"),
            ("Presque Isle", "04769"), ("Ellsworth", "04605"), ("Skowhegan", "04976"),
            ("Farmington", "04938"), ("Houlton", "04730"), ("Belfast", "04915"),
            ("Sanford", "04073"), ("Caribou", "04736"), ("Millinocket", "04462"),
            ("Pittsfield", "04967"), ("Bath", "04530"))
ME_CAUSES = ("Veterans Relief Fund", "Scholarship Fund", "Food Pantry", "Equipment Fund",
             "Heating Assistance Fund", "Youth Sports League", "Hospital Foundation",
             "Animal Shelter", "Community Library", "Meals on Wheels")

WEEKDAY_INDEX = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}

# --------------------------------------------------------------------------- Montana shapes
# Large-stakes play day formats: (start_time, hours). Start >= 08:00 and end <= 26:00
# (MT-PLAY-HOURS, ARM 23.16.1101).
LATE_FORMATS = (("12:00", 14), ("11:00", 15), ("18:00", 8), ("14:00", 12))
"""End after midnight: each play day also uses the next calendar day (MT-DURATION)."""
DAY_FORMATS = (("12:00", 12), ("10:00", 14), ("13:00", 11), ("11:00", 10))
"""End by midnight: play days are the calendar days used."""
DAYS_WEIGHTS = ((1, 35), (2, 25), (3, 25), (4, 10), (5, 5))
WEEKDAY_CHOICES: dict[int, tuple[tuple[str, ...] | None, ...]] = {
    1: (("fri",), ("sat",), ("sun",), ("fri", "sat"), ("thu",), ("wed",), None),
    2: (("fri",), ("sat",), ("fri", "sat")),
    3: (("thu",), ("fri",), ("thu", "fri")),
    4: (("thu",), ("wed", "thu")),
    5: (("wed",), ("thu",)),
}
"""Allowed first weekdays by play days (``None``: any day, for a few one-day events)."""
MT_ENTRY_CAP = 1875
"""MT-ENTRY-CAP, MCA 23-5-317(1)(g): USD one participant may pay in all."""
MT_SMALL_ENTRY_CAP = 80
"""MT-SMALL-ENTRY, MCA 23-5-317(2)(c): USD."""


# --------------------------------------------------------------------------- public API
def operator_counts(operators: int) -> dict[str, int]:
    """How many operators of each kind ``generate(operators, ...)`` makes.

    Returns ``{"montana": ..., "maine": ..., "cribbage_clubs": ..., "restaurants": ...,
    "organizations": ...}`` (the last three split ``maine``). Rounding: ``maine = (3 N + 5) //
    10`` (30 %, halves up), ``cribbage_clubs = ceil(maine / 10)``, ``restaurants = maine // 6``.
    Raises ``ValueError`` when ``operators`` < 1.
    """
    if operators < 1:
        raise ValueError(f"operators must be at least 1, got {operators}")
    n_me = (3 * operators + 5) // 10
    clubs = -(-n_me // 10)
    rests = n_me // 6
    return {"montana": operators - n_me, "maine": n_me, "cribbage_clubs": clubs,
            "restaurants": rests, "organizations": n_me - clubs - rests}


def generate(operators: int, seed: int, *, year: int = 2027) -> Scenario:
    """A synthetic statewide scenario: ``operators`` operators (70 % Montana card rooms, 30 %
    Maine organizations), their requests for the calendar ``year`` (horizon Jan 1 - Dec 31,
    ``notice_from`` Dec 15 of the year before), drawn from ``random.Random(seed)``.

    See the module docstring for what is generated. The result passes the loader's model
    validation; ``load_scenario`` of its ``to_yaml()`` accepts it (every input rule of
    RULES.md holds). Same arguments, same scenario (byte-identical ``to_yaml()``).

    Raises ``ValueError`` when ``operators`` is not in 1..:data:`MAX_OPERATORS` or ``year`` is
    outside :data:`YEARS`.
    """
    return Scenario.model_validate(generate_data(operators, seed, year=year))


def generate_data(operators: int, seed: int, *, year: int = 2027) -> Data:
    """The scenario of :func:`generate` as the plain mapping a YAML file would hold (for
    ``load_scenario(mapping)``). Same errors as :func:`generate`."""
    if isinstance(operators, bool) or not 1 <= operators <= MAX_OPERATORS:
        raise ValueError(f"operators must be between 1 and {MAX_OPERATORS:,}, got {operators}")
    if not YEARS[0] <= year <= YEARS[1]:
        raise ValueError(f"year must be between {YEARS[0]} and {YEARS[1]}, got {year}")
    return _Generator(operators, seed, year).run()


def scenario_text(operators: int, seed: int, *, year: int = 2027) -> str:
    """The YAML file ``tourney generate`` writes: a comment naming the command that made it,
    then ``generate(operators, seed, year=year).to_yaml()``. Same arguments, same text.
    Same errors as :func:`generate`."""
    scenario = generate(operators, seed, year=year)
    command = f"tourney generate --operators {operators} --seed {seed}"
    if year != 2027:
        command += f" --year {year}"
    return (f"# Made by `{command}` (generator version {GENERATOR_VERSION}).\n"
            "# A synthetic scenario for tests and benchmarks: the operators are invented.\n"
            + scenario.to_yaml())


def write_text_atomic(text: str, path: str | Path) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically: into a temporary file
    in the same folder, then renamed over ``path``, so a reader never sees half a file and an
    interrupted run leaves an earlier file unchanged. Missing parent folders are created.
    Returns the path. Raises ``IsADirectoryError`` when ``path`` is a folder and ``OSError``
    when it cannot be written."""
    out = Path(path)
    if out.is_dir():
        raise IsADirectoryError(f"{out} is a folder; give a file name such as scenario.yaml")
    write_files({out: text.encode("utf-8")})
    return out


# --------------------------------------------------------------------------- calendar helpers
def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The ``n``-th ``weekday`` (0 = Monday) of a month; ``n = -1`` for the last."""
    if n > 0:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def _span(first: dt.date, last: dt.date) -> str:
    return f"{first.isoformat()}..{last.isoformat()}" if last > first else first.isoformat()


class _Generator:
    """One generation run; all randomness comes from ``self.rng`` in a fixed order."""

    def __init__(self, operators: int, seed: int, year: int) -> None:
        self.n = operators
        self.seed = seed
        self.year = year
        self.rng = random.Random(seed)
        self.start = dt.date(year, 1, 1)
        self.end = dt.date(year, 12, 31)
        self.width = max(4, len(str(operators)))
        self.operators: list[Data] = []
        self.tournaments: list[Data] = []

    # ----------------------------------------------------------------- helpers
    def day(self, lo: dt.date, hi: dt.date) -> dt.date:
        return lo + dt.timedelta(days=self.rng.randint(0, (hi - lo).days))

    def weighted(self, pairs: tuple[tuple[Any, int], ...]) -> Any:
        return self.rng.choices([v for v, _ in pairs], weights=[w for _, w in pairs])[0]

    def slot_start(self, k: int, n: int, last_start: dt.date) -> dt.date:
        """A random window start in the ``k``-th of ``n`` equal slices of [Jan 1, last_start]."""
        total = (last_start - self.start).days + 1
        lo = self.start + dt.timedelta(days=total * k // n)
        hi = self.start + dt.timedelta(days=max(total * (k + 1) // n - 1, total * k // n))
        return self.day(lo, min(hi, last_start))

    def window(self, k: int, n: int, weeks: int, span_days: int) -> tuple[dt.date, dt.date]:
        """A window of ``weeks`` weeks in slice ``k`` of ``n`` for an event that uses
        ``span_days`` calendar days, ending so that the event stays inside the horizon."""
        last_first = self.end - dt.timedelta(days=span_days - 1)
        length = 7 * weeks
        w0 = self.slot_start(k, n, last_first - dt.timedelta(days=length - 1))
        return w0, min(w0 + dt.timedelta(days=length - 1), last_first)

    def address(self, town: str, zipcode: str, state: str) -> str:
        return f"{self.rng.randint(10, 4999)} {self.rng.choice(STREETS)}, {town}, {state} {zipcode}"

    # ----------------------------------------------------------------- the run
    def run(self) -> Data:
        counts = operator_counts(self.n)
        n_mt = counts["montana"]
        used_regions = MT_REGIONS[:max(1, min(len(MT_REGIONS), -(-n_mt // 6)))]
        rooms: list[tuple[Data, int]] = []
        for i in range(n_mt):
            region = self.rng.randrange(len(used_regions))
            room = self.mt_room(i + 1, used_regions[region][2])
            self.operators.append(room)
            rooms.append((room, region))
        self.tours(rooms, used_regions)
        kinds = (["club"] * counts["cribbage_clubs"] + ["restaurant"] * counts["restaurants"]
                 + ["org"] * counts["organizations"])
        for i, kind in enumerate(kinds):
            oid = f"me-{i + 1:0{self.width}d}"
            if kind == "club":
                self.me_club(oid)
            elif kind == "restaurant":
                self.me_restaurant(oid)
            else:
                self.me_organization(oid)
        return {
            "name": f"Synthetic statewide {self.year}: {self.n:,} operators, seed {self.seed}",
            "horizon": {"start": self.start.isoformat(), "end": self.end.isoformat()},
            "notice_from": dt.date(self.year - 1, 12, 15).isoformat(),
            "operators": self.operators,
            "tournaments": self.tournaments,
        }

    # ----------------------------------------------------------------- Montana
    def mt_blackout(self) -> list[str]:
        rng, y = self.rng, self.year
        out: list[str] = []
        if rng.random() < 0.7:
            out.append(dt.date(y, 7, 4).isoformat())
        if rng.random() < 0.6:
            out.append(_nth_weekday(y, 11, 3, 4).isoformat())  # Thanksgiving
        if rng.random() < 0.8:
            out.append(_span(dt.date(y, 12, 24), dt.date(y, 12, 26)))
        if rng.random() < 0.4:  # a closure: remodelling, staff holiday
            first = self.day(dt.date(y, 1, 10), dt.date(y, 11, 30))
            out.append(_span(first, first + dt.timedelta(days=rng.randint(3, 10) - 1)))
        for _ in range(rng.randint(0, 2)):
            out.append(self.day(self.start, self.end).isoformat())
        return sorted(set(out))

    def mt_room(self, index: int, towns: tuple[tuple[str, str], ...]) -> Data:
        rng = self.rng
        oid = f"mt-{index:0{self.width}d}"
        town, zipcode = rng.choice(towns)
        short = rng.choice(MT_ROOM_NAMES)
        tables = rng.randint(1, 12)
        held_large = rng.randint(0, 10)
        held_charity = rng.choice((0, 0, 1, 1, 2))
        held: Data = {"large_stakes": held_large, "charitable": held_charity}
        if held_large or held_charity:
            held["permits"] = ["large-stakes", "small-stakes"] if rng.random() < 0.8 \
                else ["large-stakes"]
        room: Data = {
            "id": oid, "name": f"{short} {rng.choice(MT_ROOM_KINDS)}", "jurisdiction": "MT",
            "address": self.address(town, zipcode, "MT"), "live_tables": tables,
            "held_in_current_permit_year": held,
        }
        if tables >= 8 and rng.random() < 0.5:
            room["max_concurrent"] = 2
        if rng.random() < 0.1:
            room["late_hours_ordinance"] = True
        blackout = self.mt_blackout()
        if blackout:
            room["blackout"] = blackout
        blocked: set[dt.date] = set()
        for item in blackout:
            a, _, b = item.partition("..")
            d0, d1 = dt.date.fromisoformat(a), dt.date.fromisoformat(b or a)
            blocked.update(d0 + dt.timedelta(days=k) for k in range((d1 - d0).days + 1))
        n_large = rng.randint(18, 22)
        flagship = rng.randrange(n_large)
        for k in range(n_large):
            self.tournaments.append(self.mt_large(oid, short, k, n_large, k == flagship,
                                                  blocked))
        n_charity = rng.randint(3, 4)
        for k in range(n_charity):
            self.tournaments.append(self.mt_charity(oid, short, k, n_charity))
        self.tournaments.extend(self.mt_small(oid, short))
        return room

    def play_format(self, days: int) -> tuple[str, int, int]:
        """(start_time, hours, calendar days) for ``days`` play days within MT-DURATION (at most
        5 calendar days, play past midnight using the next day) and MT-PLAY-HOURS."""
        late = days < 5 and self.rng.random() < 0.6
        start, hours = self.rng.choice(LATE_FORMATS if late else DAY_FORMATS)
        return start, hours, days + (1 if late else 0)

    def buy_in(self, data: Data) -> None:
        """Entry fee, re-entries, rebuys and add-on whose total is at most $1,875
        (MT-ENTRY-CAP, counting re-entries: the conservative reading)."""
        rng = self.rng
        entry = rng.choice((100, 125, 150, 200, 250, 300, 375, 400, 475, 500, 625))
        reentries = rng.randint(0, min(3, MT_ENTRY_CAP // entry - 1))
        total = entry * (1 + reentries)
        data["entry_fee"] = entry
        if reentries:
            data["reentries"] = reentries
        if rng.random() < 0.15 and total + 2 * 100 <= MT_ENTRY_CAP:
            data["rebuy_fee"] = 100
            data["max_rebuys"] = rng.randint(1, 2)
            total += 100 * data["max_rebuys"]
        if rng.random() < 0.25 and total + 100 <= MT_ENTRY_CAP:
            data["addon_fee"] = rng.choice((50, 100))

    def mt_large(self, oid: str, short: str, k: int, n: int, flagship: bool,
                 blocked: set[dt.date]) -> Data:
        rng = self.rng
        days = self.weighted(DAYS_WEIGHTS)
        start, hours, span = self.play_format(days)
        weekdays = rng.choice(WEEKDAY_CHOICES[days])
        count = 2 if not flagship and rng.random() < 0.15 else 1
        weeks = rng.randint(4 if count == 2 or flagship else 2, 8)
        w0, w1 = self.window(k, n, weeks, span)
        name = "Championship" if flagship else rng.choice(EVENT_NAMES)
        t: Data = {
            "id": f"{oid}-ls{k + 1:02d}",
            "title": f"{short} {SEASONS[w0.month - 1]} {name}",
            "type": "large-stakes", "operators": [oid],
            "days": days, "start_time": start, "hours": hours,
            "window": {"start": w0.isoformat(), "end": w1.isoformat()},
        }
        if weekdays is not None:
            t["weekdays"] = list(weekdays)
            if len(weekdays) == 2 and rng.random() < 0.5:
                t["prefer_weekdays"] = [weekdays[-1]]
        if count > 1:
            t["count"] = count
            t["min_gap_days"] = 14
        t["priority"] = 50 if flagship else rng.randint(5, 30)
        if flagship:
            allowed = [d for d in (w0 + dt.timedelta(days=i) for i in range((w1 - w0).days + 1))
                       if (weekdays is None or d.weekday() in {WEEKDAY_INDEX[w] for w in weekdays})
                       and not any(d + dt.timedelta(days=j) in blocked for j in range(span))]
            if allowed and rng.random() < 0.4:
                t["fixed_dates"] = [rng.choice(allowed).isoformat()]
            elif allowed:
                t["required"] = 1
        t["players"] = 10 * rng.randint(4, 30)
        self.buy_in(t)
        if not flagship and rng.random() < 0.05:
            seat = 100 * rng.randint(5, 25)
            t["satellite"] = {"seat_value": seat, "expected_top_prize": seat}
        return t

    def mt_charity(self, oid: str, short: str, k: int, n: int) -> Data:
        rng = self.rng
        cause = rng.choice(MT_CHARITIES)
        share = rng.choice(("0.5", "0.5", "0.6", "0.75"))
        w0, w1 = self.window(k, n, rng.randint(3, 8), 1)
        weekdays = rng.choice((["sat"], ["fri", "sat"]))
        t: Data = {
            "id": f"{oid}-ch{k + 1}", "title": f"{short} {cause} Benefit",
            "type": "large-stakes", "operators": [oid], "charitable": True,
            "charity_share": share, "start_time": "12:00", "hours": rng.choice((10, 12)),
            "window": {"start": w0.isoformat(), "end": w1.isoformat()}, "weekdays": weekdays,
            "priority": rng.randint(30, 40), "players": 10 * rng.randint(6, 15),
            "entry_fee": rng.choice((100, 150, 200)),
            "description": f"{round(float(share) * 100)}% of entry fees to the local {cause} "
                           "(a nonprofit).",
        }
        if rng.random() < 0.5:
            t["reentries"] = 1
        return t

    def mt_small(self, oid: str, short: str) -> list[Data]:
        rng = self.rng
        nights = rng.sample(("mon", "tue", "wed", "thu"), 2)
        start = rng.choice(("18:00", "18:30", "19:00"))
        out: list[Data] = [{
            "id": f"{oid}-ss1", "title": f"{short} {nights[0].title()} Night Turbo",
            "type": "small-stakes", "operators": [oid], "count": "all",
            "weekdays": [nights[0]], "start_time": start, "hours": rng.choice((4, 4.5, 5)),
            "priority": rng.randint(1, 3), "players": 10 * rng.randint(2, 6),
            "entry_fee": rng.choice((20, 40, 50, 60, 80)),
        }]
        if rng.random() < 0.25:
            out.append({
                "id": f"{oid}-ss2", "title": f"{short} {nights[1].title()} Fortnightly Bounty",
                "type": "small-stakes", "operators": [oid], "count": 26,
                "weekdays": [nights[1]], "min_gap_days": 14, "start_time": "19:00",
                "hours": 4, "priority": 1, "players": 30,
                "entry_fee": rng.choice((30, MT_SMALL_ENTRY_CAP)),
            })
        return out

    def tours(self, rooms: list[tuple[Data, int]],
              regions: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]) -> None:
        """Progressive tours: in each region, runs of 2-4 rooms share 1-2 events."""
        rng = self.rng
        for r, (key, tour_name, _) in enumerate(regions):
            members = [room["id"] for room, region in rooms if region == r]
            rng.shuffle(members)
            i, n_tour = 0, 0
            while len(members) - i >= 2:
                if rng.random() < 0.45:
                    size = min(rng.randint(2, 4), len(members) - i)
                    n_tour += 1
                    self.tour(key, tour_name, n_tour, sorted(members[i:i + size]))
                    i += size
                else:
                    i += 1

    def tour(self, key: str, tour_name: str, n: int, members: list[str]) -> None:
        rng = self.rng
        legs = rng.randint(1, 2)
        for leg in range(legs):
            days = rng.choice((3, 4))
            w0, w1 = self.window(leg, legs, rng.randint(4, 8), days)
            t: Data = {
                "id": f"tour-{key}-{n}-{leg + 1}",
                "title": f"{tour_name} Tour {n} Progressive, Leg {leg + 1}",
                "type": "large-stakes", "operators": members,
                "days": days, "start_time": "12:00", "hours": 12,
                "window": {"start": w0.isoformat(), "end": w1.isoformat()},
                "weekdays": [rng.choice(("wed", "thu")) if days == 4 else "thu"],
                "priority": 40, "players": 10 * rng.randint(15, 30),
            }
            self.buy_in(t)
            t["description"] = (f"A progressive tournament shared by {len(members)} venues; "
                                "the final round is played on the last day.")
            self.tournaments.append(t)

    # ----------------------------------------------------------------- Maine
    def me_blackout(self, veterans: bool) -> list[str]:
        rng, y = self.rng, self.year
        out: list[str] = []
        if rng.random() < 0.4:
            memorial = _nth_weekday(y, 5, 0, -1)
            out.append(_span(memorial - dt.timedelta(days=2), memorial))
        if rng.random() < 0.5:
            out.append(dt.date(y, 7, 4).isoformat())
        if veterans:
            out.append(dt.date(y, 11, 11).isoformat())
        if rng.random() < 0.7:
            out.append(_span(dt.date(y, 12, 24), dt.date(y, 12, 26)))
        return sorted(set(out))

    def me_org_fields(self, kind: str) -> Data:
        """ME-ELIGIBLE (organized >= 2 years before), ME-LOCAL-APPROVAL, ME-BENEFICIARY."""
        rng = self.rng
        fields: Data = {
            "organized_on": self.day(dt.date(self.year - 110, 1, 1),
                                     dt.date(self.year - 3, 12, 31)).isoformat(),
            "local_approval": True,
            "beneficiaries": sorted(rng.sample(ME_CAUSES, rng.randint(1, 2))),
        }
        if kind != "nonprofit":
            fields["organization_type"] = kind
        return fields

    def me_organization(self, oid: str) -> None:
        rng = self.rng
        town, zipcode = rng.choice(ME_TOWNS)
        kind = self.weighted((("legion", 30), ("vfw", 15), ("fire", 20), ("grange", 10),
                              ("fair", 10), ("lodge", 15)))
        number = rng.randint(2, 250)
        name, org_type = {
            "legion": (f"American Legion Post {number}, {town}", "nonprofit"),
            "vfw": (f"VFW Post {number}, {town}", "nonprofit"),
            "fire": (f"{town} Volunteer Fire Department", "volunteer-fire-department"),
            "grange": (f"{town} Grange No. {number}", "nonprofit"),
            "fair": (f"{town} Agricultural Society", "agricultural-society"),
            "lodge": (f"{town} Elks Lodge {number}", "nonprofit"),
        }[kind]
        owns = rng.random() < 0.55
        op: Data = {"id": oid, "name": name, "jurisdiction": "ME",
                    "address": self.address(town, zipcode, "ME"), **self.me_org_fields(org_type)}
        single = rng.random() < 0.5  # one 24-game series, or two 12-game series
        days = rng.choice((["sat", "sun"], ["fri", "sat"])) if single else ["sat", "sun"]
        if owns:
            op["owns_premises"] = True
            nights = rng.random()
            if nights < 0.7:  # beano (ME-OTHER-GAMES): no tournament may overlap it
                # weeknights only; a Friday beano takes Fridays from a Friday/Saturday series
                beano = rng.sample(("mon", "tue", "wed", "thu", "fri"), 2 if nights < 0.15 else 1)
                hour = rng.choice((18, 18, 19))
                op["other_games"] = [{"weekday": w, "start": f"{hour}:00",
                                      "end": f"{hour + rng.choice((3, 4))}:00"}
                                     for w in sorted(beano, key=WEEKDAY_INDEX.__getitem__)]
        blackout = self.me_blackout(kind in ("legion", "vfw"))
        if blackout:
            op["blackout"] = blackout
        self.operators.append(op)
        short = name.split(",")[0]
        tiers = (40, 48, 50, 64, 80, 100)
        if single:
            self.tournaments.append(self.me_game(oid, f"{short} Hold'em", "g1", 24, days, 10,
                                                 rng.choice(tiers), rng.randint(5, 10)))
        else:
            low, high = sorted(rng.sample(tiers, 2))
            self.tournaments.append(self.me_game(oid, f"{short} Saturday Hold'em", "g1", 12,
                                                 ["sat"], 21, high, 10))
            self.tournaments.append(self.me_game(oid, f"{short} Sunday Hold'em", "g2", 12,
                                                 ["sun"], 21, low, 5))
        if owns and rng.random() < 0.7:  # over 100 players only on owned premises
            month = rng.randint(2, 11)
            w0 = dt.date(self.year, month, rng.randint(1, 10))
            champ = self.me_game(oid, f"{short} Hold'em Championship", "champ", 1, ["sat"], 0,
                                 10 * rng.randint(11, 30), 50)
            champ["window"] = {"start": w0.isoformat(),
                               "end": (w0 + dt.timedelta(days=7 * rng.randint(2, 4) - 1))
                               .isoformat()}
            champ["start_time"] = "10:00"
            champ["hours"] = rng.choice((14, 16, 20))
            champ["license_surcharge_total"] = rng.choice((0, 75, 125))
            champ["raffles"] = 1
            champ["raffle_prize"] = 100 * rng.randint(5, 20)
            self.tournaments.append(champ)

    def me_game(self, oid: str, title: str, suffix: str, count: int, weekdays: list[str],
                gap: int, players: int, priority: int) -> Data:
        """A licensed tournament game: one entry of at most $100, 75 % or more to prizes
        (ME-ENTRY-CAP, ME-PRIZES), one session of at most 48 h (ME-DURATION)."""
        rng = self.rng
        t: Data = {"id": f"{oid}-{suffix}", "title": title, "type": "tournament-game",
                   "operators": [oid]}
        if count > 1:
            t["count"] = count
        t.update({"weekdays": weekdays, "start_time": rng.choice(("12:00", "13:00")),
                  "hours": rng.choice((8, 10, 11, 12)), "priority": priority,
                  "players": players, "entry_fee": rng.choice((40, 50, 60, 75, 100)),
                  "prize_share": rng.choice(("0.75", "0.8", "0.85", "0.9"))})
        if gap:
            t["min_gap_days"] = gap
        if rng.random() < 0.3:
            t["high_hand_competitions"] = 1
        return t

    def me_club(self, oid: str) -> None:
        rng = self.rng
        town, zipcode = rng.choice(ME_TOWNS)
        self.operators.append({
            "id": oid, "name": f"{town} Cribbage Club", "jurisdiction": "ME",
            "address": self.address(town, zipcode, "ME"), **self.me_org_fields("nonprofit"),
        })
        two = rng.random() < 0.5
        t: Data = {
            "id": f"{oid}-super", "title": f"{town} Super Cribbage", "type": "super-cribbage",
            "operators": [oid], "weekdays": [rng.choice(("fri", "sat"))],
            "start_time": rng.choice(("09:00", "10:00")), "hours": rng.choice((30, 32, 54)),
            "priority": rng.randint(30, 40), "players": 10 * rng.randint(3, 30),
            "entry_fee": rng.choice((50, 60, 75, 100)),
            "prize_share": rng.choice(("0.75", "0.8")),
            "charity_share": rng.choice(("0.5", "0.6")),
            "organizer_member_years": rng.randint(3, 25),
        }
        if two:  # two weekends a year, far apart
            t["count"] = 2
            t["min_gap_days"] = 150
        else:
            w0, w1 = self.window(rng.randrange(4), 4, rng.randint(4, 8), 3)
            t["window"] = {"start": w0.isoformat(), "end": w1.isoformat()}
        self.tournaments.append(t)

    def me_restaurant(self, oid: str) -> None:
        rng = self.rng
        town, zipcode = rng.choice(ME_TOWNS)
        brewery = rng.random() < 0.3
        self.operators.append({
            "id": oid, "name": f"{town} {'Brewing Company' if brewery else 'Grille'}",
            "jurisdiction": "ME", "address": self.address(town, zipcode, "ME"),
            "licensed_establishment": "manufacturer" if brewery else "restaurant",
        })
        donated = rng.choice((10, 20, 25))
        self.tournaments.append({
            "id": f"{oid}-cribbage", "title": f"{town} Charity Cribbage Night",
            "type": "charitable-cribbage", "operators": [oid], "count": rng.choice((12, 24)),
            "weekdays": [rng.choice(("mon", "tue", "wed"))], "min_gap_days": 14,
            "start_time": "18:00", "hours": rng.choice((3, 4)), "priority": 3,
            "players": 8 * rng.randint(2, 6), "entry_fee": rng.choice((5, 10, 15, 20, 25)),
            # every entry dollar is a prize or donated (ME-CRIBBAGE-REG)
            "prize_share": f"0.{100 - donated}", "charity_share": f"0.{donated}",
        })
