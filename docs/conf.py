"""Sphinx configuration of npuzzle's documentation site.

Build it (from the checkout; warnings are errors, as in CI)::

    pip install -e '.[docs]'
    python -m sphinx -W --keep-going -b html docs docs/_build/html

The pages are Markdown (MyST); the API reference comes from the docstrings and type hints
(autodoc), the command-line reference from the argparse parsers (``_ext/npuzzle_cli.py``).
Nothing is fetched from the network.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
if (HERE.parent / "src" / "npuzzle").is_dir():  # a checkout: document its code, not an installed copy
    sys.path.insert(0, str(HERE.parent / "src"))

PYPROJECT = tomllib.loads((HERE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
project = "npuzzle"
author = "the npuzzle authors"
copyright = "2026, the npuzzle authors"
release = version = PYPROJECT["version"]
#: The repository's address, when pyproject.toml names one ([project.urls] Repository).
REPOSITORY = PYPROJECT.get("urls", {}).get("Repository")

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "npuzzle_cli",
    "sphinx_copybutton",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# A Markdown link to a page or heading of this site that does not exist is a warning (an error
# with -W): no internal link is taken for an external one.
myst_all_links_external = False
exclude_patterns = ["_build", "_ext", "screenshots/*.md"]
html_theme = "furo"
html_title = f"npuzzle {release}"
html_static_path = ["_static"]
# Code blocks scroll or wrap on a phone, tables scroll inside their own box (furo's wrapper).
html_css_files = ["npuzzle.css"]
html_theme_options: dict[str, object] = {}
if REPOSITORY:  # a plain link at the foot of every page (furo reads source_repository only on a few hosts)
    html_theme_options["footer_icons"] = [{"name": "Repository", "url": REPOSITORY, "html": "Source code",
                                           "class": ""}]
# The copy button copies the commands and Python lines only: no "$ ", ">>> " or "... " prompt, and
# no output.
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos, .gp, .go"
autodoc_typehints = "description"
autodoc_member_order = "bysource"
# A method without a docstring of its own (SlidingPuzzleEnv.step) does not borrow its base class's
# (Gymnasium's are written for another site and break the build).
autodoc_inherit_docstrings = False
autodoc_default_options = {"members": True, "show-inheritance": True}
# Not nitpicky: the type hints name numpy's and the standard library's types, which this site does
# not document (no intersphinx: the build needs no network). Links to this site's own pages,
# headings, labels and command-line options are checked all the same.
nitpicky = False
