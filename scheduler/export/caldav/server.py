"""The server side of publishing: :class:`CalDAVServer`, the only code that talks to a
server (through the ``caldav`` library; every request bounded by a timeout), the URL
check, and :func:`publish_to`, which turns every failure the user can act on into one
:class:`PublishError` line without credentials."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import re
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from scheduler.core.limits import MB, max_response_bytes
from scheduler.export.caldav.calendars import read_plan_calendars
from scheduler.export.caldav.redaction import (
    PublishError,
    Redacting,
    redact,
    url_secrets,
    without_credentials,
)
from scheduler.export.caldav.sync import (
    LineageConflict,
    OperatorResult,
    ServerObject,
    publish,
    same_href,
)

PASSWORD_ENV = "TOURNEY_CALDAV_PASSWORD"
"""Environment variable holding the CalDAV password (never a command-line flag)."""
TIMEOUT = 30
"""Seconds each request to the server may take in all: connecting, sending, and every byte
of the answer (``tourney publish --timeout``); a server that trickles its answer is given up
on after this long, not after this long without a byte."""
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Hosts ``http://`` is allowed to without ``allow_insecure_http``: the password does not
leave this machine (127.0.0.0/8 counts too)."""
_T = TypeVar("_T")


_QUERY = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:prop><D:getetag/><C:calendar-data/></D:prop>"
    '<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/>'
    "</C:comp-filter></C:filter></C:calendar-query>"
)


def _loopback(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1); never a DNS name such as
    ``127.example.org``."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, *, allow_insecure_http: bool = False) -> str:
    """``url`` when it is an absolute https URL with a host (or http to this machine:
    :data:`LOOPBACK_HOSTS`, or anywhere with ``allow_insecure_http``); else PublishError
    (its message shows the URL without credentials)."""
    try:  # the host after the user information's last '@' (a password may hold '@', '/')
        parts = urlsplit(without_credentials(url))
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise PublishError(f"--caldav must be an http:// or https:// URL of the server, e.g. "
                           f"https://cal.example.org/dav/, not {redact(repr(url))}")
    if parts.scheme == "http" and not allow_insecure_http and not _loopback(parts.hostname):
        raise PublishError(f"--caldav {redact(url)} is plain http: the password would cross "
                           "the network unencrypted, readable by anyone on the way. Use "
                           "https://, or add --allow-insecure-http if you accept that "
                           "(http to this machine, localhost or 127.0.0.1, is allowed)")
    return url


def _bounded_body(request: Callable[..., Any], url: str) -> Callable[..., Any]:
    """``request`` (an HTTP session's) that reads each reply's body as a stream, at most
    :func:`~scheduler.core.limits.max_response_bytes` of it once decompressed (a gzip bomb of a
    megabyte inflates to gigabytes), and refuses a larger one (PublishError) before
    reading it all; the reply is then handed on with its body read, as the library expects."""
    limit = max_response_bytes()

    def too_large(size: str) -> PublishError:
        return PublishError(f"the server at {redact(url)} answered with {size}, more than the "
                            f"{limit / MB:,.0f} MB a reply may be (set TOURNEY_MAX_RESPONSE_MB "
                            "to raise it; see docs/limits.md); it may not be a CalDAV server")

    def call(method: str, target: str, **kwargs: Any) -> Any:
        kwargs["stream"] = True
        reply = request(method, target, **kwargs)
        declared = str(reply.headers.get("Content-Length", "")).strip()
        encoded = str(reply.headers.get("Content-Encoding", "")).strip().lower()
        if declared.isdigit() and encoded in ("", "identity") and int(declared) > limit:
            reply.close()
            raise too_large(f"{int(declared) / MB:,.1f} MB")
        body = bytearray()
        for chunk in reply.iter_content(64 * 1024):  # decompressed, a piece at a time
            body += chunk
            if len(body) > limit:
                reply.close()
                raise too_large(f"more than {limit / MB:,.0f} MB (decompressed)")
        reply._content = bytes(body)  # read: what .content and .text give the library
        reply._content_consumed = True
        return reply

    return call


