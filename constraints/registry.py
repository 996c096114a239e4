"""The one ordered list of rules. Order matters only for reading: scenario requests first
(those of rhythm and resources after the others, then tours across venues), then each
jurisdiction's (:func:`scheduler.core.jurisdiction.installed`: Montana, Maine, then any
:func:`register` adds); domain filters (``allows``) run before any encoding, and every
``encode`` adds constraints over the same ``z`` variables, so encodings are independent."""

from __future__ import annotations

from constraints import common, requests, tours
from constraints.base import Actuals, Audit, Rule, Violation
from scheduler.core.jurisdiction import BUNDLED, Jurisdiction, install, installed, uninstall
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament

RULES: list[Rule] = [*common.RULES, *requests.RULES, *tours.RULES,
                     *(r for j in installed() for r in j.rules)]

_seen = [r.id for r in RULES]
assert len(_seen) == len(set(_seen)), "a rule is registered twice"


def register(jurisdiction: Jurisdiction) -> None:
    """Install a jurisdiction that is not bundled (a plug-in, e.g. a test's rule pack): its
    code, types and catalogue rows (:func:`scheduler.core.jurisdiction.install`) and its rules,
    appended to :data:`RULES`. Registering it again does nothing.

    Raises
    ------
    ValueError
        Its code, a type or a rule ID is taken already.
    """
    if any(jurisdiction is j for j in installed()):
        return
    taken = {r.id for r in RULES} & {r.id for r in jurisdiction.rules}
    if taken:
        raise ValueError(f"rule {sorted(taken)[0]} is registered already")
    install(jurisdiction)
    RULES.extend(jurisdiction.rules)


def unregister(jurisdiction: Jurisdiction) -> None:
    """Undo :func:`register`: the jurisdiction, its catalogue rows and its rules leave (a
    test's toy jurisdiction, once the test is done). A bundled one stays."""
    if any(jurisdiction is j for j in installed()[:len(BUNDLED)]):
        return
    uninstall(jurisdiction)
    RULES[:] = [r for r in RULES if all(r is not own for own in jurisdiction.rules)]


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


def judge_actuals(actuals: Actuals) -> list[Violation]:
    """Every finding in what was actually held and reported (``tourney check --ledger``),
    rule by rule in registry order (each rule's ``actuals`` reading): the violations and the
    notes (:attr:`~constraints.base.Violation.note`: a figure a rule needs was not
    recorded), in the order the rules give them."""
    out: list[Violation] = []
    for rule in RULES:
        if rule.actuals is not None:
            out.extend(rule.actuals(actuals))
    return out


def check_actuals(actuals: Actuals) -> list[Violation]:
    """Every violation in what was actually held and reported (``tourney check --ledger``),
    rule by rule in registry order: :func:`judge_actuals` without its notes."""
    return [v for v in judge_actuals(actuals) if not v.note]


def checklist_rules(scenario: Scenario, tournament: Tournament) -> list[str]:
    """IDs of the *list*-kind rules that apply to ``tournament``, in registry order (each
    rule's :attr:`constraints.base.Rule.checklist` says whether it applies)."""
    return [r.id for r in RULES
            if r.checklist is not None and r.checklist(scenario, tournament) is not None]


def checklist(scenario: Scenario, tournament: Tournament) -> list[str]:
    """The obligations (*list*-kind rules of RULES.md) that apply to ``tournament``, one
    sentence each, in registry order, each ending with ``(RULE-ID, citation).``: for Montana
    (large- and small-stakes) MT-RULES-POSTED, MT-SUPERVISOR, MT-DEALER, MT-CHIP-VALUE, and
    MT-SMALL-TABLE for small-stakes; for Maine licensed games (tournament-game,
    super-cribbage) ME-NO-CURRENCY, ME-DISPLAY, ME-PAYMENT, ME-REPORT; none for charitable
    cribbage (ME-CRIBBAGE-REG)."""
    out = []
    for r in RULES:
        line = r.checklist(scenario, tournament) if r.checklist is not None else None
        if line is not None:
            out.append(line)
    return out
