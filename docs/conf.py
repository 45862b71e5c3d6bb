"""Sphinx configuration of npuzzle's documentation site (``python -m sphinx -W docs docs/_build/html``)."""

from __future__ import annotations

project = "npuzzle"
author = "the npuzzle developers"
copyright = "2026, the npuzzle developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build", "screenshots/*.md"]
html_theme = "furo"
html_title = "npuzzle"
autodoc_typehints = "description"
nitpicky = False
