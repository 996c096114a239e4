"""Opening a ledger database: where it is, the engine, migrations, one transaction per command.

- SQLite (the default, one file): opened in WAL mode with a busy timeout, foreign keys on, and
  every transaction started with ``BEGIN IMMEDIATE``, so two people writing at once wait for
  each other (up to :data:`BUSY_TIMEOUT_S` seconds) instead of failing or losing an entry.
- PostgreSQL (``postgresql+psycopg://user@host/db``, psycopg 3): every write transaction first
  takes one transaction-level advisory lock, so writers are serialized exactly as on SQLite
  (the duplicate checks of ``tourney record`` read, then write).

The schema is only ever made or changed by the Alembic migrations shipped in
``scheduler/ledger/migrations`` (:meth:`Store.upgrade`); no command rebuilds a ledger.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import getpass
import os
import sqlite3
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session

from scheduler.core.errors import TourneyError
from scheduler.core.text import (
    MASK,
    control_character,
    credentials_in,
    describe_character,
    format_character,
    mask_credentials,
)

ENV_LEDGER = "TOURNEY_LEDGER"
"""Environment variable naming the ledger (a path or a URL) when ``--ledger`` is not given."""
ENV_USER = "TOURNEY_USER"
"""Environment variable naming who records (``recorded_by``) when ``--by`` is not given."""
DEFAULT_FILE = "tourney-ledger.sqlite"
"""The ledger when neither ``--ledger`` nor ``TOURNEY_LEDGER`` is given: this file in the
current directory (beside the plans, as ``tourney solve --out`` writes them)."""
BUSY_TIMEOUT_S = 30
"""SQLite: how long (seconds) a command waits for another one writing the ledger before
giving up (exit 2); ``TOURNEY_LEDGER_WAIT`` (seconds) changes it (docs/limits.md)."""
ENV_WAIT = "TOURNEY_LEDGER_WAIT"
"""Environment variable: seconds to wait for a ledger another command is writing."""
MIGRATIONS = Path(__file__).with_name("migrations")
_PG_LOCK = 7_013_013_013
"""The PostgreSQL advisory lock key that serializes the ledger's writers."""


class LedgerError(TourneyError):
    """A problem an operator can fix (unknown occurrence, duplicate, no ledger, bad value).
    ``exit_code`` is 2 (invalid input: nothing was written); the message names the value."""

    def format_message(self) -> str:
        return f"tourney: {self}. Nothing was recorded."


def resolve(ledger: str | os.PathLike[str] | None = None) -> str:
    """The SQLAlchemy URL of ``ledger``: a URL (``postgresql+psycopg://...``,
    ``sqlite:///path``) as given, a path as ``sqlite:///<absolute path>``; None means
    ``$TOURNEY_LEDGER``, else :data:`DEFAULT_FILE` in the current directory."""
    if ledger is None or str(ledger) == "":
        ledger = os.environ.get(ENV_LEDGER) or DEFAULT_FILE
    s = str(ledger)
    if "://" in s:
        return s
    return f"sqlite:///{Path(s).expanduser().resolve()}"


def who(by: str | None = None) -> str:
    """Who records: ``by``, else ``$TOURNEY_USER``, else the login name."""
    if by:
        return by
    env = os.environ.get(ENV_USER)
    if env:
        return env
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without passwd entry)
        return "unknown"


