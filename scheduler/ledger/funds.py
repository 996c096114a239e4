"""ME-REPORT disposition-of-funds figures (16-633 CMR ch. 32 § 8; 17 M.R.S. § 1836(5),
(4-A)(F)): per licensed period of each Maine licence, the actuals recorded with ``tourney
record held``, as a CSV and a printable HTML page (one page per period), ready to copy into
the Gambling Control Unit's form (``tourney ledger funds``).

The licences and their periods are those of the newest adopted version of each plan lineage
(:func:`constraints.maine.report_periods`: each calendar month of an annual licence, else the
licence's one period); the games of a licence are the occurrences its ``covers`` names at its
operator; a game falls in the period holding its actual first day (held) or its planned first
day (cancelled, not recorded yet). Amounts are USD (cents exact, ``Decimal``).

Expenses are the sum of those recorded (``tourney record held --expenses``); when none is,
the form's expenses line is filled in by hand.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from constraints import maine
from constraints.base import share_pct
from constraints.maine import report_due
from scheduler.core.atomic_files import same_file, shown
from scheduler.core.manifest import MANIFEST
from scheduler.core.text import csv_cells
from scheduler.core.timing import report_periods
from scheduler.ledger.models import (
    DEFAULT_ORGANIZATION,
    Held,
    LicenceBought,
    Lineage,
    Organization,
    PlanEvent,
    PlanLicence,
    PlanVersion,
    ReportFiled,
    select_current,
)
from scheduler.ledger.plans import ME_LICENCE_KINDS
from scheduler.ledger.store import LedgerError, Store
from scheduler.result.words import dated_text, licence_text, span_text

FUNDS_COLUMNS = [
    "organization", "operator_id", "license_id", "kind", "tier", "agency_number",
    "period_start", "period_end", "report_due", "report_filed_on", "games_held",
    "games_cancelled", "games_not_recorded", "players", "entries", "entry_fees_usd",
    "prizes_usd", "prizes_pct", "charity_usd", "proceeds_after_prizes_usd",
    "charity_required_usd", "expenses_usd"]
"""The columns of funds.csv, one row per licensed period: the licence (``license_id`` of
licenses.csv, ``agency_number`` the number of the licence bought, when recorded), the period
(``period_start``..``period_end`` inclusive), ``report_due`` (ME-REPORT: the 10th Maine
business day after the period) and ``report_filed_on`` (from the ledger, else empty); games
held, cancelled and planned but not recorded yet; the sums over the games held of
``players``, ``entries``, ``entry_fees_usd``, ``prizes_usd`` and ``charity_usd`` (USD);
``prizes_pct`` prizes as a percentage of entry fees, to the cent, rounded down (ME-PRIZES,
17 M.R.S. § 1836(5): at least 75, judged on the exact amounts, per game too:
:func:`under_75`); ``proceeds_after_prizes_usd`` entry
fees − prizes; ``charity_required_usd`` for a super cribbage licence half of that
(ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(F); the page marks a period or game short of it),
else empty; ``expenses_usd`` the sum of the expenses recorded
(``tourney record held --expenses``). Empty when nothing of that was recorded."""

CENT = Decimal("0.01")


@dataclass
class Game:
    """One game (occurrence at the licensee) of a licensed period: ``outcome`` ``held``,
    ``cancelled`` or ``not recorded``; ``day`` its actual first day (held) or planned one;
    figures as recorded (USD), None when not recorded."""

    ref: str
    title: str
    outcome: str
    day: dt.date
    players: int | None = None
    entries: int | None = None
    entry_fees_usd: Decimal | None = None
    prizes_usd: Decimal | None = None
    charity_usd: Decimal | None = None
    expenses_usd: Decimal | None = None


@dataclass
class Period:
    """One licensed period of one Maine licence with its games and the figures of
    :data:`FUNDS_COLUMNS` (:meth:`row`)."""

    organization: str
    operator_id: str
    license_id: str
    kind: str
    tier: str
    agency_number: str
    start: dt.date
    end: dt.date
    filed_on: dt.date | None
    games: list[Game] = field(default_factory=list)
    valid_from: dt.date | None = None
    """The first day the licence is valid (its words on funds.html); None: ``start``."""
    valid_to: dt.date | None = None
    """The last day the licence is valid; None: ``end``."""

    def _sum(self, name: str) -> Decimal | int | None:
        values = [getattr(g, name) for g in self.games if g.outcome == "held"]
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    def row(self) -> dict[str, object]:
        """The funds.csv row (:data:`FUNDS_COLUMNS`): dates ``datetime.date``, USD
        ``Decimal`` with cents, counts ``int``, None for empty."""
        fees, prizes = self._sum("entry_fees_usd"), self._sum("prizes_usd")
        proceeds = (Decimal(fees) - Decimal(prizes)) if fees is not None and prizes is not None \
            else None
        pct = prizes_pct(fees, prizes)
        required = (proceeds / 2).quantize(CENT, ROUND_HALF_UP) \
            if proceeds is not None and self.kind == "me-super-cribbage" else None
        count = {o: sum(g.outcome == o for g in self.games)
                 for o in ("held", "cancelled", "not recorded")}

        def usd(v: Decimal | int | None) -> Decimal | None:
            return None if v is None else Decimal(v).quantize(CENT)

        return {
            "organization": self.organization, "operator_id": self.operator_id,
            "license_id": self.license_id, "kind": self.kind, "tier": self.tier,
            "agency_number": self.agency_number, "period_start": self.start,
            "period_end": self.end, "report_due": report_due(self.end),
            "report_filed_on": self.filed_on, "games_held": count["held"],
            "games_cancelled": count["cancelled"], "games_not_recorded": count["not recorded"],
            "players": self._sum("players"), "entries": self._sum("entries"),
            "entry_fees_usd": usd(fees), "prizes_usd": usd(prizes), "prizes_pct": pct,
            "charity_usd": usd(self._sum("charity_usd")),
            "proceeds_after_prizes_usd": usd(proceeds), "charity_required_usd": required,
            "expenses_usd": usd(self._sum("expenses_usd"))}


REPORT_STATES = ("not due yet", "due", "overdue", "filed", "filed late")
"""What :func:`report_state` says of a licensed period's ME-REPORT on a day."""


