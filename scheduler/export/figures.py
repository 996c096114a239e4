"""Pictures of a plan as matplotlib figures: an operator's year, limit usage, fees.

Every function returns a :class:`matplotlib.figure.Figure` attached to the Agg canvas (no screen,
no pyplot state: figures are not kept alive by a global registry, and a notebook's own backend is
left alone). matplotlib is imported only inside these functions, so importing this module (and
``tourney --help``) stays fast.

Artists carry a ``gid`` so that tests and tools can find them:

- ``plot_calendar``: ``tournament:<ref>:<YYYY-MM>`` (one bar per occurrence and month it
  touches), ``blackout:<date>``, ``other-game:<date>`` (hatched day cells),
  ``notice-due:<date>`` / ``application-due:<date>`` (deadline markers);
- ``plot_usage``: ``usage:<rule>:<operator_id>:<period>`` (one bar each), and over the
  MT-LARGE-LIMIT bars ``usage-charitable:MT-LARGE-LIMIT:<operator_id>:<period>`` (the hatched
  part: charitable tournaments counted beyond the first 3); over a bar whose period used part
  of the limit before the plan, ``usage-held:<rule>:<operator_id>:<period>`` (the dotted part
  at its foot: held before the plan; the rest is planned);
- ``plot_fees``: ``fees:<kind>`` (one bar per licence kind).

:func:`png_bytes` renders a figure reproducibly (no software or date metadata).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import warnings
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

from constraints.base import STATEWIDE, UsageText
from constraints.maine import LICENCE_KINDS, LICENCE_LABELS
from constraints.registry import RULES
from scheduler.core.fields import WEEKDAYS
from scheduler.core.timing import day_span, month_end, months_between
from scheduler.result.deadlines import Deadline, list_deadlines
from scheduler.result.plan import OperatorOccurrence, Plan
from scheduler.result.usage import limit_usage as usage

if TYPE_CHECKING:  # start-up time: matplotlib only when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure  # start-up time: as Axes above

CATEGORIES: dict[str, tuple[str, str]] = {
    "large-stakes": ("MT large-stakes", "#1f77b4"),
    "charitable": ("MT charitable large-stakes", "#2ca02c"),
    "small-stakes": ("MT small-stakes", "#8c8c8c"),
    "tournament-game": ("ME tournament game", "#ff7f0e"),
    "super-cribbage": ("ME super cribbage", "#9467bd"),
    "charitable-cribbage": ("ME charitable cribbage", "#e377c2"),
}
"""Tournament category → (legend label, colour) of the calendar bars."""

FEE_KINDS: dict[str, str] = {
    "mt-large-stakes-permit": "MT large-stakes permit",
    "mt-small-stakes-permit": "MT small-stakes permit",
    **{k: f"ME {LICENCE_LABELS[k]}" for k in LICENCE_KINDS},
}
"""Licence kind → label of the fees chart and the report, in chart order (unknown kinds
follow); the Maine ones in the words of :data:`constraints.maine.LICENCE_LABELS`."""


OTHER_BAR_COLOUR = "#333333"
"""Colour of a bar of a category not in :data:`CATEGORIES`."""
BLACKOUT_COLOUR = "#d62728"
OTHER_GAME_COLOUR = "#7f7f7f"
NOTICE_COLOUR = "#d62728"
APPLICATION_COLOUR = "#17becf"
LIMIT_COLOUR = "#d62728"


def plain(text: str) -> str:
    """User text for a matplotlib label: ``$`` escaped so that it is never read as math."""
    return text.replace("\\", "\\\\").replace("$", r"\$")


def category(row: OperatorOccurrence) -> str:
    """The calendar category (a key of :data:`CATEGORIES`) of a placed occurrence."""
    if row.type == "large-stakes" and row.charitable:
        return "charitable"
    return row.type


def _new_figure(width: float, height: float) -> Figure:
    # start-up time: matplotlib only when a figure is drawn (tests/test_figures.py)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # start-up time: matplotlib when drawn

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def lanes_of(rows: list[OperatorOccurrence]) -> tuple[dict[str, int], int]:
    """Greedy lanes so that occurrences sharing a calendar day are drawn one above another:
    each occurrence's lane (by ``ref``, from 0) and the number of lanes (at least 1)."""
    lane_end: list[dt.date] = []
    lane_of: dict[str, int] = {}
    for r in sorted(rows, key=lambda r: (r.first_day, r.last_day, r.ref)):
        for i, end in enumerate(lane_end):
            if end < r.first_day:
                lane_end[i] = r.last_day
                lane_of[r.ref] = i
                break
        else:
            lane_of[r.ref] = len(lane_end)
            lane_end.append(r.last_day)
    return lane_of, max(1, len(lane_end))


