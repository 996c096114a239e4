"""The places, names and shapes :mod:`scheduler.studies.generate` draws from, and its calendar
helpers. Changing any of them changes generated scenarios: bump
:data:`scheduler.studies.generate.GENERATOR_VERSION`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from scheduler.core.fields import WEEKDAYS

Data = dict[str, Any]
"""A scenario (or part of one) as the plain mapping a YAML file holds."""

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

WEEKDAY_INDEX = {w: i for i, w in enumerate(WEEKDAYS)}
"""A scenario's weekday spelling (:data:`scheduler.core.fields.WEEKDAYS`) -> ``date.weekday()``."""

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


# --------------------------------------------------------------------------- calendar helpers
def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The ``n``-th ``weekday`` (0 = Monday) of a month; ``n = -1`` for the last."""
    if n > 0:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def range_text(first: dt.date, last: dt.date) -> str:
    return f"{first.isoformat()}..{last.isoformat()}" if last > first else first.isoformat()
