"""A jurisdiction as a plug-in: what the engine and the outputs ask of a state, in one object.

Each state's package exports one :class:`Jurisdiction` (``constraints.montana.JURISDICTION``,
``constraints.maine.JURISDICTION``): its code, name, tournament types, time zone, how its
hours are read, its rules and catalogue rows, and the words and hooks its outputs need.
The core reads only this object, never a state's code by value.

The bundled states are named here by module (:data:`BUNDLED`) and imported on first use
(:func:`installed`), as a plug-in is found by its entry point; another state (a test's toy
rule pack) joins with ``constraints.registry.register``, which calls :func:`install` and
adds its rules to the registry.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from constraints.catalogue import RuleInfo, add_rows, remove_rows

BUNDLED = ("constraints.montana", "constraints.maine")
"""The modules of the bundled states, in registry order; each exports ``JURISDICTION``."""


def _none(*_args: Any, **_kwargs: Any) -> Any:
    return None


@dataclass(frozen=True, eq=False)
class Jurisdiction:
    """One state's plug-in: data and hooks, each read by one layer above. Compared and hashed
    by identity: one object a state.

    Hooks are typed loosely (``Callable[..., Any]``) where their arguments are types of a
    layer above the core (a plan's rows, a rule's licence); each hook's docstring names them.
    """

    code: str
    """The scenario's spelling (``MT``), an operator's ``jurisdiction``."""
    name: str
    """The state's name (``"Montana"``): what messages print; also a synonym an operator may
    write for the code."""
    timezone: str
    """The IANA zone of an operator who gives none."""
    types: tuple[str, ...]
    """Its tournament types, as a scenario spells them."""
    operator_fields: tuple[str, ...] = ()
    """The fields of :class:`scheduler.core.scenario_types.Operator` that apply only to its
    operators (rule ``SCENARIO`` refuses them on another state's operator)."""
    wall_clock: bool = False
    """How ``hours`` are read (:func:`scheduler.core.timing.timing`): on the wall clock each
    play day (True) or as elapsed time (False)."""
    permit_years: bool = False
    """Its operators count by permit years (MT-PERMIT-YEAR): schedule.csv's ``permit_year``."""
    one_licence_each: bool = False
    """An occurrence is covered by one licence, the first that covers it (Maine); otherwise by
    every licence or permit it needs (Montana: one per permit year it is played in)."""
    types_without_readings: tuple[str, ...] = ()
    """Types whose events list none of its readings (a Montana small-stakes night, a Maine
    charitable cribbage night: no rule read there has a switch)."""
    all_day_events: bool = False
    """Its occurrences are written to the calendars as all-day events, the calendar days with
    the play times in the description (Montana), unless the first operator's
    ``calendar_style`` is ``timed``; otherwise as timed events (DTSTART/DTEND with TZID)."""
    rules: tuple[Any, ...] = ()
    """Its rules (``constraints.base.Rule``), in registry order."""
    catalogue: tuple[RuleInfo, ...] = ()
    """Its rows of the rule catalogue (bundled states' rows are in
    :mod:`constraints.catalogue` already)."""
    statute: str = ""
    """The statute the not-legal-advice note names (``"Montana MCA 23-5-317"``)."""
    agency: str = ""
    """The agency a filing goes to, with its article (``"the Montana Gambling Control
    Division"``)."""
    filing: str = ""
    """What is filed with the agency, with its article (``"a notice"``)."""
    licence_kinds: tuple[str, ...] = ()
    """The ``kind`` values of its licences and permits in licenses.csv (``tourney record
    licence --kind``); empty: it sells none."""
    example: Mapping[str, Any] | None = None
    """Its example scenario for ``tourney template --example <name>`` (a raw mapping, as YAML
    gives it); None: none."""
    words: Mapping[str, str] = field(default_factory=dict)
    """Words report.html prints for this state, by key (a key missing: nothing of it):

    - ``statute_short``, ``agency_short``: summary.txt's names of them (default: ``statute``,
      ``agency``);
    - ``filed_what``, ``filed_where``: what is filed and where ("Montana notice", "the
      Gambling Control Division"): "A Montana notice goes to the Gambling Control Division.";
    - ``nothing_to_file``: the Deadlines section's sentence when it is the plan's only state
      and nothing is due; ``nothing_filed``: its part of that sentence beside other states'
      ("no Maine licence");
    - ``apply_by_note``: what the licence table's Apply by column means for its licences;
      ``licence_note``: another note below that table when the plan buys its licences.
    """
    office_holidays: Callable[[int], Mapping[dt.date, str]] | None = None
    """The days its state offices are closed by law in a calendar year, by name (the year ->
    ``{day: name}``; :func:`scheduler.core.timing.office_closed`: a deadline due on one is
    filed the open day before, and names it); None: only Saturdays and Sundays close them."""
    governor_closed_days: bool = False
    """The days the Governor closes state offices by order (``settings.closed_days``) close
    its offices (Maine: they are not Maine business days); otherwise they are ignored."""
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """Functions the outputs call for this state, by key; :meth:`hook` gives a missing one as
    a function returning None:

    - ``licence_id_part(kind, tier, tournament_id) -> str | None``: what a licence's id ends
      with after its kind and first day (``scheduler.engine.extract``).
    """

    def hook(self, key: str) -> Callable[..., Any]:
        """The hook ``key`` of this state, or a function that returns None."""
        return self.hooks.get(key, _none)


_installed: list[Jurisdiction] = []
_by_code: dict[str, Jurisdiction] = {}
_by_type: dict[str, Jurisdiction] = {}


def installed() -> tuple[Jurisdiction, ...]:
    """Every jurisdiction: the bundled ones in :data:`BUNDLED` order, then those installed
    with :func:`install`, in that order."""
    if not _by_code:
        bundled = [importlib.import_module(m).JURISDICTION for m in BUNDLED]
        if not _by_code:  # not filled while the modules were imported
            _installed[:0] = bundled
            _index()
    return tuple(_installed)


def _index() -> None:
    _by_code.clear()
    _by_type.clear()
    for j in _installed:
        _by_code[j.code] = j
        _by_type.update(dict.fromkeys(j.types, j))


def install(j: Jurisdiction) -> None:
    """Add ``j`` to the installed jurisdictions and its catalogue rows to the catalogue
    (once; installing it again does nothing).

    Raises
    ------
    ValueError
        Another jurisdiction has its code or one of its types.
    """
    if any(j is other for other in installed()):
        return
    for other in installed():
        if other.code == j.code or set(other.types) & set(j.types):
            raise ValueError(f"jurisdiction {j.code} clashes with {other.code}")
    add_rows(j.catalogue)
    _installed.append(j)
    _index()


def uninstall(j: Jurisdiction) -> None:
    """Remove ``j``, installed with :func:`install`, and its catalogue rows (a test's toy
    jurisdiction, once the test is done); a bundled one stays."""
    if any(j is other for other in _installed[len(BUNDLED):]):
        _installed.remove(j)
        remove_rows(j.catalogue)
        _index()


def codes() -> tuple[str, ...]:
    """The jurisdiction codes, in registry order (Montana's, then Maine's)."""
    return tuple(j.code for j in installed())


def all_types() -> tuple[str, ...]:
    """Every tournament type, state by state in registry order."""
    return tuple(t for j in installed() for t in j.types)


def jurisdiction(code: str) -> Jurisdiction:
    """The jurisdiction of ``code``.

    Raises
    ------
    KeyError
        No jurisdiction has that code.
    """
    if not _by_code:
        installed()
    return _by_code[code]


def of_type(tournament_type: str) -> Jurisdiction:
    """The jurisdiction whose tournaments have type ``tournament_type``.

    Raises
    ------
    KeyError
        No jurisdiction has that type.
    """
    if not _by_type:
        installed()
    return _by_type[tournament_type]


def default_timezone(code: str) -> str | None:
    """The IANA zone of an operator of ``code`` who gives none; None for an unknown code."""
    if not _by_code:
        installed()
    j = _by_code.get(code)
    return j.timezone if j is not None else None


def state_name(code: str) -> str:
    """The state's name of ``code`` (``"Montana"``), as a sentence names it ("a Montana
    large-stakes tournament"); ``code`` itself when no jurisdiction has it."""
    if not _by_code:
        installed()
    j = _by_code.get(code)
    return j.name if j is not None else code


def default_timezones() -> tuple[str, ...]:
    """The default zones of every jurisdiction, in registry order."""
    return tuple(j.timezone for j in installed())
