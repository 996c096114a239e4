"""One result kept for the last object asked about: a plan's deadlines and limit usage are
asked for by several writers of the same plan (deadlines.csv, the calendars, plan.xlsx, the
report's figures), computed once (issue #27)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

__all__ = ["LastOf"]


class LastOf(Generic[T]):
    """``get(obj, make)``: ``make()`` the first time ``obj`` is asked about, then the same
    result until another object is (``obj`` held by a weak reference, never kept alive; an
    object that takes none is not kept at all)."""

    def __init__(self) -> None:
        self._held: tuple[weakref.ref[Any], T] | None = None

    def get(self, obj: object, make: Callable[[], T]) -> T:
        if self._held is not None and self._held[0]() is obj:
            return self._held[1]
        made = make()
        try:
            self._held = (weakref.ref(obj), made)
        except TypeError:  # no weak reference to it: computed each time
            self._held = None
        return made
