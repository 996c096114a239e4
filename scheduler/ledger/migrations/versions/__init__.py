"""Ledger schema revisions, oldest first (generated from models.py, then reviewed)."""
