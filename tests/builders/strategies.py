"""Hypothesis strategies: random valid scenarios of both states (tests/test_properties.py,
tests/test_mutations.py), and the bound on examples that each solve a scenario."""

from __future__ import annotations

import datetime as dt
import os

from hypothesis import settings
from hypothesis import strategies as st

from scheduler.core.fields import WEEKDAYS

START = dt.date(2027, 5, 1)  # a horizon of 92 days that crosses the July 1 permit year
END = dt.date(2027, 7, 31)


def ci_examples(n: int, otherwise: int | None = None) -> int:
    """Examples for a property whose every example solves (or runs a command on) a scenario.

    Under the ``ci`` profile (``make test``, tests/conftest.py) at most ``n``, so the default
    test run stays short; under any other profile (``default``, ``long`` for a soak) the
    profile's own number (or ``otherwise``), so a local run and a soak explore as widely as
    before.

    Parameters
    ----------
    n : int
        The largest number of examples under ``ci``.
    otherwise : int, optional
        The number under any other profile (a test that fixes its own); default: the
        profile's.

    Returns
    -------
    int
        ``min(n, profile's max_examples)`` under ``ci``, else ``otherwise`` or the profile's
        max_examples.
    """
    loaded = settings.default.max_examples
    if os.environ.get("HYPOTHESIS_PROFILE") == "ci":
        return min(n, loaded)
    return loaded if otherwise is None else otherwise


def _day(k: int) -> str:
    return (START + dt.timedelta(days=k)).isoformat()


@st.composite
def scenarios(draw: st.DrawFn) -> dict:
    n_ops = draw(st.integers(1, 6))
    operators, tournaments = [], []
    for i in range(n_ops):
        state = draw(st.sampled_from(["MT", "ME"]))
        op: dict = {"id": f"op{i}", "name": f"Operator {i}", "jurisdiction": state,
                    "max_concurrent": draw(st.integers(1, 2)),
                    "blackout": sorted({_day(draw(st.integers(0, 91)))
                                        for _ in range(draw(st.integers(0, 4)))})}
        if state == "MT":
            op |= {"live_tables": 1,
                   "held_in_current_permit_year": {"large_stakes": draw(st.integers(0, 16)),
                                                   "charitable": draw(st.integers(0, 3))}}
        else:
            op |= {"local_approval": True, "beneficiaries": ["Food Pantry"],
                   "organized_on": "1990-01-01", "owns_premises": draw(st.booleans())}
            if draw(st.booleans()):
                op["other_games"] = [{"weekday": draw(st.sampled_from(WEEKDAYS)),
                                      "start": "18:00", "end": "22:00"}]
        operators.append(op)
        for j in range(draw(st.integers(1, 3))):
            t: dict = {"id": f"t{i}-{j}", "title": f"Event {i}.{j}", "operators": [op["id"]],
                       "count": draw(st.integers(1, 6)), "priority": draw(st.integers(1, 3)),
                       "min_gap_days": draw(st.integers(0, 14))}
            lo = draw(st.integers(0, 80))
            if draw(st.booleans()):
                t["window"] = {"start": _day(lo), "end": _day(draw(st.integers(lo, 91)))}
            if draw(st.booleans()):
                t["weekdays"] = sorted(set(draw(st.lists(st.sampled_from(WEEKDAYS),
                                                         min_size=1, max_size=3))))
            if draw(st.integers(0, 4)) == 0:  # a pinned first day (it may prove impossible)
                t["fixed_dates"] = [_day(draw(st.integers(0, 88)))]
            if state == "MT":
                kind = draw(st.sampled_from(["large", "charity", "small"]))
                if kind == "small":
                    t |= {"type": "small-stakes", "entry_fee": 60, "start_time": "19:00",
                          "hours": 4}
                else:
                    t |= {"type": "large-stakes", "days": draw(st.integers(1, 3)),
                          "start_time": "12:00", "hours": draw(st.sampled_from([10, 14])),
                          "entry_fee": 375, "reentries": 3}
                    if kind == "charity":
                        t |= {"charitable": True, "charity_share": 0.5}
            else:
                kind = draw(st.sampled_from(["game", "game", "super"]))
                t |= {"type": "tournament-game" if kind == "game" else "super-cribbage",
                      "players": draw(st.sampled_from([40, 80, 100] if kind == "game"
                                                      else [30, 120])),
                      "entry_fee": 100, "prize_share": 0.8,
                      "start_time": draw(st.sampled_from(["12:00", "18:00"])),
                      "hours": draw(st.sampled_from([5, 30, 48]))}
                if kind == "super":
                    t |= {"charity_share": 0.5, "organizer_member_years": 5}
            tournaments.append(t)
    # a shared progressive between the first two Montana operators, when there are two
    mt = [o["id"] for o in operators if o["jurisdiction"] == "MT"]
    if len(mt) >= 2 and draw(st.booleans()):
        tournaments.append({"id": "shared", "title": "Progressive", "type": "large-stakes",
                            "operators": mt[:2], "count": draw(st.integers(1, 3)),
                            "days": 2, "hours": 10})
    return {
        "name": "random", "horizon": {"start": START.isoformat(), "end": END.isoformat()},
        "notice_from": (START - dt.timedelta(days=draw(st.integers(0, 20)))).isoformat(),
        "settings": {"month_rule": draw(st.sampled_from(["touch", "start"])),
                     "tier_coverage": draw(st.sampled_from(["up", "exact"]))},
        "operators": operators, "tournaments": tournaments,
    }
