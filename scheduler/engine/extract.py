"""A Plan from a CP-SAT solution: placed occurrences numbered by date, one row per operator,
the licences and permits bought with the occurrences each covers, the ``counted`` column.

``extract`` reads the values of the model's ``z`` and licence Booleans; the UIDs are set for
the whole plan afterwards (:func:`scheduler.result.publishing.identify`), the objective, bounds and
reasons by :func:`scheduler.engine.parts.solve_part`. ``placed_of``/``audit_of`` give the plan back
to
the independent check (``constraints.registry.check``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from ortools.sat.python import cp_model

from constraints import montana
from constraints.base import Audit, License, Occurrence
from constraints.modelling import LicenseOption, ModelContext, Placement
from constraints.montana import LargeItem, large_tally, progressive_starts
from scheduler.core.jurisdiction import jurisdiction
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import notice_due
from scheduler.result.plan import OperatorOccurrence, Plan, PlanStatus
from scheduler.result.usage import placed

__all__ = ["audit_of", "extract", "placed_of"]


def _license_id(kind: str, code: str, operator_id: str, valid_from: dt.date,
                extra: str = "") -> str:
    short = kind.removeprefix(f"{code.lower()}-")  # mt-large-stakes-permit: large-stakes-permit
    return f"{operator_id}/{short}/{valid_from.isoformat()}" + (f"/{extra}" if extra else "")


def extract(ctx: ModelContext, solver: cp_model.CpSolver, status: PlanStatus, seed: int
            ) -> Plan:
    """The Plan of the solution ``solver`` holds for the model ``ctx``: rows sorted by first
    day, tournament, occurrence, operator; licences in order of operator and preference (only
    those covering an occurrence); ``status`` and ``seed`` as given; nothing unscheduled yet,
    no UIDs (empty), no objective."""
    sc = ctx.scenario
    # every variable's value, by index (what solver.value reads, read once: a call per
    # candidate day and licence cost a tenth of the audit at N = 200)
    value = list(solver.response_proto.solution)
    placed: list[tuple[Tournament, int, Placement]] = []
    for t in sc.tournaments:
        chosen = [c for c, z in ctx.starts(t) if value[z.index]]
        placed.extend((t, k, c) for k, c in enumerate(chosen, start=1))
    bought = sorted((o for o in ctx.licenses if value[o.var.index]),
                    key=lambda o: (o.operator_id, o.rank, o.valid_from, o.kind, o.tier))
    covers: dict[int, list[str]] = defaultdict(list)
    license_of: dict[tuple[str, str], list[str]] = defaultdict(list)
    of_operator: dict[str, list[tuple[int, LicenseOption]]] = defaultdict(list)
    for i, o in enumerate(bought):
        of_operator[o.operator_id].append((i, o))
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            for i, o in of_operator.get(oid, ()):
                if o.covers(t, c.timing):
                    covers[i].append(ref)
                    # every licence or permit it needs (MT: one per permit year it is played
                    # in, MT-PERMIT-FEES), so schedule.csv names them all; ME: the first
                    license_of[(ref, oid)].append(str(i))
                    if jurisdiction(o.jurisdiction).one_licence_each:
                        break
    licenses: list[License] = []
    ids: dict[str, str] = {}
    for i, o in enumerate(bought):
        refs = covers.get(i, [])
        if not refs:
            continue
        # ME: a per-tournament licence ends with its tournament's id (the date is in the id:
        # stable while the game stays put, whatever number it has; deadline UIDs are made
        # from licence ids), another with its tier; MT: nothing
        extra = jurisdiction(o.jurisdiction).hook("licence_id_part")(
            o.kind, o.tier, refs[0].split("#")[0]) or ""
        lid = _license_id(o.kind, o.jurisdiction, o.operator_id, o.valid_from, extra)
        ids[str(i)] = lid
        licenses.append(License(lid, o.operator_id, o.jurisdiction, o.kind, o.tier,
                                o.valid_from, o.valid_to, o.fee_usd, tuple(refs)))

    free = _free_charitable(sc, placed)
    # MT-PROGRESSIVE: every venue's notice is due 5 days before the progressive's first round
    starts = progressive_starts(sc, ((t.id, c.first_day) for t, _, c in placed))
    rows: list[OperatorOccurrence] = []
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            op = sc.operator(oid)
            permit_years = jurisdiction(op.jurisdiction).permit_years
            counted = (t.is_large and (ref, oid) not in free) or t.is_me_licensed_game
            rows.append(OperatorOccurrence(
                tournament_id=t.id, occurrence=k, operator_id=oid,
                jurisdiction=op.jurisdiction, type=t.type, charitable=t.charitable,
                title=t.title, start=c.timing.start, end=c.timing.end,
                first_day=c.first_day, last_day=c.timing.last_day,
                notice_due=(notice_due(starts.get(t.id, c.first_day)) if t.is_large
                            else None),
                permit_year=op.permit_year_of(c.first_day) if permit_years else None,
                counted=counted, players=t.players,
                license_id=" ".join(ids[i] for i in license_of.get((ref, oid), ())
                                    if i in ids),
                uid="", sequence=0))  # set for the whole plan by publishing.identify
    rows.sort(key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id))
    return Plan(sc, tuple(rows), tuple(licenses), (), status, seed=seed)


def _free_charitable(sc: Scenario, placed: list[tuple[Tournament, int, Placement]]
                     ) -> set[tuple[str, str]]:
    """(ref, operator id) of the placed charitable large-stakes occurrences that are not
    counted toward the operator's 16 (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f); the reading of
    :func:`constraints.montana.large_tally`)."""
    out: set[tuple[str, str]] = set()
    for op in sc.operators:
        if op.jurisdiction != montana.CODE:
            continue
        mine = [LargeItem(c.first_day, t.id, k, t.charitable, c.timing.days)
                for t, k, c in placed if t.is_large and op.id in t.operators]
        if any(x.charitable for x in mine):
            tallies = large_tally(sc, op, mine).values()
            # one played in two permit years (permit_year_count: each) is not counted only
            # when it is free in both
            counted = {r for tally in tallies for ref in tally.counted_order
                       for r in (ref, *tally.counted_with(ref))}
            out.update((r, op.id) for tally in tallies for ref in tally.free
                       for r in (ref, *tally.counted_with(ref)) if r not in counted)
    return out


def audit_of(plan: Plan) -> Audit:
    """What the independent check reads of ``plan``: its occurrences and licences."""
    return Audit(plan.scenario, placed_of(plan), list(plan.license_list))


def placed_of(plan: Plan) -> list[Occurrence]:
    """The plan's occurrences (one per occurrence, not per operator) for the checker
    (:func:`scheduler.result.usage.placed`, what the rules' usage reads too)."""
    return placed(plan)
