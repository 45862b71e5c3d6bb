"""The Python API's arguments checked at its edge, each error naming the parameter: a wrong type
is an ``InvalidTypeError`` (a ``TypeError``), a value out of range an ``InvalidOptionError`` (a
``ValueError``). Nothing is converted silently (``timeout=True`` is not one second) and nothing
is allocated before the check (a shape is checked before its tiles exist).

>>> seconds(2, "timeout"), count(10, "max_nodes"), shape_of("3x4")
(2.0, 10, (3, 4))
>>> seconds(True, "timeout")
Traceback (most recent call last):
...
npuzzle.errors.InvalidTypeError: timeout=True: give a number of seconds
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .board import Board, check_shape
from .errors import InvalidOptionError, InvalidTypeError, quote_input

#: The largest count (nodes, bytes) a limit takes: what a signed 64-bit counter holds.
MAX_COUNT = 2**63 - 1
#: The largest number of seconds a limit takes (about 31,700 years: finite, and far beyond any run).
MAX_SECONDS = 1e12
#: The largest memory limit (``max_memory=``, ``--max-memory``): 1 EiB.
MAX_BYTES = 1 << 60
#: The largest weight of weighted A* (f = g + W*h): beyond it the bucket arrays, sized by W times
#: the bound, no longer fit in memory, and the search is greedy anyway.
MAX_WEIGHT = 1000
#: The longest budget of CPU seconds the beam search accepts (its anytime mode, ``budget=``).
MAX_BUDGET = 3600.0


#: Largest denominator of a weight (weights are exact ratios, so f = num * g + den * h is exact).
MAX_WEIGHT_DENOMINATOR = 100
#: Largest numerator of a weight (the open list's priorities grow with it): 20 times ``MAX_WEIGHT``.
MAX_WEIGHT_NUMERATOR = 20 * MAX_WEIGHT


def exact_weight(weight: float) -> Fraction:
    """``weight`` as the ratio num/den the searches use: the weight itself when it is a ratio
    with den <= 100 (1.01, 1.5, 2.25) and num <= 20,000, else the largest such ratio below it
    (1.001 is searched as 1, 1.014 as 73/72), which keeps the promise (at most ``weight`` times
    the optimum); ``ValueError`` if ``weight`` is not a number from 1 to ``MAX_WEIGHT``.

    >>> exact_weight(1.5), exact_weight(1.01), exact_weight(1.014), exact_weight(999.99)
    (Fraction(3, 2), Fraction(101, 100), Fraction(73, 72), Fraction(19999, 20))
    """
    if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not 1 <= weight <= MAX_WEIGHT:
        raise ValueError(f"the weight must be a number from 1 to {MAX_WEIGHT}, not {weight!r}")
    most = min(MAX_WEIGHT_DENOMINATOR, MAX_WEIGHT_NUMERATOR // math.ceil(weight))
    frac = Fraction(weight).limit_denominator(most)
    if abs(float(frac) - weight) <= 1e-9 * weight:
        return frac  # the ratio meant (1.15 is a hair below 23/20 as a float)
    given = Fraction(weight)
    return max(Fraction(math.floor(given * q), q) for q in range(1, most + 1))


def _named(name: str, value: object) -> str:
    return f"{name}={quote_input(value)}"


def is_real(value: object) -> bool:
    """An int or a float, not a bool (``True`` is an int to Python, not a number to a user)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _float(value: object) -> float:
    """A real number as a float; an int too large for one (``10**400``) is infinity, which every
    range here refuses (``float()`` would raise ``OverflowError``)."""
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]


def seconds(value: object, name: str, most: float = MAX_SECONDS) -> float:
    """A number of seconds above 0 and at most ``most``."""
    if not is_real(value):
        raise InvalidTypeError(f"{_named(name, value)}: give a number of seconds")
    number = _float(value)
    if not (0 < number <= most and math.isfinite(number)):
        raise InvalidOptionError(f"{_named(name, value)}: give a finite number of seconds, more than 0 and at "
                                 f"most {most:,.0f}")
    return number


