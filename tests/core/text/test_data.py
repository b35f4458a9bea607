import pytest
import torch
from torch.utils.data import DataLoader, Dataset

from core.text.data import (
    TextTooShort,
    batch_sentence,
    create_dataloader,
    first_batch,
    no_window_message,
    num_windows,
    partial_batch_note,
    tokens_needed,
)
from core.text.tokenizer import encode, gpt2_tokenizer


# The book's code (ch. 2.6, GPTDatasetV1 and create_dataloader_v1), as the lesson's notebook has it;
# only tiktoken.get_encoding("gpt2"), which downloads, is the offline encoding (tested to equal it).
class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []

        # Tokenize the entire text
        token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})

        # Use a sliding window to chunk the book into overlapping sequences of max_length
        for i in range(0, len(token_ids) - max_length, stride):
            input_chunk = token_ids[i : i + max_length]
            target_chunk = token_ids[i + 1 : i + max_length + 1]
            self.input_ids.append(torch.tensor(input_chunk))
            self.target_ids.append(torch.tensor(target_chunk))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader_v1(
    txt, batch_size=4, max_length=256, stride=128, shuffle=True, drop_last=True, num_workers=0
):
    tokenizer = gpt2_tokenizer()  # the book: tiktoken.get_encoding("gpt2")
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    dataloader = DataLoader(
        dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last, num_workers=num_workers
    )
    return dataloader


# The book prints this first batch (ch. 2.8) for batch 8, max_length 4, stride 4, no shuffle.
BOOK_FIRST_BATCH = torch.tensor(
    [
        [40, 367, 2885, 1464],
        [1807, 3619, 402, 271],
        [10899, 2138, 257, 7026],
        [15632, 438, 2016, 257],
        [922, 5891, 1576, 438],
        [568, 340, 373, 645],
        [1049, 5975, 284, 502],
        [284, 3285, 326, 11],
    ]
)


def test_book_first_batch(verdict_text):
    loader = create_dataloader(verdict_text, batch_size=8, max_length=4, stride=4, shuffle=False)
    inputs, targets = next(iter(loader))
    assert torch.equal(inputs, BOOK_FIRST_BATCH)
    assert torch.equal(targets[:, :-1], inputs[:, 1:])
    # stride == max_length: each window's last target is the next window's first input
    assert torch.equal(targets[:-1, -1], inputs[1:, 0])
    assert int(targets[-1, -1]) == encode(verdict_text)[32]


@pytest.mark.parametrize("batch_size, max_length, stride", [(8, 4, 4), (3, 16, 5), (1, 256, 128), (5, 7, 1)])
def test_first_batch_equals_the_book_loader(verdict_text, batch_size, max_length, stride):
    loader = create_dataloader_v1(
        verdict_text, batch_size=batch_size, max_length=max_length, stride=stride, shuffle=False
    )
    inputs, targets = next(iter(loader))
    batch = first_batch(encode(verdict_text), batch_size, max_length, stride)
    assert torch.equal(batch.inputs, inputs)
    assert torch.equal(batch.targets, targets)
    assert batch.num_windows == len(loader.dataset)
    assert batch.num_batches == len(loader)
    ours = next(iter(create_dataloader(verdict_text, batch_size, max_length, stride, shuffle=False)))
    assert torch.equal(ours[0], inputs) and torch.equal(ours[1], targets)  # core.text.data's copy of it


def test_book_counts(verdict_text):
    batch = first_batch(encode(verdict_text), 8, 4, 4)
    assert batch.num_tokens == 5145
    assert batch.num_windows == 1286
    assert batch.num_batches == 160


def test_windows_advance_by_stride():
    ids = list(range(100, 130))
    batch = first_batch(ids, batch_size=3, max_length=4, stride=2)
    assert batch.inputs.tolist() == [[100, 101, 102, 103], [102, 103, 104, 105], [104, 105, 106, 107]]
    assert batch.targets.tolist()[0] == [101, 102, 103, 104]


def test_num_windows_matches_the_books_range():
    assert num_windows(5, 4, 1) == 1  # tokens 0-3 with target 1-4
    assert num_windows(4, 4, 1) == 0  # no token left for the last target
    assert num_windows(5145, 4, 4) == 1286


