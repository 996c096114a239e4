"""Publish a plan's per-operator calendars to a CalDAV server (``tourney publish``).

Each ``calendars/<operator_id>.ics`` of a plan folder goes into the CalDAV calendar collection
``<operator_id>/`` in the user's calendar home (RFC 4791), created when missing with the file's
X-WR-CALNAME as its display name. Inside it:

- every UID of the file is one calendar object resource (RFC 4791 §4.1: one UID per resource,
  all its VEVENTs together, no METHOD), holding the VEVENT(s) and the VTIMEZONEs their TZID
  parameters name; a new one is named ``<uid-safe>.ics`` (:func:`resource_name`), an existing
  one keeps the server's name;
- it is put only when its content differs from the server's (:func:`same_content`: property and
  component order, line folding and DTSTAMP / LAST-MODIFIED / CREATED do not count), so a
  second publish of the same plan changes nothing;
- a server event whose UID is no longer in the file is deleted; one the file cancels
  (``STATUS:CANCELLED``) is put as cancelled, so the server holds exactly what the file
  holds and a client that synced it sees it cancelled;
- plan lineages (``scheduler.core.uid``): every event tourney writes names its plan lineage
  (X-TOURNEY-LINEAGE). An event of another lineage (another year's plan, another
  organization's) is never deleted because this file lacks it, nor is an event of this
  lineage outside the file's horizon (X-TOURNEY-HORIZON: history); a file that would
  overwrite or delete an event of another lineage (the same UID) stops the whole publish
  before any change (:class:`LineageConflict`, exit 2, naming the events) unless
  ``take_over`` (``--take-over``). Events without X-TOURNEY-LINEAGE (earlier versions) are
  managed as before;
- other calendars, and objects without a VEVENT (tasks, journals), are never touched.

Writes are conditional (``If-None-Match: *`` for new resources, ``If-Match`` with the listed
ETag otherwise): an object changed on the server while publishing stops the run instead of
being overwritten. Publishing again finishes the job.

The pure parts (:func:`read_calendar`, :func:`plan_sync`, :func:`same_content`) take bytes and
return values; :class:`CalDAVServer` is the only code that talks to a server (through the
``caldav`` library), behind the small :class:`CalendarServer` protocol.

One module per responsibility, one way: ``server`` (the CalDAV client, :func:`publish_to`) >
``sync`` (the sync plan, :func:`publish`) > ``calendars`` (the plan's files read) >
``redaction`` (:class:`PublishError`, :func:`redact`). This package names them all.
"""


__all__ = [
]
