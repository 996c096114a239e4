"""A dict that cannot be changed in place (:class:`FrozenDict`): the mappings of a finished,
immutable value (a scenario's settings, a plan's objective)."""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

__all__ = ["FrozenDict"]

_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A dict that cannot be changed in place: the mappings of a frozen value
    (``Settings.super_cribbage_licenses_issued``; a plan's ``objective``, ``bound``,
    ``replaced_events``). It reads, compares, prints and serialises (``json``, ``pickle``:
    plans and scenarios cross the process pool) as a dict, and hashes by its items (its
    values must be hashable), so a frozen value holding one can be hashed. Every change
    raises ``TypeError``: item assignment and deletion, ``update``, ``|=``, ``clear``,
    ``pop``, ``popitem``, ``setdefault``, and ``__init__`` called again on a made one (its
    attributes cannot be set or deleted: ``AttributeError``).
    """

    __slots__ = ("_made",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_made", False):
            self._refuse()
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_made", True)

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a frozen mapping cannot be changed in place; make a new one (a "
                        "finished plan or scenario: with dataclasses.replace or model_copy)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        # AttributeError, as for any object without the attribute (typing's generic alias
        # sets __orig_class__ and expects it)
        raise AttributeError(f"a frozen mapping has no attribute to set ({name})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a frozen mapping has no attribute to delete ({name})")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (dict(self),)
