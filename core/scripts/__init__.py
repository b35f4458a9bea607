"""Each view's code as a student would type it: one short script per page, also as a notebook.

A view's script is a ``Script``: a title and a list of cells, each a markdown heading and the code
under it, written in the book's style (the seeds' names, only torch, tiktoken and numpy). The same
cells render as a ``.py`` file (``# %%`` cell markers, as Jupytext and VS Code read them) and as a
Jupyter notebook. One module per view holds its template: ``pipeline``, ``why_position``,
``families``, ``training``, ``trained_positions``.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import nbformat


@dataclass(frozen=True)
class Cell:
    """One step: a heading (markdown) and the code that does it."""

    heading: str
    code: str


@dataclass(frozen=True)
class Script:
    """A view's standalone code; ``files`` are the data files it reads from its folder (name -> content)."""

    name: str  # file stem: pipeline, why_position, …
    title: str  # the docstring's first line
    about: str  # what it prints and what it reads, for the docstring
    cells: list[Cell]
    files: dict[str, str | bytes] = field(default_factory=dict)

    def py(self) -> str:
        """The script: a docstring, then each cell under a ``# %%`` marker with its heading."""
        about = textwrap.fill(self.about.strip(), width=100)
        doc = f'"""{self.title}\n\n{about}\n"""\n'
        body = "\n\n".join(f"# %% {c.heading}\n{c.code.strip()}" for c in self.cells)
        return doc + "\n" + body + "\n"

    def ipynb(self) -> str:
        """The same cells as a notebook: the title, then a markdown heading above each code cell."""
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells.append(nbformat.v4.new_markdown_cell(f"# {self.title}\n\n{self.about.strip()}"))
        for c in self.cells:
            nb.cells.append(nbformat.v4.new_markdown_cell(f"## {c.heading}"))
            nb.cells.append(nbformat.v4.new_code_cell(c.code.strip()))
        for k, cell in enumerate(nb.cells):  # stable IDs: the same settings give the same file
            cell["id"] = f"cell-{k}"
        return nbformat.writes(nb)

    @property
    def lines(self) -> int:
        return self.py().count("\n")