def report_state(p: Period, as_of: dt.date) -> str:
    """ME-REPORT (16-633 CMR ch. 32 § 8) of licensed period ``p`` as of ``as_of``:
    ``filed`` (on or before its due day, :func:`~constraints.maine.report_due`: the 10th
    Maine business day after the period), ``filed late``, ``not due yet`` (the period has not
    ended by ``as_of``: its last day is on or after it), ``due`` (ended, the due day is on
    or after ``as_of``) or ``overdue``. One of :data:`REPORT_STATES`."""
    due = report_due(p.end)
    if p.filed_on is not None:
        return "filed" if p.filed_on <= due else "filed late"
    if p.end >= as_of:
        return "not due yet"
    return "due" if due >= as_of else "overdue"


def under_75(fees: Decimal | int | None, prizes: Decimal | int | None) -> bool:
    """Whether prizes are under 75 % of entry fees (ME-PRIZES, 17 M.R.S. § 1836(5)), on the
    exact amounts (USD): ``prizes * 100 < fees * 75``; False when either is not recorded or
    no fee was taken."""
    if not fees or prizes is None:
        return False
    return Decimal(prizes) * 100 < Decimal(fees) * 75


def prizes_pct(fees: Decimal | int | None, prizes: Decimal | int | None) -> Decimal | None:
    """Prizes as a percentage of entry fees (USD amounts; None when either is not recorded
    or no fee was taken), to the cent, rounded down: :func:`constraints.base.share_pct`,
    the one reading of every printed share, so that a share under ME-PRIZES never reads as
    75 (2,999.99 of 4,000 is 74.99)."""
    if not fees or prizes is None:
        return None
    return share_pct(prizes, fees)


def charity_short(kind: str, fees: Decimal | int | None, prizes: Decimal | int | None,
                  charity: Decimal | int | None) -> Decimal | None:
    """The charity required of a super cribbage game or period (ME-SUPER-CRIBBAGE, 17 M.R.S.
    § 1836(4-A)(F): half of entry fees − prizes, to the cent, half up), when what was paid
    (``charity``, USD; none recorded counts as $0) is less; else None."""
    if kind != "me-super-cribbage" or fees is None or prizes is None:
        return None
    required = ((Decimal(fees) - Decimal(prizes)) / 2).quantize(CENT, ROUND_HALF_UP)
    return required if Decimal(charity or 0) < required else None


