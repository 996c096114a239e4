"""report.html: one self-contained page about a plan (and, later, its alternatives).

The page holds the summary, the limit usage and fees charts, the year picture of every
operator, the licences to buy (periods, fees, what each covers, why, when to apply), the
occurrences not placed with their reasons, the deadlines (deadlines.csv's lines: what to
file or do by when), the readings (settings) used, and the
not-legal-advice note. Figures are embedded as base64 PNG; the page has no script, no
stylesheet or font link and no external URL, so it opens offline and can be mailed as one file.

Deterministic: the same plan(s) give byte-identical HTML (PNG without software or date
metadata; no time stamp on the page). All user text (names, titles, addresses, reasons) is
HTML-escaped.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from constraints.base import License
from constraints.catalogue import cite
from constraints.maine import LICENCE_RULES, MONTHLY_LIMIT
from constraints.montana import CHARITY_LIMIT, LARGE_LIMIT
from scheduler.deadlines import Deadline, list_deadlines
from scheduler.export import figures
from scheduler.export.checklist import readings
from scheduler.export.deadlines import plan_deadlines
from scheduler.export.summary import summary_text
from scheduler.plan import OperatorOccurrence, Plan
from scheduler.timing import MT_NOTICE_DAYS

if TYPE_CHECKING:  # start-up time: matplotlib only when a figure is drawn
    from matplotlib.figure import Figure

NOT_LEGAL_ADVICE = (
    "Not legal advice. This plan records one reading of the scenario's licences and of the "
    "statutes (Montana MCA 23-5-317, Maine 17 M.R.S. § 1836). Check every plan with the "
    "Montana Gambling Control Division or the Maine Gambling Control Unit, and with your own "
    "counsel, before filing a notice or an application.")

_KIND_RULE = {
    "mt-large-stakes-permit": "MT-PERMIT-FEES",
    "mt-small-stakes-permit": "MT-PERMIT-FEES",
    **LICENCE_RULES,
}
"""Licence kind → the rule it is bought under (Maine: :data:`constraints.maine.LICENCE_RULES`)."""

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em;
       color: #222; max-width: 1400px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.note { background: #fff4e5; border: 1px solid #f0b429; padding: 0.6em 0.9em; }
.side { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.side figure { margin: 0; flex: 1 1 0; min-width: 420px; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
.muted { color: #666; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _img(fig: Figure, alt: str) -> str:
    data = base64.b64encode(figures.png_bytes(fig)).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{_e(alt)}">'


def _labels(plans: Sequence[Plan]) -> list[str]:
    if len(plans) == 1:
        return ["Plan"]
    return ["Plan 1 (best)"] + [f"Alternative {k}" for k in range(2, len(plans) + 1)]


def _differences(plans: Sequence[Plan], labels: list[str]) -> str:
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
                rows.append(f"<tr><td>{_e(label)}</td><td>{_e(t.id)}</td><td>{_e(t.title)}</td>"
                            f"<td>{', '.join(d.isoformat() for d in gone)}</td>"
                            f"<td>{', '.join(d.isoformat() for d in new)}</td></tr>")
    if not rows:
        return "<p>The alternatives use the same first days as the best plan.</p>"
    return ("<table><thead><tr><th>plan</th><th>tournament</th><th>title</th>"
            f"<th>only in {_e(labels[0])}</th><th>only in this plan</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


REPORT_OPERATORS = 12
"""The most operators a report draws a year calendar (and usage bars) for: a statewide plan
of hundreds of operators shows the :func:`report_operators` selection (one picture each
took most of ``--report``'s time, and a legend entry per operator cannot be read)."""


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


def _side(plans: Sequence[Plan], labels: list[str], draw: str, alt: str,
          operator_id: str | None = None, operators: Sequence[str] | None = None,
          deadlines: Sequence[list[Deadline]] | None = None) -> str:
    """Figures of the same kind, one per plan, side by side (``operators``: the usage bars'
    selection, default every operator; ``deadlines``: each plan's
    :func:`scheduler.deadlines.list_deadlines`, for the year calendars)."""
    out = ['<div class="side">']
    for k, (plan, label) in enumerate(zip(plans, labels, strict=True)):
        if draw == "calendar":
            assert operator_id is not None
            fig = figures.plot_calendar(plan, operator_id,
                                        None if deadlines is None else deadlines[k])
        elif draw == "usage":
            fig = figures.plot_usage(plan, operators)
        else:
            fig = figures.plot_fees(plan)
        caption = f"{label}: {alt}" if len(plans) > 1 else alt
        out.append(f"<figure>{_img(fig, caption)}<figcaption>{_e(caption)}</figcaption>"
                   "</figure>")
    out.append("</div>")
    return "\n".join(out)


def _summary_table(plans: Sequence[Plan], labels: list[str]) -> str:
    sc = plans[0].scenario
    head = "".join(f"<th>{_e(label)}</th>" for label in labels)
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
    for op in sc.operators:
        cells = []
        for p in plans:
            placed = sum(1 for r in p.rows if r.operator_id == op.id)
            wanted = placed + sum(1 for u in p.unscheduled_list if op.id in u.operators)
            fees = sum(lic.fee_usd for lic in p.license_list if lic.operator_id == op.id)
            cells.append(f"{placed} of {wanted} placed, ${fees:,}")
        rows.append((f"{op.name} ({op.id}, {op.jurisdiction})", cells))
    body = "\n".join(
        "<tr><th>" + _e(name) + "</th>" + "".join(f'<td class="num">{_e(c)}</td>' for c in cells)
        + "</tr>" for name, cells in rows)
    return f"<table><tr><th></th>{head}</tr>\n{body}\n</table>"


def _firsts(plan: Plan) -> dict[str, tuple[int, OperatorOccurrence]]:
    """Each occurrence's (``ref``) first row in ``plan.rows`` sorted by first day and ref,
    with its position in that order: what :func:`_covers` lists, sorted once per plan."""
    firsts: dict[str, tuple[int, OperatorOccurrence]] = {}
    for k, (ref, r) in enumerate(sorted(((r.ref, r) for r in plan.rows),
                                        key=lambda x: (x[1].first_day, x[0]))):
        firsts.setdefault(ref, (k, r))
    return firsts


def _covers(plan: Plan, lic: License,
            firsts: dict[str, tuple[int, OperatorOccurrence]] | None = None) -> str:
    """What a licence covers, grouped by tournament: title, count, first and last day
    (``firsts``: :func:`_firsts` of ``plan``, computed when not given)."""
    refs = set(lic.covers)
    if firsts is None:
        firsts = _firsts(plan)
    by_t: dict[str, list] = {}
    seen: set[str] = set()
    for _, r in sorted(firsts[ref] for ref in refs if ref in firsts):
        seen.add(r.ref)
        by_t.setdefault(r.tournament_id, []).append(r)
    parts = []
    for tid, rows in by_t.items():
        if len(rows) == 1:
            parts.append(f"{rows[0].title} ({rows[0].ref}) on {rows[0].first_day.isoformat()}")
        else:
            parts.append(f"{rows[0].title} ({tid}): {len(rows)} occurrences, "
                         f"{rows[0].first_day.isoformat()} to {rows[-1].first_day.isoformat()}")
    missing = sorted(refs - seen)
    if missing:
        parts.append("also " + ", ".join(missing))
    return "<br>".join(_e(p) for p in parts) or '<span class="muted">none</span>'


def _licences(plan: Plan, deadlines: list[Deadline] | None = None) -> str:
    if not plan.license_list:
        return "<p>No licence or permit to buy.</p>"
    # figures.application_deadlines of every operator, from one list of the deadlines
    windows: dict[str, list[tuple[dt.date, str]]] = {}
    if deadlines is None:
        deadlines = list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from,
                                   closed=plan.scenario.settings.closed_days)
    for d in deadlines:
        if d.rule == "ME-APPLICATION-WINDOW":
            windows.setdefault(d.operator_id, []).append((d.date, d.license_id))
    apply_by = {lid: day for op in plan.scenario.operators
                for day, lid in sorted(windows.get(op.id, ()))}
    firsts = _firsts(plan)
    names = {op.id: op.name for op in plan.scenario.operators}
    head = ("<tr><th>Licence</th><th>Operator</th><th>Kind</th><th>Tier</th>"
            "<th>Valid from</th><th>Valid to</th><th>Fee (USD)</th><th>Apply by</th>"
            "<th>Covers</th><th>Why</th></tr>")
    rows = []
    for lic in sorted(plan.license_list, key=lambda x: (x.operator_id, x.valid_from,
                                                         x.license_id)):
        rule = _KIND_RULE.get(lic.kind)
        due = apply_by.get(lic.license_id)
        rows.append(
            f"<tr><td>{_e(lic.license_id)}</td>"
            f"<td>{_e(names.get(lic.operator_id, lic.operator_id))}</td>"
            f"<td>{_e(figures.FEE_KINDS.get(lic.kind, lic.kind))}</td><td>{_e(lic.tier)}</td>"
            f"<td>{lic.valid_from.isoformat()}</td><td>{lic.valid_to.isoformat()}</td>"
            f'<td class="num">${lic.fee_usd:,}</td>'
            f"<td>{due.isoformat() if due else ''}</td>"
            f"<td>{_covers(plan, lic, firsts)}</td>"
            f"<td>{_e(cite(rule)) if rule else ''}</td></tr>")
    total = (f'<tr><th colspan="6">Total</th><td class="num">${plan.total_fees_usd:,}</td>'
             '<td colspan="3"></td></tr>')
    notes = []  # only the jurisdictions this plan buys licences in
    if any(lic.jurisdiction == "ME" for lic in plan.license_list):
        notes.append("Apply by: the last day a Maine application can be received "
                     f"({_e(cite('ME-APPLICATION-WINDOW'))}).")
    if any(lic.jurisdiction == "MT" for lic in plan.license_list):
        notes.append(f"Montana notices are due {MT_NOTICE_DAYS} days before each large-stakes "
                     f"tournament ({_e(cite('MT-NOTICE'))}); see the calendars.")
    return ("<table>" + head + "\n" + "\n".join(rows) + "\n" + total + "</table>\n"
            f'<p class="muted">{" ".join(notes)}</p>')


