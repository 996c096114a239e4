"""``tourney ledger init --name``: the organization's name as people read it, recorded once
when the ledger is made (the ledger is append-only), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api

from builders.plans import write_plan


def test_init_name_is_the_organization_adopt_uses(url: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_LEDGER", url)
    run = CliRunner().invoke
    r = run(app, ["ledger", "init", "--name", "  American Legion   Post 39 "])
    assert r.exit_code == 0, r.output
    assert "organization 'American Legion Post 39'" in r.output  # spaces collapsed
    # the same name again: nothing to do, exit 0
    assert run(app, ["ledger", "init", "--name", "American Legion Post 39"]).exit_code == 0
    r = run(app, ["ledger", "adopt", str(write_plan(tmp_path / "plan"))])
    assert r.exit_code == 0 and "(American Legion Post 39)" in r.output, r.output
    lg = Ledger(url)
    try:
        assert api.adopt(lg, tmp_path / "plan").organization == "American Legion Post 39"
    finally:
        lg.dispose()


def test_init_name_is_refused_once_another_organization_is_kept(url: str,
                                                                tmp_path: Path) -> None:
    lg = Ledger(url)
    try:
        api.init(lg)
        api.adopt(lg, write_plan(tmp_path / "plan"))  # names the organization "default"
        with pytest.raises(LedgerError, match="already keeps the organization.*'default'"):
            api.init(lg, "Big Sky Tour")
        with pytest.raises(LedgerError, match="1 to 200 characters"):
            api.init(lg, "   ")
        with pytest.raises(LedgerError, match="1 to 200 characters"):
            api.init(lg, "x" * 201)
    finally:
        lg.dispose()
