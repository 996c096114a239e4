"""The audit of a schedule read back: every rule's independent ``check`` (cost rules only with a
``licenses.csv``), and its violations as a table (``--format csv``) and as records
(``--format json``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pandas as pd

from constraints import montana
from constraints.base import Audit, Violation
from constraints.catalogue import COST_RULES
from constraints.catalogue import RULES as CATALOGUE
from constraints.registry import RULES, check
from scheduler.check.schedule import ReadSchedule
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import validate_scenario


def audit(scenario: Scenario, read: ReadSchedule) -> list[Violation]:
    """Audit a schedule against every rule, independently of the solver (each rule's
    ``check``), as ``tourney check`` does.

    Parameters
    ----------
    scenario
        The scenario; first checked against the input rules
        (:func:`scheduler.inputs.load.validate_scenario`).
    read
        The schedule, as :func:`read_schedule` returns it. The cost rules (MT-PERMIT-FEES,
        ME-FEES, ...) are audited only when a licenses.csv was read (``read.licenses``).

    Returns
    -------
    list of Violation
        Every violation (:class:`constraints.base.Violation`: rule ID, operator id, the
        occurrences ``tournament_id#k``, the dates, the sentence), in registry order then by
        date; empty when the schedule is legal. :func:`violation_table` makes it a
        DataFrame.

    Raises
    ------
    ScenarioError
        (:class:`~scheduler.core.problems.ScenarioError`) the scenario itself breaks an input
        rule, as ``tourney check`` refuses it.
    """
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    rules = [r for r in RULES if read.licenses is not None or r.id not in COST_RULES]
    settled = with_settled(scenario, read.settled, read.permits_held)
    placed = read.placed
    if settled is not scenario:  # the occurrences point to the scenario's tournaments
        placed = [replace(p, tournament=settled.tournament(p.tid)) for p in placed]
    return check(Audit(settled, placed, read.licenses or [], read.operators), rules=rules)


def with_settled(scenario: Scenario, settled: dict[str, set[dt.date]],
                 permits: dict[str, set[str]] | None = None) -> Scenario:
    """``scenario`` with the first days of schedule rows that are history (status ``held``
    or ``filed``, :attr:`ReadSchedule.settled`) added to their tournaments' ``filed_dates``:
    what happened is judged as it happened, and an occurrence filed or held is not judged
    again on notice from ``notice_from`` or the as-of day (MT-NOTICE, MCA 23-5-317(1)(d);
    ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2). ``permits`` (operator id -> permit kinds,
    :attr:`ReadSchedule.permits_held`): the permits the plan found held before it, added to
    the operators' ``held_in_current_permit_year.permits`` (MT-PERMIT-FEES, MCA
    23-5-317(1)(b), (2)(b)), as ``solve --ledger`` read them from the ledger. The scenario
    itself when there are none."""
    permits = {op: kinds for op, kinds in (permits or {}).items() if kinds}
    if not any(settled.values()) and not permits:
        return scenario
    ts = tuple(t.model_copy(update={"filed_dates": tuple(sorted(
        {*t.filed_dates, *settled[t.id]}))}) if settled.get(t.id) else t
        for t in scenario.tournaments)
    ops = []
    for op in scenario.operators:
        extra = permits.get(op.id, set()) - set(op.held_in_current_permit_year.permits)
        if op.jurisdiction == montana.CODE and extra:
            h = op.held_in_current_permit_year
            op = op.model_copy(update={"held_in_current_permit_year": h.model_copy(
                update={"permits": tuple(sorted({*h.permits, *extra}))})})
        ops.append(op)
    return scenario.model_copy(update={"tournaments": ts, "operators": tuple(ops)})


def violation_table(violations: list[Violation]) -> pd.DataFrame:
    """Violations as rows: ``rule, citation, operator_id, tournament_id, occurrence, dates,
    message`` (all str; ``occurrence`` is the 1-based number, empty when a rule concerns a
    whole tournament)."""
    rows = []
    for v in violations:
        for ref in v.refs[:1] or ("",):
            tid, _, occ = ref.partition("#")
            cit = CATALOGUE[v.rule].citation
            rows.append({"rule": v.rule, "citation": "" if cit == "scenario" else cit,
                         "operator_id": v.operator_id, "tournament_id": tid,
                         "occurrence": occ, "dates": v.dates, "message": v.message})
    return pd.DataFrame(rows, columns=["rule", "citation", "operator_id", "tournament_id",
                                       "occurrence", "dates", "message"])


def check_table(violations: list[Violation], read: ReadSchedule) -> pd.DataFrame:
    """What ``tourney check --format csv|json`` lists: :func:`violation_table`, then one row
    per event read but not matched (rule ``UNMATCHED``) and per event not checked (rule
    ``NOT-CHECKED``), its text in ``message``, the other columns empty. Same columns."""
    table = violation_table(violations)
    if not (read.unmatched or read.not_checked):
        return table
    extra = pd.DataFrame([{"rule": rule, "citation": "", "operator_id": "",
                           "tournament_id": "", "occurrence": "", "dates": "",
                           "message": line}
                          for rule, lines in (("UNMATCHED", read.unmatched),
                                              ("NOT-CHECKED", read.not_checked))
                          for line in lines])
    return pd.concat([table, extra], ignore_index=True)


def _refs(v: Violation) -> list[dict[str, object]]:
    """Every occurrence a violation names, ``tournament_id#N`` split into the id and the
    1-based number N (an int); a ref without a number (a whole tournament) is left out."""
    out: list[dict[str, object]] = []
    for ref in v.refs:
        for one in ref.split(","):  # a ref may list several, "a#1,a#2"
            tid, _, occ = one.strip().partition("#")
            if tid and occ.isdigit():
                out.append({"tournament_id": tid, "occurrence": int(occ)})
    return out


def check_records(violations: list[Violation], read: ReadSchedule | None = None
                  ) -> list[dict[str, object]]:
    """What ``tourney check --format json`` prints: the rows of :func:`check_table` (of
    :func:`violation_table` without ``read``), each violation with ``occurrences``, a list
    of every occurrence it names, ``{"tournament_id": str, "occurrence": int}`` (1-based),
    in the rule's order; ``occurrence`` is the first of them, an int too (null when the
    violation concerns a whole tournament); an UNMATCHED or NOT-CHECKED row has an empty
    list.
    """
    table = check_table(violations, read) if read is not None else violation_table(violations)
    records: list[dict[str, object]] = [{str(k): v for k, v in r.items()}
                                        for r in table.to_dict(orient="records")]
    for rec, v in zip(records, violations, strict=False):
        rec["occurrences"] = _refs(v)
    for rec in records[len(violations):]:
        rec["occurrences"] = []
    for rec in records:  # the first of ``occurrences``, an int as there; null for none
        refs = rec["occurrences"]
        rec["occurrence"] = refs[0]["occurrence"] if isinstance(refs, list) and refs else None
    return records