def _latest(s: Session) -> list[PlanVersion]:
    """The newest adopted version of each lineage, in lineage order."""
    newest: dict[int, PlanVersion] = {}
    for v in s.scalars(select(PlanVersion).order_by(PlanVersion.id)):
        if v.lineage_id not in newest or v.version > newest[v.lineage_id].version:
            newest[v.lineage_id] = v
    return [newest[k] for k in sorted(newest)]


def funds(ledger: Store, *, period: str | None = None,
          license_ref: str | None = None) -> list[Period]:
    """The licensed periods of every Maine licence (ME-REPORT, 16-633 CMR ch. 32 § 8) of the
    newest adopted plans in ``ledger``, with their games and recorded actuals, sorted by
    period end, operator, licence.

    Parameters
    ----------
    period
        ``YYYY-MM``: the periods ending in that month; ``YYYY-MM-DD``: the periods holding
        that day; None: all.
    license_ref
        Only this licence (a ``license_id`` of licenses.csv).

    Raises
    ------
    LedgerError
        A ``period`` that is not a month or a day, an unknown licence, or no Maine licence
        (or none in ``period``) in the ledger.
    """
    day: dt.date | None = None
    month: tuple[int, int] | None = None
    if period is not None:
        try:
            if len(period.strip()) == 7:
                y, m = period.strip().split("-")
                month = (int(y), int(m))
                dt.date(month[0], month[1], 1)
            else:
                day = dt.date.fromisoformat(period.strip())
        except ValueError:
            raise LedgerError(f"--period {period!r} is not a month (YYYY-MM) or a day "
                              "(YYYY-MM-DD)") from None
    out: list[Period] = []
    with ledger.read() as s:
        orgs = {o.id: o.name for o in s.scalars(select(Organization))}
        held = {(h.uid, h.operator_id, h.recurrence_id): h
                for h in s.scalars(select_current(Held).order_by(Held.id))}
        bought = {b.license_ref: b.agency_number
                  for b in s.scalars(select_current(LicenceBought).order_by(LicenceBought.id))
                  if b.license_ref}
        filed = {(r.license_ref, r.period_end): r.filed_on
                 for r in s.scalars(select_current(ReportFiled).order_by(ReportFiled.id))}
        found = False
        for v in _latest(s):
            lineage = s.get(Lineage, v.lineage_id)
            org = orgs[lineage.organization_id] if lineage is not None else ""
            events = list(s.scalars(select(PlanEvent).where(PlanEvent.version_id == v.id,
                                                            PlanEvent.status == "CONFIRMED")
                                    .order_by(PlanEvent.id)))
            lics = s.scalars(select(PlanLicence).where(PlanLicence.version_id == v.id)
                             .order_by(PlanLicence.license_id))
            for lic in lics:
                if lic.jurisdiction != maine.CODE or lic.kind not in ME_LICENCE_KINDS:
                    continue
                if license_ref is not None and lic.license_id != license_ref:
                    continue
                found = True
                covers = set(lic.covers.split())
                games = []
                for e in events:
                    ref = f"{e.tournament_id}#{e.occurrence}"
                    if ref not in covers or e.operator_id != lic.operator_id:
                        continue
                    h = held.get((e.uid, e.operator_id, e.recurrence_id))
                    if h is None:
                        games.append(Game(ref, e.title, "not recorded", e.first_day))
                    elif h.outcome == "cancelled" or h.first_day is None:
                        games.append(Game(ref, e.title, "cancelled", e.first_day))
                    else:
                        games.append(Game(ref, e.title, "held", h.first_day, h.players,
                                          h.entries, h.entry_fees_usd, h.prizes_usd,
                                          h.charity_usd, h.expenses_usd))
                start = lic.valid_from
                for end in report_periods(lic.kind, lic.valid_from, lic.valid_to):
                    p = Period(org, lic.operator_id, lic.license_id, lic.kind,
                               lic.tier or "", bought.get(lic.license_id, ""), start, end,
                               filed.get((lic.license_id, end)),
                               sorted((g for g in games if start <= g.day <= end),
                                      key=lambda g: (g.day, g.ref)),
                               lic.valid_from, lic.valid_to)
                    start = end + dt.timedelta(days=1)
                    if day is not None and not p.start <= day <= p.end:
                        continue
                    if month is not None and (p.end.year, p.end.month) != month:
                        continue
                    out.append(p)
    if license_ref is not None and not found:
        raise LedgerError(f"unknown licence {license_ref!r}: no adopted plan lists it as a "
                          "Maine licence in licenses.csv")
    if not found:
        raise LedgerError("no adopted plan has a Maine licence: ME-REPORT applies to Maine "
                          "licences only")
    if not out:
        raise LedgerError(f"no licensed period of a Maine licence in --period {period}")
    out.sort(key=lambda p: (p.end, p.operator_id, p.license_id))
    return out


