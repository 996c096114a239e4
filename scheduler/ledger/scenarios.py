"""The scenario that made each adopted plan version (table ``plan_scenarios``, schema 0005):
kept by ``tourney ledger adopt`` from the plan folder's scenario.yaml, and read back, checked,
for what the ledger judges alone (``tourney record``'s warnings:
:func:`scheduler.ledger.audit.judge_entry`), so those judgements read the plan's own
tournaments, tours, settings and operators' terms, as ``tourney check SCENARIO --ledger``
does: MT-PROGRESSIVE (MCA 23-5-317(1)(d)) a round's notice 5 days before the progressive's
first round; ME-ENTRY-CAP (17 M.R.S. § 1836(4)) a surcharge within the game's licence fee
under ``surcharge_cap: license-fee``.

A version adopted before schema 0005, or from a folder without scenario.yaml (written by an
older tourney), has none: it is judged with the operators the ledger knows (id,
jurisdiction) and no tournament, as before.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import json
import zlib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scheduler.core.fields import DateRange
from scheduler.core.limits import MAX_HORIZON_DAYS, LimitError, for_terminal, max_input_bytes
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator as ScenarioOperator
from scheduler.inputs.load import load_scenario
from scheduler.ledger.models import (
    Lineage,
    Operator,
    Organization,
    PlanScenario,
    PlanVersion,
)
from scheduler.ledger.store import LedgerError

SCENARIO_FILE = "scenario.yaml"
"""The plan folder's scenario (``scheduler.export.write.SCENARIO_FILE``)."""

PART_CHARS = 32_000
"""The most characters of one ``plan_scenarios`` row's ``data``: within what one spreadsheet
cell holds (32,767), so ``tourney ledger export --out x.xlsx`` keeps every part whole."""


# ------------------------------------------------------------------ kept at adopt
def scenario_json(scenario: Scenario) -> str:
    """``scenario`` as the JSON text the ledger keeps: its fields as
    :meth:`~scheduler.core.scenario.Scenario.to_yaml` writes them (defaults left out,
    ``notice_from`` given), no spaces; the same scenario gives the same text."""
    return json.dumps(scenario.written_data(), ensure_ascii=False, separators=(",", ":"))


def folder_scenario(folder: Path) -> str | None:
    """The scenario of plan folder ``folder`` (its scenario.yaml, read and checked as
    ``tourney solve`` reads a scenario: every field and input rule) as :func:`scenario_json`
    text; None when the folder has none (written by an older tourney).

    Raises :class:`LedgerError` naming the file and its first problem when it is not a
    scenario tourney reads."""
    path = folder / SCENARIO_FILE
    if not path.is_file():
        return None
    try:
        scenario = load_scenario(path)  # its size, YAML and fields bounded and checked
    except ScenarioError as exc:
        first = exc.problems[0].render(str(path)) if exc.problems else str(exc)
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        raise LedgerError(f"{for_terminal(first)}{more}; the ledger keeps the scenario that "
                          "made the plan: solve the scenario again and adopt that folder"
                          ) from None
    return scenario_json(scenario)


def scenario_parts(text: str) -> list[dict[str, Any]]:
    """The ``plan_scenarios`` rows of a version whose scenario is ``text``
    (:func:`scenario_json`), without the version and entry columns: ``part``, ``parts``,
    ``sha256`` (of the UTF-8 text) and ``data`` (its zlib, in base64, cut every
    :data:`PART_CHARS` characters). The same text gives the same rows."""
    raw = text.encode("utf-8")
    packed = base64.b64encode(zlib.compress(raw, 9)).decode("ascii")
    pieces = [packed[i:i + PART_CHARS] for i in range(0, len(packed), PART_CHARS)] or [""]
    digest = hashlib.sha256(raw).hexdigest()
    return [{"part": i, "parts": len(pieces), "sha256": digest, "data": piece}
            for i, piece in enumerate(pieces)]