def application_deadlines(plan: Plan, operator_id: str,
                          deadlines: Iterable[Deadline] | None = None
                          ) -> list[tuple[dt.date, str]]:
    """ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): ``(due day, licence_id)`` of each Maine
    licence of ``operator_id`` in the plan, the last day the application can be received (10
    Maine business days before the first day the licence covers), sorted: the
    ME-APPLICATION-WINDOW lines of :func:`scheduler.result.deadlines.list_deadlines`
    (deadlines.csv).
    ``deadlines``: that list of the plan when the caller has it (a report draws many
    operators' years), else it is computed here.
    """
    if deadlines is None:
        deadlines = list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from,
                                   closed=plan.scenario.settings.closed_days)
    return sorted((d.date, d.license_id) for d in deadlines
                  if d.rule == "ME-APPLICATION-WINDOW" and d.operator_id == operator_id)


def calendar_cells(plan: Plan, operator_id: str) -> dict[str, list[dt.date]]:
    """The hatched days of an operator's year, inside the horizon: ``blackout`` (BLACKOUT) and
    ``other-game`` (ME-OTHER-GAMES: each day a weekly session of another game of chance is
    played, the day after too when it runs past midnight). Raises ``ValueError`` for an unknown
    operator."""
    sc = plan.scenario
    op = _operator(plan, operator_id)
    horizon = sc.horizon
    blackout = sorted({d for d in op.blackout if d in horizon})
    other: set[dt.date] = set()
    for g in op.other_games:
        wd = WEEKDAYS.index(g.weekday)
        past_midnight = g.end <= g.start
        for d in horizon.days():
            if d.weekday() == wd:
                other.add(d)
                if past_midnight and d + dt.timedelta(days=1) in horizon:
                    other.add(d + dt.timedelta(days=1))
    return {"blackout": blackout, "other-game": sorted(other)}


def _operator(plan: Plan, operator_id: str) -> Any:
    ids = [o.id for o in plan.scenario.operators]
    if operator_id not in ids:
        raise ValueError(f"unknown operator {operator_id!r}; the scenario's operators are "
                         f"{', '.join(ids)}")
    return plan.scenario.operator(operator_id)


