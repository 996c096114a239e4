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

The package, one way: this module (the public API and the run) > ``montana`` and ``maine``
(each jurisdiction's operators and requests) > ``draws`` (the run's random draws and state) >
``tables`` (places, names, shapes, calendar helpers).

Sizes (candidate first days, measured with ``build_model``) stay near 200 per operator (N = 10:
2,008; N = 200: about 40,000), and most operators are linked only to their tour partners (and
cribbage clubs through the statewide cap), so a large N splits into small components.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from scheduler.core.atomic_files import WriteRefused, write_files
from scheduler.core.scenario import Scenario
from scheduler.studies.generate.maine import Maine
from scheduler.studies.generate.montana import Montana
from scheduler.studies.generate.tables import MT_REGIONS, Data

GENERATOR_VERSION = 1
"""Bumped whenever a change to this package changes generated scenarios (cache keys)."""

MAX_OPERATORS = 100_000
"""The largest ``operators`` accepted (about 2.5 million candidate days)."""

YEARS = (2000, 2100)
"""The horizon years accepted (inclusive)."""


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


MADE_BY = "# Made by `"
"""How the first line of a scenario :func:`scenario_text` made starts: such a file may be
replaced by the next one (:func:`write_text_atomic`), any other file never."""


def scenario_text(operators: int, seed: int, *, year: int = 2027) -> str:
    """The YAML file ``tourney generate`` writes: a comment naming the command that made it,
    then ``generate(operators, seed, year=year).to_yaml()``. Same arguments, same text.
    Same errors as :func:`generate`."""
    scenario = generate(operators, seed, year=year)
    command = f"tourney generate --operators {operators} --seed {seed}"
    if year != 2027:
        command += f" --year {year}"
    return (f"{MADE_BY}{command}` (generator version {GENERATOR_VERSION}).\n"
            "# A synthetic scenario for tests and benchmarks: the operators are invented.\n"
            + scenario.to_yaml())


def write_text_atomic(text: str, path: str | Path) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically: into a temporary file
    in the same folder, then renamed over ``path``, so a reader never sees half a file and an
    interrupted run leaves an earlier file unchanged. Only a file an earlier run wrote (its
    first line starts with :data:`MADE_BY`) is replaced; the folder must exist.
    Returns the path. Raises ``IsADirectoryError`` when ``path`` is a folder and ``OSError``
    when it cannot be written, its subclass :class:`scheduler.core.atomic.WriteRefused` when
    ``path`` is another file or its folder does not exist."""
    out = Path(path)
    if out.is_dir():
        raise IsADirectoryError(f"{out} is a folder; give a file name such as scenario.yaml")
    if not out.parent.is_dir():
        raise WriteRefused(f"the folder {out.parent} does not exist: create it first, or give "
                           "a file in a folder that exists")
    if out.exists() or out.is_symlink():
        try:
            with out.open("rb") as f:
                head = f.read(len(MADE_BY))
        except OSError:
            head = b""
        if head != MADE_BY.encode():
            raise WriteRefused(f"{out} exists and is not a scenario `tourney generate` wrote, "
                               "so it is never replaced: give another file name")
    write_files({out: text.encode("utf-8")})
    return out


class _Generator(Montana, Maine):
    """One generation run: the Montana rooms and tours, then the Maine operators."""

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
