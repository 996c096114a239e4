"""report.html: one self-contained page about a plan (and, later, its alternatives), as a
manager prints it for the staff room.

In order: each operator's tournaments with their dates (date, weekday, title, days and hours
of play, the notice or application due, the licence or permit in people's words), the
summary, the year of every operator (a table: :mod:`scheduler.export.year_table`) and the
limits used, the deadlines (deadlines.csv's lines, in words), the fees and the licences to
buy (periods, fees, what each covers, why, when to apply), the occurrences not placed with
their reasons, the readings (settings) used, and the not-legal-advice note. Each state's
limits, captions and readings appear only when the plan has an operator in that state. Ids
(operators, occurrences, licences) appear only in small ``<code class="id">`` beside the name
they belong to, for the commands that need them.

Rendered from the Jinja2 template ``templates/report.html.j2`` (autoescaped: user text is
never markup). The charts (limits used, fees) are embedded as base64 PNG; the page has no
script, no stylesheet or font link and no external URL, so it opens offline and can be mailed
as one file. Its stylesheet wraps every line at 1,024 px and prints on A4 or Letter (print
CSS: sections on new pages, table headers repeated on each page).

Deterministic: the same plan(s) give byte-identical HTML (PNG without software or date
metadata; no time stamp on the page).
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import functools
import gc
import multiprocessing as mp
import signal
from collections import Counter
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from constraints import maine, montana
from constraints.base import License
from constraints.catalogue import cite
from constraints.maine import LICENCE_RULES, MONTHLY_LIMIT
from constraints.montana import CHARITY_LIMIT, LARGE_LIMIT
from scheduler.core.jurisdiction import codes, installed, jurisdiction, state_name
from scheduler.core.pool import process_pool, stop_workers
from scheduler.core.timing import file_by_note
from scheduler.export import figures
from scheduler.export.deadlines import plan_deadlines
from scheduler.export.summary import state_readings, summary_text
from scheduler.export.year_table import colours, year_table
from scheduler.result.deadlines import Deadline, deadline_table
from scheduler.result.plan import OperatorOccurrence, Plan
from scheduler.result.words import (
    dated_text,
    day_text,
    hours_text,
    licence_text,
    span_text,
    weekday_text,
)

if TYPE_CHECKING:  # start-up time: matplotlib only when a figure is drawn
    from matplotlib.figure import Figure

def not_legal_advice(states: Sequence[str] | None = None) -> str:
    """The not-legal-advice note naming the statutes and agencies of ``states`` (codes, e.g.
    ``[MT]``; every jurisdiction's by default: :data:`NOT_LEGAL_ADVICE`), each from its
    :class:`~scheduler.core.jurisdiction.Jurisdiction` (``statute``, ``agency``, ``filing``)."""
    mine = [j for j in installed() if states is None or j.code in states] or list(installed())
    law = ("the statutes (" if len(mine) > 1 else "the statute (") + \
        ", ".join(j.statute for j in mine) + ")"
    return (f"Not legal advice. This plan records one reading of the scenario's licences and "
            f"of {law}. Check every plan with {' or '.join(j.agency for j in mine)}, and "
            f"with your own counsel, before filing {' or '.join(j.filing for j in mine)}.")


NOT_LEGAL_ADVICE = not_legal_advice()
"""The note of a plan in both states (each state's alone: :func:`not_legal_advice`)."""

_KIND_RULE = {
    "mt-large-stakes-permit": "MT-PERMIT-FEES",
    "mt-small-stakes-permit": "MT-PERMIT-FEES",
    **LICENCE_RULES,
}
"""Licence kind → the rule it is bought under (Maine: :data:`constraints.maine.LICENCE_RULES`)."""


def _where_to_file(states: Sequence[str]) -> str:
    """Where the notices and applications of the dates tables go, for the plan's states:
    each state's ``words["filed_what"]`` and ``words["filed_where"]``, the first with
    "goes"."""
    parts = [(jurisdiction(c).words["filed_what"], jurisdiction(c).words["filed_where"])
             for c in states if "filed_where" in jurisdiction(c).words]
    if not parts:
        return ""
    return (f"A {parts[0][0]} goes to {parts[0][1]}"
            + "".join(f", a {what} to {where}" for what, where in parts[1:]) + ".")


def _nothing_to_file(states: Sequence[str]) -> str:
    """What the Deadlines section says when there is nothing to file: a state's own sentence
    (``words["nothing_to_file"]``) when it is the plan's only one, else each state's part
    (``words["nothing_filed"]``) joined."""
    if len(states) == 1:
        return jurisdiction(states[0]).words.get("nothing_to_file", "Nothing to file.")
    return ("Nothing to file: " + " and ".join(
        jurisdiction(c).words["nothing_filed"] for c in states
        if "nothing_filed" in jurisdiction(c).words) + ".")



@functools.cache
def _environment() -> Environment:
    return Environment(loader=PackageLoader("scheduler.export", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)




def _labels(plans: Sequence[Plan]) -> list[str]:
    if len(plans) == 1:
        return ["Plan"]
    return ["Plan 1 (best)"] + [f"Alternative {k}" for k in range(2, len(plans) + 1)]


def _states(plan: Plan) -> list[str]:
    """The plan's states (``MT``, ``ME``), in registry order: those of its operators."""
    have = {op.jurisdiction for op in plan.scenario.operators}
    return [s for s in codes() if s in have]


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _differences(plans: Sequence[Plan], labels: list[str]) -> list[dict[str, Any]]:
    """For each alternative, the first days that differ from the best plan, by tournament:
    the days only the best plan uses and the days only the alternative uses."""
    def days(plan: Plan) -> dict[str, set[dt.date]]:
        out: dict[str, set[dt.date]] = {}
        for r in plan.rows:
            out.setdefault(r.tournament_id, set()).add(r.first_day)
        return out

    best = days(plans[0])
    rows = []
    for plan, label in zip(plans[1:], labels[1:], strict=True):
        mine = days(plan)
        for t in plan.scenario.tournaments:
            gone = sorted(best.get(t.id, set()) - mine.get(t.id, set()))
            new = sorted(mine.get(t.id, set()) - best.get(t.id, set()))
            if gone or new:
                rows.append({"label": label, "title": t.title, "id": t.id,
                             "gone": "; ".join(map(day_text, gone)),
                             "new": "; ".join(map(day_text, new))})
    return rows


REPORT_OPERATORS = 12
"""The most operators a report shows a year table (and usage bars) for: a statewide plan
of hundreds of operators shows the :func:`report_operators` selection (a page of hundreds
of years, or a legend entry per operator, cannot be read)."""


def report_operators(plan: Plan) -> list[str]:
    """The operator ids whose year calendar and usage bars the report draws: every operator
    when there are at most :data:`REPORT_OPERATORS`; else that many, those with the most
    occurrences not placed first (what a person must look at), then in scenario order.
    Every operator's year stays in ``calendars/<operator>.ics`` and plan.xlsx."""
    ops = [o.id for o in plan.scenario.operators]
    if len(ops) <= REPORT_OPERATORS:
        return ops
    missing = dict.fromkeys(ops, 0)
    for u in plan.unscheduled_list:
        for oid in u.operators:
            if oid in missing:
                missing[oid] += 1
    order = sorted(range(len(ops)), key=lambda k: (-missing[ops[k]], k))
    chosen = set(sorted(order[:REPORT_OPERATORS]))
    return [ops[k] for k in range(len(ops)) if k in chosen]


Order = tuple[str, int]
"""A figure of the report: what is drawn (``usage``, ``fees``) and of which plan (its
index)."""


class _Pictures:
    """The report's figures: each asked for by :meth:`side` (an ``<img>`` whose ``src`` is
    filled later), all drawn by :meth:`draw` before the page is rendered, in a fork pool of
    ``jobs`` workers when above 1 (the same bytes: each figure is drawn alone)."""

    def __init__(self, plans: Sequence[Plan], labels: list[str],
                 operators: Sequence[str] | None) -> None:
        self.plans, self.labels, self.operators = plans, labels, operators
        self.orders: list[tuple[Order, dict[str, str]]] = []

    def side(self, draw: str, alt: str) -> list[dict[str, str]]:
        """Figures of the same kind, one per plan, shown side by side (the usage bars of
        the report's selection of operators; the fees)."""
        out = []
        for k, label in enumerate(self.labels):
            img = {"src": "", "alt": f"{label}: {alt}" if len(self.plans) > 1 else alt}
            self.orders.append(((draw, k), img))
            out.append(img)
        return out

    def draw(self, jobs: int) -> None:
        """Fill every ``src`` (a base64 PNG), in this process or, with ``jobs`` above 1
        where the system forks, in a pool of forked workers (Ctrl-C stops them; a
        worker's failure is raised here)."""
        if jobs <= 1 or len(self.orders) <= 1 or "fork" not in mp.get_all_start_methods():
            for order, img in self.orders:
                img["src"] = _src(order, self.plans, self.operators)
            return
        # the workers are forked with the plans (nothing pickled but the PNGs) and with
        # matplotlib imported (figures.png_bytes imports it only when first drawn)
        from matplotlib.backends import backend_agg  # noqa: F401  start-up time: here only

        pool = process_pool(jobs, len(self.orders), initializer=_init_worker,
                            initargs=(self.plans, self.operators))
        try:
            futures = [pool.submit(_worker_src, order) for order, _ in self.orders]
            for future, (_, img) in zip(futures, self.orders, strict=True):
                img["src"] = future.result()
        except BaseException:
            stop_workers(pool)  # stop drawing at once
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _src(order: Order, plans: Sequence[Plan], operators: Sequence[str] | None) -> str:
    """The ``src`` of one figure (:data:`Order`): a base64 PNG data URL."""
    draw, k = order
    fig: Figure = (figures.plot_usage(plans[k], operators) if draw == "usage"
                   else figures.plot_fees(plans[k]))
    return "data:image/png;base64," + base64.b64encode(figures.png_bytes(fig)).decode("ascii")


_DRAWING: tuple[Sequence[Plan], Sequence[str] | None] | None = None
"""In a worker of :meth:`_Pictures.draw`: what :func:`_src` draws from (set as it starts)."""


def _init_worker(plans: Sequence[Plan], operators: Sequence[str] | None) -> None:
    """A drawing worker leaves Ctrl-C to the parent (which stops it) and keeps the plans."""
    global _DRAWING
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _DRAWING = (plans, operators)


def _worker_src(order: Order) -> str:
    assert _DRAWING is not None
    return _src(order, *_DRAWING)


def usage_caption(plan: Plan, operators: Sequence[str] | None = None) -> str:
    """The caption of the limits-used chart: only the limits it draws for ``plan`` (those of
    :func:`scheduler.export.figures.usage_bars`, ``operators`` as there), so a plan in one
    state never names the other's limits (MT-LARGE-LIMIT, MT-CHARITY-LIMIT: Montana;
    ME-MONTHLY-LIMIT: Maine)."""
    drawn = set(figures.usage_bars(plan, operators))
    parts = []
    if "MT-LARGE-LIMIT" in drawn:
        parts.append(f"Counted tournaments against MT-LARGE-LIMIT ({LARGE_LIMIT} per permit "
                     f"year; charitable ones beyond the first {CHARITY_LIMIT} hatched)")
    if "MT-CHARITY-LIMIT" in drawn:
        parts.append(f"charitable ones not counted (MT-CHARITY-LIMIT, the first "
                     f"{CHARITY_LIMIT})")
    if "ME-MONTHLY-LIMIT" in drawn:
        parts.append(("" if parts else "Maine games counted against ")
                     + f"ME-MONTHLY-LIMIT ({MONTHLY_LIMIT} per month)")
    parts += sorted(drawn - {"MT-LARGE-LIMIT", "MT-CHARITY-LIMIT", "ME-MONTHLY-LIMIT"})
    if not parts:
        return "No counted limit in this plan"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _summary_table(plans: Sequence[Plan]) -> dict[str, Any]:
    sc = plans[0].scenario
    rows: list[tuple[str, list[str]]] = [
        ("Status", [p.status for p in plans]),
        ("Occurrences placed",
         [str(len({(r.tournament_id, r.occurrence) for r in p.rows})) for p in plans]),
        ("Occurrences not placed", [str(len(p.unscheduled_list)) for p in plans]),
        ("Every required occurrence placed", ["yes" if p.required_met else "NO" for p in plans]),
        ("Fees (USD)", [f"${p.total_fees_usd:,}" for p in plans]),
        ("Occurrences on preferred weekdays",
         [str(p.objective.get("preferred", "")) for p in plans]),
    ]
    # each plan's counts by operator in one pass over its rows (not one pass per operator)
    tallies = []
    for p in plans:
        placed_by = Counter(r.operator_id for r in p.rows)
        missing_by = Counter(oid for u in p.unscheduled_list for oid in set(u.operators))
        fees_by: dict[str, int | Decimal] = {}
        for lic in p.license_list:
            fees_by[lic.operator_id] = fees_by.get(lic.operator_id, 0) + lic.fee_usd
        tallies.append((placed_by, missing_by, fees_by))
    operators = []
    for op in sc.operators:
        cells = []
        for placed_by, missing_by, fees_by in tallies:
            placed = placed_by[op.id]
            wanted = placed + missing_by[op.id]
            cells.append(f"{placed} of {wanted} placed, ${fees_by.get(op.id, 0):,}")
        operators.append({"name": op.name, "id": op.id,
                          "state": state_name(op.jurisdiction),
                          "cells": cells})
    return {"rows": [{"label": k, "cells": v} for k, v in rows], "operators": operators}


def _summary_lines(plan: Plan) -> list[str]:
    """The lines of summary.txt but its readings and its not-legal-advice line (the page
    has both in full, for the plan's own states only)."""
    return [line for line in summary_text(plan).splitlines()
            if not line.startswith(("Readings:", "Not legal advice"))]


def _firsts(plan: Plan) -> dict[str, tuple[int, OperatorOccurrence]]:
    """Each occurrence's (``ref``) first row in ``plan.rows`` sorted by first day and ref,
    with its position in that order: what :func:`_covers` lists, sorted once per plan."""
    firsts: dict[str, tuple[int, OperatorOccurrence]] = {}
    for k, (ref, r) in enumerate(sorted(((r.ref, r) for r in plan.rows),
                                        key=lambda x: (x[1].first_day, x[0]))):
        firsts.setdefault(ref, (k, r))
    return firsts


def _covers(lic: License, firsts: dict[str, tuple[int, OperatorOccurrence]]) -> list[str]:
    """What a licence covers in words, grouped by tournament: ``Hold'em on Sat, Jan 9, 2027``
    or ``Hold'em: 12 occurrences, Jan 9, 2027 to Dec 4, 2027`` (``firsts``: :func:`_firsts`
    of its plan); an occurrence the plan does not place is named by its id."""
    refs = set(lic.covers)
    by_t: dict[str, list[OperatorOccurrence]] = {}
    seen: set[str] = set()
    for _, r in sorted(firsts[ref] for ref in refs if ref in firsts):
        seen.add(r.ref)
        by_t.setdefault(r.tournament_id, []).append(r)
    parts = []
    for rows in by_t.values():
        if len(rows) == 1:
            parts.append(f"{rows[0].title} on {dated_text(rows[0].first_day)}")
        else:
            parts.append(f"{rows[0].title}: {len(rows)} occurrences, "
                         f"{day_text(rows[0].first_day)} to {day_text(rows[-1].first_day)}")
    missing = sorted(refs - seen)
    if missing:
        parts.append("also " + ", ".join(missing))
    return parts


def _licence_words(lic: License, state: bool = False) -> str:
    return licence_text(lic.kind, lic.tier, lic.valid_from, lic.valid_to, state=state)


def _licences(plan: Plan, deadlines: list[Deadline]) -> dict[str, Any]:
    """The Licences table of ``plan`` (``deadlines``: its :func:`plan_deadlines`)."""
    apply_by = {d.license_id: d.date for d in deadlines if d.rule == "ME-APPLICATION-WINDOW"}
    firsts = _firsts(plan)
    names = {op.id: op.name for op in plan.scenario.operators}
    rows = []
    for lic in sorted(plan.license_list, key=lambda x: (x.operator_id, x.valid_from,
                                                         x.license_id)):
        rule = _KIND_RULE.get(lic.kind)
        due = apply_by.get(lic.license_id)
        rows.append({"words": _licence_words(lic, state=True), "id": lic.license_id,
                     "operator": names.get(lic.operator_id, lic.operator_id),
                     "valid": span_text(lic.valid_from, lic.valid_to),
                     "fee": f"${lic.fee_usd:,}", "apply_by": dated_text(due) if due else "",
                     "covers": _covers(lic, firsts), "why": cite(rule) if rule else ""})
    # only the jurisdictions this plan buys licences in: what the Apply by column means, then
    # each state's other note
    buying = [j for j in installed() if any(lic.jurisdiction == j.code
                                            for lic in plan.license_list)]
    notes = [j.words[key] for key in ("apply_by_note", "licence_note") for j in buying
             if key in j.words]
    return {"rows": rows, "total": f"${plan.total_fees_usd:,}", "notes": " ".join(notes)}


def _unscheduled(plan: Plan) -> dict[str, Any]:
    sc = plan.scenario
    names = {op.id: op.name for op in sc.operators}
    rows = []
    for u in plan.unscheduled_list:
        try:
            title = sc.tournament(u.tournament_id).title
        except KeyError:
            title = u.tournament_id
        rows.append({"title": title, "ref": f"{u.tournament_id}#{u.occurrence}",
                     "operators": ", ".join(names.get(o, o) for o in u.operators),
                     "required": "yes" if u.required else "no", "reason": u.reason,
                     "rules": " ".join(u.rule_ids)})
    conflicts = []
    for k, conflict in enumerate(plan.conflicts, start=1):
        cert = getattr(conflict, "certificate", None)
        conflicts.append({
            "intro": (f"Conflict {k}: these cannot all hold"
                      + ("" if getattr(conflict, "minimal", True) else " (not proven minimal)")
                      + (f", because {cert}" if cert else "") + ":"),
            "items": [m.render() for m in conflict]})
    return {"rows": rows, "conflicts": conflicts}


def _deadline_rows(plan: Plan, lines: list[Deadline]) -> list[tuple[Any, ...]]:
    """The Deadlines table (one tuple a row: date, file by, operator, what, opens, rule,
    ids): deadlines.csv's lines in its shape
    (:func:`scheduler.result.deadlines.deadline_table`: the same columns in the same order,
    the same ``what``), dates in words with their weekdays; the rule with its citation in
    one cell, and the ids a command needs (operator, occurrence, licence) in the last."""
    names = {op.id: op.name for op in plan.scenario.operators}
    rows = []
    for row in deadline_table(lines, names):
        date, file_by, opens = row["date"], row["file_by"], row["opens"]
        assert isinstance(date, dt.date) and isinstance(file_by, dt.date)
        rows.append((dated_text(date), "" if file_by == date else dated_text(file_by),
                     row["operator"], row["what"],
                     dated_text(opens) if isinstance(opens, dt.date) else "",
                     cite(str(row["rule"])),
                     [str(row[k]) for k in ("operator_id", "occurrence", "license_id")
                      if row[k]]))
    return rows


def _due(r: OperatorOccurrence, windows: dict[str, Deadline]) -> str:
    """What is due before occurrence row ``r``: its MT notice (MT-NOTICE) or its Maine
    licence's application (ME-APPLICATION-WINDOW); empty when nothing is."""
    if r.notice_due is not None:
        return (f"notify the Gambling Control Division by {dated_text(r.notice_due)}"
                + file_by_note(r.notice_due, montana.CODE))
    w = windows.get(r.license_id)
    if w is not None and w.opens is not None:
        return (f"application received {day_text(w.opens)} to {dated_text(w.date)}"
                + file_by_note(w.date, maine.CODE))
    return ""


def _row_licence(r: OperatorOccurrence, lics: dict[str, License]) -> str:
    lic = lics.get(r.license_id)
    if lic is not None:
        return _licence_words(lic)
    if r.permit_year is not None:  # a Montana permit (only Montana counts permit years)
        kind = "large" if r.type == "large-stakes" else "small"
        return (f"{kind}-stakes permit for the permit year from {day_text(r.permit_year)} "
                "(already held)")
    return ""


def _dates(plan: Plan, lines: list[Deadline]) -> list[dict[str, Any]]:
    """The dates tables: per operator (scenario order) every occurrence placed there (one
    row per row of schedule.csv, a tuple: date, weekday, title, ref, days, hours, due,
    licence), by start."""
    lics = {lic.license_id: lic for lic in plan.license_list}
    windows = {d.license_id: d for d in lines if d.rule == "ME-APPLICATION-WINDOW"}
    by_op: dict[str, list[OperatorOccurrence]] = {}
    for r in plan.rows:
        by_op.setdefault(r.operator_id, []).append(r)
    # the rows sharing a notice day or a licence share their words: each worded once
    dues: dict[tuple[dt.date | None, str], str] = {}
    held: dict[tuple[str, dt.date | None, str], str] = {}
    out = []
    for op in plan.scenario.operators:
        rows = []
        for r in sorted(by_op.get(op.id, []), key=lambda r: (r.start, r.first_day, r.ref)):
            due = (r.notice_due, r.license_id)
            if due not in dues:
                dues[due] = _due(r, windows)
            licence = (r.license_id, r.permit_year, r.type)
            if licence not in held:
                held[licence] = _row_licence(r, lics)
            # a tuple, unpacked by the template (a dict's keys are looked up as attributes
            # first: most of the page's rendering time at thousands of rows)
            rows.append((day_text(r.first_day), weekday_text(r.first_day), r.title, r.ref,
                         span_text(r.first_day, r.last_day), hours_text(r.start, r.end),
                         dues[due], held[licence]))
        out.append({"name": op.name, "id": op.id, "state": state_name(op.jurisdiction),
                    "rows": rows})
    return out


def _readings(plan: Plan, states: list[str]) -> dict[str, Any]:
    sc = plan.scenario
    items, shown = state_readings(sc, states)
    settings = [(k, ", ".join(map(str, v)) if isinstance(v, tuple) else str(v))
                for k, v in shown]
    settings += [("horizon", f"{sc.horizon.start.isoformat()} to {sc.horizon.end.isoformat()}"),
                 ("notice_from", sc.notice_from.isoformat()), ("seed", str(plan.seed))]
    return {"items": items, "settings": settings}


@contextlib.contextmanager
def _old_objects_frozen() -> Iterator[None]:
    """The objects alive before (the plan, the solver's leftovers) left out of the garbage
    collector's passes until the end (:func:`gc.freeze`): a page of thousands of rows makes
    hundreds of thousands of strings, and each full pass would walk the whole heap again
    (a third of the tables' time at N = 200, issue #27). Nothing is kept longer than
    without: the objects made here are collected as usual."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def report_html(plan: Plan, alternatives: Sequence[Plan] | None = None, *,
                jobs: int = 1) -> str:
    """The report page of ``plan`` as HTML text (UTF-8 when written).

    ``alternatives``: other plans of the same scenario (issue 5 § 3), shown beside ``plan`` in
    the summary table and in every figure row; the licence and not-placed lists of each
    alternative follow in their own sections; the dates tables and the deadlines are
    ``plan``'s. Same plan(s) → the same text, byte for byte, whatever ``jobs``: above 1,
    the figures are drawn by that many forked processes at once (where the system forks).
    Raises ``ValueError`` when an alternative is of another scenario.
    """
    with _old_objects_frozen():
        return _report_html(plan, alternatives, jobs)


def _report_html(plan: Plan, alternatives: Sequence[Plan] | None, jobs: int) -> str:
    plans = [plan, *(alternatives or [])]
    if any(p.scenario != plan.scenario for p in plans[1:]):
        raise ValueError("alternatives must be plans of the same scenario")
    sc = plan.scenario
    labels = _labels(plans)
    states = _states(plan) or list(codes())
    # each plan's deadlines once: every year calendar, the licences and the Deadlines table
    deadlines = [plan_deadlines(p) for p in plans]
    shown = report_operators(plan)
    chosen = None if len(shown) == len(sc.operators) else shown
    drawn = set(shown)
    pictures = _Pictures(plans, labels, chosen)
    rows_by: list[dict[str, list[OperatorOccurrence]]] = []
    for p in plans:  # each plan's rows by operator, once (not a pass per operator)
        rows_by.append({oid: [] for oid in drawn})
        for r in p.rows:
            if r.operator_id in drawn:
                rows_by[-1][r.operator_id].append(r)
    years = [{"name": op.name, "id": op.id,
              "state": state_name(op.jurisdiction),
              "tables": [{"alt": (f"{label}: " if len(plans) > 1 else "")
                                 + f"The year of {op.name}",
                          "year": year_table(p, op.id, deadlines[k], rows_by[k][op.id])}
                         for k, (p, label) in enumerate(zip(plans, labels, strict=True))]}
             for op in sc.operators if op.id in drawn]
    usage = pictures.side("usage", usage_caption(plan, chosen))
    fees = pictures.side("fees", "Licence and permit fees by kind (USD)")
    pictures.draw(jobs)
    per_plan = [{"suffix": "" if len(plans) == 1 else f": {label}",
                 "anchor": "" if k == 0 else f"-{k + 1}",
                 "licences": _licences(p, deadlines[k]), "unscheduled": _unscheduled(p)}
                for k, (p, label) in enumerate(zip(plans, labels, strict=True))]
    n_ops, n_t = len(sc.operators), len(sc.tournaments)
    return _environment().get_template("report.html.j2").render(
        name=sc.name,
        intro=(f"Horizon {day_text(sc.horizon.start)} to {day_text(sc.horizon.end)}; notices "
               f"and applications from {day_text(sc.notice_from)}; "
               f"{_plural(n_ops, 'operator')}, {_plural(n_t, 'tournament')}."),
        legal=not_legal_advice(states),
        dates=_dates(plan, deadlines[0]),
        where_to_file=_where_to_file(states),
        labels=labels,
        summary=_summary_table(plans),
        summary_lines=_summary_lines(plan),
        differences=_differences(plans, labels) if len(plans) > 1 else None,
        pictures_note=(None if chosen is None else
                       f"{n_ops} operators: the year tables show {len(shown)} of them, those with "
                       "the most occurrences not placed first, then in the scenario's order. "
                       "Every operator's year is in calendars/<operator>.ics and plan.xlsx; "
                       "the tables list every operator."),
        years=years,
        year_colours=colours(),
        usage=usage,
        deadlines=_deadline_rows(plan, deadlines[0]),
        nothing_to_file=_nothing_to_file(states),
        fees=fees,
        plans=per_plan,
        readings=_readings(plan, states),
    )


__all__ = ["NOT_LEGAL_ADVICE", "REPORT_OPERATORS", "not_legal_advice", "report_html",
           "report_operators", "usage_caption"]
