"""What keeps credentials out of publishing's words: :class:`PublishError` (a problem the
user can fix, in one line) and :func:`redact`, which every message, log line and error of
``tourney publish`` goes through."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterable, Sequence
from urllib.parse import quote, urlsplit

from scheduler.core.errors import TourneyError
from scheduler.core.text import credentials_in, mask_credentials, plain_authority_end


class PublishError(TourneyError):
    """A problem the user can fix (bad folder, URL, password, server); one line, no traceback."""

    def format_message(self) -> str:
        """The server's words without the URL's credentials."""
        return redact(f"tourney: {self}")


def _userinfo_end(rest: str) -> int:
    """In a URL after its ``scheme://``, the index of the ``@`` that ends its user
    information, or -1 when it has none. Cautious: when the part before the first ``/``,
    ``?`` or ``#`` is not a plain ``host[:port]`` (a password may hold ``@``, ``/``, ``#``
    or ``?``, or the URL may not parse), the last ``@`` of the whole URL."""
    return -1 if plain_authority_end(rest) is not None else rest.rfind("@")


def url_secrets(url: str) -> list[str]:
    """What in the URL ``url`` is a secret: its password (as parsed, when it parses) and
    everything between the user name and the ``@`` that ends its user information
    (:func:`_userinfo_end`)."""
    found: list[str] = []
    with contextlib.suppress(ValueError):
        if urlsplit(url).password:
            found.append(str(urlsplit(url).password))
    scheme, sep, rest = url.partition("://")
    at = _userinfo_end(rest) if sep else -1
    if at > 0:
        found.append(rest[:at].partition(":")[2] or rest[:at])
    for userinfo in credentials_in(url):  # any shape: one slash, no scheme, a line break
        found.append(userinfo.partition(":")[2] or userinfo)
    return found


def without_credentials(url: str) -> str:
    """``url`` without its user information (``https://host/...``; an IPv6 host keeps its
    brackets): the user name and password go to the server separately."""
    scheme, sep, rest = url.partition("://")
    at = _userinfo_end(rest) if sep else -1
    return url if at < 0 else f"{scheme}://{rest[at + 1:]}"


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with what looks like credentials before an ``@`` masked, parsing nothing
    (:func:`scheduler.core.text.mask_credentials`: ``https://user:pass@host/``,
    ``https:/user:pass@host/``, ``user:pass@host``, a line break before the ``@``, a
    password holding ``@``, ``/``, ``#`` or ``?`` -> ``***@host``) and every one of
    ``secrets`` of three characters or more (a password, as typed and percent-encoded)
    where it stands as a whole word (not inside a longer word) replaced by ``***``. Apply
    ``secrets`` to what a server or library said, before it is put into tourney's own
    sentence: a password that is a common word must not blank tourney's words. Every
    message, log line and error of publishing goes through it."""
    out = mask_credentials(text)
    for secret in secrets:
        if secret and len(secret) >= 3:
            for form in sorted({secret, quote(secret, safe=""), quote(secret)}, key=len,
                               reverse=True):
                out = re.sub(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![A-Za-z0-9])", "***",
                             out)
    return out


class Redacting(logging.Filter):
    """Redact the log records of the HTTP and CalDAV libraries (:func:`redact`)."""

    def __init__(self, secrets: Sequence[str | None]) -> None:
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage(), self.secrets)
        record.args = None
        return True