def _unscheduled(plan: Plan) -> str:
    if not plan.unscheduled_list:
        return "<p>Every wanted occurrence was placed.</p>"
    sc = plan.scenario
    head = ("<tr><th>Occurrence</th><th>Title</th><th>Operators</th><th>Required</th>"
            "<th>Reason</th><th>Rules</th></tr>")
    rows = []
    for u in plan.unscheduled_list:
        try:
            title = sc.tournament(u.tournament_id).title
        except KeyError:
            title = ""
        rows.append(f"<tr><td>{_e(u.tournament_id)}#{u.occurrence}</td><td>{_e(title)}</td>"
                    f"<td>{_e(', '.join(u.operators))}</td>"
                    f"<td>{'yes' if u.required else 'no'}</td><td>{_e(u.reason)}</td>"
                    f"<td>{_e(' '.join(u.rule_ids))}</td></tr>")
    out = "<table>" + head + "\n" + "\n".join(rows) + "</table>"
    for k, conflict in enumerate(plan.conflicts, start=1):
        cert = getattr(conflict, "certificate", None)
        out += (f"<p>Conflict {k}: these cannot all hold"
                + ("" if getattr(conflict, "minimal", True) else " (not proven minimal)")
                + (f", because {_e(cert)}" if cert else "") + ":</p><ul>"
                + "".join(f"<li>{_e(m.render())}</li>" for m in conflict) + "</ul>")
    return out