def count(value: object, name: str, *, least: int = 1, most: int = MAX_COUNT) -> int:
    """A whole number from ``least`` to ``most``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidTypeError(f"{_named(name, value)}: give a whole number")
    if not least <= value <= most:
        raise InvalidOptionError(f"{_named(name, value)}: give a whole number from {least:,} to {most:,}")
    return value


def real(value: object, name: str, least: float, most: float) -> float:
    """A finite number from ``least`` to ``most``."""
    if not is_real(value):
        raise InvalidTypeError(f"{_named(name, value)}: give a number")
    number = _float(value)
    if not (least <= number <= most):
        raise InvalidOptionError(f"{_named(name, value)}: give a number from {least:g} to {most:g}")
    return number


def text(value: object, name: str) -> str:
    """A string (names of methods, heuristics, notations...; their values are checked where known)."""
    if not isinstance(value, str):
        raise InvalidTypeError(f"{_named(name, value)}: give a name as text")
    return value


def callback(value: object, name: str) -> Callable[..., Any] | None:
    """``None`` or something callable."""
    if value is not None and not callable(value):
        raise InvalidTypeError(f"{_named(name, value)}: give a function (or None)")
    return value


def shape_of(value: object, name: str = "shape") -> tuple[int, int]:
    """``(height, width)`` from a pair of whole numbers or text such as ``"3x4"``, checked as a
    board shape (``InvalidBoardError`` for a shape no board has)."""
    if isinstance(value, str):
        from .notation import parse_shape

        return parse_shape(value)
    if (not isinstance(value, tuple | list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InvalidTypeError(f"{_named(name, value)}: give (height, width) as two whole numbers, or text "
                               "such as '3x4'")
    check_shape(value[0], value[1])
    return int(value[0]), int(value[1])


def board_or_text(value: object, name: str = "board") -> Board | str:
    """A ``Board`` or a position as text."""
    if not isinstance(value, Board | str):
        raise InvalidTypeError(f"{_named(name, value)}: give a Board or a position as text")
    return value


#: A Dask scheduler's address: ``tcp://HOST:PORT``, ``tls://HOST:PORT`` or ``HOST:PORT``.
_ADDRESS = re.compile(r"((tcp|tls|ws|wss)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}/?")


def scheduler_address(value: object, name: str = "scheduler") -> str:
    """A Dask scheduler's address, checked for its form before anyone tries to reach it."""
    address = text(value, name)
    if not _ADDRESS.fullmatch(address):
        raise InvalidOptionError(f"{_named(name, value)}: give a Dask scheduler's address, such as "
                                 "tcp://127.0.0.1:8786")
    return address


def _optional(check: Callable[[object, str], object]) -> Callable[[object, str], object]:
    return lambda value, name: None if value is None else check(value, name)


#: How each keyword of ``npuzzle.solve``, ``solve_many`` and ``lower_bound`` is checked.
CHECKS: dict[str, Callable[[object, str], object]] = {
    "method": text, "heuristic": text, "pruning": text, "realtime_method": text,
    "timeout": _optional(seconds),
    "max_nodes": _optional(count),
    "max_memory": _optional(lambda v, n: count(v, n, most=MAX_BYTES)),
    "weight": lambda v, n: real(v, n, 1, MAX_WEIGHT),
    "on_iteration": callback, "on_progress": callback,
    "jobs": lambda v, n: count(v, n, least=0, most=4096),
    "scheduler": _optional(lambda v, n: scheduler_address(v, n)),
    "budget": _optional(lambda v, n: seconds(v, n, most=MAX_BUDGET)),
    "shape": _optional(shape_of),
    "goal": lambda v, n: v if isinstance(v, Board) else text(v, n),
}


def check_options(options: dict[str, object]) -> None:
    """Check each keyword argument by ``CHECKS`` (the first wrong one raises)."""
    for name, value in options.items():
        CHECKS[name](value, name)