def plot_calendar(plan: Plan, operator_id: str,
                  deadlines: Iterable[Deadline] | None = None) -> Figure:
    """A year calendar of one operator: one row per month of the horizon (top to bottom),
    columns = days 1–31.

    - each placed occurrence is a coloured bar over every calendar day it is conducted on
      (colour by :data:`CATEGORIES`; split at month ends; occurrences sharing a day are
      stacked in lanes);
    - blackout days (BLACKOUT) hatched ``//`` in red, days of the operator's other games of
      chance (ME-OTHER-GAMES) hatched ``\\\\`` in grey;
    - notice deadlines (MT-NOTICE, ``OperatorOccurrence.notice_due``) as red downward
      triangles and Maine
      application deadlines (ME-APPLICATION-WINDOW) as cyan diamonds at the top of their day;
      deadlines before the horizon are listed under the picture;
    - days that do not exist (Feb 30) or lie outside the horizon are greyed out.

    Parameters
    ----------
    plan
        The solved plan.
    operator_id
        The operator drawn (an ``id`` of the scenario's operators).
    deadlines
        :func:`scheduler.result.deadlines.list_deadlines` of the plan when the caller has it
        (:func:`application_deadlines`), else computed here.

    Returns
    -------
    matplotlib.figure.Figure
        On an Agg canvas, 13 inches wide and 1.6 + 0.42 inches a month of the horizon high
        (``fig.savefig("calendar.png")``); nothing is shown or written.

    Raises
    ------
    ValueError
        ``operator_id`` is not an operator of the scenario (the message lists them).
    """
    # start-up time: matplotlib only when a figure is drawn
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle  # start-up time: as Line2D above

    sc = plan.scenario
    op = _operator(plan, operator_id)
    months = months_between(sc.horizon.start, sc.horizon.end)
    row_of = {ym: i for i, ym in enumerate(months)}
    fig = _new_figure(13.0, 1.6 + 0.42 * len(months))
    ax = fig.add_subplot()
    ax.set_xlim(1, 32)
    ax.set_ylim(len(months), 0)
    ax.set_xticks([d + 0.5 for d in range(1, 32)], [str(d) for d in range(1, 32)], fontsize=7)
    ax.set_yticks([i + 0.5 for i in range(len(months))],
                  [f"{dt.date(y, m, 1):%b %Y}" for y, m in months], fontsize=8)
    ax.tick_params(length=0)
    for i in range(len(months) + 1):
        ax.axhline(i, color="#cccccc", linewidth=0.5)
    for d in range(1, 33):
        ax.axvline(d, color="#eeeeee", linewidth=0.5)
    # the limits are fixed above, so a cell need not widen the data limits: add_artist spares
    # add_patch's extent of every path (most of the figure's building time; the same picture)
    cell = ax.add_artist
    for i, (y, m) in enumerate(months):
        last = month_end(y, m).day
        for mday in range(1, 32):
            if mday > last or not (sc.horizon.start <= dt.date(y, m, mday) <= sc.horizon.end):
                cell(Rectangle((mday, i), 1, 1, facecolor="#e6e6e6", edgecolor="none",
                                       zorder=0))

    cells = calendar_cells(plan, operator_id)
    styles = {"blackout": ("//", BLACKOUT_COLOUR), "other-game": ("\\\\", OTHER_GAME_COLOUR)}
    for kind, days in cells.items():
        hatch, colour = styles[kind]
        for day in days:
            cell(Rectangle((day.day, row_of[(day.year, day.month)]), 1, 1, fill=False,
                                   hatch=hatch, edgecolor=colour, linewidth=0, zorder=1,
                                   gid=f"{kind}:{day.isoformat()}"))

    rows = sorted((r for r in plan.rows if r.operator_id == operator_id),
                  key=lambda r: (r.first_day, r.ref))
    lane_of, lanes = lanes_of(rows)
    height = 0.62 / lanes
    used: list[str] = []
    for r in rows:
        cat = category(r)
        if cat not in used:
            used.append(cat)
        colour = CATEGORIES.get(cat, (cat, OTHER_BAR_COLOUR))[1]
        by_month: dict[tuple[int, int], list[dt.date]] = defaultdict(list)
        for day in day_span(r.first_day, r.last_day):
            by_month[(day.year, day.month)].append(day)
        for (y, m), days in sorted(by_month.items()):
            if (y, m) not in row_of:
                continue
            top = row_of[(y, m)] + 0.3 + lane_of[r.ref] * height
            cell(Rectangle((days[0].day + 0.06, top), len(days) - 0.12, height * 0.9,
                                   facecolor=colour, edgecolor="black", linewidth=0.4,
                                   zorder=2, gid=f"tournament:{r.ref}:{y:04d}-{m:02d}"))

    notices = sorted({r.notice_due for r in rows if r.notice_due is not None})
    applications = sorted({d for d, _ in application_deadlines(plan, operator_id, deadlines)})
    early: Counter[str] = Counter()
    for days, marker, colour, name, label in (
            (notices, "v", NOTICE_COLOUR, "notice-due", "notice"),
            (applications, "D", APPLICATION_COLOUR, "application-due", "application")):
        for day in days:
            if (day.year, day.month) not in row_of or day < sc.horizon.start:
                early[label] += 1
                continue
            ax.plot([day.day + 0.5], [row_of[(day.year, day.month)] + 0.17], marker=marker,
                    markersize=5, color=colour, linestyle="none", zorder=3,
                    gid=f"{name}:{day.isoformat()}")

    handles: list[Any] = [Patch(facecolor=CATEGORIES.get(c, (c, OTHER_BAR_COLOUR))[1],
                                edgecolor="black", linewidth=0.4,
                                label=CATEGORIES.get(c, (c, ""))[0]) for c in used]
    if cells["blackout"]:
        handles.append(Patch(fill=False, hatch="//", edgecolor=BLACKOUT_COLOUR, label="blackout"))
    if cells["other-game"]:
        handles.append(Patch(fill=False, hatch="\\\\", edgecolor=OTHER_GAME_COLOUR,
                             label="other games of chance"))
    if notices:
        handles.append(Line2D([], [], marker="v", color=NOTICE_COLOUR, linestyle="none",
                              label="MT notice due"))
    if applications:
        handles.append(Line2D([], [], marker="D", color=APPLICATION_COLOUR, linestyle="none",
                              label="ME application due"))
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncol=min(5, len(handles)),
                   fontsize=8, frameon=False)
    ax.set_title(plain(f"{op.name} ({op.id}, {op.jurisdiction}): {len(rows)} occurrence(s), "
                       f"{sc.horizon.start:%b %Y} to {sc.horizon.end:%b %Y}"), fontsize=10)
    if early:
        first = min([d for d in notices + applications if d < sc.horizon.start])
        ax.set_xlabel(", ".join(f"{n} {label} deadline(s)" for label, n in sorted(early.items()))
                      + f" fall before the horizon (the first on {first.isoformat()})",
                      fontsize=8)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    return fig


