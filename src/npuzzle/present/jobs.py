"""The web front end's records and lines (``npuzzle serve``): refused requests, solve jobs with
their progress and result, checks with their lower bounds, and what the server prints.

>>> job_record("7", "running")["text"]
'searching'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..board import Board, Goal
from ..notation import format_position
from .common import (
    INPUT_EXCERPT,
    count_text,
    progress_text,
    record_head,
    time_fields,
)
from .positions import check_record
from .solution import (
    how_text,
    outcome_text,
    report_for,
    solution_record,
)

if TYPE_CHECKING:
    from ..search.limits import Limit, Progress, Solution


def error_record(reason: str, status: str = "invalid", text: str | None = None) -> dict[str, Any]:
    """The record of a web request refused: ``status`` (``invalid``, ``too-large``, ``not-found``,
    ``busy``, ...), the ``reason`` in words, and ``input`` (an excerpt) when a position was refused.

    >>> error_record("duplicate tile 2 in '1 2/2 0'", text="1 2/2 0")["status"]
    'invalid'
    >>> error_record("too large: at most 65,536 bytes", "too-large")
    {'schema_version': 2, 'record': 'error', 'status': 'too-large', 'reason': 'too large: at most 65,536 bytes'}
    """
    record = {**record_head("error"), "status": status, "reason": reason}
    if text is not None:
        record["input"] = text if len(text) <= INPUT_EXCERPT else text[:INPUT_EXCERPT] + "..."
    return record


def web_solution_record(solution: Solution, limit: Limit | None = None) -> dict[str, Any]:
    """A solution as the web API sends it: ``solution_record`` (the fields of ``solve --json``)
    with ``outcome`` (``outcome_text``) and ``how`` (``how_text``) for the page to show."""
    return {**solution_record(solution, report_for(solution)), "outcome": outcome_text(solution, limit),
            "how": how_text(solution)}


def progress_record(progress: Progress) -> dict[str, Any]:
    """A running search's progress as JSON: ``bound``, ``generated``, ``wall_seconds``,
    ``cpu_seconds``, ``nodes_per_second``, and ``text`` (``progress_text``)."""
    return {"bound": progress.bound, "generated": progress.generated,
            **time_fields(progress.wall_seconds, progress.cpu_seconds),
            "nodes_per_second": round(progress.nodes_per_second), "text": progress_text(progress)}


#: What each state of a web solve job means (``job_record``'s ``text`` when there is no progress).
JOB_STATE_TEXT: dict[str, str] = {
    "queued": "waiting for a free worker",
    "running": "searching",
    "done": "done",
    "cancelled": "cancelled",
    "failed": "failed",
}


def job_record(job_id: str, state: str, *, progress: Progress | None = None,
               result: Mapping[str, Any] | None = None, reason: str | None = None) -> dict[str, Any]:
    """A web solve job as JSON: its ``id``, ``state`` (``queued``, ``running``, ``done``,
    ``cancelled``, ``failed``), ``text`` (the live status in words), ``progress``
    (``progress_record``) while it runs, ``result`` (``web_solution_record``) once done, and
    ``reason`` when it failed.

    >>> job_record("7", "queued")
    {'schema_version': 2, 'record': 'job', 'id': '7', 'state': 'queued', 'text': 'waiting for a free worker'}
    """
    text = progress_text(progress) if progress is not None and state == "running" else JOB_STATE_TEXT[state]
    record: dict[str, Any] = {**record_head("job"), "id": job_id, "state": state, "text": text}
    if progress is not None:
        record["progress"] = progress_record(progress)
    if result is not None:
        record["result"] = dict(result)
    if reason is not None:
        record["reason"] = reason
        record["text"] = f"{JOB_STATE_TEXT[state]}: {reason}"
    return record


def bounds_text(bounds: Mapping[str, int]) -> str:
    """A board's lower bounds in words, as the web page shows them.

    >>> bounds_text({"manhattan": 21, "lc": 23})
    'Manhattan distance 21, linear conflict 23'
    """
    names = {"manhattan": "Manhattan distance", "lc": "linear conflict", "wd": "walking distance",
             "id": "inversion distance"}
    return ", ".join(f"{names.get(name, name)} {value:,}" for name, value in bounds.items())


def web_check_record(board: Board, goal: Goal | Board, bounds: Mapping[str, int]) -> dict[str, Any]:
    """A check as the web API sends it: ``check_record`` with ``position`` (rows notation),
    ``lower_bounds`` (name -> value) and ``text`` (the solvability and bounds in words)."""
    record = check_record(board, goal)
    verdict = "solvable" if record["solvable"] else "unsolvable"
    return {**record, "position": format_position(board), "lower_bounds": dict(bounds),
            "text": f"{verdict}; {bounds_text(bounds)}" if bounds else verdict}


def overrun_text(timeout: float) -> str:
    """Why a web solve job was stopped from outside: its search did not stop at the time limit.

    >>> overrun_text(30)
    'the search did not stop at its time limit (30 s)'
    """
    return f"the search did not stop at its time limit ({timeout:g} s)"


def web_missing_text() -> str:
    """What ``npuzzle serve`` says when the web extra is not installed."""
    return ("npuzzle serve: the web page needs Starlette and uvicorn: pip install 'npuzzle[web]'")


def serving_text(url: str, workers: int, time_limit: float) -> str:
    """The line ``npuzzle serve`` prints once it listens.

    >>> serving_text("http://127.0.0.1:8000/", 2, 30)
    'npuzzle serve: http://127.0.0.1:8000/ (2 solver processes, solves stop after 30 s; Ctrl-C stops the server)'
    """
    return (f"npuzzle serve: {url} ({count_text(workers, 'solver process', 'solver processes')}, "
            f"solves stop after {time_limit:g} s; Ctrl-C stops the server)")


def open_host_warning_text(host: str) -> str:
    """The warning of a server that listens beyond this machine."""
    return (f"listening on {host}: anyone who can reach this machine can use the page and its solver "
            "processes (there is no password); 127.0.0.1 keeps it to this machine")


def listen_error_text(host: str, port: int, problem: str) -> str:
    """Why ``npuzzle serve`` cannot listen where it was asked to.

    >>> listen_error_text("127.0.0.1", 8000, "Address already in use")
    'cannot listen on 127.0.0.1:8000: Address already in use (another server there? try --port)'
    """
    return f"cannot listen on {host}:{port}: {problem} (another server there? try --port)"