def _deadlines(plan: Plan, lines: list[Deadline] | None = None) -> str:
    """The Deadlines table: the lines of deadlines.csv
    (:func:`scheduler.export.deadlines.plan_deadlines`, or ``lines`` when the caller has
    them), one row each, in date order."""
    if lines is None:
        lines = plan_deadlines(plan)
    if not lines:
        return "<p>Nothing to file: no Montana large-stakes tournament and no Maine licence.</p>"
    head = ("<tr><th>Date</th><th>Rule</th><th>Operator</th><th>What</th>"
            "<th>Occurrence</th></tr>")
    rows = [f"<tr><td>{_e(d.date)}</td><td>{_e(cite(d.rule))}</td>"
            f"<td>{_e(d.operator_id)}</td><td>{_e(d.what)}</td>"
            f"<td>{_e(d.occurrence)}</td></tr>" for d in lines]
    return ("<table>" + head + "\n" + "\n".join(rows) + "</table>\n"
            '<p class="muted">The last day (inclusive) to do each; the same lines as '
            "deadlines.csv and <code>tourney deadlines</code>, which also says what the ledger "
            "records as done.</p>")


def _readings(plan: Plan) -> str:
    sc = plan.scenario
    items = "".join(f"<li>{_e(line)}</li>" for line in readings(sc))
    # closed_days (a fact, not a reading) only when given, its days one after the other
    settings = "".join(f"<tr><th>{_e(k)}</th><td>"
                       f"{_e(', '.join(map(str, v)) if isinstance(v, tuple) else v)}</td></tr>"
                       for k, v in sc.settings.model_dump().items() if v != ())
    return (f"<ul>{items}</ul>\n<table>{settings}"
            f"<tr><th>horizon</th><td>{sc.horizon.start.isoformat()} to "
            f"{sc.horizon.end.isoformat()}</td></tr>"
            f"<tr><th>notice_from</th><td>{sc.notice_from.isoformat()}</td></tr>"
            f"<tr><th>seed</th><td>{plan.seed}</td></tr></table>")


