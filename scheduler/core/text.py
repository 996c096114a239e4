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
  check`` and ``--previous``; :func:`csv_cells` applies it to every text cell of a table, the
  one helper of every CSV writer.
- :func:`mask_credentials` masks what looks like a user name and password before an ``@`` in
  any text, parsing nothing (a URL with one slash, no scheme, a line break before the ``@``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

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


def csv_cells(value: Any) -> Any:
    """``value`` for a CSV writer: a text cell through :func:`cell` (a formula-leading text
    gets its ``'``), anything else (a number, a date, None) as it is. Every CSV writer of
    tourney maps its cells through this one function (``df.map(csv_cells)``)."""
    return cell(value) if isinstance(value, str) else value


_BOUNDARY = frozenset(" \t'\"<>(){},;|`")
"""Characters that end a word before an ``@``: a line break does not (a password may be cut
by one in a message)."""
_CLEAN_AUTHORITY = re.compile(r"(\[[^\]@/?#]*\]|[^:@\[\]/?#]*)(:\d*)?")
_SCHEME_MARK = re.compile(r":/+")
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:/+")
"""A ``scheme:/`` or ``scheme://`` anywhere in a text: where a URL's user information begins."""
_USER_THEN_COLON = re.compile(r"[^\s:@/?#'\"<>]*:(?=\S)")
_REACH = 512
"""How far back (characters) from an ``@`` a URL's ``scheme://`` is looked for."""
_SECRET_PARAMETER = re.compile(
    r"(?i)((?:^|(?<=[\s?&;]))(?:password|passwd|pwd|pass|passphrase|sslpassword|secret|"
    r"token|access_token|api_?key)=)([^&#\s'\"<>]*)")
"""A password in a URL's query (``?password=...``, libpq's and many servers') or a
``key=value`` connection string."""
MASK = "***"
"""What stands for masked credentials."""


def plain_authority_end(rest: str) -> int | None:
    """In a URL after its ``scheme://`` (``rest``), where its authority ends (the first
    ``/``, ``?`` or ``#``, else the end) when that authority is a plain ``host[:port]``
    (an IPv6 host in brackets; no user information, nothing a password could hold);
    None when it is not."""
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    return end if _CLEAN_AUTHORITY.fullmatch(rest[:end]) else None


def _credential_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = text.find("@")
    while pos >= 0:
        start = pos
        while start > 0 and text[start - 1] not in _BOUNDARY:
            start -= 1
        word = text[start:pos]
        mark = _SCHEME_MARK.search(word)
        if mark is not None:  # scheme:/ or scheme:// (or more slashes): after it
            begin = start + mark.end()
            end = plain_authority_end(text[begin:])
            # a clean host[:port] before the first / ? #: this @ is in the path, not userinfo
            if begin < pos and end is not None and end < pos - begin:
                begin = pos
        else:  # no scheme: credentials only when a ':' separates a user and a password
            begin = start if ":" in word else pos
        if begin >= pos:  # a password holding a space, quote, bracket, ';' or ',' ...
            begin = _userinfo_start(text, pos, begin)
        if begin < pos:
            spans.append((begin, pos))
        pos = text.find("@", pos + 1)
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _userinfo_start(text: str, pos: int, begin: int) -> int:
    """Where the user information ending at the ``@`` at ``pos`` begins when the word
    before the ``@`` found none (a character that ends a word is in the password): right
    after the last ``scheme://`` within :data:`_REACH` characters before it, when what
    follows is a user name, a ``:`` and no ``/``, ``?``, ``#`` or ``@`` up to ``pos``;
    else ``begin``. It masks a little too much rather than show a password."""
    marks = list(_URL_START.finditer(text, max(0, pos - _REACH), pos))
    if not marks:
        return begin
    userinfo = text[marks[-1].end():pos]
    if not userinfo or any(c in userinfo for c in "/?#@") \
            or not _USER_THEN_COLON.match(userinfo):
        return begin
    return marks[-1].end()


def credentials_in(text: str) -> list[str]:
    """What :func:`mask_credentials` masks in ``text``: each ``user:password`` (or token) before
    an ``@``, as written."""
    return [text[a:b] for a, b in _credential_spans(text)] if "@" in text else []


def mask_credentials(text: str, mask: str = MASK) -> str:
    """``text`` with what looks like credentials before an ``@`` replaced by ``mask``;
    nothing is parsed as a URL. Before each ``@``, the word it ends (back to a space, tab,
    quote or bracket; a line break does not end it) is masked from after its ``scheme:/`` or
    ``scheme://`` (any number of slashes) when the part before the first ``/``, ``?`` or
    ``#`` is not a plain ``host[:port]``, or whole when it has no scheme and holds a ``:``
    (``alice:secret@host``). ``https://alice:s@cr/t@host/`` -> ``https://***@host/``;
    ``https:/alice:secret@host`` -> ``https:/***@host``; ``uid@tourney.invalid`` and
    ``https://host/a@b.ics`` are kept. A password with a character that ends a word (a
    space, quote, bracket, ``;``, ``,``) is masked from the URL's ``scheme://``
    (``https://alice:p;w@host`` -> ``https://***@host``); the value of a ``password=``,
    ``token=``, ``secret=`` (and the like) parameter is masked too
    (``postgresql://u@h/db?password=x`` -> ``...?password=***``)."""
    if "=" in text:
        text = _SECRET_PARAMETER.sub(lambda m: m.group(1) + (mask if m.group(2) else ""),
                                     text)
    spans = _credential_spans(text) if "@" in text else []
    if not spans:
        return text
    out, last = [], 0
    for a, b in spans:
        out += [text[last:a], mask]
        last = b
    out.append(text[last:])
    return "".join(out)


def ordinal(n: int) -> str:
    """``n`` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 112th."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
