"""Bounds on what tourney reads, so that no input can make it run out of memory or time.

Every limit is listed, with how to raise it, in ``docs/limits.md``. A limit that an honest
input could reach is overridable (an environment variable, or a command-line option); the
others (text lengths, control characters, dates) describe what the product can represent.

- :func:`read_bounded` reads a file given by the user: a regular file of at most
  :func:`max_input_bytes` (:data:`MAX_INPUT_BYTES_DEFAULT`, 64 MB, or
  ``TOURNEY_MAX_INPUT_MB``), never a device, pipe or folder.
- :func:`check_yaml_node` bounds a composed YAML document before it is turned into Python
  values: aliases may add at most :data:`MAX_YAML_ALIAS_NODES` nodes (a "billion laughs" of a
  few hundred bytes would otherwise expand to billions) and add at most
  :data:`MAX_YAML_ALIAS_CHARS` characters of text, nesting at most
  :data:`MAX_YAML_DEPTH` levels, and no alias may contain itself.
- :func:`scheduler.core.calendar_limits.read_calendar` reads an .ics file, counting its
  RDATE/EXDATE values and the properties of each component on the raw lines before anything
  parses it; :func:`scheduler.core.calendar_limits.expand_events` expands recurring calendar
  events (RRULE/RDATE) within a window of days, at most :data:`MAX_SERIES_INSTANCES`
  instances per event and :func:`max_calendar_events` events per file
  (:data:`MAX_CALENDAR_EVENTS_DEFAULT`, or ``TOURNEY_MAX_CALENDAR_EVENTS``).
- :func:`variants_count` and :func:`scheduler.engine.decompose.model_size` estimate a sweep and a
  model before either is built: :data:`MAX_VARIANTS_DEFAULT` variants
  (``tourney sweep --max-variants N``, at most :data:`MAX_VARIANTS_CEILING`) and
  :data:`MAX_MODEL_CELLS_DEFAULT` cells of one part (``tourney solve --max-model N``).
- :func:`for_terminal` is the one sanitizer of text on its way to a terminal (control
  characters but the line break shown as escapes, ``\\x1b``); :func:`cap_message` passes a
  message through it and shortens it to :data:`MAX_MESSAGE_CHARS`.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Iterable, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # start-up time: yaml only where a file is read
    import yaml



def _env_int(name: str, default: int, scale: int = 1) -> int:
    """A positive whole number from the environment variable ``name`` (times ``scale``), else
    ``default``; a value that is not a positive whole number is ignored."""
    raw = os.environ.get(name, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw) * scale
    return default


MB = 1024 * 1024
MAX_INPUT_BYTES_DEFAULT = 64 * MB
"""Largest file read (scenario, vary file, schedule, calendar): 64 MB. A generated statewide
scenario of 1,000 operators is about 6 MB, of 5,000 operators about 30 MB."""
MAX_YAML_ALIAS_NODES = 100_000
"""How many nodes YAML aliases (``*name``) may add to a document when expanded."""
MAX_YAML_ALIAS_CHARS = 1_000_000
"""Characters of text that YAML aliases may repeat (a 5 MB string aliased 90,000 times
is 450 billion characters from a 5 MB file)."""
MAX_YAML_DEPTH = 100
"""Deepest nesting of mappings and lists in a YAML document."""
MAX_ID_LENGTH = 64
"""Characters of an operator or tournament id (ids name files: ``calendars/<id>.ics``)."""
MAX_NAME_LENGTH = 200
"""Characters of a title, a scenario or operator name, a beneficiary."""
MAX_TEXT_LENGTH = 2_000
"""Characters of a longer text: an address, a description."""
MAX_SERIES_INSTANCES = 5_000
"""Instances read of one recurring calendar event (a weekly series over ten years is 522;
a game every day for ten years 3,653)."""
MAX_CALENDAR_EVENTS_DEFAULT = 500_000
"""Events read from one calendar file, recurring ones expanded."""
MAX_VARIANTS_DEFAULT = 1_000
"""Variants of one sweep (``tourney sweep --max-variants N`` raises it)."""
MAX_VARIANTS_CEILING = 100_000
"""Most variants ``--max-variants`` can allow: each variant is a whole scenario in memory
before the sweep starts (a sweep of 100,000 variants would take days to solve anyway)."""
MAX_MODEL_CELLS_DEFAULT = 200_000
"""Candidate (tournament, first day) pairs of one independent part of a model
(``tourney solve --max-model N`` raises it). The largest part of a generated statewide
scenario of 1,000 operators has 1,235; 5,000 tournaments of one operator over a year
(1,825,000) took 12 minutes and 6.1 GB."""
MAX_WORKBOOK_UNZIPPED_DEFAULT = 100 * MB
"""Bytes a workbook (.xlsx) may unzip to, all its parts together (``TOURNEY_MAX_WORKBOOK_MB``
raises it). The template filled with a generated statewide scenario of 1,000 operators
unzips to a few megabytes; a zip bomb of 30 KB unzips to gigabytes."""
MAX_WORKBOOK_CELLS_DEFAULT = 1_000_000
"""Cells one sheet of a workbook may span: (last row holding a value) × (last column holding
a value) (``TOURNEY_MAX_WORKBOOK_CELLS`` raises it). A sheet of 5,000 tournaments in 40
columns spans 200,000; one value at XFD1048576 makes it 17 billion."""
MAX_WORKBOOK_PARTS = 1_000
"""Entries of a workbook's zip (a spreadsheet's workbook has a few dozen)."""
MAX_WORKBOOK_TEXT = 32_767
"""Characters of one text in a workbook: a spreadsheet cell's own limit."""
MAX_CSV_ROWS_DEFAULT = 300_000
"""Rows of one CSV file read whole: ``tourney ledger import``, the ``schedule.csv`` and
``licenses.csv`` of a plan folder given to ``ledger adopt`` and ``deadlines``
(``TOURNEY_MAX_CSV_ROWS`` raises it). A generated statewide plan of 1,000 operators has
about 40,000 occurrences; each row read takes about a kilobyte."""
MAX_RESPONSE_BYTES_DEFAULT = 64 * MB
"""Bytes of one reply of a CalDAV server, once decompressed (``TOURNEY_MAX_RESPONSE_MB``
raises it): a calendar of 5,000 events answers a calendar-query with about 10 MB."""
MAX_MESSAGE_CHARS = 8_000
"""Characters of one message to a person; longer ones are cut with a count of the rest."""
MAX_PROBLEMS_SHOWN = 30
"""Problems listed of one invalid input; the rest are counted."""
MAX_LINES_SHOWN = 20
"""Lines listed of a long list in terminal output (violations, events not matched); the
rest are counted (``--format csv`` or ``json`` gives every one)."""
FIRST_YEAR, LAST_YEAR = 1900, 2199
"""Dates outside these years are refused (the product adds days and years to every date)."""
MAX_HORIZON_DAYS = 3_660
"""Longest horizon: about ten years."""
MAX_MONEY_USD = 10_000_000
"""Largest amount of money in a scenario or licences.csv (USD)."""