# ------------------------------------------------------------------ read back
def _version_name(s: Session, version: PlanVersion) -> str:
    lineage = s.get(Lineage, version.lineage_id)
    return (f"plan version {version.version} of lineage "
            f"{lineage.lineage if lineage is not None else '?'}")


def version_scenario(s: Session, version: PlanVersion) -> Scenario | None:
    """The scenario kept with plan version ``version`` (:func:`scenario_parts`), read back
    and checked as a scenario file is (every field and input rule,
    :func:`scheduler.inputs.load.load_scenario`); None when it has none (adopted before
    schema 0005, or from a folder without scenario.yaml).

    Raises :class:`LedgerError` naming the version when what is kept is not a scenario:
    parts missing or out of order, not base64 or zlib, larger than
    :func:`~scheduler.core.limits.max_input_bytes` unpacked, not the SHA-256 kept with it,
    not UTF-8 JSON of a mapping, or a scenario tourney refuses."""
    rows: Sequence[PlanScenario] = list(s.scalars(
        select(PlanScenario).where(PlanScenario.version_id == version.id)
        .order_by(PlanScenario.part, PlanScenario.id)))
    if not rows:
        return None
    limit = max_input_bytes()

    def damaged(why: str) -> LedgerError:
        return LedgerError(
            f"the ledger's {for_terminal(_version_name(s, version))}: the scenario kept with "
            f"it {why} (table plan_scenarios; changed outside tourney?): restore the ledger "
            "from a backup; `tourney check SCENARIO --ledger` judges with the scenario file")

    n = len(rows)
    if ([r.part for r in rows] != list(range(n)) or any(r.parts != n for r in rows)
            or len({r.sha256 for r in rows}) != 1):
        numbered = ", ".join(str(r.part) for r in rows[:5]) + ("..." if n > 5 else "")
        raise damaged(f"is incomplete ({n} part(s) kept, numbered {numbered}, of "
                      f"{', '.join(sorted({str(r.parts) for r in rows})[:3])})")
    if sum(len(r.data) for r in rows) > 2 * limit:
        raise damaged(f"is larger than {limit:,} bytes")
    try:
        packed = base64.b64decode("".join(r.data for r in rows), validate=True)
    except (binascii.Error, ValueError):
        raise damaged("is not base64 text") from None
    unzip = zlib.decompressobj()
    try:
        raw = unzip.decompress(packed, limit + 1)
    except zlib.error:
        raise damaged("is not zlib data") from None
    if len(raw) > limit or unzip.unconsumed_tail:
        raise damaged(f"unpacks to more than {limit:,} bytes")
    if not unzip.eof:
        raise damaged("is cut short")
    if hashlib.sha256(raw).hexdigest() != rows[0].sha256:
        raise damaged("does not match the SHA-256 kept with it")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise damaged("is not JSON text") from None
    if not isinstance(data, dict):
        raise damaged(f"is a JSON {type(data).__name__}, not a scenario's fields")
    try:
        return load_scenario(data)
    except ScenarioError as exc:
        first = exc.problems[0].render("scenario") if exc.problems else str(exc)
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        raise damaged(f"is not a scenario tourney reads ({for_terminal(first[:300])}"
                      f"{more})") from None
    except (LimitError, ValueError, TypeError, RecursionError) as exc:
        raise damaged(f"is not a scenario tourney reads ({for_terminal(str(exc)[:200])})"
                      ) from None


def newest_scenario(s: Session, org: Organization, lineage_id: int | None = None
                    ) -> Scenario | None:
    """The scenario kept with the newest adopted plan version of ``org`` (of lineage
    ``lineage_id`` when given and ``org``'s), :func:`version_scenario`; None when that
    version has none, or ``org`` has no plan."""
    query = (select(PlanVersion).join(Lineage, PlanVersion.lineage_id == Lineage.id)
             .where(Lineage.organization_id == org.id))
    if lineage_id is not None:
        query = query.where(Lineage.id == lineage_id)
    version = s.scalar(query.order_by(PlanVersion.id.desc()).limit(1))
    return version_scenario(s, version) if version is not None else None


