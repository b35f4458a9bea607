"""Attention: where relative positions act (the Attention page and its script).

One head's pre-softmax scores on a sentence, split into the content part ``q·kᵀ/√dh`` of the token
embeddings and the part position changes, then the causal mask and the softmax weights. What each
family changes comes from its record in ``core.positional.FAMILIES``: ``input_rows`` (added to the
input), ``rotate`` (RoPE), ``attention_bias`` (ALiBi) and ``score_bias`` (T5, Shaw).

* ``heads``: a head's query and key projections, seeded random or a trained tiny GPT's;
* ``maps``: ``AttentionMap`` and ``attention_map`` (one family), ``family_maps`` (all of them);
* ``compare``: the moved token's attention row in two sentences, and what changed, in words;
* ``display``: what a heatmap shows (downsampled past ``MAX_SHOWN`` tokens) and its long-form data;
* ``charts``: the heatmaps (Altair, no Streamlit).
"""