def max_input_bytes() -> int:
    """:data:`MAX_INPUT_BYTES_DEFAULT`, or ``TOURNEY_MAX_INPUT_MB`` megabytes."""
    return _env_int("TOURNEY_MAX_INPUT_MB", MAX_INPUT_BYTES_DEFAULT, MB)


def max_workbook_unzipped() -> int:
    """:data:`MAX_WORKBOOK_UNZIPPED_DEFAULT`, or ``TOURNEY_MAX_WORKBOOK_MB`` megabytes."""
    return _env_int("TOURNEY_MAX_WORKBOOK_MB", MAX_WORKBOOK_UNZIPPED_DEFAULT, MB)


def max_workbook_cells() -> int:
    """:data:`MAX_WORKBOOK_CELLS_DEFAULT`, or ``TOURNEY_MAX_WORKBOOK_CELLS``."""
    return _env_int("TOURNEY_MAX_WORKBOOK_CELLS", MAX_WORKBOOK_CELLS_DEFAULT)


def max_csv_rows() -> int:
    """:data:`MAX_CSV_ROWS_DEFAULT`, or ``TOURNEY_MAX_CSV_ROWS``."""
    return _env_int("TOURNEY_MAX_CSV_ROWS", MAX_CSV_ROWS_DEFAULT)


