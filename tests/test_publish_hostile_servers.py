"""`tourney publish` against careless users and hostile servers.

- identity by property: an event is tourney's when its X-TOURNEY- properties (or its UID)
  say so, never because its text holds "X-TOURNEY-": a hand-added event whose DESCRIPTION
  mentions X-TOURNEY-LINEAGE stays on the server;
- a server that sends tourney elsewhere (an HTTP redirect to another host or port) is
  refused before anything goes there, and the summary never names the first server as if
  the events were there;
- credentials are masked in every message, whatever the shape of the URL (one slash after
  the scheme, no scheme, a line break before the ``@``).

A real Radicale server (tests/conftest.py), a real redirecting HTTP server on 127.0.0.1,
and a real recording one behind it. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from builders.caldav import OPERATOR, Server, calendar_of, publish

# the fixtures of tests/conftest.py: a Radicale server, a plan folder; no proxy
pytestmark = pytest.mark.usefixtures("no_proxy")


def test_publish_keeps_a_hand_added_event_whose_description_mentions_x_tourney(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    cal = calendar_of(server, OPERATOR)
    cal.save_event(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hand//EN\r\nBEGIN:VEVENT\r\n"
        "UID:volunteers-2027@post.example\r\nDTSTAMP:20270101T000000Z\r\n"
        "DTSTART;VALUE=DATE:20270110\r\nSUMMARY:Volunteers' dinner\r\n"
        "DESCRIPTION:X-TOURNEY-LINEAGE:0123456789 is what the calendar app shows; "
        "X-TOURNEY-TOURNAMENT too\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    assert ", 0 deleted," in out  # nothing of the plan changed, and the hand's event stays
    uids = {str(e.icalendar_component["UID"]) for e in calendar_of(server, OPERATOR).events()}
    assert "volunteers-2027@post.example" in uids


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Another server: records every request it gets and answers 201."""

    seen: list[str]

    def _any(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_PUT = do_PROPFIND = do_REPORT = do_DELETE = do_MKCALENDAR = do_OPTIONS = _any

    def log_message(self, *args: object) -> None:  # quiet
        pass


@contextlib.contextmanager
def _http(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[int]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(srv.server_address[1])
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_redirect_to_another_server_is_refused_before_anything_goes_there(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    recorder = type("Recorder", (_Recorder,), {"seen": seen})
    with _http(recorder) as other:
        target = f"http://localhost:{other}"

        class Redirect(http.server.BaseHTTPRequestHandler):
            def _any(self) -> None:
                self.send_response(307)
                self.send_header("Location", target + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_PUT = do_PROPFIND = do_REPORT = do_DELETE = do_MKCALENDAR = _any

            def log_message(self, *args: object) -> None:
                pass

        with _http(Redirect) as port:
            url = f"http://alice:s3cret@127.0.0.1:{port}/dav/"
            code, out = publish(server, plan_dir, monkeypatch, url=url)
    assert code == 2, out
    assert seen == []  # not one request reached the other server
    assert out.strip() == (
        f"tourney: the server at http://***@127.0.0.1:{port}/dav/ sent tourney to another "
        f"server (PROPFIND {target}/dav/; a redirect or a calendar elsewhere), refused: "
        "tourney publishes only to the server given with --caldav (if you trust the other "
        "one, give its address with --caldav)")
    assert "s3cret" not in out


@pytest.mark.parametrize("url", [
    "https:/alice:hunter2@cal.example.org/dav/",      # one slash: not a URL to urlsplit
    "alice:hunter2@127.0.0.1:5232/dav/",              # no scheme
    "https://alice:hun\nter2@cal.example.org/dav/",   # a line break before the '@'
    "ftp://alice:hunter2@cal.example.org/",           # not http(s)
])
def test_credentials_of_a_malformed_caldav_url_are_never_printed(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    code, out = publish(server, plan_dir, monkeypatch, url=url)
    assert code == 2, out
    assert out.startswith(("tourney: --caldav must be an http:// or https:// URL",
                           "tourney: cannot reach the CalDAV server at https://***@")), out
    assert "hunter2" not in out and "hun" not in out and "alice" not in out, out
    assert "***@" in out

