"""The operating year's ledger (issue #13): what was announced, filed, bought, held and
reported, in a SQLite file or a PostgreSQL database, append-only.

``Ledger(url)`` opens one (:mod:`scheduler.ledger.store`); the commands' logic and the
DataFrames are in :mod:`scheduler.ledger.api`; the to-do list of filings in
:mod:`scheduler.ledger.deadlines`; the tables in :mod:`scheduler.ledger.models`.
"""

from scheduler.ledger.store import Ledger, LedgerError

__all__ = ["Ledger", "LedgerError"]