def max_response_bytes() -> int:
    """:data:`MAX_RESPONSE_BYTES_DEFAULT`, or ``TOURNEY_MAX_RESPONSE_MB`` megabytes."""
    return _env_int("TOURNEY_MAX_RESPONSE_MB", MAX_RESPONSE_BYTES_DEFAULT, MB)


def max_calendar_events() -> int:
    """:data:`MAX_CALENDAR_EVENTS_DEFAULT`, or ``TOURNEY_MAX_CALENDAR_EVENTS``."""
    return _env_int("TOURNEY_MAX_CALENDAR_EVENTS", MAX_CALENDAR_EVENTS_DEFAULT)


class LimitError(ValueError):
    """An input over one of the limits (exit 2): says which, the size, and how to raise it."""


# --------------------------------------------------------------------------- files
def regular_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as an input file (missing, a folder, a device or pipe, too
    large), else None. Does not open it (a FIFO would block)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return "cannot read the file: no such file"
    except OSError as exc:
        return f"cannot read the file: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return "cannot read the file: it is a folder"
    if not stat.S_ISREG(st.st_mode):
        return ("cannot read the file: it is not a regular file (a device, pipe or socket "
                "cannot be read as input)")
    limit = max_input_bytes()
    if st.st_size > limit:
        return (f"cannot read the file: it is {st.st_size / MB:,.1f} MB, larger than the "
                f"{limit / MB:,.0f} MB an input may be (set TOURNEY_MAX_INPUT_MB to raise it; "
                "see docs/limits.md)")
    return None


def read_bounded(path: str | Path) -> bytes:
    """The bytes of a regular file of at most :func:`max_input_bytes`. Raises
    :class:`LimitError` (the message says why, without the file name) for a missing file, a
    folder, a device or pipe (``/dev/zero``), a file over the limit (also one that grows
    while read), or one that cannot be read."""
    p = Path(path)
    problem = regular_file_problem(p)
    if problem:
        raise LimitError(problem)
    limit = max_input_bytes()
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise LimitError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise LimitError(f"cannot read the file: it is larger than the {limit / MB:,.0f} MB "
                         "an input may be (set TOURNEY_MAX_INPUT_MB to raise it; see "
                         "docs/limits.md)")
    return data

class NotText(ValueError):
    """A CSV file whose bytes are not text as a spreadsheet saves it (:func:`csv_text`):
    the message says why in the operator's words, naming the line when the file is UTF-8
    but for some bytes."""


_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}"
                            rb"|[\xf0-\xf4][\x80-\xbf]{3}")
"""A character of two to four bytes in UTF-8: in a file that is not UTF-8 as a whole, a
sign that it mixes UTF-8 with another encoding (Windows-1252 text almost never holds
one: ``Ã©`` is one)."""


