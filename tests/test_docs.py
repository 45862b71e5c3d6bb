"""The documentation site (``docs/``): every example of the tutorial and the how-to guides runs
and prints what the page shows, and the site builds with Sphinx, warnings as errors.

The pages mark their examples by the language of the code block:

- ```` ```sh ````: a shell script, run with ``bash -e -o pipefail`` (``npuzzle`` and ``python``
  are this interpreter);
- ```` ```console ````: ``$ COMMAND`` lines, each followed by what it prints on standard output
  (``...`` stands for any text: times); the command must exit 0 (a page shows another status
  with ``; echo "exit status $?"``);
- ```` ```pycon ````: a Python session, run as a doctest (ELLIPSIS on);
- ```` ```text ````: shown, never run (output on standard error, a file's contents).

A page's blocks run in order, in one temporary folder and with one empty table store of their
own, sharing one Python namespace, like a reader following the page. A block that is too
expensive for the tests (minutes, hundreds of MB, a server, ``pip install``) has a MyST comment
on the line above it, ``% skip-test: REASON``, and is reported as skipped with that reason.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

DOCS = REPO / "docs"
#: The pages whose examples run: the tutorial and the how-to guides.
PAGES = sorted([*DOCS.glob("tutorial/*.md"), *DOCS.glob("howto/*.md")])
RUNNABLE = ("sh", "console", "pycon")
#: Every code block of a tested page is one of these (an example cannot dodge the tests by its tag).
LANGUAGES = (*RUNNABLE, "text", "")
BLOCK = re.compile(r"^(?:% skip-test:(?P<reason>[^\n]*)\n)?"  # the marker of an example not run, and why
                   r"```(?P<lang>[\w-]*)(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
PRELUDE = 'npuzzle() { "$NPUZZLE_PYTHON" -m npuzzle "$@"; }\npython() { "$NPUZZLE_PYTHON" "$@"; }\n'


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    body: str
    skip: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The code blocks of ``page`` (MyST directives, ```` ```{toctree} ````, left out)."""
    text = page.read_text(encoding="utf-8")
    out = []
    for m in BLOCK.finditer(text):
        if m.group("info").startswith("{") or m.group("lang").startswith("{"):
            continue
        reason = None if m.group("reason") is None else m.group("reason").strip()
        line = text.count("\n", 0, m.start("lang")) + 1
        out.append(Block(page, line, m.group("lang"), m.group("body"), reason))
    return out


def skipped() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.skip is not None]


