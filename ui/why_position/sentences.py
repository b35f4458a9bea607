"""Why position?'s own pieces, shared with Attention: the two sentences and how to read them (URL keys a,
b, space), the token followed in them (token_a or token_b), and the shared-token table."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.config import PipelineConfig
from core.embeddings import same_prefix
from core.order import OrderComparison, SharedToken
from core.positional.family import Family
from core.text.tokenizer import token_strings
from core.views.units import plural
from ui.state.url_keys import register_shown_keys, register_url_keys, url_bound
from ui.state.url_params import MAX_SENTENCE_CHARS
from ui.tables import MARK, token_text
from ui.tables import table as draw_table
from ui.todays_models.on_sentence import todays_models_note
from ui.token_chips import Pick, token_chips

register_url_keys("a", "b", "space")
TOKEN_A, TOKEN_B = register_shown_keys("token_a", "token_b")  # the followed token's place in A, or in B
_picks = {TOKEN_A: Pick(TOKEN_A, "", (TOKEN_B,)), TOKEN_B: Pick(TOKEN_B, "", (TOKEN_A,))}  # one at a time


SENTENCE_A, SENTENCE_B = "The cat sat on the mat", "On the mat the cat sat"  # the lecture's pair


def sentence_inputs() -> tuple[str, str, bool]:
    """Sentence A, sentence B (each at most ``MAX_SENTENCE_CHARS``) and whether they stand mid-sentence."""
    col_a, col_b = st.columns(2)
    typed_a = col_a.text_input("Sentence A", SENTENCE_A, max_chars=MAX_SENTENCE_CHARS, **url_bound("a"))
    typed_b = col_b.text_input("Sentence B", SENTENCE_B, max_chars=MAX_SENTENCE_CHARS, **url_bound("b"))
    mid = st.toggle(
        "Read each sentence as if it stood mid-sentence (a space before its first word)",
        value=True,
        **url_bound("space"),
        help="GPT-2 keeps a word's leading space in its token: 'dog' at the start of a text and ' dog' "
        "inside one are different token IDs, so a word that moves to or from the start would not be "
        "compared.",
    )
    return typed_a, typed_b, mid


@dataclass(frozen=True)
class Followed:
    """The token followed on Why position? and Attention: its ID, its piece, the sentence whose chip was
    picked ("A" or "B"), and its place in A and in B (the one picked; in the other sentence its first place
    there, None when it is not there)."""

    token_id: int
    piece: str
    sentence: str
    a: int | None
    b: int | None

    @property
    def place(self) -> int:
        """Its position in the sentence it was picked in: the query the page follows."""
        return self.a if self.sentence == "A" else self.b

    @property
    def other(self) -> str:
        """The sentence it was not picked in."""
        return "B" if self.sentence == "A" else "A"

    @property
    def counterpart(self) -> int | None:
        """Its first position in the other sentence (None: the other sentence does not have it)."""
        return self.b if self.sentence == "A" else self.a


def _first(ids: list[int], token_id: int) -> int | None:
    return ids.index(token_id) if token_id in ids else None


def followed_token(ids_a: list[int], ids_b: list[int], vocab_size: int) -> Followed | None:
    """The token the URL follows (``token_a``: its place in A, else ``token_b``: in B), or None; a place
    past its sentence is explained and dropped."""
    for key, letter, ids in ((TOKEN_A, "A", ids_a), (TOKEN_B, "B", ids_b)):
        text = st.query_params.get(key)
        if text is None:
            continue
        place = int(text)  # already a whole number: check_url
        if not 0 <= place < len(ids):
            del st.query_params[key]
            st.session_state.pop(_picks[key].key, None)
            has = plural(len(ids), "token")
            st.warning(
                f"The link follows token {place:,} of sentence {letter}, which has {has}: none is followed."
            )
            return None
        token_id = ids[place]
        a, b = (place, _first(ids_b, token_id)) if key == TOKEN_A else (_first(ids_a, token_id), place)
        return Followed(token_id, token_strings([token_id], vocab_size)[0], letter, a, b)
    return None


def longer_table_note(family: Family, needed: int, cfg: PipelineConfig) -> str:
    """For a table with no row past its length (a learned one) and sentences longer than the sidebar's
    context: the longer table the page builds, and which rows a model trained at that context lacks ("" when
    none is needed)."""
    T, d = cfg.context_length, cfg.output_dim
    if not family.fixed_length or needed <= T:
        return ""
    same = (
        f"Its first {T} rows are exactly the pipeline's."
        if same_prefix(T, needed, d)
        else "Its rows differ from the pipeline's in some values: torch draws tables whose size is not a "
        "multiple of 16 slightly differently (it redraws the last 16 values)."
    )
    return (
        f"A learned table has one row per position and no row past its length, and the sidebar's context "
        f"length is {T}. These sentences need {needed} positions, so this page builds a longer table just "
        f"for them, `nn.Embedding({needed}, {d})`; a model trained at context {T} would have no rows for "
        f"positions {T} to {needed - 1}, so a token standing there (below) uses a row such a model never "
        f"had. {same}"
    )


def token_pickers(ids_a: list[int], ids_b: list[int], vocab_size: int, what: str) -> None:
    """A and B's tokens as chips to pick one from: ``what`` says what a pick shows (a second click on the
    chip stops following it; a pick in one sentence drops the other's)."""
    st.markdown(f"**Follow one token:** pick its chip in A or in B to {what} (pick it again to stop).")
    for letter, key, ids in (("A", TOKEN_A, ids_a), ("B", TOKEN_B, ids_b)):
        pick = Pick(key, f"Sentence {letter} — {plural(len(ids), 'token')}", _picks[key].drops)
        token_chips(ids, vocab_size, pick=pick)


