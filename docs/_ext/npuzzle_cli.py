"""A Sphinx extension: the ``npuzzle-cli`` directive renders npuzzle's command-line reference
from its argparse parsers (``npuzzle.cli.build_parser``), so the page cannot drift from the
program: every command and subcommand gets a section with its usage, description, options (each
an ``option`` target: ``{option}`npuzzle solve --jobs``` links to it) and the text after them.

Used by ``docs/reference/cli.md``::

    ```{npuzzle-cli}
    ```

Each section is also a label (``npuzzle-solve``, ``npuzzle-tables-build``) for ``{ref}``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from npuzzle.cli._options import NOTATION_HELP

#: The width argparse formats usage lines to (it reads COLUMNS): the same page on every machine.
WIDTH = "88"


def subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser, str]]:
    """Each subcommand of ``parser``: its name, parser and one-line help, in the help's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, sub, helps.get(name, "")


def option_items(parser: argparse.ArgumentParser) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """Each argument group of ``parser`` with its arguments (invocation, expanded help), the
    subcommand placeholders and suppressed arguments left out."""
    formatter = parser._get_formatter()
    for group in parser._action_groups:
        items = []
        for action in group._group_actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
                continue
            invocation = formatter._format_action_invocation(action)
            text = formatter._expand_help(action) if action.help else ""
            items.append((invocation, " ".join(text.split())))
        if items:
            yield group.title or "arguments", items


class CommandLine(SphinxDirective):
    """``npuzzle-cli``: one section per command of ``npuzzle`` (recursively), built from the parsers."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from npuzzle.cli import build_parser

        saved = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = WIDTH
        try:
            parser = build_parser()
            return [self.section(parser, ["npuzzle"], ""), *self.commands(parser, ["npuzzle"])]
        finally:
            if saved is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = saved

    def commands(self, parser: argparse.ArgumentParser, path: list[str]) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for name, sub, summary in subcommands(parser):
            section = self.section(sub, [*path, name], summary)
            section.extend(self.commands(sub, [*path, name]))
            out.append(section)
        return out

    def section(self, parser: argparse.ArgumentParser, path: list[str], summary: str) -> nodes.section:
        """The section of one command: title, summary, usage, description, options, epilog."""
        program = " ".join(path)
        node_id = nodes.make_id(program)
        section = nodes.section(ids=[node_id])
        section += nodes.title(text=program)
        self.env.get_domain("std").note_hyperlink_target(node_id, self.env.docname, node_id, program)
        if summary:
            section += nodes.paragraph(text=summary[0].upper() + summary[1:] + ".")
        section += nodes.literal_block(text=parser.format_usage().strip())
        if parser.description:
            section += nodes.paragraph(text=" ".join(parser.description.split()))
        for title, items in option_items(parser):
            section += nodes.rubric(text=title[0].upper() + title[1:])
            section += self.option_list(program, items)
        epilog = parser.epilog or ""
        if len(path) > 1:  # the notation is the same for every command: shown once, under npuzzle
            epilog = epilog.replace(NOTATION_HELP, "")
        if epilog.strip():
            section += nodes.literal_block(text=epilog.strip("\n"))
        return section

    def option_list(self, program: str, items: list[tuple[str, str]]) -> nodes.definition_list:
        """A definition list of ``items``; each option's names become ``option`` targets of ``program``."""
        std = self.env.get_domain("std")
        listing = nodes.definition_list()
        for invocation, text in items:
            node_id = nodes.make_id(f"cmdoption {program} {invocation.split(',')[0].split()[0]}")
            term = nodes.term(ids=[node_id])
            term += nodes.literal(text=invocation)
            for name in invocation.split(", "):
                if name.startswith("-"):
                    std.add_program_option(program.replace(" ", "-"), name.split()[0], self.env.docname, node_id)
            listing += nodes.definition_list_item("", term, nodes.definition("", nodes.paragraph(text=text)))
        return listing


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("npuzzle-cli", CommandLine)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
