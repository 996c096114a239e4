"""The one ordered list of rules. Order matters only for reading: scenario requests first
(those of rhythm and resources after the others), then Montana, then Maine; domain filters
(``allows``) run before any encoding, and every ``encode`` adds constraints over the same
``z`` variables, so encodings are independent."""

from __future__ import annotations

from constraints import common, maine, montana, requests
from constraints.base import Audit, Rule, Violation
from scheduler.scenario import Scenario, TermProblem

RULES: list[Rule] = [*common.RULES, *requests.RULES, *montana.RULES, *maine.RULES]

_seen = [r.id for r in RULES]
assert len(_seen) == len(set(_seen)), "a rule is registered twice"


def validate_terms(scenario: Scenario) -> list[TermProblem]:
    """Every *input* problem of ``scenario``. Cross references (``SCENARIO``) are checked
    first; the other rules run only when those are sound."""
    problems = list(common.validate_references(scenario))
    if problems:
        return problems
    for rule in RULES:
        if rule.validate is not None and rule is not common.SCENARIO:
            problems.extend(rule.validate(scenario))
    return problems


def check(audit: Audit, *, rules: list[Rule] | None = None) -> list[Violation]:
    """Every violation of a schedule, rule by rule in registry order (no solver involved)."""
    out: list[Violation] = []
    for rule in rules if rules is not None else RULES:
        if rule.check is not None:
            out.extend(rule.check(audit))
    return out