def followed_places(followed: Followed) -> str:
    """Where the followed token stands, for a caption: its position in the sentence it was picked in, then
    in the other one, or that it is not there."""
    piece = token_text(followed.piece)
    there = followed.counterpart
    other = f"and {there:,} in {followed.other}" if there is not None else f"it is not in {followed.other}"
    return f"{piece} at position {followed.place:,} in {followed.sentence} ({other})"


def in_a_note(followed: Followed) -> str:
    """For a token followed from B, where it stands in a section that draws sentence A only ("" for one
    followed from A: the section outlines it)."""
    if followed.sentence == "A":
        return ""
    piece, b = token_text(followed.piece), followed.b
    if followed.a is None:
        return (
            f"The token you follow, {piece} (position {b} of B), is not in A, which this section draws: "
            "no row is outlined."
        )
    return (
        f"Outlined: {piece} at position {followed.a} of A, where the token you follow (position {b} of B) "
        "also stands; this section draws sentence A only."
    )


def shared_table(shared: list[SharedToken], vocab_size: int, followed: Followed | None = None) -> None:
    """One row per token the sentences share: its positions, cosines and norms without and with positions
    (the followed token's row starts with ▶ and is bold on yellow)."""
    marked = {k for k, s in enumerate(shared) if followed is not None and s.token_id == followed.token_id}
    pieces = token_strings([s.token_id for s in shared], vocab_size)
    table = pd.DataFrame(
        {
            "token": [MARK * (k in marked) + token_text(p) for k, p in enumerate(pieces)],
            "ID": [s.token_id for s in shared],
            "position in A": [s.position_a for s in shared],
            "position in B": [s.position_b for s in shared],
            "cosine, no positions": [s.cosine_without for s in shared],
            "cosine, with positions": [s.cosine_with for s in shared],
            "norm, no positions": [s.norm_without for s in shared],
            "norm in A, with positions": [s.norm_with_a for s in shared],
            "norm in B, with positions": [s.norm_with_b for s in shared],
        }
    )
    numbers = [c for c in table.columns if c.startswith(("cosine", "norm"))]
    draw_table(table, dict.fromkeys(numbers, "{:.6f}"), hide_index=True, marked=marked)


def comparison_table(comparisons: dict[str, OrderComparison]) -> None:
    """One row per pair of orders (its name: its comparison): vectors kept, cosines and gaps of the averages
    (the mean of the sentence's vectors)."""
    rows = [
        {
            "pair": name,
            "same vectors, no positions": f"{c.shared_without} of {c.num_vectors}",
            "same vectors, with positions": f"{c.shared_with} of {c.num_vectors}",
            "cosine of the averages, no positions": c.mean_cosine_without,
            "cosine of the averages, with positions": c.mean_cosine_with,
            "largest difference of the averages, with positions": c.mean_diff_with,
        }
        for name, c in comparisons.items()
    ]
    names = ("cosine of the averages, no positions", "cosine of the averages, with positions")
    formats = dict.fromkeys(names, "{:.6f}") | {"largest difference of the averages, with positions": _gap}
    draw_table(pd.DataFrame(rows), formats, hide_index=True)


def _gap(value: float) -> str:
    """A difference as a student reads it: 0, a decimal, or a word for the computer's last-digit rounding
    (never "1.1e+00")."""
    if value == 0:
        return "0"
    return f"{value:.4f}" if value >= 1e-4 else "below 0.0001 (rounding)"


def where_next(family: Family, method: str, tokens: int, known: tuple[str, ...] = ()) -> None:
    """For a method that acts inside attention: the link to see it pair by pair, and what today's models
    do with it on a sentence of ``tokens`` tokens (``known``: glossary words the page defined above)."""
    label = f"{family.label} on these two sentences, pair by pair: Attention"
    st.page_link("pages/Attention.py", label=label, icon=":material/grid_on:")
    todays_models_note(method, tokens, known)
