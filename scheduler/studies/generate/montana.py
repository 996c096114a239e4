"""The Montana card rooms of a synthetic scenario (MCA 23-5-317): their large-stakes,
charitable and small-stakes requests, and the tours that share progressive events
(MT-PROGRESSIVE)."""

from __future__ import annotations

import datetime as dt

from constraints.montana import CODE
from scheduler.core.timing import day_span
from scheduler.studies.generate.draws import Draws
from scheduler.studies.generate.tables import (
    DAY_FORMATS,
    DAYS_WEIGHTS,
    EVENT_NAMES,
    LATE_FORMATS,
    MT_CHARITIES,
    MT_ENTRY_CAP,
    MT_ROOM_KINDS,
    MT_ROOM_NAMES,
    MT_SMALL_ENTRY_CAP,
    SEASONS,
    WEEKDAY_CHOICES,
    WEEKDAY_INDEX,
    Data,
    nth_weekday,
    range_text,
)


class Montana(Draws):
    """Draws a Montana card room and the tours (mixed into the run)."""

    def mt_blackout(self) -> list[str]:
        rng, y = self.rng, self.year
        out: list[str] = []
        if rng.random() < 0.7:
            out.append(dt.date(y, 7, 4).isoformat())
        if rng.random() < 0.6:
            out.append(nth_weekday(y, 11, 3, 4).isoformat())  # Thanksgiving
        if rng.random() < 0.8:
            out.append(range_text(dt.date(y, 12, 24), dt.date(y, 12, 26)))
        if rng.random() < 0.4:  # a closure: remodelling, staff holiday
            first = self.day(dt.date(y, 1, 10), dt.date(y, 11, 30))
            out.append(range_text(first, first + dt.timedelta(days=rng.randint(3, 10) - 1)))
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
            "id": oid, "name": f"{short} {rng.choice(MT_ROOM_KINDS)}", "jurisdiction": CODE,
            "address": self.address(town, zipcode, CODE), "live_tables": tables,
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
            blocked.update(day_span(d0, d1))
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
            allowed = [d for d in day_span(w0, w1)
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