def _text(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v)


def funds_csv(periods: list[Period]) -> str:
    """funds.csv: a header of :data:`FUNDS_COLUMNS` and one line per period (``\\n`` line
    ends; USD with cents; text cells spreadsheet-safe, :func:`scheduler.core.text.cell`)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(FUNDS_COLUMNS)
    for p in periods:
        r = p.row()
        w.writerow([csv_cells(_text(r[c])) if isinstance(r[c], str) else _text(r[c])
                    for c in FUNDS_COLUMNS])
    return buf.getvalue()


@functools.cache
def _environment() -> Environment:
    return Environment(loader=PackageLoader("scheduler.ledger", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def _usd(v: object) -> str:
    return "" if v is None else f"${Decimal(str(v)):,.2f}"


def _game_words(g: Game) -> str:
    return f"{g.title} on {dated_text(g.day)} ({g.ref})"


def _page(p: Period) -> dict[str, Any]:
    """What funds.html prints of period ``p``: the licence and organization in words, the
    warnings (games not recorded, ME-PRIZES, ME-SUPER-CRIBBAGE), the games and the form's
    figures (:meth:`Period.row`)."""
    r = p.row()
    pct = r["prizes_pct"]
    held = [g for g in p.games if g.outcome == "held"]
    games_low = [g for g in held if under_75(g.entry_fees_usd, g.prizes_usd)]
    fees, prizes = p._sum("entry_fees_usd"), p._sum("prizes_usd")
    low = under_75(fees, prizes) or bool(games_low)
    short = [(g, need) for g in held if (need := charity_short(
        p.kind, g.entry_fees_usd, g.prizes_usd, g.charity_usd)) is not None]
    short_total = charity_short(p.kind, fees, prizes, p._sum("charity_usd"))

    def row(label: str, value: str, warn: bool = False) -> dict[str, Any]:
        return {"label": label, "value": value, "warn": warn}

    figures = [
        row("Games held / cancelled / not recorded yet",
            f"{r['games_held']} / {r['games_cancelled']} / {r['games_not_recorded']}"),
        row("Players", _text(r["players"])), row("Entries", _text(r["entries"])),
        row("Total entry fees", _usd(r["entry_fees_usd"])),
        row("Prizes paid", _usd(r["prizes_usd"])),
        row("Prizes as % of entry fees (ME-PRIZES, 17 M.R.S. § 1836(5): at least 75 %)",
            "" if pct is None else f"{pct} %" + (" — under 75 %" if low else ""), low),
        row("Proceeds after prizes", _usd(r["proceeds_after_prizes_usd"])),
        row("Paid to charity", _usd(r["charity_usd"])),
    ]
    if p.kind == "me-super-cribbage":
        ok = short_total is None and not short
        figures.append(row(
            "Charity required: 50 % of proceeds after prizes (ME-SUPER-CRIBBAGE, 17 M.R.S. "
            "§ 1836(4-A)(F))",
            _usd(r["charity_required_usd"]) if ok else
            f"{_usd(r['charity_required_usd'])} — {_usd(r['charity_usd'] or 0)} paid, short",
            not ok))
    figures.append(row("Expenses", _usd(r["expenses_usd"]) if r["expenses_usd"] is not None
                       else "(not recorded in the ledger: fill in by hand)"))
    warnings = []
    if r["games_not_recorded"]:
        warnings.append(f"{r['games_not_recorded']} game(s) not recorded yet: record them "
                        "(tourney record held / cancelled) before filing.")
    warnings += [f"{_game_words(g)}: prizes {_usd(g.prizes_usd)} are "
                 f"{prizes_pct(g.entry_fees_usd, g.prizes_usd)} % of entry fees "
                 f"{_usd(g.entry_fees_usd)}, under 75 % (ME-PRIZES, 17 M.R.S. § 1836(5))."
                 for g in games_low]
    warnings += [f"{_game_words(g)}: charity paid {_usd(g.charity_usd or 0)}, short of the "
                 f"{_usd(need)} required (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(F))."
                 for g, need in short]
    named = p.organization and p.organization != DEFAULT_ORGANIZATION
    return {
        "licence": licence_text(p.kind, p.tier, p.valid_from or p.start, p.valid_to or p.end,
                                state=True),
        "license_id": p.license_id,
        "organization": p.organization if named else "",
        "operator_id": p.operator_id,
        "agency_number": p.agency_number,
        "period": span_text(p.start, p.end),
        "period_end": p.end.isoformat(),
        "due": dated_text(report_due(p.end)),
        "filed": (f"filed {dated_text(p.filed_on)}" if p.filed_on is not None
                  else "not recorded as filed"),
        "warnings": warnings,
        "games": [{"day": dated_text(g.day), "title": g.title, "ref": g.ref,
                   "outcome": g.outcome, "players": _text(g.players),
                   "entries": _text(g.entries), "fees": _usd(g.entry_fees_usd),
                   "prizes": _usd(g.prizes_usd), "charity": _usd(g.charity_usd)}
                  for g in p.games],
        "figures": figures,
    }


_GENERATOR = '<meta name="generator" content="tourney ledger funds">'
"""The line of funds.html that says tourney wrote it (a file without it is never replaced)."""


def _written_by_funds(path: Path) -> bool:
    """Whether ``path`` (an existing funds.csv or funds.html) is one ``ledger funds`` wrote:
    funds.csv's first line is :data:`FUNDS_COLUMNS`, funds.html holds :data:`_GENERATOR`
    in its first 1,000 bytes."""
    try:
        with open(path, "rb") as f:
            head = f.read(1000)
    except OSError:
        return False
    if path.suffix == ".csv":
        return head.split(b"\n", 1)[0] == ",".join(FUNDS_COLUMNS).encode("utf-8")
    return _GENERATOR.encode("utf-8") in head


def funds_html(periods: list[Period], title: str = "Disposition of funds") -> str:
    """A printable page of ``periods``: one section per period, each printed on its own page
    (print CSS, Letter or A4), self-contained (no script, no external link). Each section
    names the organization (``tourney ledger init --name``; an organization recorded without
    a name, :data:`~scheduler.ledger.models.DEFAULT_ORGANIZATION`, is left out) and the
    licence in words (``Maine annual licence (51–100 players) from Jan 9, 2027``); the
    licence id appears only in the ``tourney record report`` command that records the
    report filed. Its head holds :data:`_GENERATOR` (a funds.html tourney wrote). Rendered
    from ``templates/funds.html.j2`` (autoescaped). Same periods, same text."""
    return _environment().get_template("funds.html.j2").render(
        title=title, generator=Markup(_GENERATOR), periods=[_page(p) for p in periods])


def refuse_funds_folder(ledger: Store, out: str | Path) -> None:
    """Refuse an ``--out`` folder of ``tourney ledger funds`` that would destroy an input.

    Parameters
    ----------
    ledger
        The ledger read (its file, when it is SQLite, is never written over).
    out
        The folder funds.csv and funds.html would be written into.

    Raises
    ------
    LedgerError
        ``out`` holds a plan (its manifest ``.tourney-plan``: funds.csv and funds.html are
        never written among a plan's files), or its funds.csv or funds.html would be the
        ledger's own file, or exists and was not written by ``ledger funds`` (its header
        line, its generator line). Exit code 2; the message names the folder or file.
    """
    out = Path(out)
    if (out / MANIFEST).exists():
        raise LedgerError(f"--out {shown(out)} holds a plan ({MANIFEST}): funds.csv and "
                          "funds.html are never written among a plan's files; give another "
                          "folder")
    for name in ("funds.csv", "funds.html"):
        target = out / name
        if ledger.path is not None and same_file(out / name, ledger.path):
            raise LedgerError(f"--out {shown(out / name)} is the ledger {ledger.where} "
                              "itself: writing there would destroy it; give another folder")
        if (target.exists() or target.is_symlink()) and (
                target.is_symlink() or not target.is_file() or not _written_by_funds(target)):
            raise LedgerError(f"--out {shown(target)} exists and was not written by `tourney "
                              "ledger funds`: it is never replaced; move it, or give another "
                              "folder")
