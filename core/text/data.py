"""Sliding-window batches of token IDs, as in the book's ``create_dataloader_v1`` (ch. 2.6)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset

from core.text.tokenizer import ENDOFTEXT, gpt2_tokenizer


class GPTDatasetV1(Dataset):
    """Input/target windows of ``max_length`` tokens; window ``k`` starts at token ``k * stride``."""

    def __init__(self, txt: str, tokenizer, max_length: int, stride: int):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt, allowed_special={ENDOFTEXT})
        # The book's loop: the last window needs one more token for its shifted target.
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i : i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1 : i + max_length + 1]))

    def __len__(self) -> int:
        return len(self.input_ids)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader(
    text: str,
    batch_size: int = 4,
    max_length: int = 256,
    stride: int = 128,
    shuffle: bool = True,
    drop_last: bool = True,
    num_workers: int = 0,
) -> DataLoader:
    """The book's data loader: batches of ``(inputs [B, T], targets [B, T])``, GPT-2 BPE offline."""
    dataset = GPTDatasetV1(text, gpt2_tokenizer(), max_length, stride)
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        drop_last=drop_last,
        num_workers=num_workers,
    )


def num_windows(num_tokens: int, max_length: int, stride: int) -> int:
    """How many windows ``GPTDatasetV1`` makes: ``len(range(0, num_tokens - max_length, stride))``."""
    return len(range(0, num_tokens - max_length, stride))


def tokens_needed(windows: int, max_length: int, stride: int) -> int:
    """Tokens a text needs for ``windows`` windows: the last starts at ``(windows − 1) · stride``
    and spans ``max_length`` tokens plus one more for its shifted target."""
    return (windows - 1) * stride + max_length + 1


def _count(n: int, noun: str, plural: str = "") -> str:
    """``_count(1, "window")`` → ``"1 window"``, ``_count(3, "window")`` → ``"3 windows"``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


@dataclass(frozen=True)
class Batch:
    """The first batch of the loader (no shuffle) and the counts behind it."""

    inputs: torch.Tensor  # [B, T] token IDs
    targets: torch.Tensor  # [B, T] the same windows shifted right by one token
    num_tokens: int  # tokens in the whole text
    num_windows: int  # windows the dataset holds
    num_batches: int  # full batches (drop_last=True)

    @property
    def batch_size(self) -> int:
        """B of this batch: the loader's batch size, or every window when the text makes fewer."""
        return self.inputs.shape[0]


class TextTooShort(ValueError):
    """The text has too few tokens for what was asked (a window, a batch, a training run)."""


def no_window_message(num_tokens: int, max_length: int) -> str:
    """Why a text of ``num_tokens`` tokens makes no window of ``max_length``, and what would make one."""
    n, T = num_tokens, max_length
    if n == 0:
        return "The text has no tokens, so there is nothing to cut into windows. Use a longer text."
    if n == 1:
        return (
            "The text is a single token. A window pairs each input token with the token after it (its "
            "target), so even a window of context length 1 needs 2 tokens: one token makes no window. "
            "Use a longer text."
        )
    return (
        f"The text has {n:,} tokens, but one window of context length {T:,} needs {T + 1:,} (its target "
        f"is shifted by one). Use a longer text or a context length of at most {n - 1:,}."
    )


def batch_sentence(batch: Batch, batch_size: int, max_length: int, stride: int) -> str:
    """What the text's windows make at these settings, and which batch is shown.

    Args:
        batch: the loader's first batch (partial when the text makes fewer than ``batch_size`` windows).
        batch_size: the B asked for; max_length: T; stride: window step.
    """
    W, T, s, B = batch.num_windows, max_length, stride, batch_size
    windows = f"{_count(W, 'window')} of {_count(T, 'token')} (stride {s:,})"
    if batch.batch_size == B:
        full = _count(batch.num_batches, "full batch", "full batches")
        return f"{windows} → {full} of {B:,}. This is the first batch (no shuffle)."
    return (
        f"{windows} → no full batch of {B:,}: that needs {tokens_needed(B, T, s):,} tokens and the text "
        f"has {batch.num_tokens:,}. The book's loader (drop_last=True) would give no batch at all; this is "
        f"its one partial batch (drop_last=False), which holds every window: B = {batch.batch_size:,}."
    )


def partial_batch_note(batch: Batch, batch_size: int, max_length: int) -> str | None:
    """For a text of fewer windows than ``batch_size``: the B the page shows instead (else None)."""
    if batch.batch_size == batch_size:
        return None
    return (
        f"Your text makes {_count(batch.num_windows, 'window')} of {_count(max_length, 'token')}: "
        f"B = {batch.batch_size:,} here (Batch B asks for {batch_size:,}). Every shape below is this batch's."
    )


def first_batch(
    token_ids: list[int], batch_size: int, max_length: int, stride: int, drop_last: bool = True
) -> Batch:
    """The loader's first batch, without building every window.

    Equal to ``next(iter(create_dataloader(text, batch_size, max_length, stride, shuffle=False,
    drop_last=drop_last)))``. Raises ``ValueError`` with what to change where the book's code raises
    ``StopIteration`` (``TextTooShort`` when the text has too few tokens).

    Args:
        token_ids: the text's token IDs, length N.
        batch_size: B; max_length: T (the context length); stride: window step.
        drop_last: as the loader's: with False, a text of fewer than B windows gives one batch of them all.
    Returns:
        ``Batch`` with ``inputs`` and ``targets`` of shape [B, T] (B = the windows, if fewer).
    """
    if max_length < 1:
        raise ValueError(f"Context length must be at least 1 token (it is {max_length}).")
    if stride < 1:
        raise ValueError(
            f"Stride must be at least 1 (it is {stride}): each window starts `stride` tokens "
            "after the previous one, so a stride of 0 would repeat the same window forever."
        )
    if batch_size < 1:
        raise ValueError(f"Batch size must be at least 1 (it is {batch_size}).")
    n = len(token_ids)
    windows = num_windows(n, max_length, stride)
    if windows == 0:
        raise TextTooShort(no_window_message(n, max_length))
    if windows < batch_size and drop_last:
        raise TextTooShort(
            f"The text has {n} tokens, which make {_count(windows, 'window')} of {max_length} tokens "
            f"at stride {stride}; one full batch needs {batch_size}. Lower the batch size to "
            f"{windows} or less, lower the stride or the context length, or use a longer text."
        )
    rows = min(batch_size, windows)  # B, or every window of a text too short for a full batch
    # Window k covers tokens [k*stride, k*stride + T]; gather the first B of them at once.
    span = tokens_needed(rows, max_length, stride)
    ids = torch.tensor(token_ids[:span], dtype=torch.long)  # [span]
    starts = torch.arange(rows) * stride  # [B]
    index = starts[:, None] + torch.arange(max_length + 1)  # [B, T+1]
    windows_ids = ids[index]  # [B, T+1]
    return Batch(
        inputs=windows_ids[:, :-1],
        targets=windows_ids[:, 1:],
        num_tokens=n,
        num_windows=windows,
        num_batches=windows // batch_size,
    )
