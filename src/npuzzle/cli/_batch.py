"""A batch of positions: one outcome per input, in order, an exit status, and a summary line.

An input that is no position, or one the goal cannot be reached from, is reported (a JSON record
with its place, or a line on stderr) and the batch goes on. The exit status is the worst outcome:
0 all done, 1 some input invalid or unsolvable, 3 some search stopped by a limit; a batch of
more than one position ends with ``present.batch.batch_summary_text`` on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from ..notation import Entry
from ..present import batch as present_batch
from ..search.limits import Clock, Limit
from ._options import EXIT_INPUT, EXIT_OK


class Batch:
    """The outcomes of one command over ``entries``; ``outcomes`` names the counts in the order
    the summary shows them (every name used by ``count`` must be among them)."""

    def __init__(self, command: str, entries: Sequence[Entry], as_json: bool, outcomes: Sequence[str]) -> None:
        self.command = command
        self.entries = entries
        self.as_json = as_json
        self.counts = dict.fromkeys(outcomes, 0)
        self.status = EXIT_OK
        self.clock = Clock(Limit())

    @property
    def many(self) -> bool:
        return len(self.entries) > 1

    def count(self, outcome: str, status: int = EXIT_OK) -> None:
        self.counts[outcome] += 1
        self.status = max(self.status, status)

    def invalid(self, entry: Entry) -> None:
        """An input that is no position: its record, or a line on stderr naming its place."""
        self.count("invalid", EXIT_INPUT)
        if self.as_json:
            self.emit(present_batch.invalid_record(entry, self.command))
        else:
            self.error(present_batch.invalid_text(entry, self.many))

    def unsolvable(self, entry: Entry, goal: Any, reason: str) -> None:
        """A position the goal cannot be reached from: its record, or a line on stderr."""
        assert entry.board is not None
        self.count("unsolvable", EXIT_INPUT)
        if self.as_json:
            self.emit(present_batch.unsolvable_record(entry.board, goal, reason, entry))
        else:
            text = present_batch.unsolvable_text(entry.board, reason)
            self.error(f"{entry.where}: {text}" if self.many else text)

    def emit(self, record: dict[str, Any]) -> None:
        print(json.dumps(record), flush=True)

    def error(self, text: str) -> None:
        print(f"npuzzle {self.command}: {text}", file=sys.stderr, flush=True)

    def finish(self) -> int:
        """The summary line (for more than one position) and the exit status."""
        if self.many:
            print(present_batch.batch_summary_text(self.command, self.counts, self.clock.wall(),
                                                 self.clock.cpu_with_children()),
                  file=sys.stderr, flush=True)
        return self.status
