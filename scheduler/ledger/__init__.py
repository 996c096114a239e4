"""The operating year's ledger (issue #13): what was announced, filed, bought, held and
reported, in a SQLite file or a PostgreSQL database, append-only.

``Ledger(url)`` opens one (:mod:`scheduler.ledger.frames`, over the database of
:mod:`scheduler.ledger.store`); the commands' logic and the DataFrames are gathered in
:mod:`scheduler.ledger.api` (init and adopt in :mod:`scheduler.ledger.adopt`, the records in
:mod:`scheduler.ledger.record`, export and import in :mod:`scheduler.ledger.transfer`, the
DataFrames in :mod:`scheduler.ledger.frames`, the look-ups of a plan's occurrences and
licences in :mod:`scheduler.ledger.lookups`); the to-do list of filings in
:mod:`scheduler.ledger.deadlines`; the ME-REPORT disposition-of-funds figures in
:mod:`scheduler.ledger.funds`; the .xlsx export and import in :mod:`scheduler.ledger.workbook`;
what is read of a plan folder in :mod:`scheduler.ledger.plans`; the tables in
:mod:`scheduler.ledger.models`; the history ``tourney solve --ledger`` takes in
:mod:`scheduler.ledger.history` and the audit of what was held (``tourney check --ledger``)
in :mod:`scheduler.ledger.audit`. Imports run one way: audit > history > workbook > api >
adopt, record, transfer > frames, lookups > deadlines, funds > plans > store > models.
"""

from scheduler.ledger.frames import Ledger
from scheduler.ledger.store import LedgerError

__all__ = ["Ledger", "LedgerError"]