@pytest.mark.parametrize(
    "ids, args, message",
    [
        (list(range(4)), (1, 4, 4), "one window of context length 4 needs 5"),
        (list(range(20)), (8, 4, 4), "make 4 windows of 4 tokens.*Lower the batch size to 4"),
        (list(range(5)), (8, 4, 4), "make 1 window of 4 tokens.*Lower the batch size to 1"),
        (list(range(20)), (1, 4, 0), "Stride must be at least 1"),
        (list(range(20)), (1, 0, 1), "Context length must be at least 1"),
        (list(range(20)), (0, 4, 1), "Batch size must be at least 1"),
    ],
)
def test_bad_settings_explain_what_to_change(ids, args, message):
    with pytest.raises(ValueError, match=message) as raised:
        first_batch(ids, *args)
    # a page offers a longer text exactly when the text is too short, not for a bad setting
    assert isinstance(raised.value, TextTooShort) == ("window" in message)


def test_book_code_raises_where_we_explain():
    loader = create_dataloader("only a few tokens here", batch_size=8, max_length=4, stride=4, shuffle=False)
    with pytest.raises(StopIteration):
        next(iter(loader))


DOG = "The dog bites the man."  # 6 tokens: one window of 4 (tokens 0-3, targets 1-4)


def test_a_short_text_gives_the_loaders_partial_batch():
    ids = encode(DOG)
    assert len(ids) == 6
    with pytest.raises(TextTooShort, match="make 1 window of 4 tokens"):
        first_batch(ids, 8, 4, 4)  # the book's drop_last=True: no batch at all
    batch = first_batch(ids, 8, 4, 4, drop_last=False)
    assert batch.batch_size == 1 and batch.num_windows == 1 and batch.num_batches == 0
    assert batch.inputs.tolist() == [ids[:4]] and batch.targets.tolist() == [ids[1:5]]


@pytest.mark.parametrize(
    "text, batch_size, max_length, stride",
    [(DOG, 8, 4, 4), (DOG, 8, 2, 1), (DOG, 3, 5, 9), ("one two three four five six seven", 100, 3, 2)],
)
def test_a_partial_batch_equals_the_book_loader_without_drop_last(text, batch_size, max_length, stride):
    loader = create_dataloader_v1(text, batch_size, max_length, stride, shuffle=False, drop_last=False)
    inputs, targets = next(iter(loader))
    batch = first_batch(encode(text), batch_size, max_length, stride, drop_last=False)
    assert batch.batch_size == len(loader.dataset) == inputs.shape[0] < batch_size
    assert torch.equal(batch.inputs, inputs) and torch.equal(batch.targets, targets)


def test_a_full_batch_is_the_same_with_or_without_drop_last(verdict_text):
    ids = encode(verdict_text)
    kept, dropped = first_batch(ids, 8, 4, 4, drop_last=False), first_batch(ids, 8, 4, 4)
    assert torch.equal(kept.inputs, dropped.inputs) and kept.batch_size == 8


@pytest.mark.parametrize("max_length, stride", [(4, 4), (4, 1), (1, 3), (6, 2)])
def test_tokens_needed_is_where_one_more_window_begins(max_length, stride):
    for k in range(1, 6):
        need = tokens_needed(k, max_length, stride)
        assert num_windows(need, max_length, stride) == k
        assert num_windows(need - 1, max_length, stride) == k - 1


@pytest.mark.parametrize(
    "ids, message",
    [
        ([], "The text has no tokens"),
        ([464], "The text is a single token.*needs 2 tokens: one token makes no window"),
        ([464, 3290], "has 2 tokens, but one window of context length 4 needs 5.*at most 1\\."),
    ],
)
def test_no_window_says_why_even_without_drop_last(ids, message):
    with pytest.raises(TextTooShort, match=message):
        first_batch(ids, 8, 4, 4, drop_last=False)  # the loader has nothing to give either way
    assert "at most" not in no_window_message(1, 4)  # no context length fits a single token


def test_the_sentences_are_made_from_the_batch():
    short = first_batch(encode(DOG), 8, 4, 4, drop_last=False)
    assert partial_batch_note(short, 8, 4) == (
        "Your text makes 1 window of 4 tokens: B = 1 here (Batch B asks for 8). "
        "Every shape below is this batch's."
    )
    said = batch_sentence(short, 8, 4, 4)
    assert said.startswith("1 window of 4 tokens (stride 4) → no full batch of 8: that needs 33 tokens")
    assert "the text has 6" in said and "B = 1." in said
    longer = first_batch(encode(DOG), 8, 2, 1, drop_last=False)  # windows at 0, 1, 2, 3
    assert partial_batch_note(longer, 8, 2).startswith("Your text makes 4 windows of 2 tokens: B = 4 here")
    assert "needs 10 tokens" in batch_sentence(longer, 8, 2, 1)
    full = first_batch(encode(DOG), 1, 4, 4, drop_last=False)
    assert partial_batch_note(full, 1, 4) is None
    assert batch_sentence(full, 1, 4, 4) == (
        "1 window of 4 tokens (stride 4) → 1 full batch of 1. This is the first batch (no shuffle)."
    )
