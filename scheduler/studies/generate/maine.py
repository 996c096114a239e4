"""The Maine operators of a synthetic scenario (17 M.R.S. § 1836): organizations holding
tournament games, cribbage clubs (super cribbage) and restaurants (charitable cribbage)."""

from __future__ import annotations

import datetime as dt

from constraints.maine import CODE
from scheduler.studies.generate.draws import Draws
from scheduler.studies.generate.tables import (
    ME_CAUSES,
    ME_TOWNS,
    WEEKDAY_INDEX,
    Data,
    nth_weekday,
    range_text,
)


class Maine(Draws):
    """Draws the Maine operators (mixed into the run)."""

    def me_blackout(self, veterans: bool) -> list[str]:
        rng, y = self.rng, self.year
        out: list[str] = []
        if rng.random() < 0.4:
            memorial = nth_weekday(y, 5, 0, -1)
            out.append(range_text(memorial - dt.timedelta(days=2), memorial))
        if rng.random() < 0.5:
            out.append(dt.date(y, 7, 4).isoformat())
        if veterans:
            out.append(dt.date(y, 11, 11).isoformat())
        if rng.random() < 0.7:
            out.append(range_text(dt.date(y, 12, 24), dt.date(y, 12, 26)))
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
        op: Data = {"id": oid, "name": name, "jurisdiction": CODE,
                    "address": self.address(town, zipcode, CODE), **self.me_org_fields(org_type)}
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
            "id": oid, "name": f"{town} Cribbage Club", "jurisdiction": CODE,
            "address": self.address(town, zipcode, CODE), **self.me_org_fields("nonprofit"),
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
            "jurisdiction": CODE, "address": self.address(town, zipcode, CODE),
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