def now() -> dt.datetime:
    """The time an entry is recorded: UTC, to the second."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def redacted(url: str) -> str:
    """``url`` without its password, for messages: as SQLAlchemy renders it, then through
    :func:`scheduler.core.text.mask_credentials` (a password holding ``@`` that SQLAlchemy cut
    at the first one, a ``?password=`` parameter, a URL that does not parse)."""
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        shown = url
    return mask_credentials(shown)


def secrets_of(url: str) -> list[str]:
    """What in the ledger URL ``url`` is secret, for hiding it in a driver's words: its
    password as SQLAlchemy parses it, the text between the user name and the last ``@`` of
    what looks like user information (:func:`scheduler.core.text.credentials_in`), and each part
    of those between ``@`` (a driver that cut the password at one says "failed to resolve
    host 'w0rd@db'"), of three characters or more."""
    found: set[str] = set()
    try:
        if make_url(url).password:
            found.add(str(make_url(url).password))
    except (ArgumentError, ValueError):
        pass
    for userinfo in credentials_in(url):
        found.add(userinfo.partition(":")[2] or userinfo)
    for secret in list(found):
        found.update(secret.split("@"))
    return sorted((s for s in found if len(s) >= 3), key=len, reverse=True)


def without_secrets(text: str, url: str) -> str:
    """``text`` (a driver's message about the ledger ``url``) with credentials masked
    (:func:`scheduler.core.text.mask_credentials`) and every one of :func:`secrets_of` ``url``
    replaced by ``***``."""
    out = mask_credentials(text)
    for secret in secrets_of(url):
        out = out.replace(secret, MASK)
    return out


def wait_seconds() -> float:
    """How long (seconds) a command waits for a ledger another command is writing:
    ``$TOURNEY_LEDGER_WAIT``, else :data:`BUSY_TIMEOUT_S`.

    Raises
    ------
    LedgerError
        When ``TOURNEY_LEDGER_WAIT`` is not a number of seconds from 0 to 86,400.
    """
    raw = os.environ.get(ENV_WAIT, "").strip()
    if not raw:
        return float(BUSY_TIMEOUT_S)
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86_400:
        raise LedgerError(f"{ENV_WAIT}={raw!r} is not a number of seconds from 0 to 86400")
    return value


def _sqlite_engine(url: str) -> Engine:
    wait = wait_seconds()
    engine = create_engine(url, connect_args={"timeout": wait})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # the driver's own transaction handling off: BEGIN is issued below
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # take the write lock at once: a deferred transaction that reads, then writes, could
        # fail with SQLITE_BUSY (no wait) when another writer committed in between
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class Store:
    """A ledger database. ``Store(url)`` opens nothing yet; ``url`` as :func:`resolve` takes
    it (None: ``$TOURNEY_LEDGER`` or ``./tourney-ledger.sqlite``). The public class is its
    subclass :class:`scheduler.ledger.frames.Ledger` (``from scheduler.ledger import Ledger``),
    which adds the DataFrames and the deadlines as methods.

    - :meth:`upgrade` creates or migrates the schema (Alembic, to the newest revision);
    - :meth:`write` / :meth:`read` give a :class:`~sqlalchemy.orm.Session` in one transaction
      (committed at the end, rolled back on any error: a command changes all or nothing);
    - the DataFrames and commands are in :mod:`scheduler.ledger.api` (gathered from
      frames, adopt, record and transfer).
    """

    def __init__(self, url: str | os.PathLike[str] | None = None) -> None:
        self.url = resolve(url)
        try:
            parsed = make_url(self.url)
            parsed.port  # noqa: B018 - a port that is not a number is found here, not later
        except (ArgumentError, ValueError):
            raise LedgerError(f"--ledger {redacted(self.url)!r} is neither a file name nor a "
                              "database URL (sqlite:///PATH, "
                              "postgresql+psycopg://USER@HOST:PORT/DB)") from None
        self.dialect = parsed.get_backend_name()
        if self.dialect not in ("sqlite", "postgresql"):
            raise LedgerError(f"--ledger {redacted(self.url)}: only SQLite files and PostgreSQL "
                              "URLs (postgresql+psycopg://...) are supported")
        self.path: Path | None = Path(parsed.database) if (
            self.dialect == "sqlite" and parsed.database and parsed.database != ":memory:"
        ) else None
        self._engine: Engine | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({redacted(self.url)!r})"

    @property
    def where(self) -> str:
        """The ledger for messages: its file, or its URL without the password."""
        return str(self.path) if self.path is not None else redacted(self.url)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            if self.dialect == "sqlite":
                self._engine = _sqlite_engine(self.url)
            else:
                try:
                    self._engine = create_engine(self.url, pool_pre_ping=True)
                except ImportError as exc:  # the driver is an extra: tourney[postgres]
                    raise LedgerError(f"--ledger {redacted(self.url)}: the PostgreSQL driver "
                                      f"is not installed ({exc.name}); pip install "
                                      "'tourney[postgres]'") from None
        return self._engine

    def dispose(self) -> None:
        """Close the connections (the object may be used again)."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    # ----------------------------------------------------------------- migrations
    def _alembic_config(self) -> Any:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        return cfg

    def head(self) -> str:
        """The newest schema revision this version of tourney knows."""
        head = ScriptDirectory.from_config(self._alembic_config()).get_current_head()
        assert head is not None
        return head

    def revision(self, *, create: bool = False) -> str | None:
        """The schema revision of the database (None: no ledger schema in it yet). A SQLite
        file that does not exist is a :class:`LedgerError` unless ``create``."""
        with self._connect(create=create) as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def upgrade(self) -> tuple[str | None, str]:
        """Create the schema in an empty database, or migrate an older ledger to the newest
        revision, in one transaction. Returns ``(revision before, revision after)``.
        Raises :class:`LedgerError` when the database cannot be reached or was made by a
        newer tourney."""
        cfg = self._alembic_config()
        scripts = ScriptDirectory.from_config(cfg)
        if self.path is not None:
            if self.path.is_dir():
                raise LedgerError(f"--ledger {self.path} is a folder; give a file name such "
                                  f"as {self.path / DEFAULT_FILE}")
            if not self.path.parent.is_dir():
                raise LedgerError(f"cannot create the ledger {self.path}: the folder "
                                  f"{self.path.parent} does not exist")
        before = self.revision(create=True)
        if before is None:
            self._refuse_foreign()
        if before is not None and before not in {s.revision for s in scripts.walk_revisions()}:
            raise LedgerError(f"the ledger {self.where} has schema revision {before}, made by a "
                              "newer version of tourney; upgrade tourney to use it")
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except OperationalError as exc:
            raise self._unusable(exc, "write") from None
        self.checkpoint()
        return before, self.head()

    def checkpoint(self) -> None:
        """SQLite: copy every committed transaction from the ``-wal`` file into the ledger
        file itself (``PRAGMA wal_checkpoint(PASSIVE)``: without waiting for anyone), so
        that the ``.sqlite`` file alone, copied as a backup, holds every entry. Done at the
        end of every write; what another command's open read keeps from being copied is
        copied by the next write. PostgreSQL: nothing."""
        if self.dialect != "sqlite":
            return
        with self._connect() as conn:
            # on the driver's connection: outside a transaction (SQLAlchemy would begin one)
            conn.connection.dbapi_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def backup(self, target: str | os.PathLike[str]) -> int:
        """Copy the ledger into the new SQLite file ``target`` with SQLite's online backup
        API (a consistent copy, even while others write). Returns its size in bytes.

        Raises
        ------
        LedgerError
            For a PostgreSQL ledger (``pg_dump`` backs it up), when ``target`` exists (a
            backup never replaces a file) or its folder does not, or when the ledger
            cannot be read.
        """
        if self.dialect != "sqlite":
            plain = make_url(self.url).set(drivername="postgresql", password=None)
            raise LedgerError(f"{self.where} is a PostgreSQL database: back it up with "
                              "PostgreSQL's own tool, e.g. pg_dump --format=custom "
                              f"--file=ledger.dump '{plain.render_as_string()}'")
        out = Path(target)
        if out.exists() or out.is_symlink():
            raise LedgerError(f"{out} exists: a backup never replaces a file; give a new "
                              "file name")
        if not out.parent.is_dir():
            raise LedgerError(f"cannot write {out}: the folder {out.parent} does not exist")
        self.ready()
        tmp = out.with_name(f".{out.name}.{os.getpid()}.part")
        try:
            with self._connect() as conn:
                source = conn.connection.dbapi_connection
                dest = sqlite3.connect(tmp)
                try:
                    source.backup(dest)
                finally:
                    dest.close()
            os.link(tmp, out)  # never over a file that appeared meanwhile
        except FileExistsError:
            raise LedgerError(f"{out} exists: a backup never replaces a file; give a new "
                              "file name") from None
        except (OSError, sqlite3.Error) as exc:
            raise LedgerError(f"cannot write {out}: {exc}") from None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        return out.stat().st_size

    # ----------------------------------------------------------------- sessions
    @contextmanager
    def _connect(self, *, create: bool = False) -> Iterator[Any]:
        if self.path is not None and not create and not self.path.exists():
            raise LedgerError(f"no ledger at {self.path}: create it with `tourney ledger init "
                              f"--ledger {self.path}` (or set --ledger / {ENV_LEDGER})")
        try:
            conn = self.engine.connect()
        except OperationalError as exc:
            raise self._unusable(exc, "open") from None
        except DatabaseError as exc:
            raise self._damaged(exc) from None
        try:
            yield conn
        except OperationalError as exc:  # locked past the wait, read-only, disk full, ...
            raise self._unusable(exc, "use") from None
        except DatabaseError as exc:
            if type(exc) is not DatabaseError:  # a constraint, ...: said elsewhere
                raise
            raise self._damaged(exc) from None
        finally:
            conn.close()

    def _unusable(self, exc: OperationalError, what: str) -> LedgerError:
        """A ledger that cannot be opened or written, in one line (exit 2): locked by another
        command for longer than :func:`wait_seconds`, read-only (the file, its folder, or its
        ``-wal`` / ``-shm`` file), or not reachable (PostgreSQL)."""
        why = without_secrets(" ".join(str(exc.orig).split()), self.url)
        if "locked" in why or "busy" in why:
            return LedgerError(
                f"the ledger {self.where} is locked: another command has been writing it for "
                f"more than {wait_seconds():g} s ({why}); try again when it is done, or wait "
                f"longer with {ENV_WAIT}=120")
        if "readonly" in why or "read-only" in why:
            files = ", ".join(f"{self.where}{s}" for s in ("", "-wal", "-shm"))
            return LedgerError(
                f"cannot write the ledger {self.where}: it is read-only ({why}); check that "
                f"you may write {files} and their folder")
        return LedgerError(f"cannot {what} the ledger {self.where}: {why}")

    def _damaged(self, exc: DatabaseError) -> LedgerError:
        """SQLite's "file is not a database", "database disk image is malformed" (a text
        file, a truncated copy) as the operator's error (exit 2)."""
        return LedgerError(f"{self.where} is not a readable tourney ledger (damaged?): "
                           f"restore it from your export "
                           f"({without_secrets(str(exc.orig), self.url)})")

    def _foreign(self) -> list[str]:
        """The tables of a database without a ledger schema (empty: a new database)."""
        return [t for t in self.tables() if t != "alembic_version"]

    def _refuse_foreign(self) -> None:
        """Raise :class:`LedgerError` when a database without the ledger schema holds
        tables: another program's database is never adopted as a ledger."""
        foreign = self._foreign()
        if foreign:
            kind = "a SQLite database" if self.dialect == "sqlite" else "a database"
            raise LedgerError(f"{self.where} is {kind} of another program (tables "
                              f"{', '.join(foreign[:5])}{', ...' if len(foreign) > 5 else ''}"
                              "), not a tourney ledger: give another --ledger")

    def ready(self) -> None:
        """Raise :class:`LedgerError` unless the ledger exists at the newest revision."""
        rev = self.revision()
        if rev is None:
            self._refuse_foreign()
            raise LedgerError(f"{self.where} is not a tourney ledger yet: run `tourney ledger "
                              f"init --ledger {self.where}`")
        if rev != self.head():
            raise LedgerError(f"the ledger {self.where} has schema revision {rev}, this tourney "
                              f"expects {self.head()}: run `tourney ledger init --ledger "
                              f"{self.where}` to migrate it (back it up first)")

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction: all of it is committed at the end, or nothing (an
        exception rolls it back). Writers are serialized (see the module docstring). The
        session refuses to update or delete a row: the ledger is append-only."""
        self.ready()
        with self._connect() as conn, conn.begin():
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
            with Session(bind=conn, autoflush=False, expire_on_commit=False) as session:
                event.listen(session, "before_flush", _append_only)
                try:
                    yield session
                    session.flush()
                except OperationalError:  # locked, read-only: said by _connect
                    raise
                except SQLAlchemyError as exc:
                    why = without_secrets(str(getattr(exc, "orig", exc)), self.url)
                    raise LedgerError(f"the ledger {self.where} refused the change: "
                                      f"{why}") from None
        self.checkpoint()  # the .sqlite file alone holds what was just committed

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only session (one transaction, a consistent snapshot of the ledger)."""
        self.ready()
        with self._connect() as conn, conn.begin(), Session(bind=conn) as session:
            event.listen(session, "before_flush", _append_only)
            yield session

    def tables(self) -> list[str]:
        """The tables in the database (for tests and diagnostics)."""
        with self._connect() as conn:
            return sorted(inspect(conn).get_table_names())


