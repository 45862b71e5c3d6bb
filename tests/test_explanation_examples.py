"""The examples of the explanation pages (``docs/explanation/*.md``) run as doctests.

Every fenced block whose language is ``pycon`` (plain ```` ```pycon ```` or
```` ```{code-block} pycon ````) is collected; the blocks of one page run in order in one
namespace, so a page can build on its earlier examples. Output is compared with ELLIPSIS and
NORMALIZE_WHITESPACE, as the package's own doctests are, each page in an empty table store
of its own.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from conftest import REPO

PAGES = sorted((REPO / "docs" / "explanation").glob("*.md"))
FENCE = re.compile(r"^(`{3,})(?:\{code-block\}\s*)?pycon[^\n]*\n(.*?)^\1\s*$", re.M | re.S)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def examples(text: str) -> str:
    """The pycon blocks of a page, one after another (options lines of a directive dropped)."""
    blocks = []
    for match in FENCE.finditer(text):
        body = "\n".join(line for line in match.group(2).splitlines() if not line.startswith(":"))
        blocks.append(body)
    return "\n".join(blocks)


def run(text: str, name: str) -> doctest.TestResults:
    test = doctest.DocTestParser().get_doctest(examples(text), {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_pages_found() -> None:
    assert len(PAGES) >= 9
    assert all(examples(p.read_text(encoding="utf-8")).strip() for p in PAGES if p.name != "index.md")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_hold(page: Path, private_store: Path) -> None:
    # Each page starts from an empty table store of its own (a page may build a small table).
    result = run(page.read_text(encoding="utf-8"), page.name)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {page.name} failed"


def test_a_wrong_example_fails() -> None:
    page = "Text.\n\n```{code-block} pycon\n:caption: x\n>>> 1 + 1\n3\n```\n\n```pycon\n>>> 2\n2\n```\n"
    assert examples(page).count(">>>") == 2
    result = run(page, "wrong")
    assert (result.attempted, result.failed) == (2, 1)
