"""Montana, the permits and their fees: MT-PERMIT-PREREQ (a permitted live table) and
MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b): a permit of each kind per permit year, the
model's purchase and the check of licences.csv).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from functools import partial

from ortools.sat.python import cp_model

from constraints.base import Audit, License, Rule, Violation, day_span, licence_row_violation, usd
from constraints.modelling import LicenseOption, ModelContext, covers_period
from constraints.montana.terms import LARGE_PERMIT_FEE, MT_TYPES, SMALL_PERMIT_FEE, mt
from scheduler.core.fields import day_words
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator

# ------------------------------------------------------------------ MT-PERMIT-PREREQ


def _validate_prereq(sc: Scenario) -> Iterator[TermProblem]:
    used = {o for _, t in mt(sc) for o in t.operators}
    for i, op in enumerate(sc.operators):
        if op.jurisdiction == "MT" and op.id in used and (op.live_tables or 0) < 1:
            yield TermProblem(("operators", i, "live_tables"), "MT-PERMIT-PREREQ",
                              "a tournament permit needs at least one permitted live card game "
                              "table (live_tables >= 1)")


MT_PERMIT_PREREQ = Rule("MT-PERMIT-PREREQ", validate=_validate_prereq)


# ------------------------------------------------------------------ MT-PERMIT-FEES
def _permit_already_held(op: Operator, sc: Scenario, py: dt.date, large: bool) -> bool:
    """A permit for the current permit year is already held when the scenario says so
    (``held_in_current_permit_year.permits``) or, for large-stakes, when large-stakes
    tournaments were held in it before the plan."""
    if py != op.permit_year_of(sc.horizon.start):
        return False
    h = op.held_in_current_permit_year
    kind = "large-stakes" if large else "small-stakes"
    return kind in h.permits or (large and h.large_stakes + h.charitable > 0)


def permit_held_before(op: Operator, sc: Scenario, day: dt.date, large: bool) -> bool:
    """MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): whether ``op``'s permit of the kind
    (large-stakes when ``large``, else small-stakes) for the permit year (MT-PERMIT-YEAR) of
    ``day`` was bought before the plan, so the plan buys none: the current permit year's
    ``held_in_current_permit_year.permits`` (filled from the ledger's history by ``solve
    --ledger``), or large-stakes tournaments held in it. The reading the model and the check
    use (an event's description says "permit already held" instead of "none")."""
    return _permit_already_held(op, sc, op.permit_year_of(day), large)


PERMIT_KINDS = {"mt-large-stakes-permit": (True, LARGE_PERMIT_FEE, "(1)(b)"),
                "mt-small-stakes-permit": (False, SMALL_PERMIT_FEE, "(2)(b)")}
"""MT-PERMIT-FEES: licences.csv ``kind`` -> (large-stakes?, USD per permit year, clause)."""


def permit_due(valid_from: dt.date, first_play: dt.date | None,
               made_as_of: dt.date | None) -> dt.date:
    """MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): the last day to buy (or renew) a permit
    valid from ``valid_from`` (its permit year's first day, MT-PERMIT-YEAR): a permit of a
    permit year that starts after the day the plan was made as of (``made_as_of``; None:
    unknown) is a renewal, due the day before its permit year starts (before July 1 by
    default); one of a permit year already begun is due the day before the first day of
    play it covers (``first_play``; None: the day before ``valid_from``). No tournament is
    conducted under a permit not yet held."""
    if made_as_of is None or valid_from > made_as_of or first_play is None:
        return valid_from - dt.timedelta(days=1)
    return max(valid_from, first_play) - dt.timedelta(days=1)


def permit_line(kind: str, valid_from: dt.date, valid_to: dt.date) -> str:
    """MT-PERMIT-FEES as a deadline's ``what`` (deadlines.csv, plan.xlsx, the report,
    ``tourney deadlines``), in people's words and without ids: ``Buy or renew the Montana
    large-stakes permit for the permit year Jul 1, 2026 – Jun 30, 2027 ($120)``; the day
    it is due by (:func:`permit_due`) is the line's date."""
    large, fee, clause = PERMIT_KINDS[kind]
    return (f"Buy or renew the Montana {_permit_label(kind)} for the permit year "
            f"{day_words(valid_from)} – {day_words(valid_to)} ({usd(fee)})")


def _permit_kinds() -> list[tuple[bool, str, int]]:
    return [(large, kind, fee) for kind, (large, fee, _) in PERMIT_KINDS.items()]


def _permit_label(kind: str) -> str:
    """``large-stakes permit`` of ``mt-large-stakes-permit``."""
    return kind.removeprefix("mt-").replace("-stakes-", "-stakes ")


def _encode_permits(ctx: ModelContext) -> None:
    """Buy a permit for each permit year in which the operator conducts a tournament of its
    kind on any day (``Timing.days``: play Jun 30 - Jul 2 needs the permits of both permit
    years); $120 (large-stakes) or $500 (small-stakes) per permit year, not prorated
    (MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b))."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        # the permit years of each candidate, large-stakes and not (its days are in order:
        # when the first and the last lie in one permit year, every day does)
        years: dict[bool, dict[dt.date, list[cp_model.IntVar]]] = {
            True: defaultdict(list), False: defaultdict(list)}
        for c, v in ctx.of_operator(op.id):
            days = c.timing.days
            py = op.permit_year_of(days[0])
            per_py = years[c.tournament.is_large]
            if py == op.permit_year_of(days[-1]):
                per_py[py].append(v)
            else:
                for py in op.permit_years_of(days):
                    per_py[py].append(v)
        for large, kind, fee in _permit_kinds():
            per_py = years[large]
            for py in sorted(per_py):
                if _permit_already_held(op, sc, py, large):
                    continue
                permit = ctx.new_bool(f"{kind}[{op.id},{py}]" if ctx.named else "")
                p = permit.index
                for v in per_py[py]:
                    ctx.add_implication(v.index, p)
                end = op.permit_year_end(py)
                ctx.add_license(LicenseOption(
                    permit, op.id, "MT", kind, "", py, end, fee,
                    covers=covers_period(("large-stakes",) if large else ("small-stakes",),
                                         py, end, every_day=False)))




def _permit_rows(a: Audit) -> Iterator[License]:
    """The licences.csv rows Montana answers for (jurisdiction MT or an ``mt-`` kind), of the
    operators the schedule covers."""
    for lic in a.licenses:
        if (lic.jurisdiction == "MT" or lic.kind.startswith("mt-")) and (
                a.operators is None or lic.operator_id in a.operators):
            yield lic


def _effective_end(op: Operator, lic: License) -> dt.date:
    """The last day a permit row covers: its ``valid_to``, but never past the end of the one
    permit year it is issued for (a row valid longer covers no more)."""
    return min(lic.valid_to, op.permit_year_end(lic.valid_from))


def _check_permit_rows(a: Audit) -> Iterator[Violation]:
    """Each MT row of licenses.csv against MCA 23-5-317(1)(b), (2)(b): a known permit kind of
    a Montana operator; $120 (large-stakes) or $500 (small-stakes); valid for exactly one
    permit year; every occurrence it lists is of its kind and played in that permit year."""
    sc = a.scenario
    ops = {o.id: o for o in sc.operators}
    placed = {p.ref: p for p in a.placed}
    for lic in _permit_rows(a):
        oid, refs = lic.operator_id, lic.covers
        bad = partial(licence_row_violation, "MT-PERMIT-FEES", lic)

        op = ops.get(oid)
        if op is None or op.jurisdiction != "MT":
            yield bad(f"operator {oid!r} is not a Montana operator of the scenario; a "
                      "tournament permit is issued to a Montana licensed operator "
                      "(MCA 23-5-317(1)(b), (2)(b))")
            continue
        if lic.kind not in PERMIT_KINDS:
            yield bad(f"kind {lic.kind!r} is not a Montana tournament permit (mt-large-stakes-"
                      f"permit {usd(LARGE_PERMIT_FEE)} per permit year, MCA 23-5-317(1)(b); "
                      f"mt-small-stakes-permit {usd(SMALL_PERMIT_FEE)} per permit year, "
                      "(2)(b))")
            continue
        large, fee, clause = PERMIT_KINDS[lic.kind]
        label = _permit_label(lic.kind)
        if lic.jurisdiction != "MT" or lic.tier:
            yield bad(f"jurisdiction {lic.jurisdiction!r}, tier {lic.tier!r}: a {label} is a "
                      f"Montana permit (jurisdiction MT) with no player tier "
                      f"(MCA 23-5-317{clause})")
        if lic.fee_usd != fee:
            yield bad(f"a {label} costs {usd(fee)} per permit year, not prorated "
                      f"(MCA 23-5-317{clause}); it is listed at {usd(lic.fee_usd)}")
        py, end = op.permit_year_of(lic.valid_from), op.permit_year_end(lic.valid_from)
        if (lic.valid_from, lic.valid_to) != (py, end):
            yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; a {label} is valid for "
                      f"exactly one permit year, here {py}..{end}, at {usd(fee)} "
                      f"(MCA 23-5-317{clause})")
        for ref in refs:
            p = placed.get(ref)
            if p is None:
                continue  # a permit bought for an occurrence not held: not unlawful
            t = p.tournament
            if t.type not in MT_TYPES or t.is_large != large:
                yield bad(f"it lists {ref}, a {t.type} tournament; a {label} covers only "
                          f"{'large' if large else 'small'}-stakes tournaments "
                          f"(MCA 23-5-317{clause})", (ref,))
            elif not any(lic.valid_from <= d <= lic.valid_to for d in p.timing.days):
                yield bad(f"it lists {ref}, played {day_span(p.first_day, p.timing.last_day)}, "
                          f"but no day of play falls in its validity "
                          f"{day_span(lic.valid_from, lic.valid_to)}", (ref,))


def _check_permits(a: Audit) -> Iterator[Violation]:
    """Every day of play of every MT tournament lies in a permit of its kind held for that
    permit year (bought, listed in licenses.csv, or already held before the plan); then each
    licences.csv row itself (:func:`_check_permit_rows`)."""
    yield from _check_permit_rows(a)
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        for large, kind, fee in _permit_kinds():
            mine = [(lic.valid_from, _effective_end(op, lic)) for lic in a.licenses
                    if lic.operator_id == op.id and lic.kind == kind]
            for p in a.of_operator(op):
                if p.tournament.is_large != large:
                    continue
                for py in op.permit_years_of(p.timing.days):
                    if _permit_already_held(op, sc, py, large):
                        continue
                    days = [d for d in p.timing.days if op.permit_year_of(d) == py]
                    missing = [d for d in days if not any(
                        valid_from <= d <= end for valid_from, end in mine)]
                    if missing:
                        yield Violation(
                            "MT-PERMIT-FEES", op.id, (p.ref,), day_span(missing[0], missing[-1]),
                            f"{op.name} holds {p.ref} on {day_span(p.first_day, p.timing.last_day)}"
                            f" without a {_permit_label(kind)} for the {py} permit year "
                            f"({usd(fee)}): play on {day_span(missing[0], missing[-1])} falls in "
                            "it, and a permit is needed for every permit year a day of play "
                            "falls in")


MT_PERMIT_FEES = Rule("MT-PERMIT-FEES", encode=_encode_permits, check=_check_permits)
