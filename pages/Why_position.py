"""Why position? The lesson's opening example, with numbers."""

import dataclasses

import pandas as pd
import streamlit as st

from core.config import ADDITIVE_METHODS
from core.embeddings import same_prefix
from core.order import compare_orders, permutation, shared_tokens
from core.script_export import why_position_code
from core.tokenizer import token_strings
from ui import cache
from ui.components import token_chips
from ui.share import RUNS_AS_IS, script_export
from ui.sidebar import URL_BOUND, settings

MAX_SENTENCE_CHARS = 300

cfg, _ = settings()
st.title("Why position?")
st.markdown(
    "An embedding layer is a lookup table: a token ID gets **the same vector wherever it "
    "stands**. Type two sentences with the same words in another order and compare."
)
col_a, col_b = st.columns(2)
text_a = col_a.text_input(
    "Sentence A", "The cat sat on the mat", key="a", max_chars=MAX_SENTENCE_CHARS, **URL_BOUND
)
text_b = col_b.text_input(
    "Sentence B", "On the mat the cat sat", key="b", max_chars=MAX_SENTENCE_CHARS, **URL_BOUND
)
try:
    cfg.validate()
    if not text_a.strip() or not text_b.strip():
        raise ValueError("Type a sentence in both boxes.")
    ids_a, ids_b = cache.token_ids(text_a), cache.token_ids(text_b)
    largest = max(ids_a + ids_b)
    if largest >= cfg.vocab_size:
        raise ValueError(
            f"Token ID {largest:,} has no row in a table of vocab size "
            f"{cfg.vocab_size:,}: set the vocab size to at least {largest + 1:,}."
        )
except ValueError as exc:
    st.error(str(exc))
    st.stop()

script_export(
    why_position_code(cfg, text_a, text_b),
    "why_position.py",
    f"{RUNS_AS_IS}, and prints the cosines, norms and shuffle comparisons this page shows.",
    excerpt=True,
)
order = permutation(len(ids_a), cfg.seed)
ids_p = [ids_a[k] for k in order]
num_positions = max(len(ids_a), len(ids_b))
if cfg.method == "learned" and num_positions > cfg.context_length:
    st.info(
        f"The sentences need {num_positions} positions and the sidebar's context length is "
        f"{cfg.context_length}, so this page uses `nn.Embedding({num_positions}, "
        f"{cfg.output_dim})`. "
        + (
            f"Its first {cfg.context_length} rows are exactly the pipeline's."
            if same_prefix(cfg.context_length, num_positions, cfg.output_dim)
            else "Its rows differ from the pipeline's in some values: torch draws tables whose size is "
            "not a multiple of 16 slightly differently (it redraws the last 16 values)."
        )
    )
    cfg = dataclasses.replace(cfg, context_length=num_positions)
if cfg.method not in ADDITIVE_METHODS:
    st.info(
        f"**{cfg.method}** adds nothing to the input vectors, so below 'with positions' equals 'without'. "
        "Pick learned or sinusoidal in the sidebar to see an input-level difference, or open "
        "**Families side by side** to see where this method puts position instead."
    )
(tok_a, tok_b), pos = cache.sentence_embeddings((text_a, text_b), cfg, num_positions)
tok_p = tok_a[order]

for label, ids in (("A", ids_a), ("B", ids_b)):
    st.markdown(f"**{label}** — {len(ids)} tokens")
    token_chips(token_strings(ids), ids)

st.subheader("1. The same token, two positions")
shared = shared_tokens(ids_a, ids_b, tok_a, tok_b, pos)
if not shared:
    st.warning("The two sentences share no token. Try words that appear in both.")
else:
    first = shared[0]
    piece = token_strings([first.token_id])[0]
    c1, c2 = st.columns(2)
    c1.metric(
        f"cos({piece!r} in A, {piece!r} in B) — token embeddings only",
        f"{first.cosine_without:.6f}",
        help="The same row of the same table: identical.",
    )
    c2.metric(
        f"… with positions {first.position_a} and {first.position_b} added",
        f"{first.cosine_with:.6f}",
        delta=f"{first.cosine_with - first.cosine_without:+.6f}",
        delta_color="off",
    )
    st.dataframe(
        pd.DataFrame(
            {
                "token": token_strings([s.token_id for s in shared]),
                "ID": [s.token_id for s in shared],
                "position in A": [s.position_a for s in shared],
                "position in B": [s.position_b for s in shared],
                "cosine, no positions": [s.cosine_without for s in shared],
                "cosine, with positions": [s.cosine_with for s in shared],
                "norm, no positions": [s.norm_without for s in shared],
                "norm in A, with positions": [s.norm_with_a for s in shared],
                "norm in B, with positions": [s.norm_with_b for s in shared],
            }
        ).style.format(precision=6),
        hide_index=True,
        width="stretch",
    )
    st.caption(
        "Where a token keeps its position (same index in A and B) it stays identical even "
        "with positions: only a change of place changes the vector."
    )

st.subheader("2. Shuffle the words")
st.markdown("Here A is compared with a shuffle of its own tokens (the seed picks the shuffle):")
token_chips(token_strings(ids_p), ids_p)
rows = []
for name, tok in (("A vs shuffled A", tok_p), ("A vs B", tok_b)):
    c = compare_orders(tok_a, tok, pos)
    rows.append(
        {
            "pair": name,
            "same vectors, no positions": f"{c.shared_without} of {c.num_vectors}",
            "same vectors, with positions": f"{c.shared_with} of {c.num_vectors}",
            "cos of means, no positions": c.mean_cosine_without,
            "cos of means, with positions": c.mean_cosine_with,
            "max |diff| of means, with positions": c.mean_diff_with,
        }
    )
st.dataframe(
    pd.DataFrame(rows)
    .style.format(precision=6)
    .format("{:.1e}", subset=["max |diff| of means, with positions"]),
    hide_index=True,
    width="stretch",
)
st.markdown(
    "- **Without positions** the shuffled sentence hands the model *exactly the same vectors*, "
    "only listed in another order. One attention step without a causal mask treats its input as a "
    "set, so it cannot tell.\n"
    "- **With positions** almost none of the vectors are the same any more (only a token "
    "that kept its place keeps its vector): the order is now in the numbers.\n"
    "- A plain average still cannot see it: mean(tok + pos) = mean(tok) + mean(pos) for any "
    "order (the tiny difference is float rounding). Positions pay off in attention, which "
    "compares vectors pair by pair."
)
st.caption(
    "A and B are not an exact shuffle of each other: GPT-2 gives 'The' and ' the' different "
    "token IDs, so they differ even without positions."
)
