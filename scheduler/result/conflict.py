"""A conflict: the rules and requests that cannot all hold, as a plan holds it.

:class:`Conflict` and its :class:`Member` are result types: :mod:`scheduler.engine.explain` finds
them (CP-SAT assumptions) and :class:`scheduler.result.plan.Plan` carries them (``Plan.conflicts``),
so they sit below both, and a plan (and every output reading one) does not import the
explanation's solver.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from constraints.catalogue import cite


@dataclass(frozen=True)
class Member:
    """One rule instance or request of a conflict."""

    rule: str
    """A rule ID, or ``REQUEST`` for a required occurrence / fixed date."""
    text: str

    def render(self) -> str:
        if self.rule == "REQUEST":
            return f"request: {self.text}"
        return f"{self.text} ({cite(self.rule)})"


@dataclass(frozen=True)
class Conflict:
    """A set of members that cannot all hold, read as a sequence of :class:`Member`
    (iteration, ``len``, indexing); ``minimal`` is False when a deletion step ran out of time
    or budget, so a member might be dropped without making the rest fit; ``certificate`` is
    the counting argument that proves it, when a rule gave one. Immutable, like the plan
    that holds it (``Plan.conflicts``)."""

    members: tuple[Member, ...]
    minimal: bool = True
    certificate: str | None = None

    def __iter__(self) -> Iterator[Member]:
        return iter(self.members)

    def __len__(self) -> int:
        return len(self.members)

    def __getitem__(self, index: int) -> Member:
        return self.members[index]
