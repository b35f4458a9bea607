"""Sample texts the app ships (written for this project; no external corpus needed)."""

from __future__ import annotations

CAT = """The cat sat on the mat. On the mat the cat sat. The same words, the same tokens, \
yet a reader hears two different sentences, because order carries meaning.

A dog bites a man, and nobody writes about it. A man bites a dog, and it is in every paper. \
The words are the same; only their places have changed.

An embedding layer is a lookup table. It hands the word "cat" the same vector wherever the \
word stands: first, fourth, or last. Attention on its own, without a mask, treats its inputs as a \
set. So before a \
language model can tell "the cat chased the mouse" from "the mouse chased the cat", something \
must tell it where each token stands. That something is the positional embedding: one more \
vector per position, added to each token's vector, so that the cat at position one and the cat \
at position five are no longer the same point in space.
"""

LESSON = """Large language models read text as numbers. First a tokenizer cuts the text into \
pieces and gives every piece an integer ID from its vocabulary; GPT-2's byte-pair encoding knows \
50,257 of them. Then a data loader slides a window over the IDs: each window holds context_length \
tokens, the next window starts stride tokens later, and the targets are the same window moved one \
token to the right, because the model learns to predict the next token.

Next comes the token embedding layer, a table with one row per vocabulary entry and output_dim \
columns. Looking up a batch of IDs of shape batch_size by context_length gives a tensor of shape \
batch_size by context_length by output_dim. The positional embedding layer is a second, much \
smaller table with one row per position. Looking up positions 0, 1, 2 and so on gives a matrix of \
shape context_length by output_dim.

The two are added. Python broadcasting repeats the positional matrix over every sequence in the \
batch, so the first position of every sequence receives the same vector, the second position the \
next one, and so on. The sum, the input embeddings, is what the transformer blocks of the model \
see and what it trains on. At first both tables are random; training moves their values until \
they are useful.
"""


def ships_log(days: int = 240) -> str:
    """A long, varied text made from a few word lists: a ship's log of ``days`` entries.

    ~9,100 tokens at 240 days: enough for one batch of 8 at LLaMA-3's context of 8192 (stride 4).
    Every GPT-2 token ID in it is below 32,000, so every preset's vocabulary (LLaMA-2: 32,000) has
    a row for each: the log runs under every preset.
    """
    winds = [
        "calm",
        "a light breeze from the west",
        "a gale from the north",
        "bitter and cold",
        "warm from the south",
        "still until noon",
    ]
    seas = [
        "smooth as glass",
        "choppy",
        "heavy, with long grey swells",
        "green and bright",
        "rough near the reef",
        "quiet under fog",
    ]
    deeds = [
        "mended the sail",
        "counted the barrels of water",
        "sang while they worked",
        "caught six silver fish",
        "scrubbed the deck twice",
        "watched for the coast",
        "argued about the stars",
        "repaired the ship's wheel",
    ]
    sights = [
        "a pod of whales",
        "a floating log",
        "gulls far from land",
        "a distant light",
        "nothing but water",
        "a storm on the horizon",
        "an island with two hills",
    ]
    lines = []
    for n in range(1, days + 1):
        week, day = divmod(n - 1, 7)
        lines.append(
            f"Week {week + 1}, day {day + 1}: the wind was {winds[n % len(winds)]}, the sea was "
            f"{seas[(n * 5) % len(seas)]}, and the crew {deeds[(n * 3) % len(deeds)]}. "
            f"We saw {sights[(n * 7) % len(sights)]}."
        )
    return "\n".join(lines) + "\n"


SAMPLES: dict[str, str] = {
    "cat": CAT,
    "lesson": LESSON,
    "log": ships_log(),
}

SAMPLE_TITLES: dict[str, str] = {
    "cat": "The cat sat on the mat (short)",
    "lesson": "How a model reads (a lesson summary)",
    "log": "A ship's log (long: ~9,100 tokens)",
}
