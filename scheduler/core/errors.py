"""The one base of every failure tourney reports to an operator, and its exit codes.

Each failure class says how it ends a command (click's ``ClickException``): its ``exit_code``
(a class attribute, or an instance's own, e.g. a sweep's engine that cannot be used is 2 and a
variant unsolved 3) and its :meth:`~TourneyError.format_message`. The CLI
(:mod:`scheduler.cli.errors`) prints the message and exits with that code; no traceback.

Exit codes (README.md): **0** done; **1** a required occurrence cannot be placed (``solve``) or
violations found (``check``); **2** invalid input, or a file that cannot be written (nothing
written); **3** an internal failure (nothing written); **130** interrupted (Ctrl-C).
"""

from __future__ import annotations

import os

EXIT_INPUT = 2
"""Invalid input or an output that cannot be written; nothing written."""
EXIT_INTERNAL = 3
"""An internal failure; nothing written."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT)."""


class TourneyError(Exception):
    """A failure tourney reports in one line, ending a command with :attr:`exit_code`."""

    exit_code: int = EXIT_INPUT
    """How the command ends: 2 invalid input (the default), 3 internal, 130 interrupted."""

    def format_message(self) -> str:
        """The one line (or block) the CLI prints on standard error."""
        return f"tourney: {self}"


class InterruptedAfterWriting(KeyboardInterrupt):
    """Ctrl-C that came once the folder ``path`` was in place, complete (while it was being
    put there, or afterwards): the command stops (exit 130) and says the folder was written,
    not that nothing was (:func:`scheduler.core.atomic.replace_dir`, ``tourney solve``)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(str(path))
        self.path = path
