"""Import paths in scheduler/ and constraints/: no private name crosses a module, every name is
imported from the module that defines it, and the public API is typed (issue #25).

A name is imported from its one home, never through a module that only re-exports it. The
packages below are the exceptions: public APIs whose ``__init__`` gathers names on purpose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parent.parent

PUBLIC_APIS = {
    "scheduler",  # the Python API: from scheduler import solve (docs/reference.md)
    "scheduler.ledger",  # from scheduler.ledger import Ledger, LedgerError
    "scheduler.ledger.api",  # the ledger's commands, one per function (tourney ledger, record)
    "constraints.maine",  # each rule pack's face: its RULES, limits and wording
    "constraints.montana",
    "constraints.common",
}


class Module:
    """One module's source: its top-level names and every ``from ... import``."""

    def __init__(self, name: str, path: Path, is_package: bool) -> None:
        self.name, self.path, self.is_package = name, path, is_package
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.defined: set[str] = set()  # bound here by def, class or assignment
        self.imported: dict[str, str] = {}  # bound here by an import: what it imports
        for stmt in _top_level(self.tree.body):
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.defined.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                self.defined |= {n.id for t in stmt.targets for n in ast.walk(t)
                                 if isinstance(n, ast.Name)}
            elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and isinstance(stmt.target,
                                                                                 ast.Name):
                self.defined.add(stmt.target.id)
            elif isinstance(stmt, ast.Import):
                self.imported |= {a.asname or a.name.split(".")[0]: a.asname and a.name
                                  or a.name.split(".")[0] for a in stmt.names}
            elif isinstance(stmt, ast.ImportFrom):
                source = self.source_of(stmt)
                self.imported |= {a.asname or a.name: f"{source}.{a.name}" for a in stmt.names}

    def source_of(self, node: ast.ImportFrom) -> str:
        """The absolute module name of ``from ... import`` (relative imports resolved)."""
        if node.level == 0:
            return node.module or ""
        base = self.name.split(".")
        if not self.is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The module's statements, those under a top-level ``if`` or ``try`` included."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, ast.If):
            out += _top_level(stmt.body) + _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            out += _top_level(stmt.body) + _top_level(stmt.orelse) + _top_level(stmt.finalbody)
            for handler in stmt.handlers:
                out += _top_level(handler.body)
    return out


def _modules() -> dict[str, Module]:
    modules = {}
    for package in ("scheduler", "constraints"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            modules[name] = Module(name, path, is_package)
    return modules


def _is_submodule(modules: dict[str, Module], source: str, name: str) -> bool:
    """``from source import name`` names a module (and not another name the package binds)."""
    package = modules[source]
    return (f"{source}.{name}" in modules and name not in package.defined
            and package.imported.get(name, f"{source}.{name}") == f"{source}.{name}")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_name_is_imported_across_modules() -> None:
    modules = _modules()
    crossing = []
    for m in modules.values():
        aliases = {}  # a local name bound to another module of ours
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ImportFrom):
                source = m.source_of(node)
                if source not in modules:
                    continue
                for a in node.names:
                    if _is_submodule(modules, source, a.name):
                        aliases[a.asname or a.name] = f"{source}.{a.name}"
                    elif _private(a.name) and source != m.name:
                        crossing.append(f"{m.path.relative_to(ROOT)}:{node.lineno}: "
                                        f"from {source} import {a.name}")
            elif isinstance(node, ast.Import):
                aliases |= {a.asname or a.name: a.name for a in node.names if a.name in modules}
        for node in ast.walk(m.tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr)
                    and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and aliases[node.value.id] != m.name):
                crossing.append(f"{m.path.relative_to(ROOT)}:{node.lineno}: "
                                f"{aliases[node.value.id]}.{node.attr}")
    assert crossing == []


def test_every_name_is_imported_from_the_module_that_defines_it() -> None:
    modules = _modules()
    assert modules.keys() >= PUBLIC_APIS
    elsewhere = []
    for m in modules.values():
        for node in ast.walk(m.tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = m.source_of(node)
            if source not in modules or source in PUBLIC_APIS:
                continue
            for a in node.names:
                if not (_is_submodule(modules, source, a.name)
                        or a.name in modules[source].defined):
                    elsewhere.append(f"{m.path.relative_to(ROOT)}:{node.lineno}: "
                                     f"from {source} import {a.name}")
    assert elsewhere == []


def test_mypy_sees_the_signature_of_scheduler_solve(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # mypy finds this checkout's packages from the current directory
    probe = tmp_path / "probe.py"
    probe.write_text("import scheduler\n\nreveal_type(scheduler.solve)\n", encoding="utf-8")
    # the project's configuration and cache (`make test` runs mypy first, so this is quick)
    stdout, stderr, _ = mypy_api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(ROOT / ".mypy_cache"), "--no-error-summary", str(probe)])
    assert stderr == ""
    assert 'Revealed type is "def (scenario: scheduler.core.scenario.Scenario, *,' in stdout
    assert "seed: int =" in stdout
    assert ") -> scheduler.result.plan.Plan" in stdout