def report_html(plan: Plan, alternatives: Sequence[Plan] | None = None) -> str:
    """The report page of ``plan`` as HTML text (UTF-8 when written).

    ``alternatives``: other plans of the same scenario (issue 5 § 3), shown beside ``plan`` in
    the summary table and in every figure row; the licence and not-placed lists of each
    alternative follow in their own sections. Same plan(s) → the same text, byte for byte.
    Raises ``ValueError`` when an alternative is of another scenario.
    """
    plans = [plan, *(alternatives or [])]
    if any(p.scenario != plan.scenario for p in plans[1:]):
        raise ValueError("alternatives must be plans of the same scenario")
    sc = plan.scenario
    labels = _labels(plans)
    # each plan's deadlines once: every year calendar, the licences and the Deadlines table
    deadlines = [plan_deadlines(p) for p in plans]
    shown = report_operators(plan)
    chosen = None if len(shown) == len(sc.operators) else shown
    note = [] if chosen is None else [
        f'<p class="note">{len(sc.operators)} operators: the pictures show '
        f"{len(shown)} of them, those with the most occurrences not placed first, then in "
        "the scenario's order. Every operator's year is in calendars/&lt;operator&gt;.ics "
        "and plan.xlsx; the tables below list every operator.</p>"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(sc.name)}: tourney plan report</title>",
        f"<style>{_STYLE}</style></head>",
        "<body>",
        f"<h1>{_e(sc.name)}</h1>",
        f'<p class="muted">Horizon {sc.horizon.start.isoformat()} to '
        f"{sc.horizon.end.isoformat()}; notices and applications from "
        f"{sc.notice_from.isoformat()}; {len(sc.operators)} operator(s), "
        f"{len(sc.tournaments)} tournament(s).</p>",
        f'<p class="note"><strong>{_e(NOT_LEGAL_ADVICE)}</strong></p>',
        '<h2 id="summary">Summary</h2>',
        _summary_table(plans, labels),
        f"<pre>{_e(summary_text(plan))}</pre>",
        *(['<h2 id="differences">First days that differ from the best plan</h2>',
           _differences(plans, labels)] if len(plans) > 1 else []),
        '<h2 id="usage">Limits used</h2>',
        *note,
        _side(plans, labels, "usage", f"Counted tournaments against MT-LARGE-LIMIT "
              f"({LARGE_LIMIT} per permit year; charitable ones beyond the first "
              f"{CHARITY_LIMIT} hatched), charitable ones not counted (MT-CHARITY-LIMIT, the "
              f"first {CHARITY_LIMIT}) and ME-MONTHLY-LIMIT ({MONTHLY_LIMIT} per month)",
              operators=chosen),
        '<h2 id="fees">Fees by licence kind</h2>',
        _side(plans, labels, "fees", "Licence and permit fees by kind (USD)"),
        '<h2 id="year">The year, operator by operator</h2>',
    ]
    drawn = set(shown)
    for op in (o for o in sc.operators if o.id in drawn):
        parts.append(f'<h3 id="op-{_e(op.id)}">{_e(op.name)} ({_e(op.id)}, '
                     f"{_e(op.jurisdiction)})</h3>")
        parts.append(_side(plans, labels, "calendar",
                           f"The year of {op.name} ({op.id})", operator_id=op.id,
                           deadlines=deadlines))
    for k, (p, label) in enumerate(zip(plans, labels, strict=True)):
        suffix = "" if len(plans) == 1 else f": {label}"
        anchor = "" if k == 0 else f"-{k + 1}"
        parts.append(f'<h2 id="licences{anchor}">Licences and permits to buy{_e(suffix)}</h2>')
        parts.append(_licences(p, deadlines[k]))
        parts.append(f'<h2 id="unscheduled{anchor}">Not placed{_e(suffix)}</h2>')
        parts.append(_unscheduled(p))
    parts += [
        '<h2 id="deadlines">Deadlines</h2>',
        _deadlines(plan, deadlines[0]),
        '<h2 id="readings">Readings used</h2>',
        _readings(plan),
        '<h2 id="not-legal-advice">Not legal advice</h2>',
        f"<p>{_e(NOT_LEGAL_ADVICE)}</p>",
        '<p class="muted">Made by tourney. The same scenario and seed give the same page.</p>',
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"