class CalDAVServer:
    """:class:`CalendarServer` over the ``caldav`` library (``DAVClient``): principal and
    calendar-home discovery, MKCALENDAR, calendar-query REPORT, PUT and DELETE."""

    def __init__(self, url: str, user: str, password: str, timeout: float = TIMEOUT, *,
                 allow_insecure_http: bool = False) -> None:
        # start-up time: the caldav library (and its HTTP stack) only to talk to a server
        from caldav.davclient import DAVClient

        self.url = check_url(url, allow_insecure_http=allow_insecure_http)
        self.timeout = timeout
        # without the URL's user information: given separately (an IPv6 host keeps its
        # brackets, which the library's own stripping loses)
        self.client: Any = DAVClient(url=without_credentials(url), username=user,
                                     password=password,
                                     timeout=max(1, math.ceil(timeout)),
                                     enable_rfc6764=False)
        session: Any = self.client.session  # every request of the library goes through it
        session.request = _bounded_body(session.request, self.url)
        self._principal: Any = None
        self._origin = _origin(without_credentials(url))
        # every request, a redirect's too, goes to the server given: never to another host
        self.client.session.hooks["pre_request"].append(self._same_server)
        for name in ("collection", "list_events", "put", "delete"):  # each one bounded
            setattr(self, name, self._bounded(getattr(self, name)))

    def _same_server(self, request: Any, *_args: Any, **_kwargs: Any) -> Any:
        """Refuse (PublishError) a request to another scheme, host or port than ``--caldav``:
        a redirect (HTTP 3xx) or a server that names a calendar elsewhere would send the
        events (and the requests of discovery) to a server the user did not name."""
        target = str(getattr(request, "url", "") or "")
        if _origin(target) != self._origin:
            there = without_credentials(target)
            raise PublishError(
                f"the server at {redact(self.url)} sent tourney to another server "
                f"({request.method} {redact(there)}; a redirect or a calendar elsewhere), "
                "refused: tourney publishes only to the server given with --caldav (if you "
                "trust the other one, give its address with --caldav)")
        return request

    def _bounded(self, fn: Callable[..., _T]) -> Callable[..., _T]:
        """``fn`` run on a helper thread and given up on after ``self.timeout`` seconds in
        all (PublishError; the connection is closed so the thread ends soon after)."""
        def run(*args: Any, **kwargs: Any) -> _T:
            box: list[Any] = []

            def call() -> None:
                try:
                    box.append((True, fn(*args, **kwargs)))
                except BaseException as exc:  # handed to the caller's thread
                    box.append((False, exc))

            worker = threading.Thread(target=call, name="tourney-caldav", daemon=True)
            worker.start()
            worker.join(self.timeout)
            if not box:
                with contextlib.suppress(Exception):
                    self.client.session.close()
                raise PublishError(
                    f"the server at {redact(self.url)} did not answer in full within "
                    f"{self.timeout:g} s (--timeout); it may be overloaded or not a CalDAV "
                    "server")
            ok, value = box[0]
            if not ok:
                raise value
            return value  # type: ignore[no-any-return]
        return run

    def _inside(self, href: str, collection_url: str) -> bool:
        """Whether ``href`` names a resource directly inside the collection (same server,
        decoded path one level below it, no ``..``)."""
        a, b = urlsplit(href), urlsplit(collection_url)
        if (a.scheme, a.hostname, a.port) != (b.scheme, b.hostname, b.port):
            return False
        base = unquote(b.path).rstrip("/") + "/"
        path = unquote(a.path)
        name = path[len(base):]
        return (path.startswith(base) and bool(name) and "/" not in name
                and name not in (".", ".."))

    def _home(self) -> Any:
        if self._principal is None:
            self._principal = self.client.principal()
        return self._principal

    def collection(self, operator_id: str, display_name: str) -> tuple[str, bool]:
        principal = self._home()
        for cal in principal.calendars():
            if unquote(str(cal.url).rstrip("/").rsplit("/", 1)[-1]) == operator_id:
                return str(cal.url), False
        cal = principal.make_calendar(name=display_name, cal_id=operator_id,
                                      supported_calendar_component_set=["VEVENT"])
        return str(cal.url), True

    def _url(self, href: str) -> str:
        return str(self.client.url.join(href))

    def list_events(self, collection_url: str) -> list[ServerObject]:
        from caldav.elements import cdav, dav  # start-up time, as DAVClient above

        resp = self.client.report(collection_url, _QUERY, depth=1)
        _check(resp, (207,), f"list the events of {collection_url}")
        found = resp.expand_simple_props([dav.GetEtag(), cdav.CalendarData()])
        out = []
        for href, props in found.items():
            data = props.get(cdav.CalendarData.tag)
            if (not data or same_href(self._url(href), collection_url)
                    or not self._inside(self._url(href), collection_url)):
                continue  # the collection itself, or not in it: never touched
            out.append(ServerObject(self._url(href), str(data),
                                    props.get(dav.GetEtag.tag) or None))
        return out

    def put(self, href: str, data: bytes, etag: str | None, *, new: bool) -> None:
        headers = {"Content-Type": "text/calendar; charset=utf-8"}
        if new:
            headers["If-None-Match"] = "*"
        elif etag:
            headers["If-Match"] = etag
        resp = self.client.put(href, data.decode("utf-8"), headers)
        _check(resp, (200, 201, 204), f"put {href}")

    def delete(self, href: str, etag: str | None) -> None:
        resp = self.client.delete(href, {"If-Match": etag} if etag else None)
        _check(resp, (200, 204, 404), f"delete {href}")


