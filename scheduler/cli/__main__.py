"""``python -m scheduler.cli``: the ``tourney`` command."""

from scheduler.cli import main

main()