def _bar_axis(ax: Axes, title: str, periods: list[str], ops: list[str],
              used: dict[tuple[str, str], int], limit: int, rule: str,
              hatched: dict[tuple[str, str], int] | None = None,
              held: dict[tuple[str, str], int] | None = None,
              period_label: str = "{}", hatch_label: str = "") -> None:
    """Grouped bars: x = periods (each labelled ``period_label`` with ``{}`` the period),
    one bar per operator in each group, dashed limit line; ``hatched`` marks that many of a
    bar's units, at its top, as a hatched part (legend: ``hatch_label``); ``held`` that
    many, at its foot, as a dotted part (held before the plan)."""
    width = 0.8 / max(1, len(ops))
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
               "#bcbd22", "#17becf"]
    for k, oid in enumerate(ops):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(periods))]
        heights = [used.get((oid, p), 0) for p in periods]
        bars = ax.bar(xs, heights, width=width * 0.92, color=colours[k % len(colours)],
                      label=plain(oid))
        for bar, p in zip(bars, periods, strict=True):
            bar.set_gid(f"usage:{rule}:{oid}:{p}")
            part = (hatched or {}).get((oid, p), 0)
            if part:
                top = bar.get_height()
                ax.bar([bar.get_x() + bar.get_width() / 2], [part], bottom=[top - part],
                       width=bar.get_width(), fill=False, hatch="//", edgecolor="white",
                       linewidth=0)[0].set_gid(f"usage-charitable:{rule}:{oid}:{p}")
            before = (held or {}).get((oid, p), 0)
            if before:
                ax.bar([bar.get_x() + bar.get_width() / 2], [before], bottom=[0],
                       width=bar.get_width(), fill=False, hatch="..", edgecolor="white",
                       linewidth=0)[0].set_gid(f"usage-held:{rule}:{oid}:{p}")
    ax.axhline(limit, color=LIMIT_COLOUR, linestyle="--", linewidth=1,
               label=f"limit {limit}", gid=f"limit:{rule}")
    from matplotlib.ticker import MaxNLocator  # start-up time, as above

    labels = [period_label.format(p) for p in periods]
    ax.set_xticks(range(len(periods)), labels, fontsize=8,
                  rotation=0 if len(periods) <= 6 else 45)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, max([limit, *used.values()]) * 1.15)
    ax.set_title(title, fontsize=10)
    handles, _ = ax.get_legend_handles_labels()
    if hatched and any(hatched.values()):
        from matplotlib.patches import Patch  # start-up time, as above

        handles.append(Patch(facecolor="#7f7f7f", hatch="//", edgecolor="white",
                             label=hatch_label))
    if held and any(held.values()):
        from matplotlib.patches import Patch  # start-up time, as above

        handles.append(Patch(facecolor="#7f7f7f", hatch="..", edgecolor="white",
                             label="dotted: held before\nthe plan"))
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0),
              frameon=False)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)


