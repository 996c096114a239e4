"""Model building (scheduler.engine.model.build_model and the objective's terms,
scheduler.engine.objective.add_terms) gives the same CP-SAT model for every part of each
bundled example (data/examples/*.yaml) and of the generated N = 50 scenario (``tourney
generate -n 50 --seed 7``), as of 2026-12-01: the same variables, constraints (names
cleared), rule of each constraint, licences and objective terms, digested part by part
(SHA-256 over their text) and compared with tests/data/model_digests.json, the digests of
the models as they were before model building was sped up (issue #27).

The objective of each search is made from the terms (scheduler.engine.objective.weighted)
and each search's hint from the previous solution, so the same terms and variables give
the same objectives and hints. A change that means to change the model writes the file
again: ``python tests/test_model_same_protos.py`` (and says why in its commit).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # run as a script: import this checkout
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ortools.sat.python.cp_model import LinearExpr  # noqa: E402

from constraints.modelling import NO_MAX, NO_MIN, ModelContext  # noqa: E402
from scheduler.core.scenario import Scenario  # noqa: E402
from scheduler.core.timing import made_as_of  # noqa: E402
from scheduler.engine.decompose import components  # noqa: E402
from scheduler.engine.model import build_model  # noqa: E402
from scheduler.engine.objective import add_terms  # noqa: E402
from scheduler.inputs.load import load_scenario  # noqa: E402
from scheduler.studies.generate import generate_data  # noqa: E402

DIGESTS = ROOT / "tests" / "data" / "model_digests.json"
AS_OF = dt.date(2026, 12, 1)
EXAMPLES = sorted(p.name for p in (ROOT / "data" / "examples").glob("*.yaml"))
GENERATED = "generated-50-seed-7"


def _scenario(name: str) -> Scenario:
    source: Any = (generate_data(50, 7) if name == GENERATED
                   else ROOT / "data" / "examples" / name)
    return made_as_of(load_scenario(source), AS_OF)


def _term(term: Any) -> str:
    index = getattr(term, "index", None)  # a variable: its index; else the expression
    return f"v{index}" if isinstance(index, int) else str(term)


def _text(ctx: ModelContext, names: bool = False) -> str:
    """The model of one part as text: the proto (names cleared unless ``names``), then what
    the objective and the reading of a solution take from the context."""
    m = ctx.model.clone()
    if not names:
        m.remove_all_names()
    terms = {name: [(_term(v), w) for v, w in getattr(ctx, name)]
             for name in ("placed_terms", "required_terms", "fee_terms", "preference_terms")}
    licences = [(lic.var.index, lic.operator_id, lic.jurisdiction, lic.kind, lic.tier,
                 str(lic.valid_from), str(lic.valid_to), lic.fee_usd, lic.rank)
                for lic in ctx.licenses]
    z = [(tid, str(day), v.index) for (tid, day), v in ctx.z.items()]
    return "\n".join([str(m.proto), json.dumps(ctx.rule_of_constraint), json.dumps(terms),
                      json.dumps(licences), json.dumps(z)])


def digests(name: str, explain: bool = False) -> list[str]:
    """SHA-256 of each part's model text (:func:`_text`), parts in solve order; with
    ``explain``, of the model that explains infeasibility (every day a candidate, names
    kept: the conflicts are read from them)."""
    out = []
    for part in components(_scenario(name)):
        ctx = build_model(part, explain=explain)
        if not explain:
            add_terms(ctx)
        out.append(hashlib.sha256(_text(ctx, names=explain).encode()).hexdigest())
    return out


def test_the_context_writes_what_cpmodel_add_writes() -> None:
    sc = _scenario("montana-card-room.yaml")
    by_ortools, by_text = ModelContext(sc), ModelContext(sc)
    x = [by_ortools.new_bool() for _ in range(6)]
    y = [by_text.new_bool() for _ in range(6)]
    m = by_ortools.model
    m.add(LinearExpr.sum([x[3], x[1], x[3]]) <= 2)  # x1 + 2 x3 <= 2: a variable twice
    m.add(x[4] + x[2] >= 1 + x[5])  # x2 + x4 - x5 >= 1
    m.add_implication(x[1], x[2])
    m.add(LinearExpr.sum([x[5], x[0]]) == 1).with_name("one of two")
    m.add(LinearExpr.sum([x[0], x[2]]) <= 1)  # after the named one: the order kept
    by_text.add_sum([y[3], y[1], y[3]], NO_MIN, 2)
    by_text.add_linear([(4, 1), (2, 1), (5, -1)], 1, NO_MAX)
    by_text.add_implication(1, 2)
    by_text.add_sum([y[5], y[0]], 1, 1, "one of two")
    by_text.add_indices([0, 2], NO_MIN, 1)
    by_text.flush()
    assert len(by_text.model.proto.constraints) == 5
    assert str(by_text.model.proto) == str(m.proto)


@pytest.mark.parametrize("name", [*EXAMPLES, GENERATED])
def test_model_building_gives_the_same_cpsat_model_part_by_part(name: str) -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))[name]
    got = digests(name)
    assert len(got) == len(expected)  # the same parts
    assert [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b] == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_model_building_gives_the_same_explaining_model_with_its_names(name: str) -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))[f"explain {name}"]
    got = digests(name, explain=True)
    assert len(got) == len(expected)
    assert [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b] == []


if __name__ == "__main__":
    found = {n: digests(n) for n in [*EXAMPLES, GENERATED]}
    found.update({f"explain {n}": digests(n, explain=True) for n in EXAMPLES})
    DIGESTS.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
