"""The documentation site (``docs/``): every example of every page runs and prints what the page
shows, no page speaks of the project's own history, and the site builds with Sphinx, warnings as
errors.

The pages mark their examples by the language of the code block:

- ```` ```sh ````: a shell script, run with ``bash -e -o pipefail`` (``npuzzle`` and ``python``
  are this interpreter);
- ```` ```console ````: ``$ COMMAND`` lines, each followed by what it prints on standard output
  (``...`` stands for any text: times); the command must exit 0 (a page shows another status
  with ``; echo "exit status $?"``);
- ```` ```pycon ````: a Python session, run as a doctest (ELLIPSIS and NORMALIZE_WHITESPACE on);
- ```` ```text ```` and ```` ```json ````: shown, never run (output on standard error, a file's
  contents, a record).

Every page of the site is read (``PAGES``: every Markdown file that Sphinx builds), and a code
block of any other kind (an indented block, an unknown language, a fence the reader here does not
see) fails ``test_every_code_block_is_run_or_says_why_not``. A page's blocks run in order, in one
temporary folder and with one empty table store of their own, sharing one Python namespace, like a
reader following the page. A block that talks to ``npuzzle serve`` at ``127.0.0.1:8000`` is run
against a server the test starts on 127.0.0.1 (on a free port, written in for 8000). A block that is
too expensive for the tests (minutes, hundreds of MB, ``pip install``, a measurement) has a MyST
comment on the line above it, ``% skip-test: REASON``, and is reported as skipped with that reason.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

DOCS = REPO / "docs"
#: The folders and files of ``docs/`` that Sphinx does not build (``exclude_patterns`` in conf.py).
NOT_PAGES = ("_build/", "_ext/", "screenshots/")
#: Every page of the site.
PAGES = sorted(p for p in DOCS.rglob("*.md") if not str(p.relative_to(DOCS)).startswith(NOT_PAGES))
RUNNABLE = ("sh", "console", "pycon")
#: Every code block of a page is one of these (an example cannot dodge the tests by its tag).
LANGUAGES = (*RUNNABLE, "text", "json")
BLOCK = re.compile(r"^(?:% skip-test:(?P<reason>[^\n]*)\n)?"  # the marker of an example not run, and why
                   r"```(?P<lang>[\w-]*)(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
PRELUDE = 'npuzzle() { "$NPUZZLE_PYTHON" -m npuzzle "$@"; }\npython() { "$NPUZZLE_PYTHON" "$@"; }\n'
#: The address the pages give for ``npuzzle serve`` (its default): blocks that use it get a server.
SERVER = "127.0.0.1:8000"


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


def blocks(page: Path, text: str | None = None) -> list[Block]:
    """The code blocks of ``page`` (MyST directives, ```` ```{toctree} ````, left out)."""
    text = page.read_text(encoding="utf-8") if text is None else text
    out = []
    for m in BLOCK.finditer(text):
        if m.group("info").startswith("{") or m.group("lang").startswith("{"):
            continue
        reason = None if m.group("reason") is None else m.group("reason").strip()
        line = text.count("\n", 0, m.start("lang")) + 1
        out.append(Block(page, line, m.group("lang"), m.group("body"), reason))
    return out


def unread_blocks(page: Path, text: str | None = None) -> list[str]:
    """The code blocks of ``page`` that the runner here would not run nor knowingly skip: every
    code block Markdown sees (markdown-it, the parser MyST uses) must be one ``blocks`` reads, in
    a known language."""
    from markdown_it import MarkdownIt

    text = page.read_text(encoding="utf-8") if text is None else text
    read = {b.line: b for b in blocks(page, text)}
    problems = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        line = token.map[0] + 1
        if token.type == "code_block":
            problems.append(f"{page.name}:{line}: an indented code block (fence it and name its language)")
        elif token.info.strip().startswith("{"):
            continue
        elif line not in read:
            problems.append(f"{page.name}:{line}: a fenced block the tests do not read")
        elif read[line].lang not in LANGUAGES:
            problems.append(f"{page.name}:{line}: a ```{read[line].lang} block (use one of {LANGUAGES})")
    return problems


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
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    before = Path.cwd()
    os.chdir(cwd)
    try:
        runner.run(test, out=lambda text: sys.stdout.write(text), clear_globs=False)
    finally:
        os.chdir(before)
    globs.update(test.globs)  # the next block of the page sees this one's names (a notebook)
    assert test.examples, f"{block.where}: a pycon block without an example"
    assert runner.failures == 0, f"{block.where}: {runner.failures} example(s) failed (the report is above)"


@contextmanager
def api_server(store: Path) -> Iterator[str]:
    """``npuzzle serve`` on 127.0.0.1 and a free port, for the blocks that use the API: its address."""
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
    if shutil.which("curl") is None:
        pytest.skip("the HTTP examples need curl, which is not installed")
    sys.path.insert(0, str(REPO / "tests"))
    from web_server import running_server

    with running_server("--workers", "1", "--time-limit", "60", store=str(store)) as server:
        yield server.url.split("://", 1)[1]


def runnable(page: Path) -> list[Block]:
    """The blocks of a page that the tests run, in order."""
    return [b for b in blocks(page) if b.skip is None and b.lang in RUNNABLE]


#: The pages with something to run (the others only show: ``test_every_code_block_is_run_or_says_why_not``).
RUN_PAGES = [page for page in PAGES if runnable(page)]


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_the_page_examples_run(page: Path, tmp_path: Path, private_store: Path) -> None:
    """Each runnable block of the page, in order, prints what the page shows."""
    globs: dict[str, object] = {}
    work = tmp_path / "work"
    work.mkdir()
    run = runnable(page)
    needs_server = any(SERVER in b.body for b in run)
    with api_server(private_store) if needs_server else nullcontext(SERVER) as address:
        for block in run:
            if block.lang == "sh":
                run_sh(Block(block.page, block.line, "sh", block.body.replace(SERVER, address), None), work,
                       private_store)
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


def test_every_code_block_is_run_or_says_why_not() -> None:
    """Every page of the site is read, and every code block on it is either run (a known runnable
    language, no marker) or shown (``text``, ``json``) or marked ``% skip-test: REASON``: an
    indented block, an unknown tag or a fence the reader misses fails here."""
    built = {str(p.relative_to(DOCS)) for p in PAGES}
    assert {"index.md", "json.md", "benchmarks.md", "tutorial/first-solve.md", "explanation/idastar.md",
            "howto/analyze.md", "reference/cli.md"} <= built
    problems = [problem for page in PAGES for problem in unread_blocks(page)]
    assert not problems, "\n".join(problems)
    assert sum(b.lang in RUNNABLE and b.skip is None for page in PAGES for b in blocks(page)) >= 60


def test_the_block_check_sees_what_it_guards() -> None:
    """An example the runner would not see is reported: indented, tagged ``python`` or ``bash``,
    or fenced with four backticks; a run, shown or skipped block is not."""
    page = DOCS / "made-up.md"
    good = "Text.\n\n```sh\nnpuzzle --version\n```\n\n% skip-test: minutes\n```console\n$ npuzzle x\n```\n"
    assert unread_blocks(page, good + "```text\nshown\n```\n") == []
    for bad in ("Text:\n\n    npuzzle solve 123\n", "```python\nprint(1)\n```\n", "```bash\nls\n```\n",
                "````sh\nnpuzzle solve 1\n````\n", "- a list:\n\n  ```sh\n  npuzzle x\n  ```\n"):
        assert unread_blocks(page, good + bad), bad


#: What no user page says: the project's own history (issue numbers, work sessions, branches) and
#: the paths of the machine it was developed on.
HISTORY = re.compile(r"\bissues?\s*#?\d|\bsessions?\b|\bbranch\s+`|\b(?:this|that|our|the\s+\w+'s)\s+branch\b"
                     r"|\bgit\s+branch|\bworktree|\bhelper(?:s'|\s+session)|/work/|/home/|\.\./shared/"
                     r"|\bnotes\.md|\bperf_\d+\.md|\bwt-\w", re.I)


def history(text: str) -> list[str]:
    """The lines of ``text`` that speak of the project's history or a development path."""
    return [f"{n}: {line.strip()[:120]}" for n, line in enumerate(text.splitlines(), 1) if HISTORY.search(line)]


def test_no_page_speaks_of_the_projects_history() -> None:
    """No page of the site (nor the README, the changelog or the site's configuration) names an
    issue, a session, a branch or a development path."""
    files = [*PAGES, REPO / "README.md", REPO / "CHANGELOG.md", DOCS / "conf.py"]
    found = [f"{f.relative_to(REPO)}:{hit}" for f in files for hit in history(f.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


def test_the_history_check_sees_what_it_guards() -> None:
    for line in ("## Move costs (issue 34)", "measured in the third session", "branch `costs` at 1234567",
                 "NPUZZLE_DATA_DIR=/work/data-bench", "see ../shared/benchmarks/notes.md", "in this branch",
                 "issues 31, 33", "old = /work/wt-kernels-old"):
        assert history(line), line
    for line in ("Korf & Felner's #38 (96 moves)", "a loop without branches", "npuzzle serve --port 8000",
                 "NPUZZLE_DATA_DIR=/tmp/tables python bench/figures.py", "the branching factor, about 2.13"):
        assert not history(line), line


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
    for name in ("pyproject.toml", "CHANGELOG.md"):  # conf.py reads the version, a page includes the log
        shutil.copy(REPO / name, tmp_path / name)
    page = source / "tutorial" / "first-solve.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](no-such-page.md).\n",
                    encoding="utf-8")
    result = sphinx_build(source, tmp_path / "out", builder="dummy")
    assert result.returncode != 0 and "no-such-page" in result.stderr, result.stderr


def test_the_version_licence_and_citation_agree() -> None:
    """One version (pyproject, the package, CITATION.cff, the How-to-cite page, the changelog's
    released section) and one licence (MIT: pyproject, LICENSE, CITATION.cff)."""
    import tomllib

    import npuzzle

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    version = project["version"]
    citation = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    assert npuzzle.__version__ == version
    assert f'\nversion: "{version}"\n' in citation and "\nlicense: MIT\n" in citation
    assert f"Version {version}" in (DOCS / "cite.md").read_text(encoding="utf-8")
    assert f"\n## {version} (" in (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert project["license"] == {"text": "MIT"}
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n") and "Copyright (c) 2026 the npuzzle authors" in licence
