"""The Pipeline page as a script: text → token IDs → batch → token + positional embeddings → input."""

from __future__ import annotations

from core.config import PipelineConfig
from core.embeddings import EXACT_MAX_ELEMENTS
from core.pipeline import TABLE_DIMS, TABLE_POSITIONS
from core.positional.family import FAMILIES
from core.scripts import Cell, Script
from core.scripts.common import (
    APP_IMPORTS,
    INPUT_ROWS,
    app_record,
    big_table_lines,
    book_tokenizer,
    code,
    import_block,
    reads,
    text_files,
    text_lines,
)
from core.text.data import num_windows
from core.text.tokenizer import encode

DATASET = """class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i : i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1 : i + max_length + 1]))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader_v1(txt, batch_size=4, max_length=256, stride=128, shuffle=True, drop_last=True):
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)


{partial}dataloader = create_dataloader_v1(
    raw_text, batch_size=batch_size, max_length=max_length, stride=stride, shuffle=False{drop_last}
)
inputs, targets = next(iter(dataloader))
print("inputs:", inputs.shape)  # [B, T] token IDs; targets are the same windows shifted by one"""


def pipeline_script(cfg: PipelineConfig, text: str, num_tokens: int | None = None) -> Script:
    """The script that prints what the Pipeline page shows for ``cfg`` and ``text``.

    ``num_tokens``: the text's token count at ``cfg.vocab_size`` when the caller has it (else counted).
    A text of fewer windows than ``cfg.batch_size`` keeps its one partial batch, as the page does.
    """
    V, d = cfg.vocab_size, cfg.output_dim
    n = len(encode(text, V)) if num_tokens is None else num_tokens
    files = text_files(text)
    tokenizer, tokenizer_imports = book_tokenizer(V)  # the book's get_encoding("gpt2"): common.BOOK_TOKENIZER
    family = FAMILIES[cfg.method]
    app = APP_IMPORTS if family.additive and not family.code.pipeline_rows else ()
    imports = import_block(
        "import json",
        *tokenizer_imports,
        "import torch",
        "from torch.utils.data import DataLoader, Dataset",
        *app,
    )
    settings = f"""{imports}

vocab_size = {V}  # V
output_dim = {d}  # d
context_length = {cfg.context_length}  # T
max_length = context_length
batch_size = {cfg.batch_size}  # B
stride = {cfg.stride}
seed = {cfg.seed}
method = {cfg.method!r}"""
    cells = [
        Cell("Settings (the sidebar's)", settings),
        Cell("GPT-2's tokenizer (the book's)", tokenizer),
        Cell("Text → token IDs", f'{text_lines(text)}\nprint("tokens:", len(tokenizer.encode(raw_text)))'),
        Cell("Token IDs → sliding-window batches (the book's data loader)", _dataset_cell(cfg, n)),
        Cell("Token embeddings: a lookup table of V × d", _token_cell(V, d)),
        Cell("Positional embeddings: a table of T × d", _position_cell(cfg)),
        Cell("Input embeddings = token + position (broadcast over the batch)", _input_cell()),
    ]
    about = (
        "Exported from Positional Embeddings Explorer. It prints every tensor's shape and, last, one JSON "
        f"line with the corner of input_embeddings the page shows. {reads(files, book_tokenizer=True)}"
    )
    return Script("pipeline", "Text → token IDs → batch → token + positional embeddings", about, cells, files)


def _dataset_cell(cfg: PipelineConfig, num_tokens: int) -> str:
    windows = num_windows(num_tokens, cfg.context_length, cfg.stride)
    if windows >= cfg.batch_size:
        return DATASET.replace("{partial}", "").replace("{drop_last}", "")
    # New: a text of fewer windows than B keeps its one partial batch, as the page shows it.
    partial = (
        f"# The text makes only {windows} window{'s' * (windows != 1)} (< batch_size): the book's "
        f"drop_last=True\n# would give no batch at all, so keep the partial one: B = {windows}.\n"
    )
    return DATASET.replace("{partial}", partial).replace("{drop_last}", ", drop_last=False")


def _token_cell(V: int, d: int) -> str:
    lookup = """torch.manual_seed(seed)
token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
token_embeddings = token_embedding_layer(inputs)  # [B, T] -> [B, T, d]
print("token_embeddings:", token_embeddings.shape)"""
    return big_table_lines(V, d) + lookup


def _position_cell(cfg: PipelineConfig) -> str:
    family = FAMILIES[cfg.method]
    if not family.additive:
        where = family.where or "Position enters nowhere"
        return (
            f"# {family.label}: nothing is added at the input.\n# {where}.\n"
            "pos_embeddings = torch.zeros(context_length, output_dim)  # [T, d]: adding it changes nothing"
        )
    drawn = "# drawn from the same generator, right after the token table\n" if family.seeded else ""
    rows = family.code.pipeline_rows or _app_rows(family, cfg)
    return code((*family.code.functions, drawn + rows))


def _app_rows(family, cfg: PipelineConfig) -> str:
    """The lines that draw ``family``'s table through the app, for an additive family with no lines of its
    own (the lesson's settings, as the page; a seeded table right after the token table)."""
    exact = cfg.vocab_size * cfg.output_dim <= EXACT_MAX_ELEMENTS
    state = "torch.get_rng_state()" if family.seeded and exact else "None"
    rows = INPUT_ROWS.format(positions="context_length", length="context_length", state=state)
    return app_record(family, ()) + "\n" + rows


def _input_cell() -> str:
    return f"""print("pos_embeddings:", pos_embeddings.shape)
input_embeddings = token_embeddings + pos_embeddings  # [B, T, d] + [T, d] -> [B, T, d]
print("input_embeddings:", input_embeddings.shape)

corner = input_embeddings[:2, :{TABLE_POSITIONS}, :{TABLE_DIMS}]  # the values the page prints
token_ids = inputs[:2, :{TABLE_POSITIONS}]  # their token IDs
shown = {{"shape": list(input_embeddings.shape), "token_ids": token_ids.tolist(), "corner": corner.tolist()}}
print(json.dumps(shown))"""