def shell(script: str, cwd: Path, store: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), NPUZZLE_DATA_DIR=str(store),
               NPUZZLE_PYTHON=sys.executable)
    return subprocess.run(["bash", "-o", "pipefail", "-c", PRELUDE + script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def run_sh(block: Block, cwd: Path, store: Path) -> None:
    result = shell("set -e\n" + block.body, cwd, store)
    assert result.returncode == 0, f"{block.where}: exit status {result.returncode}\n{result.stderr}"


def console_commands(body: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` for each ``$ `` line of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            assert pairs, f"output before the first command: {line!r}"
            pairs[-1][1].append(line)
    return [(command, "\n".join(lines) + "\n" if lines else "") for command, lines in pairs]


def run_console(block: Block, cwd: Path, store: Path) -> None:
    checker = doctest.OutputChecker()
    for command, want in console_commands(block.body):
        result = shell(command, cwd, store)
        assert result.returncode == 0, f"{block.where}: {command}: exit status {result.returncode}\n{result.stderr}"
        if not checker.check_output(want, result.stdout, doctest.ELLIPSIS):
            raise AssertionError(f"{block.where}: {command}\n"
                                 + checker.output_difference(doctest.Example(command, want), result.stdout,
                                                             doctest.ELLIPSIS))


def run_pycon(block: Block, globs: dict[str, object], cwd: Path) -> None:
    test = doctest.DocTestParser().get_doctest(block.body, globs, block.where, str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    before = Path.cwd()
    os.chdir(cwd)
    try:
        runner.run(test, out=lambda text: sys.stdout.write(text), clear_globs=False)
    finally:
        os.chdir(before)
    globs.update(test.globs)  # the next block of the page sees this one's names (a notebook)
    assert test.examples, f"{block.where}: a pycon block without an example"
    assert runner.failures == 0, f"{block.where}: {runner.failures} example(s) failed (the report is above)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_the_page_examples_run(page: Path, tmp_path: Path, private_store: Path) -> None:
    """Each runnable block of the page, in order, prints what the page shows."""
    globs: dict[str, object] = {}
    work = tmp_path / "work"
    work.mkdir()
    for block in blocks(page):
        if block.skip is not None or block.lang not in RUNNABLE:
            continue
        if block.lang == "sh":
            run_sh(block, work, private_store)
        elif block.lang == "console":
            run_console(block, work, private_store)
        else:
            run_pycon(block, globs, work)


@pytest.mark.parametrize("block", skipped(), ids=lambda b: b.where)
def test_the_examples_not_run(block: Block) -> None:
    """The examples a page marks as too expensive to run, each reported with its reason."""
    assert block.skip, f"{block.where}: '% skip-test:' needs a reason"
    assert block.lang in RUNNABLE, f"{block.where}: '% skip-test:' marks a {block.lang or 'plain'} block, never run"
    pytest.skip(f"{block.where}: {block.skip}")


def test_every_page_has_examples_and_known_tags() -> None:
    """The tested pages exist, hold runnable examples, and tag every block with a known language."""
    assert {"tutorial/first-solve.md", "tutorial/python.md", "howto/analyze.md"} <= {
        str(p.relative_to(DOCS)) for p in PAGES}
    for page in PAGES:
        found = blocks(page)
        for block in found:
            assert block.lang in LANGUAGES, f"{block.where}: a ```{block.lang} block (use one of {LANGUAGES})"
    assert sum(b.lang in RUNNABLE and b.skip is None for page in PAGES for b in blocks(page)) >= 30


def test_the_console_convention() -> None:
    """The reader of console blocks: commands, their output with blank lines, a command with none."""
    body = "$ npuzzle a\none\n\ntwo\n$ npuzzle b\n$ npuzzle c\nthree\n"
    assert console_commands(body) == [("npuzzle a", "one\n\ntwo\n"), ("npuzzle b", ""), ("npuzzle c", "three\n")]
    with pytest.raises(AssertionError):
        console_commands("stray output\n$ npuzzle a\n")


#: The README's examples that the tests do not run, and why (a README shows no test markers).
README_NOT_RUN = {
    "npuzzle tables build": "builds 288 MB of tables (minutes)",
    "npuzzle serve": "starts a server that runs until Ctrl-C",
}


def readme_examples() -> list[str]:
    """The command lines of the README's ``## Examples`` block."""
    section = (REPO / "README.md").read_text(encoding="utf-8").split("## Examples", 1)[1]
    block = next(b for b in BLOCK.finditer(section) if b.group("lang") == "sh")
    return [line for line in block.group("body").splitlines() if line.strip()]


@pytest.mark.parametrize("line", readme_examples())
def test_the_readme_examples_run(line: str, tmp_path: Path) -> None:
    """Each of the README's examples exits 0 (but for the two named in ``README_NOT_RUN``)."""
    reason = next((why for start, why in README_NOT_RUN.items() if line.startswith(start)), None)
    if reason:
        pytest.skip(f"README: {line.split('#')[0].strip()}: {reason}")
    result = shell(line, tmp_path, tmp_path / "store")
    assert result.returncode == 0, f"README: {line}: exit status {result.returncode}\n{result.stderr}"
    assert result.stdout.strip(), f"README: {line}: printed nothing"


def sphinx_build(source: Path, out: Path, builder: str = "html") -> subprocess.CompletedProcess[str]:
    for module in ("sphinx", "myst_parser", "furo"):
        pytest.importorskip(module, reason="the docs extra is not installed (pip install -e '.[docs]')")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder, str(source),
                           str(out)], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
def test_the_site_builds_without_warnings(tmp_path: Path) -> None:
    """The site builds with warnings as errors, and the command-line page has every command."""
    result = sphinx_build(DOCS, tmp_path / "html")
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr
    from npuzzle.cli import _COMMANDS

    cli = (tmp_path / "html" / "reference" / "cli.html").read_text(encoding="utf-8")
    for command in (*_COMMANDS, "tables build", "tables list"):
        assert f'id="npuzzle-{command.replace(" ", "-")}"' in cli, f"npuzzle {command} is not on the CLI page"
    assert 'id="cmdoption-npuzzle-solve-timeout"' in cli and 'id="cmdoption-npuzzle-tables-build-yes"' in cli
    api = (tmp_path / "html" / "reference" / "api.html").read_text(encoding="utf-8")
    assert 'id="npuzzle.solve"' in api and 'id="npuzzle.Board"' in api


@pytest.mark.slow
def test_a_broken_internal_link_fails_the_build(tmp_path: Path) -> None:
    """-W turns a link to a page or heading that does not exist into a failed build."""
    import shutil

    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build"))
    page = source / "tutorial" / "first-solve.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](no-such-page.md).\n",
                    encoding="utf-8")
    result = sphinx_build(source, tmp_path / "out", builder="dummy")
    assert result.returncode != 0 and "no-such-page" in result.stderr, result.stderr
