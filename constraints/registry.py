"""The one ordered list of rules. Order matters only for reading: scenario requests first,
then Montana, then Maine; domain filters (``allows``) run before any encoding, and every
``encode`` adds constraints over the same ``z`` variables, so encodings are independent."""

from __future__ import annotations

from constraints import common, maine, montana
from constraints.base import Audit, Rule, Violation
from scheduler.problems import TermProblem
from scheduler.scenario import Scenario

RULES: list[Rule] = [*common.RULES, *montana.RULES, *maine.RULES]

_seen = [r.id for r in RULES]
assert len(_seen) == len(set(_seen)), "a rule is registered twice"


def validate_terms(scenario: Scenario) -> list[TermProblem]:
    """Every *input* problem of ``scenario``, rule by rule in registry order. Cross references
    (``SCENARIO``, ``CLOCK-CHANGE``: :data:`constraints.common.REFERENCES`) are checked first;
    the other rules run only when those are sound."""
    problems = [p for rule in common.REFERENCES if rule.validate is not None
                for p in rule.validate(scenario)]
    if problems:
        return problems
    for rule in RULES:
        if rule.validate is not None and all(rule is not r for r in common.REFERENCES):
            problems.extend(rule.validate(scenario))
    return problems


def check(audit: Audit, *, rules: list[Rule] | None = None) -> list[Violation]:
    """Every violation of a schedule, rule by rule in registry order (no solver involved)."""
    out: list[Violation] = []
    for rule in rules if rules is not None else RULES:
        if rule.check is not None:
            out.extend(rule.check(audit))
    return out