def _origin(url: str) -> tuple[str, str, int | None]:
    """A URL's scheme, host (lower case) and port (the scheme's default when none)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ("", url, None)
    scheme = parts.scheme.lower()
    return (scheme, (parts.hostname or "").lower(),
            port or {"http": 80, "https": 443}.get(scheme))


def _check(resp: Any, ok: tuple[int, ...], what: str) -> None:
    status = int(getattr(resp, "status", 0) or 0)
    if status in ok:
        return
    if status == 412:
        raise PublishError(f"cannot {what}: it changed on the server while publishing "
                           "(HTTP 412); publish again")
    reason = str(getattr(resp, "reason", "") or "").strip()
    raise PublishError(f"cannot {what}: the server answered HTTP {status} {reason}".rstrip())


def publish_to(plan_dir: str | Path, url: str, user: str, password: str, *,
               timeout: float = TIMEOUT, allow_insecure_http: bool = False,
               take_over: bool = False) -> list[OperatorResult]:
    """Read the plan's calendars, then publish them to the CalDAV server at ``url``. Every
    failure the user can act on (folder, URL, password, server unreachable, slower than
    ``timeout`` seconds for one request in all, or not CalDAV) is a PublishError with one
    line of explanation; no message, log line or result shows the URL's credentials or the
    password (:func:`redact`). Plain ``http://`` other than to this machine needs
    ``allow_insecure_http`` (:func:`check_url`)."""
    # the password and the URL's are redacted from what the server or a library says before
    # it goes into tourney's own sentence (redact), never from tourney's words
    secrets = [password, *url_secrets(url)]

    def clean(text: object) -> str:
        return redact(str(text), secrets)

    try:
        calendars = read_plan_calendars(plan_dir)
        check_url(url, allow_insecure_http=allow_insecure_http)
    except PublishError as exc:
        raise PublishError(redact(str(exc))) from None
    # start-up time: the caldav library (and its HTTP stack) only to talk to a server
    from caldav.lib import error as dav_error

    logging.getLogger("caldav").setLevel(logging.CRITICAL)  # its warnings are not for operators
    guard = Redacting(secrets)
    for name in ("caldav", "niquests", "urllib3", "urllib3_future", "requests"):
        if not any(isinstance(f, Redacting) for f in logging.getLogger(name).filters):
            logging.getLogger(name).addFilter(guard)
    shown = redact(url)
    done: list[str] = []

    def stopped(why: str) -> PublishError:
        so_far = f" (done before it stopped: {', '.join(done)}; publish again)" if done else ""
        return PublishError(redact(f"{why}{so_far}"))

    try:
        server = CalDAVServer(url, user, password, timeout,
                              allow_insecure_http=allow_insecure_http)
        return [replace(r, calendar_url=clean(r.calendar_url))
                for r in publish(calendars, server, take_over=take_over, done=done)]
    except LineageConflict as exc:
        raise LineageConflict(clean(exc)) from None
    except PublishError as exc:
        raise stopped(clean(exc)) from None
    except dav_error.AuthorizationError as exc:
        if getattr(exc, "status", None) == 403:
            raise stopped(f"the server at {shown} does not let user {user!r} read or write "
                          f"{clean(exc.url or 'there')} (HTTP 403); check --caldav and --user"
                          ) from None
        raise stopped(f"the server at {shown} refused user {user!r} (HTTP 401: wrong user "
                      f"name or password? The password comes from {PASSWORD_ENV} or the "
                      "prompt)") from None
    except dav_error.NotFoundError as exc:
        raise stopped(f"no CalDAV calendar home found at {shown} ({clean(_dav_detail(exc))}); "
                      "check "
                      "--caldav") from None
    except dav_error.DAVError as exc:
        raise stopped(f"the server at {shown} is not answering as a CalDAV server "
                      f"({clean(_dav_detail(exc))}); check --caldav") from None
    except OSError as exc:  # connection refused, DNS, TLS, timeout (niquests/requests)
        raise stopped(f"cannot reach the CalDAV server at {shown} ({clean(_cause(exc))}); "
                      "is it "
                      "running, and is --caldav right?") from None
    except (ValueError, SyntaxError) as exc:  # unparsable XML (lxml) or iCalendar
        raise stopped(f"the server at {shown} sent an answer that is not CalDAV "
                      f"({clean(_one_line(exc))}); check --caldav") from None


_KNOWN_CAUSES = (
    ("connection refused", "connection refused"),
    ("name or service not known", "host name not found"),
    ("failed to resolve", "host name not found"),
    ("name resolution", "host name not found"),
    ("nodename nor servname", "host name not found"),
    ("timed out", "timed out"),
    ("certificate verify failed", "its TLS certificate is not trusted"),
    ("wrong version number", "not a TLS server: try http://"),
    ("connection reset", "connection reset"),
    ("network is unreachable", "network unreachable"),
)
_ERRNO = re.compile(r"\[Errno -?\d+\] ([^'\")\]]+)")


def _cause(exc: BaseException) -> str:
    """The root cause of a connection error in a few words ("connection refused", "host name
    not found", "timed out", ...), not the HTTP library's chain of wrappers."""
    text = str(exc)
    for needle, words in _KNOWN_CAUSES:
        if needle in text.lower():
            return words
    found = _ERRNO.search(text)
    return found.group(1).strip() if found else _one_line(exc)


def _dav_detail(exc: BaseException) -> str:
    """A DAVError's HTTP status and reason, without an HTML error page."""
    reason = " ".join(str(getattr(exc, "reason", "") or "").split("<", 1)[0].split())
    status = getattr(exc, "status", None)
    if reason and reason != "no reason":
        return reason if len(reason) <= 120 else reason[:117] + "..."
    return f"HTTP {status}" if status else type(exc).__name__


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