def csv_text(data: bytes) -> str:
    """The text of a CSV file's bytes as a spreadsheet saves them: UTF-16 with its
    byte-order mark (Excel's "Unicode" text), UTF-8 (a byte-order mark kept, for the
    caller to drop), else Windows-1252 (Excel on Windows: "CSV (Comma delimited)").

    Raises
    ------
    NotText
        UTF-8 text with bytes that are not (decoding it all as Windows-1252 would garble
        every other line's ``—`` and ``é``): the first such line and byte named; or text in
        none of these.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass  # an odd number of bytes, a lone surrogate: not text after all
    else:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if _UTF8_SEQUENCE.search(data):
                line = data.count(b"\n", 0, exc.start) + 1
                raise NotText(
                    f"line {line:,} is not UTF-8 (byte 0x{data[exc.start]:02X}) though the "
                    "rest of the file is: save it from the spreadsheet as \"CSV UTF-8\""
                ) from None
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:  # one of the 5 bytes Windows-1252 leaves out
            pass
    raise NotText("it is not a text file (neither UTF-8 nor Windows-1252): save it from the "
                  "spreadsheet as \"CSV UTF-8\"")


def read_csv_bounded(path: str | Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and the rows (dicts by header) of the CSV file ``path``, read within
    :func:`read_bounded` (a regular file of at most :func:`max_input_bytes`) and at most
    :func:`max_csv_rows` rows, counted as they are read. UTF-8 (a byte-order mark is kept in
    the first header, for the caller to drop), else Windows-1252: what Excel on Windows
    saves as "CSV (Comma delimited)" (``—``, ``é``); UTF-16 with a byte-order mark
    (:func:`csv_text`).

    Raises
    ------
    FileNotFoundError
        No such file.
    LimitError
        Not a regular file, too large, too many rows (the message names the limit and how
        to raise it, not the file).
    NotText
        Not text as a spreadsheet saves it (:func:`csv_text`; the message says why).
    csv.Error
        Not CSV.
    """
    # start-up time: only commands that read a CSV need them
    import csv
    import io  # start-up time, as csv above

    p = Path(path)
    if not p.exists() and not p.is_symlink():
        raise FileNotFoundError(str(p))
    text = csv_text(read_bounded(p))
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = list(reader.fieldnames or [])
    limit = max_csv_rows()
    rows: list[dict[str, str]] = []
    for row in reader:
        if len(rows) >= limit:
            raise LimitError(f"it has more than {limit:,} rows (set TOURNEY_MAX_CSV_ROWS to "
                             "raise it; see docs/limits.md)")
        rows.append(row)
    return header, rows


# --------------------------------------------------------------------------- YAML
def check_yaml_node(node: yaml.Node | None) -> None:
    """Refuse a composed YAML document whose aliases would expand it by more than
    :data:`MAX_YAML_ALIAS_NODES` nodes, that nests deeper than :data:`MAX_YAML_DEPTH`, or
    whose alias contains itself. Linear in the document's distinct nodes (shared nodes are
    counted once, with their expanded size memoised). Raises :class:`LimitError` naming the
    line."""

    if node is None or _plain_tree(node):
        return
    size: dict[int, int] = {}
    chars: dict[int, int] = {}  # characters of the scalars, aliases expanded
    distinct = 0
    written = 0  # characters of the distinct scalars
    # iterative post-order walk: (node, depth, children pushed?)
    stack: list[tuple[yaml.Node, int, bool]] = [(node, 1, False)]
    on_path: set[int] = set()
    while stack:
        n, depth, expanded = stack.pop()
        key = id(n)
        if expanded:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in _children(n))
            chars[key] = sum(chars[id(c)] for c in _children(n))
            continue
        if key in size:
            continue
        if key in on_path:
            raise LimitError(f"line {n.start_mark.line + 1}: an alias refers to a value that "
                             "contains it (a loop)")
        if depth > MAX_YAML_DEPTH:
            raise LimitError(f"line {n.start_mark.line + 1}: nested more than "
                             f"{MAX_YAML_DEPTH} levels deep")
        distinct += 1
        kids = _children(n)
        if not kids:
            size[key] = 1
            chars[key] = len(n.value) if isinstance(n.value, str) else 0
            written += chars[key]
            continue
        on_path.add(key)
        stack.append((n, depth, True))
        for c in kids:
            if id(c) in on_path:
                raise LimitError(f"line {c.start_mark.line + 1}: an alias refers to a value "
                                 "that contains it (a loop)")
            if id(c) not in size:
                stack.append((c, depth + 1, False))
    total = size[id(node)]
    if total - distinct > MAX_YAML_ALIAS_NODES:
        raise LimitError(f"aliases (*name) expand the document to {total:,} values from "
                         f"{distinct:,} written; at most {MAX_YAML_ALIAS_NODES:,} more are "
                         "allowed (write the values out, or use fewer aliases)")
    added = chars[id(node)] - written
    if added > MAX_YAML_ALIAS_CHARS:
        raise LimitError(f"aliases (*name) repeat {added:,} characters of text; at most "
                         f"{MAX_YAML_ALIAS_CHARS:,} are allowed (write the values out, or "
                         "use fewer aliases)")


