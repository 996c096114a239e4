"""Builders shared by the tests: plain functions and constants, no fixtures (those live in
tests/conftest.py, where pytest finds them). Import from the submodule that owns a name:

- :mod:`builders.scenarios`: scenario dicts, loading, a small solve, the checker's findings.
- :mod:`builders.plans`: plan folders written by hand (schedule.csv, licenses.csv) for the
  ledger, and the committed revision-0001 ledger.
- :mod:`builders.checkfiles`: schedule.csv text for ``tourney check`` and running it.
- :mod:`builders.commands`: scenario files and plan folders written and solved by the CLI.
- :mod:`builders.caldav`: a real Radicale server on 127.0.0.1 and what publish put there.
- :mod:`builders.servers`: a real PostgreSQL cluster and its databases.
"""
