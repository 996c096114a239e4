"""How spreadsheets spell the ledger's values, read back: the one home of the rules by which
``tourney ledger import`` and ``tourney record --from`` read a cell's text (issue #26).

- **Amounts (USD)**: ``1234.50``, ``1234``; a leading ``$`` (``$1,234.50``); commas between
  groups of three digits separate thousands (``10,000`` and ``$10,000`` are ten thousand
  dollars: the product's money is US dollars, written the US way); a comma followed by one
  or two digits at the end is a decimal comma (``1234,50`` and ``1.234,50`` are 1,234.50;
  ``1,5`` is 1.50); spaces, including the no-break spaces some locales put between thousands
  (``1 234,50``), are thousands separators too. Anything else (``10k``, ``1,2345``,
  ``12.345,678``) is refused, naming the cell. A fraction of a cent (``1.234``) is read, then
  refused by the amount check (:func:`scheduler.ledger.checks.usd_problem`).
- **Counts**: ``180``, ``1,234`` (thousands), ``180.0`` (a spreadsheet's number).
- **Yes/no**: ``TRUE``/``FALSE`` as every spreadsheet writes them, ``true``/``false``,
  ``yes``/``no``, ``1``/``0`` (any case).
- **Days**: ``2027-01-05`` (ISO 8601, also with a time of midnight, as a date cell turned
  into text) or ``1/5/2027`` (the US month/day/year a US spreadsheet shows; the year in four
  digits).

Each reader raises :class:`ValueError` whose text says what was expected, in the product's
words; the caller names the file, sheet, row and column.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

_SPACES = str.maketrans("", "", " \u00a0\u202f\u2009")
_PLAIN = re.compile(r"-?\d+(\.\d+)?")
_US_THOUSANDS = re.compile(r"-?\d{1,3}(,\d{3})+(\.\d+)?")
_DECIMAL_COMMA = re.compile(r"-?\d+,\d{1,2}")
_EU_THOUSANDS = re.compile(r"-?\d{1,3}(\.\d{3})+(,\d{1,2})?")
_SPACED = re.compile(r"-?\d{1,3}([ \u00a0\u202f\u2009]\d{3})+([.,]\d{1,2})?")
USD_EXAMPLES = "e.g. 1234.50, $1,234.50 or 1234,50"
"""How a message shows the amounts a cell may hold."""


def read_usd(text: str) -> Decimal:
    """The amount in USD a spreadsheet cell spells (see the module's rules).

    Parameters
    ----------
    text
        The cell's text, e.g. ``"$10,000"``, ``"1234,50"``, ``"84000"``.

    Returns
    -------
    Decimal
        The amount as written (not rounded: the amount check refuses a fraction of a cent).

    Raises
    ------
    ValueError
        Not an amount in one of the accepted spellings; the text says what is expected.
    """
    s = text.strip()
    if s.startswith("-$"):
        s = "-" + s[2:]
    s = s.removeprefix("$").strip()
    plain: str | None = None
    if _PLAIN.fullmatch(s):
        plain = s
    elif _US_THOUSANDS.fullmatch(s):
        plain = s.replace(",", "")
    elif _DECIMAL_COMMA.fullmatch(s):
        plain = s.replace(",", ".")
    elif _EU_THOUSANDS.fullmatch(s):
        plain = s.replace(".", "").replace(",", ".")
    elif _SPACED.fullmatch(s):
        plain = s.translate(_SPACES).replace(",", ".")
    if plain is None:
        raise ValueError(f"not an amount in USD ({USD_EXAMPLES})")
    try:
        return Decimal(plain)
    except InvalidOperation:  # pragma: no cover - the patterns admit only digits
        raise ValueError(f"not an amount in USD ({USD_EXAMPLES})") from None


def read_count(text: str) -> int:
    """The whole number a cell spells: ``180``, ``1,234``, ``180.0``.

    Raises
    ------
    ValueError
        Not a whole number (``12.5``, ``many``).
    """
    s = text.strip()
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+", s):
        s = s.replace(",", "")
    elif re.fullmatch(r"-?\d+\.0+", s):
        s = s.split(".")[0]
    if not re.fullmatch(r"-?\d+", s):
        raise ValueError("not a whole number")
    return int(s)


_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})


def read_bool(text: str) -> bool:
    """Yes or no as a cell spells it: ``TRUE``/``FALSE`` (any case), ``yes``/``no``,
    ``1``/``0``.

    Raises
    ------
    ValueError
        Anything else.
    """
    s = text.strip().lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    raise ValueError("not TRUE or FALSE (yes or no)")


_US_DAY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def read_day(text: str) -> dt.date:
    """A calendar day as a cell spells it: ``2027-01-05`` (also ``2027-01-05 00:00:00``, a
    date cell turned into text) or ``1/5/2027`` (US month/day/year).

    Raises
    ------
    ValueError
        Not a day (a time other than midnight, a two-digit year, 2/30/2027).
    """
    s = text.strip()
    m = _US_DAY.fullmatch(s)
    try:
        if m:
            return dt.date(int(m[3]), int(m[1]), int(m[2]))
        if len(s) > 10 and s[10] in " T":
            when = dt.datetime.fromisoformat(s)
            if when.time() != dt.time(0):
                raise ValueError("a day, not a time of day")
            return when.date()
        return dt.date.fromisoformat(s)
    except ValueError as exc:
        if "time of day" in str(exc):
            raise
        raise ValueError("not a day (YYYY-MM-DD or M/D/YYYY)") from None
