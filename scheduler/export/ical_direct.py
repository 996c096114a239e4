"""VEVENT content lines formatted directly (RFC 5545), byte for byte as icalendar 7.x writes them.

Why: the calendars were 64 % of writing a plan's CPU at N = 200 (benchmarks/README.md), and
most of that was icalendar's serializing: ``to_ical`` of every property value, a
``Parameters`` object per property, and the folding of long lines a character at a time
(a DESCRIPTION holds an em dash, so almost every long line took the slow path). Here:

- :func:`escape_text`: TEXT escaping of ``\\ ; , newline`` (§3.3.11), as
  :class:`scheduler.export.ical_text._Text` escapes;
- :func:`params_text`: property parameters sorted by name, as ``Parameters.to_ical(sorted=True)``
  writes the plain values a plan has (VALUE=DATE, TZID=<zone>, RELATED=...); a value that would
  need quoting or RFC 6868 escaping is left to icalendar;
- :func:`value_text`: the value of a TEXT, INTEGER, DATE or DATE-TIME property;
- :func:`fold_line`: folding at 75 octets on the UTF-8 bytes (segments of at most 74
  octets, never splitting a character, never after a ``\\`` or ``^`` that escapes the next
  character), exactly as icalendar folds, then CRLF.

Measured (benchmarks/README.md, writing section) before and after. ``tests/test_ical_direct.py``
checks the lines against icalendar's ``to_ical`` for random TEXT values (hypothesis) and
parses them back; ``tests/test_ical.py`` and ``tests/test_ical_lines.py`` check whole
calendars.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from icalendar import vCategory, vDDDTypes, vInt, vText, vUnknown

__all__ = ["escape_text", "fold_line", "name_text", "params_text", "value_text"]

_PLAIN = re.compile(r"[A-Za-z0-9_/+\-.]*\Z")
"""A parameter value icalendar writes as it is (no quoting, no RFC 6868 escape)."""

_ALWAYS_QUOTED = frozenset({"ALTREP", "DELEGATED-FROM", "DELEGATED-TO", "DIR", "MEMBER",
                            "SENT-BY"})


def escape_text(value: str) -> str:
    r"""``value`` as an escaped TEXT value (RFC 5545 §3.3.11): ``\\``, ``\;``, ``\,``, and each
    line break (CRLF, CR or LF) as ``\n``."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n"))


def params_text(params: Any) -> str | None:
    """``;NAME=value`` for each parameter in name order, as ``params.to_ical(sorted=True)``
    writes them; ``""`` for none, ``None`` when a value is not plain (icalendar formats it)."""
    if not params:
        return ""
    out = []
    for key, value in sorted(params.items()):
        if type(value) is not str or not _PLAIN.match(value) or key.upper() in _ALWAYS_QUOTED:
            return None
        if key == "TZID" and value == "UTC":  # never on a UTC DATE-TIME (icalendar drops it)
            continue
        out.append(f";{key.upper()}={value}")
    return "".join(out)


def value_text(value: Any) -> str | None:
    """The content of a TEXT (``vText``), X- (``vUnknown``), CATEGORIES, INTEGER, DATE or
    DATE-TIME property value as icalendar writes it; ``None`` for any other type (icalendar
    formats it)."""
    kind = type(value)
    if kind is vInt:
        return str(int(value))
    if kind is vDDDTypes:
        d = value.dt
        if type(d) is dt.date:
            return f"{d.year:04}{d.month:02}{d.day:02}"
        if type(d) is dt.datetime and value.params.get("TZID") != "UTC":
            s = f"{d.year:04}{d.month:02}{d.day:02}T{d.hour:02}{d.minute:02}{d.second:02}"
            tz = d.tzinfo
            if tz is None:
                return s
            key = getattr(tz, "key", None)
            if tz is dt.UTC or key == "UTC":
                return s + "Z"
            if key and "/" in key and not key.startswith("Etc/"):  # a place's zone (TZID)
                return s
        return None
    if kind is vText:
        return _vtext(value)
    if kind is vUnknown:  # an X- property's value, verbatim
        return str.__str__(value)
    if kind is vCategory and all(type(c) is vText for c in value.cats):
        return ",".join([_vtext(c) for c in value.cats])
    return None


def _vtext(value: str) -> str:
    r"""``vText(value).to_ical()`` as text: icalendar's escaping, a literal ``\N`` first read
    as a line break."""
    return escape_text(value.replace("\\N", "\n"))


def name_text(name: str) -> str:
    """A component's name on its BEGIN and END lines, as icalendar writes it (a TEXT)."""
    return _vtext(name)


def fold_line(line: str) -> bytes:
    """``line`` folded (RFC 5545 §3.1) and ended by CRLF, as UTF-8 bytes: segments of at most
    74 octets joined by CRLF and a space, a character never split, a ``\\`` or ``^`` never
    the last octet of a segment that is not the line's last (it escapes what follows), as
    ``icalendar.parser._foldline`` folds."""
    data = line.encode("utf-8")
    size = len(data)
    if size <= 74:
        return data + b"\r\n"
    parts = []
    pos = 0
    while size - pos > 74:
        cut = pos + 74
        while data[cut] & 0xC0 == 0x80:  # the next segment starts at a character's start
            cut -= 1
        if data[cut - 1] in b"\\^":  # an escape goes on with what it escapes
            cut -= 1
        parts.append(data[pos:cut])
        pos = cut
    parts.append(data[pos:])
    return b"\r\n ".join(parts) + b"\r\n"
