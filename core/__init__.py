"""Positional Embeddings Explorer: pure Python + torch core (no Streamlit).

Everything here is usable from a notebook::

    from core.text.tokenizer import gpt2_tokenizer
    from core.text.data import create_dataloader
"""
