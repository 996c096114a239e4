"""Alembic migrations of the ledger (see env.py)."""
