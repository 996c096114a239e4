"""CSV files of a plan (schedule.csv, licenses.csv, unscheduled.csv), written with pandas.

Columns are documented in README.md; dates are ISO 8601 (``start``/``end`` local date-time
with UTC offset, ``end`` exclusive), booleans ``true``/``false``, money whole USD. A title
(or reason) that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, TAB, CR)
is written with a leading ``'`` (:func:`scheduler.core.text.cell`); ``tourney check`` and
``--previous`` read it back to the same title (:func:`scheduler.core.text.uncell`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from scheduler.core.text import cell
from scheduler.export.csv_text import csv_pieces
from scheduler.export.ical import render
from scheduler.result.plan import LICENSE_COLUMNS, SCHEDULE_COLUMNS, UNSCHEDULED_COLUMNS, Plan

Identity = dict[tuple[str, int], tuple[str, str, int]]
"""(tournament id, occurrence) → (calendar UID, RECURRENCE-ID day or "", SEQUENCE)."""


def _iso(x: object) -> str:
    return "" if x is None else x.isoformat()  # type: ignore[attr-defined]


def _bool(x: bool) -> str:
    return "true" if x else "false"


def _identity(cal: tuple[str, str, int] | None, uid: str, sequence: int) -> dict[str, object]:
    if cal is None:
        return {"uid": uid, "sequence": sequence, "recurrence_id": ""}
    return {"uid": cal[0], "sequence": cal[2], "recurrence_id": cal[1]}


def csv_files(plan: Plan, identity: Identity | None = None) -> dict[str, bytes]:
    """``{"schedule.csv": bytes, "licenses.csv": bytes, "unscheduled.csv": bytes}``.

    schedule.csv's ``uid``, ``sequence`` and ``recurrence_id`` are the calendar's
    (``identity``, from :func:`scheduler.export.ical.render`; computed when not given): a
    night of a weekly series has the series' UID and SEQUENCE and its RECURRENCE-ID day, so
    every row is one event (or one instance of a recurring event) of calendar.ics."""
    return {rel: b"".join(pieces) for rel, pieces in csv_tables(plan, identity)}


def csv_tables(plan: Plan, identity: Identity | None = None
               ) -> list[tuple[str, Iterator[bytes]]]:
    """The files of :func:`csv_files`, in its order, each as the pieces of its bytes
    (:func:`scheduler.export.csv_text.csv_pieces`): the rows are made as the pieces are
    asked for, a few thousand at a time, and never all held at once (issue #27)."""
    if identity is None:
        identity = render(plan, dt.datetime(1970, 1, 1, tzinfo=dt.UTC))[1]
    schedule = ({
        "tournament_id": r.tournament_id, "occurrence": r.occurrence,
        "operator_id": r.operator_id, "jurisdiction": r.jurisdiction, "type": r.type,
        "charitable": _bool(r.charitable), "title": cell(r.title), "start": _iso(r.start),
        "end": _iso(r.end), "first_day": _iso(r.first_day), "last_day": _iso(r.last_day),
        "notice_due": _iso(r.notice_due), "permit_year": _iso(r.permit_year),
        "counted": _bool(r.counted), "players": "" if r.players is None else r.players,
        "license_id": r.license_id,
        **_identity(identity.get((r.tournament_id, r.occurrence)), r.uid, r.sequence),
        "status": r.status,
    } for r in plan.rows)
    licenses = ({
        "license_id": lic.license_id, "operator_id": lic.operator_id,
        "jurisdiction": lic.jurisdiction, "kind": lic.kind, "tier": lic.tier,
        "valid_from": _iso(lic.valid_from), "valid_to": _iso(lic.valid_to),
        "fee_usd": lic.fee_usd, "covers": " ".join(lic.covers),
    } for lic in plan.license_list)
    unscheduled = ({
        "tournament_id": u.tournament_id, "occurrence": u.occurrence,
        "operators": " ".join(u.operators), "reason": cell(u.reason),
        "rule_ids": " ".join(u.rule_ids),
    } for u in plan.unscheduled_list)
    return [("schedule.csv", csv_pieces(schedule, SCHEDULE_COLUMNS)),
            ("licenses.csv", csv_pieces(licenses, LICENSE_COLUMNS)),
            ("unscheduled.csv", csv_pieces(unscheduled, UNSCHEDULED_COLUMNS))]
