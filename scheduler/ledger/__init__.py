"""The operating year's ledger (issue #13): what was announced, filed, bought, held and
reported, in a SQLite file or a PostgreSQL database, append-only.

``Ledger(url)`` opens one (:mod:`scheduler.ledger.api`, over the database of
:mod:`scheduler.ledger.store`); the commands' logic and the DataFrames are in
:mod:`scheduler.ledger.api`; the to-do list of filings in :mod:`scheduler.ledger.deadlines`;
the ME-REPORT disposition-of-funds figures in :mod:`scheduler.ledger.funds`; the .xlsx
export and import in :mod:`scheduler.ledger.workbook`; what is read of a plan folder in
:mod:`scheduler.ledger.plans`; the tables in :mod:`scheduler.ledger.models`; the history
``tourney solve --ledger`` takes in :mod:`scheduler.ledger.history` and the audit of what
was held (``tourney check --ledger``) in :mod:`scheduler.ledger.audit`. Imports run one way:
audit > history > workbook > api > deadlines, funds > plans > store > models.
"""

from scheduler.ledger.api import Ledger
from scheduler.ledger.store import LedgerError

__all__ = ["Ledger", "LedgerError"]