def _append_only(session: Session, _ctx: Any, _instances: Any) -> None:
    """Before each flush: no entry changed or deleted (the ledger is append-only), and every
    new entry's ``note`` is text (:func:`note_problem`)."""
    if session.dirty or session.deleted:
        raise LedgerError("the ledger is append-only: an entry is never changed or deleted; "
                          "record a correction (--corrects ID) instead")
    for entry in session.new:
        problem = note_problem(getattr(entry, "note", None))
        if problem:
            raise LedgerError(problem)


NOTE_MAX_CHARS = 32_767
"""The longest note, in characters as a spreadsheet counts them (UTF-16 code units: an emoji
beyond U+FFFF is 2): what one spreadsheet cell holds (Excel's limit), so every note can be
exported to a workbook and read back."""

BLANK_LETTERS = "\u115f\u1160\u3164\uffa0"
"""Hangul fillers: letters (category Lo) that show as nothing, so a note of them looks empty."""


def note_problem(note: str | None) -> str | None:
    """Why ``note`` (a remark kept with a fact) cannot be kept, else None: lines of printable
    text (line breaks and tabs allowed, as a spreadsheet cell holds them) of at most
    :data:`NOTE_MAX_CHARS` characters; a control character (NUL, ESC: it would drive a terminal
    or end the text in a database), an invisible format character (U+202E would disguise it),
    a private-use character (no font shows it the same way) or a Hangul filler (it shows as
    nothing) is refused, naming it and its position (1 = the first character)."""
    if not note:
        return None
    units = len(note.encode("utf-16-le", "surrogatepass")) // 2  # as a spreadsheet counts
    if units > NOTE_MAX_CHARS:
        return (f"note: {units:,} characters as a spreadsheet counts them (an emoji is 2); a "
                f"note holds at most {NOTE_MAX_CHARS:,} (one spreadsheet cell)")
    plain = note.replace("\r\n", "  ").translate({ord("\n"): " ", ord("\t"): " "})
    ch = control_character(plain)
    kind = {"\u2028": "line-separator", "\u2029": "paragraph-separator"}.get(ch or "",
                                                                         "control")
    if ch is None:
        ch, kind = format_character(plain), "invisible format"
    if ch is None:  # no text at all: a byte of no encoding, or what no workbook can hold
        ch = next((c for c in plain if c in "\ufffe\uffff" or "\ud800" <= c <= "\udfff"),
                  None)
        kind = "non-text"
    if ch is None:
        ch = next((c for c in plain if unicodedata.category(c) == "Co"), None)
        kind = "private-use"
    if ch is None:
        ch = next((c for c in plain if c in BLANK_LETTERS), None)
        kind = "blank filler"
    if ch is None:
        return None
    plain_words = ("; a note's lines are ended by ordinary line breaks"
                   if kind.endswith("-separator") else "; a note is plain text")
    return (f"note: holds the {kind} character {describe_character(ch)} at position "
            f"{plain.index(ch) + 1}{plain_words}")