def _plain_tree(node: yaml.Node) -> bool:
    """True when ``node`` is a tree (no node reached twice: no alias) at most
    :data:`MAX_YAML_DEPTH` levels deep, which :func:`check_yaml_node` accepts as it is: no
    alias adds a value or a character, none can contain itself. False sends the document
    through the full count, which says what is wrong. Level by level, the nodes of a level
    counted in bulk (a statewide file has hundreds of thousands of them)."""
    import yaml  # start-up time: only reading a YAML file needs it

    mapping, sequence, scalar = yaml.MappingNode, yaml.SequenceNode, yaml.ScalarNode
    seen = {node}  # nodes hash by identity
    total = 1
    level = [node]
    depth = 1
    while level:
        kids: list[yaml.Node] = []
        for n in level:
            if n.__class__ is mapping or isinstance(n, mapping):
                kids += chain.from_iterable(n.value)
            elif isinstance(n, sequence):
                kids += n.value
        if not kids:
            return True
        if depth >= MAX_YAML_DEPTH:  # a child deeper than allowed: the full count says where
            return False
        total += len(kids)
        seen.update(kids)
        if len(seen) != total:  # a node reached twice: an alias
            return False
        level = [c for c in kids if c.__class__ is not scalar]
        depth += 1
    return True


def _children(n: yaml.Node) -> list[yaml.Node]:
    import yaml  # start-up time: only reading a YAML file needs it

    if isinstance(n, yaml.MappingNode):
        return [x for pair in n.value for x in pair]
    if isinstance(n, yaml.SequenceNode):
        return list(n.value)
    return []


# --------------------------------------------------------------------------- sizes
def variants_count(lists: Iterable[Sequence[Any]], combine: str) -> int:
    """How many variants a grid makes: the product of the list lengths (``combine:
    product``) or the longest (``zip``), computed without building any."""
    lengths = [len(v) for v in lists]
    if not lengths:
        return 0
    return math.prod(lengths) if combine == "product" else max(lengths)


# --------------------------------------------------------------------------- messages
def for_terminal(text: str) -> str:
    """``text`` safe to print: every character that is not printable (a control character
    such as ESC, CR, NUL, BEL, DEL or a C1 control; a Unicode line or paragraph separator;
    an invisible format character such as U+202E) is shown as its Python escape
    (``\\x1b``, ``\\r``, ``\\u202e``); line breaks (LF) and spaces stay, and a TAB (which
    drives nothing; PostgreSQL's driver indents its hints with one) is one space. The one
    sanitizer of text from files and the ledger on its way to a terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch in "\n " or ch.isprintable()
                   else " " if ch == "\t"
                   else ch.encode("unicode_escape").decode("ascii") for ch in text)


def cap_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` for a terminal: control characters other than line breaks shown as escapes
    (``\x1b``: an escape sequence in a name must not drive the terminal), cut at ``limit``
    characters with a count of what was left out."""
    text = for_terminal(text)
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n... ({len(text) - limit:,} more characters not shown)"


def cap_lines(lines: Sequence[str], limit: int = MAX_LINES_SHOWN,
              more: str = "line(s)") -> list[str]:
    """The first ``limit`` distinct ``lines`` (a line repeated is shown once, with
    ``(N times)``) and one line counting the rest."""
    counts: dict[str, int] = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    shown = [line if n == 1 else f"{line} ({n:,} times)" for line, n in counts.items()]
    if len(shown) <= limit:
        return shown
    return [*shown[:limit], f"... and {len(shown) - limit:,} more {more} not shown"]


def short(value: str, limit: int = 80) -> str:
    """``repr(value)``, cut to about ``limit`` characters with its length when longer."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value):,} characters)"

