"""constraints/maine.py, constraints/montana.py and constraints/common.py split into packages
of modules by responsibility (issue #12, "split modules over ~400 lines"): the registry keeps
its order, every name importers use stays importable from the package, a rule's functions
live in one module, and no module of the packages passes ~400 lines."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

from constraints import common, maine, montana, registry

ROOT = Path(__file__).resolve().parents[1]

# the registry's rule IDs as they were before the split (constraints/registry.py: common,
# requests, tours, then Montana's RULES, then Maine's), in order: 21 + 19 + 20 = 60 (CANCELLED
# after BLACKOUT: a day recorded cancelled is not reused)
BEFORE = [
    "SCENARIO", "CLOCK-CHANGE", "HORIZON", "WINDOW", "WEEKDAYS", "BLACKOUT", "CANCELLED",
    "COUNT", "REQUIRED", "FIXED-DATES", "MIN-GAP", "MAX-CONCURRENT", "PER-MONTH", "PER-MONTH-MIN",
    "PER-WEEK", "PER-WEEK-MIN", "SPREAD", "TABLES", "TOUR-WHOLE", "TOUR-ORDER", "TOUR-SPACING",
    "MT-PERMIT-PREREQ", "MT-PROGRESSIVE", "MT-ENTRY-CAP", "MT-SMALL-ENTRY", "MT-SATELLITE",
    "MT-CHARITY-SHARE", "MT-NO-RAKE", "MT-DURATION", "MT-PLAY-HOURS", "MT-NOTICE",
    "MT-LARGE-LIMIT", "MT-CHARITY-LIMIT", "MT-SMALL-DAILY", "MT-PERMIT-FEES",
    "MT-RULES-POSTED", "MT-SUPERVISOR", "MT-DEALER", "MT-CHIP-VALUE", "MT-SMALL-TABLE",
    "ME-LOCAL-APPROVAL", "ME-BENEFICIARY", "ME-ELIGIBLE", "ME-CRIBBAGE-REG", "ME-ELIMINATION",
    "ME-PLAYER-CAP", "ME-ENTRY-CAP", "ME-PRIZES", "ME-RAFFLE", "ME-HIGH-HAND", "ME-DURATION",
    "ME-OTHER-GAMES", "ME-APPLICATION-WINDOW", "ME-MONTHLY-LIMIT", "ME-SUPER-CRIBBAGE",
    "ME-FEES", "ME-NO-CURRENCY", "ME-DISPLAY", "ME-PAYMENT", "ME-REPORT",
]

# every name the code, tests, benchmarks and notebooks import from the three modules (and
# every other public name they defined), still importable from the package
MAINE_NAMES = [
    "ANNUAL_FEE", "CHECKLIST", "CRIBBAGE_ENTRY_CAP", "ENTRY_CAP", "LICENCE_KINDS", "MAX_HOURS",
    "MEMBER_YEARS", "ME_APPLICATION", "ME_DURATION", "ME_FEES", "ME_MONTHLY", "ME_OTHER_GAMES",
    "ME_SUPER_CRIBBAGE", "MONTHLY_FEE", "MONTHLY_LIMIT", "NATIONAL_CRIBBAGE",
    "PER_TOURNAMENT_FEE", "PLAYER_CAP", "PLAYER_CAP_OWNED", "PRIZE_SHARE", "RAFFLE_PRIZE_CAP",
    "RULES", "SUPER_CRIBBAGE_FEE", "SUPER_CRIBBAGE_HOURS", "SUPER_CRIBBAGE_LIMIT",
    "SURCHARGE_CAP", "TIERS", "TIER_MAX", "annual_end", "application_window_text",
    "counted_months", "covering_tiers", "earliest_first_day", "monthly_never_cheaper",
    "other_game_sessions", "per_tournament_usd", "report_text", "statute_fee",
    "super_cribbage_left", "surcharge_cap", "tier_index",
]
MONTANA_NAMES = [
    "CHARITY_LIMIT", "CHARITY_SHARE", "CHECKLIST", "ENTRY_CAP", "LARGE_LIMIT",
    "LARGE_PERMIT_FEE", "MAX_DAYS", "MT_CHARITY_LIMIT", "MT_DURATION", "MT_LARGE_LIMIT",
    "MT_NOTICE", "MT_PERMIT_FEES", "MT_PLAY_HOURS", "MT_SMALL_DAILY", "NO_PLAY_FROM",
    "NO_PLAY_UNTIL", "PERMIT_KINDS", "RULES", "SMALL_ENTRY_CAP", "SMALL_PERMIT_FEE",
    "LargeTally", "License", "calendar_days", "large_tally", "most_paid", "notice_note",
    "notice_text", "permit_held_before",
]
COMMON_NAMES = [
    "BLACKOUT", "CANCELLED", "CLOCK_CHANGE", "COUNT", "FIXED_DATES", "HORIZON", "MAX_CONCURRENT",
    "MIN_GAP", "REFERENCES", "REQUIRED", "RULES", "SCENARIO", "WEEKDAY_RULE", "WINDOW",
    "validate_clock_change", "validate_references",
]


def test_the_registry_order_is_unchanged() -> None:
    assert [r.id for r in registry.RULES] == BEFORE
    assert len(BEFORE) == 60  # 21 scenario requests + 19 Montana + 20 Maine


@pytest.mark.parametrize(("package", "names"), [(maine, MAINE_NAMES),
                                                (montana, MONTANA_NAMES),
                                                (common, COMMON_NAMES)])
def test_every_name_importers_use_is_still_there(package: object, names: list[str]) -> None:
    missing = [n for n in names if not hasattr(package, n)]
    assert missing == []


@pytest.mark.parametrize("package", [maine, montana, common])
def test_a_rule_lives_in_one_module(package: object) -> None:
    # validate / allows / encode / check / actuals / usage / certificate of one rule are
    # defined in one module of the package (a checklist sentence is constraints.base.duty's
    # closure, MT-DEALER's capacity constraints.requests.capacity's closures: not the package's own)
    name = package.__name__  # type: ignore[attr-defined]
    for rule in package.RULES:  # type: ignore[attr-defined]
        homes = {f.__module__ for f in (rule.validate, rule.allows, rule.allows_day,
                                        rule.allows_days, rule.encode, rule.check,
                                        rule.actuals, rule.usage, rule.certificate)
                 if f is not None and f.__module__.startswith(name + ".")}
        assert len(homes) <= 1, (rule.id, sorted(homes))


@pytest.mark.parametrize("package", [maine, montana, common])
def test_no_module_of_the_package_is_over_400_lines(package: object) -> None:
    path = Path(package.__file__).parent  # type: ignore[attr-defined]
    assert path.name in ("maine", "montana", "common"), "a package, constraints/<name>/"
    modules = [m.name for m in pkgutil.iter_modules([str(path)])]
    assert len(modules) >= 4
    for m in modules:
        importlib.import_module(f"{package.__name__}.{m}")  # type: ignore[attr-defined]
        lines = len((path / f"{m}.py").read_text("utf-8").splitlines())
        assert lines <= 400, (m, lines)


def test_the_scenario_requests_keep_their_order_and_the_references_come_first() -> None:
    # constraints/common.py's RULES, before the split: 11 rules, with CANCELLED 12, the first
    # 12 of the registry; REFERENCES (checked before the other input rules) are its first two
    assert [r.id for r in common.RULES] == BEFORE[:12]
    assert [r.id for r in common.REFERENCES] == ["SCENARIO", "CLOCK-CHANGE"]
    assert common.RULES[:2] == list(common.REFERENCES)


def test_each_request_lives_in_the_module_of_its_responsibility() -> None:
    # the homes chosen by the split (docs/architecture.md, the package's docstring)
    home = {r.id: {f.__module__ for f in (r.validate, r.allows, r.allows_day, r.allows_days,
                                          r.encode, r.check) if f is not None}
            for r in common.RULES}
    where = {
        "references": ["SCENARIO", "CLOCK-CHANGE"],
        "filters": ["HORIZON", "WINDOW", "WEEKDAYS", "BLACKOUT", "CANCELLED"],
        "placement": ["COUNT", "REQUIRED", "FIXED-DATES"],
        "spacing": ["MIN-GAP", "MAX-CONCURRENT"],
    }
    for module, ids in where.items():
        for rule_id in ids:
            assert home[rule_id] == {f"constraints.common.{module}"}, rule_id
    assert sum(len(ids) for ids in where.values()) == len(common.RULES) == 12  # 2 + 5 + 3 + 2
