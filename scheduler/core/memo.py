"""One result kept for the last object asked about: a plan's deadlines and limit usage are
asked for by several writers of the same plan (deadlines.csv, the calendars, plan.xlsx, the
report's figures), computed once (issue #27); and :func:`gc_paused`, no cyclic garbage
collection while many long-lived objects are made."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")

__all__ = ["LastOf", "gc_paused"]


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


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside (a context manager, or a decorator as
    ``@gc_paused()``); collection as it was after. Building a model allocates some hundred
    thousand objects that all live as long as the model, and solving a part reads them and
    makes the plan's: the collector would scan them again and again for nothing, and they
    are freed by reference counting as the part is done (its model holds no reference cycle:
    no unreachable object is left by a part at N = 200). At N = 200 the collections of a
    solve took about 1.2 s of CPU, 0.1 s with solve() paused (``gc.callbacks``, issue #27).
    The calendars' events make no cycles either (about a tenth of their CPU went to
    collections)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
