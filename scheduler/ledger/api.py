"""The ledger's commands and DataFrames: each function is one command, in one transaction.

``tourney ledger init|adopt|export|import`` and ``tourney record held|cancelled|filed|licence|
report`` call these and nothing else. Every function takes a :class:`Ledger` first, raises
:class:`LedgerError` (exit 2, nothing written) with a sentence naming the value at fault, and
records ``by`` (who) and the current UTC time (when) on each entry it adds.

Occurrences are named as in licenses.csv's ``covers``: ``TOURNAMENT#N`` (or by the UID of its
calendar event); the ledger looks them up in the newest adopted version of each plan lineage.

This module gathers the ledger's public names for ``from scheduler.ledger import api``; each
lives in the module of its responsibility: :class:`Ledger` and the DataFrames in
:mod:`scheduler.ledger.frames`, the look-ups in :mod:`scheduler.ledger.lookups`, ``init`` and
``adopt`` in :mod:`scheduler.ledger.adopt`, the ``record_*`` commands in
:mod:`scheduler.ledger.record`, export and import in :mod:`scheduler.ledger.transfer`.
"""

from scheduler.ledger.adopt import Adopted, adopt, init, organization_name
from scheduler.ledger.checks import FILING_KINDS
from scheduler.ledger.frames import (
    FRAME_DTYPES,
    Ledger,
    events_frame,
    filings_frame,
    held_frame,
    licences_frame,
    reports_frame,
)
from scheduler.ledger.lookups import find_event, find_licence
from scheduler.ledger.models import DEFAULT_ORGANIZATION
from scheduler.ledger.record import (
    record_cancelled,
    record_filed,
    record_held,
    record_licence,
    record_report,
    report_periods,
)
from scheduler.ledger.transfer import (
    EXPORT_HEAD,
    Imported,
    all_entries,
    current_entries,
    export_columns,
    export_csv,
    import_csv,
    import_rows,
)

__all__ = [
    "DEFAULT_ORGANIZATION", "EXPORT_HEAD", "FILING_KINDS", "FRAME_DTYPES", "Adopted",
    "Imported", "Ledger", "adopt", "all_entries", "current_entries", "events_frame",
    "export_columns", "export_csv", "filings_frame", "find_event", "find_licence",
    "held_frame", "import_csv", "import_rows", "init", "licences_frame", "organization_name",
    "record_cancelled",
    "record_filed", "record_held", "record_licence", "record_report", "report_periods",
    "reports_frame",
]
