"""Property (issue #11): random sequences of edits and re-plans over two years and two
organizations publishing to one server never lose an event of another plan lineage, and a
calendar application that imports any subset of a lineage's versions, in order and ending with
the latest, holds exactly the latest plan's events.

The server is an in-memory model of the CalDAV collections (href -> calendar object), changed
with exactly the PUTs and DELETEs ``tourney publish`` plans (``plan_sync``); the same steps
against the real Radicale server are in test_calendar_identity.py. The application follows
RFC 5546 §2.1.4: an event replaces the one it holds with a higher SEQUENCE, or the same
SEQUENCE and a later (or equal) DTSTAMP; a CANCELLED one removes it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import icalendar
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduler.export.caldav.calendars import read_calendar, resource_name
from scheduler.export.caldav.sync import ServerObject, plan_sync

from builders.caldav import client_view, march, solve_to, yaml_at
from builders.strategies import ci_examples

ORGS = {"a": {"name": "Bitterroot Club"},
        "b": {"name": "Saco Bay Club", "domain": "saco-bay.example.org"}}
"""Two organizations whose operators have the same ids (room, post): one server collection
per operator id, shared."""
EDITS: dict[str, Callable[[int], dict[str, Any]]] = {
    "same": lambda y: {},
    "one-stack": lambda y: {"sat.count": 1},
    "later-stack": lambda y: {"sat.start_time": "13:00"},
    "blackout": lambda y: {"room.blackout": [f"{y}-03-06", f"{y}-03-17"]},
    "no-holdem": lambda y: {"hold.id": None},
    "one-holdem": lambda y: {"hold.count": 1},
    "short-series": lambda y: {"wed.window": {"start": f"{y}-03-01", "end": f"{y}-03-17"}},
}
STEP = st.tuples(st.sampled_from(sorted(ORGS)), st.sampled_from([2027, 2028]),
                 st.sampled_from(sorted(EDITS)))


class Server:
    """CalDAV collections in memory: collection -> href -> calendar object text."""

    def __init__(self) -> None:
        self.collections: dict[str, dict[str, str]] = {}

    def publish(self, folder: Path) -> None:
        for path in sorted((folder / "calendars").glob("*.ics")):
            cal = read_calendar(path.stem, path.read_bytes())
            coll = self.collections.setdefault(cal.operator_id, {})
            url = f"http://server/alice/{cal.operator_id}/"
            objs = [ServerObject(href, data, str(hash(data))) for href, data in coll.items()]
            plan = plan_sync(cal, objs, url)
            assert plan.conflicts == [], plan.conflicts  # distinct lineages, distinct UIDs
            others = {h: d for h, d in coll.items()
                      if ServerObject(h, d).lineage != cal.lineage}
            for ch in plan.changes:
                if ch.action == "delete":
                    del coll[ch.href]
                else:
                    assert ch.data is not None
                    coll[ch.href] = ch.data.decode("utf-8")
            # never lose (nor change) an event of another lineage
            assert {h: d for h, d in coll.items()
                    if ServerObject(h, d).lineage != cal.lineage} == others
            # and the collection holds exactly the file's live events of this lineage
            mine = {ServerObject(h, d).uid for h, d in coll.items()
                    if ServerObject(h, d).lineage == cal.lineage}
            assert mine == set(cal.resources)
            assert all(url + resource_name(u) in coll for u in cal.resources)


def _live(data: bytes) -> dict[str, tuple[str, str]]:
    return client_view([data])


@settings(max_examples=ci_examples(4, otherwise=8), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=1, max_size=5))
def test_lineages_never_lose_events_and_clients_converge(
        tmp_path_factory: Any, steps: list[tuple[str, int, str]]) -> None:
    tmp = tmp_path_factory.mktemp("lineages")
    server = Server()
    versions: dict[tuple[str, int], list[Path]] = {}
    for i, (org, year, edit) in enumerate(steps):
        data = march(year=year, **ORGS[org], **EDITS[edit](year))
        out = tmp / f"v{i}-{org}-{year}"
        before = versions.setdefault((org, year), [])
        extra = ("--previous", str(before[-1])) if before else ()
        solve_to(yaml_at(tmp, f"s{i}", data), out, *extra)
        before.append(out)
        server.publish(out)
    for folders in versions.values():
        files = [(f / "calendar.ics").read_bytes() for f in folders]
        latest = _live(files[-1])
        for k in range(len(files)):
            for subset in combinations(range(len(files) - 1), k):
                got = client_view([files[j] for j in subset] + [files[-1]])
                assert got == latest, (subset, sorted(set(got) ^ set(latest)))
        # every live event of the latest version is also on the server
        on_server = {str(e["UID"]) for coll in server.collections.values()
                     for d in coll.values()
                     for e in icalendar.Calendar.from_ical(d).walk("VEVENT")}
        assert set(latest) <= on_server