_MOST_YEARS = MAX_HORIZON_DAYS // 366
"""Whole years a horizon of January 1 to December 31 may span (3,660 days: 10)."""


def _years(days: Collection[dt.date], also: Collection[dt.date]) -> tuple[dt.date, dt.date]:
    """January 1 of the first and December 31 of the last of the years of ``days`` and of
    each of ``also`` that keeps them within :data:`_MOST_YEARS`."""
    years = {d.year for d in days} or {min(also).year}
    for day in sorted(also, key=lambda d: abs(d.year - min(years))):
        if max(years | {day.year}) - min(years | {day.year}) < _MOST_YEARS:
            years.add(day.year)
    return dt.date(min(years), 1, 1), dt.date(max(years), 12, 31)


def ledger_scenario(s: Session, org: Organization, days: Collection[dt.date],
                    also: Collection[dt.date] = (), *, lineage_id: int | None = None
                    ) -> Scenario:
    """The scenario ``org``'s entries are judged with when no scenario file is at hand
    (``tourney record``'s warnings): the one kept with its newest adopted plan version (of
    lineage ``lineage_id``, the entry's plan, when given: :func:`newest_scenario`), with
    every operator of ``org`` the ledger knows that it lacks (id, jurisdiction), its horizon
    widened by whole years to hold ``days`` (the entry's) and each of ``also`` (today, a
    filing's day) that keeps it within a scenario's ten years
    (:data:`~scheduler.core.limits.MAX_HORIZON_DAYS`). A version without one (adopted
    before schema 0005, or from an older tourney's folder): a scenario of ``org``'s
    operators as the ledger knows them (id, jurisdiction; the default permit year,
    MT-PERMIT-YEAR) and no tournament, its horizon the years of ``days`` and of ``also``
    (a fact of 2015 recorded in 2027, an application dated 1900). The organization's name as
    the terminal shows it (a name with a control character, recorded by an older tourney,
    is no scenario's name).

    Raises :class:`LedgerError` when the kept scenario is damaged
    (:func:`version_scenario`)."""
    ops = list(s.scalars(select(Operator).where(Operator.organization_id == org.id)
                         .order_by(Operator.operator_id)))
    kept = newest_scenario(s, org, lineage_id)
    first, last = _years(days, also)
    if kept is None:
        return Scenario.model_validate({
            "name": for_terminal(org.name)[:200], "horizon": {"start": first, "end": last},
            "notice_from": first,
            "operators": [{"id": o.operator_id, "name": o.operator_id,
                           "jurisdiction": o.jurisdiction} for o in ops]})
    known = {o.id for o in kept.operators}
    more = tuple(ScenarioOperator.model_validate(
        {"id": o.operator_id, "name": o.operator_id, "jurisdiction": o.jurisdiction})
        for o in ops if o.operator_id not in known)
    return kept.model_copy(update={"operators": kept.operators + more,
                                   "horizon": _widened(kept.horizon, days, also)})


def _widened(horizon: DateRange, days: Collection[dt.date],
             also: Collection[dt.date]) -> DateRange:
    """``horizon`` reaching, by whole years, each of ``days`` and then of ``also`` (nearest
    first) that lies outside it, as long as it stays within
    :data:`~scheduler.core.limits.MAX_HORIZON_DAYS`; unchanged when all lie in it."""
    start, end = horizon.start, horizon.end
    for day in [*sorted(days), *sorted(also, key=lambda d: abs((d - start).days))]:
        lo = min(start, dt.date(day.year, 1, 1)) if day < start else start
        hi = max(end, dt.date(day.year, 12, 31)) if day > end else end
        if (hi - lo).days + 1 <= MAX_HORIZON_DAYS:
            start, end = lo, hi
    if (start, end) == (horizon.start, horizon.end):
        return horizon
    return DateRange(start=start, end=end)