def usage_bars(plan: Plan, operators: Collection[str] | None = None
               ) -> dict[str, tuple[list[str], list[str], dict[tuple[str, str], int]]]:
    """What :func:`plot_usage` draws, by rule: ``(periods, operator ids, {(operator, period):
    used})``, for each rule with :func:`scheduler.result.usage.limit_usage` records of an operator
    (registry order; a statewide limit, ME-SUPER-CRIBBAGE, is not drawn): today
    MT-LARGE-LIMIT / MT-CHARITY-LIMIT per permit year (first day, ISO) for each Montana
    operator; ME-MONTHLY-LIMIT per month (``YYYY-MM``) of the horizon, 0 where none is
    counted, for each Maine operator with a counted game (a rule whose
    :attr:`constraints.base.UsageText.chart_omits_unused`). Counts as in
    :func:`scheduler.result.usage.limit_usage` (held tournaments included). ``operators``: only
    these operator ids (a statewide report's selection); default every operator."""
    out: dict[str, tuple[list[str], list[str], dict[tuple[str, str], int]]] = {}
    rows = [r for r in usage(plan) if r.operator_id != STATEWIDE]
    if operators is not None:
        rows = [r for r in rows if r.operator_id in operators]
    for rule in (r for r in RULES if r.usage is not None):
        mine = [r for r in rows if r.rule == rule.id]
        if _text(rule.id).chart_omits_unused:  # an operator with none counted: no bars
            counted = {r.operator_id for r in mine if r.used}
            mine = [r for r in mine if r.operator_id in counted]
        if not mine:
            continue
        ops = list(dict.fromkeys(r.operator_id for r in mine))
        periods = sorted({r.period for r in mine})
        used = {(r.operator_id, r.period): r.used for r in mine}
        out[rule.id] = (periods, ops, used)
    return out


def _text(rule_id: str) -> UsageText:
    """How the charts word ``rule_id``'s usage: the rule's ``usage_text``, else a title of
    its ID (:class:`constraints.base.UsageText`)."""
    text = next((r.usage_text for r in RULES if r.id == rule_id), None)
    return text if text is not None else UsageText(f"{rule_id}: used per period")


def plot_usage(plan: Plan, operators: Collection[str] | None = None) -> Figure:
    """Bar charts of the counted limits, one panel per rule present in the plan (each rule
    with a ``usage`` hook and records of an operator, titled and labelled by its
    :class:`constraints.base.UsageText`); today:

    - MT-LARGE-LIMIT (MCA 23-5-317(1)(a),(d)): counted large-stakes tournaments per operator
      and permit year against 16: the non-charitable ones and, hatched, the charitable ones
      beyond the first 3 of the permit year;
    - MT-CHARITY-LIMIT ((1)(f)): charitable large-stakes per permit year that are not counted,
      against 3 (the first three of the permit year; :func:`constraints.montana.large_tally`);
    - ME-MONTHLY-LIMIT (17 M.R.S. § 1836): Maine licensed games per operator and calendar month
      against 2 (under the scenario's ``month_rule``).

    Bar heights are the ``used`` counts of :func:`scheduler.result.usage.limit_usage` (tournaments
    held before the horizon included, dotted at the foot of the bar, gid ``usage-held:...``;
    the rest is planned); see :func:`usage_bars`. With no counted rule the figure
    says so.

    Parameters
    ----------
    plan
        The solved plan.
    operators
        One bar (and legend entry) for each of these operator ids only (an id not in the
        plan draws nothing); None (default): every operator.

    Returns
    -------
    matplotlib.figure.Figure
        On an Agg canvas, 11 inches wide and 0.4 + 2.9 inches a panel high, each panel's
        y axis in tournaments; nothing is shown or written.
    """
    table = usage_bars(plan, operators)
    limits: dict[str, int] = {}  # each rule's limit (the largest, should periods differ)
    for r in usage(plan):
        limits[r.rule] = max(limits.get(r.rule, 0), r.limit)
    fig = _new_figure(11.0, 0.4 + 2.9 * max(1, len(table)))
    if not table:
        ax = fig.add_subplot()
        ax.axis("off")
        ax.text(0.5, 0.5, "No counted limits in this plan", ha="center", va="center")
        return fig
    charitable = {rule: {(r.operator_id, r.period): r.charitable
                         for r in usage(plan) if r.rule == rule} for rule in table}
    held = {rule: {(r.operator_id, r.period): r.held for r in usage(plan) if r.rule == rule}
            for rule in table}
    axes = fig.subplots(len(table), 1, squeeze=False)[:, 0]
    for ax, (rule, (periods, ops, used)) in zip(axes, table.items(), strict=True):
        text = _text(rule)
        _bar_axis(ax, text.chart_title, periods, ops, used, limits[rule], rule,
                  charitable[rule] if text.hatch_label else None, held[rule],
                  text.period_label, text.hatch_label or "")
        ax.set_ylabel("tournaments")
    return fig


