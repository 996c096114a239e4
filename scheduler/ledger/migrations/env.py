"""Alembic environment of the ledger. Run programmatically by :meth:`Ledger.upgrade`
(``scheduler/ledger/store.py``), which passes an open connection in
``config.attributes["connection"]``; there is no alembic.ini."""

from __future__ import annotations

from alembic import context

from scheduler.ledger.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only Ledger.upgrade() runs this environment
    raise RuntimeError("the ledger's migrations run through scheduler.ledger.Ledger.upgrade()")
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=True,  # SQLite alters tables by copying them
                  compare_type=True)
with context.begin_transaction():
    context.run_migrations()
