"""Text that cannot break a file: one-line printable names, and spreadsheet-safe CSV cells.

- :func:`control_character` finds what makes a title or name more than one line of printable
  text (C0 controls such as CR, LF, TAB, ESC and NUL; DEL; C1 controls; Unicode line and
  paragraph separators). The scenario loader refuses them (rule ``SCENARIO``), so they never
  reach a calendar, a CSV file or the terminal.
- :func:`format_character` finds an invisible format character (category Cf: right-to-left
  override, zero width space, byte order mark; a zero width joiner inside an emoji is
  allowed), refused in titles, names and variant names alike.
- :func:`cell` and :func:`uncell`: a CSV cell that a spreadsheet would run as a formula
  (starting with ``=``, ``+``, ``-``, ``@``, TAB or CR; OWASP "CSV injection") is written with
  a leading ``'``, as spreadsheet tools expect, and read back to the same text by ``tourney
  check`` and ``--previous``.
"""

from __future__ import annotations

import unicodedata

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula."""


def control_character(text: str) -> str | None:
    """The first character of ``text`` that is not printable on one line (a control
    character, category Cc, or a line/paragraph separator, Zl/Zp), else None."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return ch
    return None


ZWJ = "\u200d"
"""ZERO WIDTH JOINER: the one format character allowed, inside an emoji sequence."""


def format_character(text: str) -> str | None:
    """The first invisible format character of ``text`` (Unicode category Cf: U+202E
    RIGHT-TO-LEFT OVERRIDE, which shows a title backwards; U+200B ZERO WIDTH SPACE and U+FEFF,
    which make two titles look the same; soft hyphen, ...), else None. A ZERO WIDTH JOINER
    (U+200D) is allowed between an emoji (or its modifier or variation selector) and another
    emoji: it joins them into one picture (e.g. a rainbow flag)."""
    for i, ch in enumerate(text):
        if unicodedata.category(ch) != "Cf":
            continue
        if ch == ZWJ and 0 < i < len(text) - 1 and \
                unicodedata.category(text[i - 1]) in ("So", "Sk", "Mn") and \
                unicodedata.category(text[i + 1]) == "So":
            continue
        return ch
    return None


def describe_character(ch: str) -> str:
    """``'\\r' (U+000D)``: a character as a person can find it in a file."""
    return f"{ch!r} (U+{ord(ch):04X})"


def _risky(text: str) -> bool:
    return text.lstrip("'")[:1] in FORMULA_START if text.startswith("'") else \
        text[:1] in FORMULA_START


def cell(text: str) -> str:
    """A text cell for a CSV file: ``'`` in front when a spreadsheet would read ``text`` as a
    formula (or when ``text`` is already such a cell with its ``'``, so :func:`uncell` reads it
    back exactly)."""
    return "'" + text if text and _risky(text) else text


def uncell(text: str) -> str:
    """The text of a CSV cell written by :func:`cell` (the inverse: ``uncell(cell(x)) == x``
    for every string ``x``)."""
    return text[1:] if text.startswith("'") and _risky(text[1:]) else text