def fees_by_kind(plan: Plan) -> dict[str, tuple[int, int]]:
    """Licence kind → (fees in USD, number of licences), in :data:`FEE_KINDS` order, only the
    kinds bought (MT-PERMIT-FEES, ME-FEES, ME-SUPER-CRIBBAGE)."""
    by_kind = plan.fees().groupby("kind")[["fee_usd", "licences"]].sum()
    fees = {str(k): (int(r.fee_usd), int(r.licences)) for k, r in by_kind.iterrows()}
    order = [k for k in FEE_KINDS if k in fees] + sorted(set(fees) - set(FEE_KINDS))
    return {k: fees[k] for k in order}


def plot_fees(plan: Plan) -> Figure:
    """A bar chart of the licence and permit fees to pay by kind (USD; MT-PERMIT-FEES,
    ME-FEES, ME-SUPER-CRIBBAGE), each bar labelled with its total and number of licences; see
    :func:`fees_by_kind`. With nothing to buy the figure says so.

    Parameters
    ----------
    plan
        The solved plan.

    Returns
    -------
    matplotlib.figure.Figure
        On an Agg canvas, 8 by 3.4 inches, y axis in USD; nothing is shown or written.
    """
    fees = fees_by_kind(plan)
    fig = _new_figure(8.0, 3.4)
    ax = fig.add_subplot()
    if not fees:
        ax.axis("off")
        ax.text(0.5, 0.5, "No licence or permit to buy", ha="center", va="center")
        return fig
    kinds = list(fees)
    bars = ax.bar(range(len(kinds)), [fees[k][0] for k in kinds], color="#1f77b4", width=0.6)
    for bar, k in zip(bars, kinds, strict=True):
        bar.set_gid(f"fees:{k}")
        total, n = fees[k]
        ax.annotate(rf"\${total:,} ({n})", (bar.get_x() + bar.get_width() / 2, total),
                    ha="center", va="bottom", fontsize=8, xytext=(0, 2),
                    textcoords="offset points")
    ax.set_xticks(range(len(kinds)), [FEE_KINDS.get(k, k) for k in kinds], fontsize=8,
                  rotation=0 if len(kinds) <= 4 else 20)
    ax.set_ylim(0, max(v for v, _ in fees.values()) * 1.18 or 1)
    ax.set_ylabel("USD")
    ax.set_title(rf"Fees by licence kind: \${plan.total_fees_usd:,} in all "
                 f"({len(plan.license_list)} licence(s) and permit(s))", fontsize=10)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    return fig


def png_bytes(fig: Figure, dpi: int = 80) -> bytes:
    """The figure as PNG bytes, reproducible: no ``Software`` or date metadata, so the same
    figure gives the same bytes."""
    from matplotlib import rc_context  # start-up time: matplotlib only when drawn

    buf = io.BytesIO()
    engine = fig.get_layout_engine()
    with warnings.catch_warnings():
        # a statewide usage chart is too crowded for constrained layout; say nothing on the
        # terminal about it (the picture is still drawn)
        warnings.filterwarnings("ignore", message="constrained_layout not applied")
        if engine is None or not fig.axes:
            fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
            return buf.getvalue()
        # savefig with a layout engine draws the figure twice: once unrendered, only to run
        # the layout, then for the pixels. Run the layout here, at the picture's dpi and on
        # the renderer savefig then draws with, and draw once: the same bytes, a third less
        # time (issue #27).
        dpi_was = fig.dpi
        try:
            fig.dpi = dpi
            with contextlib.suppress(ValueError):  # as Figure.draw: a layout that fails
                engine.execute(fig)
            # no engine at all (a "none" engine still has savefig draw twice)
            with rc_context({"figure.autolayout": False,
                             "figure.constrained_layout.use": False}):
                fig.set_layout_engine(None)
            fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
        finally:
            fig.set_layout_engine(engine)
            fig.dpi = dpi_was
    return buf.getvalue()
