"""The draws every part of a generation run shares: one ``random.Random(seed)`` and the
run's state (operators and tournaments so far), with the helpers that draw days and
windows."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from scheduler.studies.generate.tables import STREETS, Data


class Draws:
    """One generation run's state; all randomness comes from ``self.rng`` in a fixed order."""

    def __init__(self, operators: int, seed: int, year: int) -> None:
        self.n = operators
        self.seed = seed
        self.year = year
        self.rng = random.Random(seed)
        self.start = dt.date(year, 1, 1)
        self.end = dt.date(year, 12, 31)
        self.width = max(4, len(str(operators)))
        self.operators: list[Data] = []
        self.tournaments: list[Data] = []

    # ----------------------------------------------------------------- helpers
    def day(self, lo: dt.date, hi: dt.date) -> dt.date:
        return lo + dt.timedelta(days=self.rng.randint(0, (hi - lo).days))

    def weighted(self, pairs: tuple[tuple[Any, int], ...]) -> Any:
        return self.rng.choices([v for v, _ in pairs], weights=[w for _, w in pairs])[0]

    def slot_start(self, k: int, n: int, last_start: dt.date) -> dt.date:
        """A random window start in the ``k``-th of ``n`` equal slices of [Jan 1, last_start]."""
        total = (last_start - self.start).days + 1
        lo = self.start + dt.timedelta(days=total * k // n)
        hi = self.start + dt.timedelta(days=max(total * (k + 1) // n - 1, total * k // n))
        return self.day(lo, min(hi, last_start))

    def window(self, k: int, n: int, weeks: int, span_days: int) -> tuple[dt.date, dt.date]:
        """A window of ``weeks`` weeks in slice ``k`` of ``n`` for an event that uses
        ``span_days`` calendar days, ending so that the event stays inside the horizon."""
        last_first = self.end - dt.timedelta(days=span_days - 1)
        length = 7 * weeks
        w0 = self.slot_start(k, n, last_first - dt.timedelta(days=length - 1))
        return w0, min(w0 + dt.timedelta(days=length - 1), last_first)

    def address(self, town: str, zipcode: str, state: str) -> str:
        return f"{self.rng.randint(10, 4999)} {self.rng.choice(STREETS)}, {town}, {state} {zipcode}"
