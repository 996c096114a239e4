"""Montana, how a tournament is conducted (list kind, MCA 23-5-317): MT-RULES-POSTED,
MT-SUPERVISOR, MT-DEALER (23-5-317(6): licensed dealers, and the room's dealers per day as a
capacity), MT-CHIP-VALUE and MT-SMALL-TABLE: their checklist sentences.

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

from collections.abc import Iterator

from constraints.base import Rule, duty
from constraints.requests import capacity, capacity_added, over_capacity
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament


# ------------------------------------------------------------------ checklist (list kind)
def _in_mt(sc: Scenario, t: Tournament) -> bool:
    return sc.jurisdiction_of(t) == "MT"


def _mt_small(sc: Scenario, t: Tournament) -> bool:
    return sc.jurisdiction_of(t) == "MT" and t.is_small


# obligations the scheduler cannot enforce, printed with every Montana event, in this order
def _validate_dealers(sc: Scenario) -> Iterator[TermProblem]:
    """MT-DEALER, MCA 23-5-317(6): no tournament needs more licensed dealers a day
    (``dealers_needed``) than an operator of it has (``dealers``); both fields are for
    Montana only."""
    yield from over_capacity(sc, "MT-DEALER", "dealers", "dealers_needed")
    for i, o in enumerate(sc.operators):
        if o.jurisdiction == "ME" and "dealers" in o.model_fields_set:
            yield TermProblem(("operators", i, "dealers"), "MT-DEALER",
                              "field applies only to MT operators (licensed dealers, "
                              "MCA 23-5-317(6))")
    for i, t in enumerate(sc.tournaments):
        if t.dealers_needed and any(o.jurisdiction == "ME" for o in sc.operators
                                    if o.id in t.operators):
            yield TermProblem(("tournaments", i, "dealers_needed"), "MT-DEALER",
                              "field applies only to MT tournaments (licensed dealers, "
                              "MCA 23-5-317(6))")


_DEALERS = capacity("MT-DEALER", "dealers", "dealers_needed")
"""MT-DEALER's model encoding and check of the ``dealers`` capacity, MCA 23-5-317(6): on every
calendar day the ``dealers_needed`` of an operator's tournaments conducted that day sum to at
most its ``dealers`` (:func:`constraints.requests.capacity`)."""

CHECKLIST = [
    Rule("MT-RULES-POSTED", checklist=duty(
        "MT-RULES-POSTED", "Give every participant a copy of the tournament rules before the "
        "start, and post a copy in plain view in each area where the tournament is played",
        _in_mt)),
    Rule("MT-SUPERVISOR", checklist=duty(
        "MT-SUPERVISOR", "Have a person on the premises throughout the tournament to oversee "
        "play and settle disputes between players (a licensed dealer may do this)", _in_mt)),
    # MCA 23-5-317(6): the sentence for every Montana tournament, and the room's licensed
    # dealers per day as an optional capacity (operators[].dealers, dealers_needed)
    Rule("MT-DEALER", validate=_validate_dealers, encode=_DEALERS[0], check=_DEALERS[1],
         added=capacity_added("MT-DEALER", "dealers", "dealers_needed"),
         checklist=duty(
             "MT-DEALER", "Only dealers licensed under MCA 23-5-308 may deal", _in_mt)),
    Rule("MT-CHIP-VALUE", checklist=duty(
        "MT-CHIP-VALUE", "The face value of the chips does not set the prize pool", _in_mt)),
    Rule("MT-SMALL-TABLE", checklist=duty(
        "MT-SMALL-TABLE", "One additional live card table may be placed for this tournament, "
        "and it may be used only for small-stakes tournaments", _mt_small)),
]
