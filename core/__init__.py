"""Positional Embeddings Explorer: pure Python + torch core (no Streamlit), grouped by the pipeline's steps.

* ``text``: text → token IDs → batches; ``positional``: the positional-encoding families;
* ``attention``: where relative positions act; ``training``: a tiny GPT learns its positions;
* ``views``: charts, diagrams and labels; ``serving``: one small server's memory for a whole class;
* ``scripts``: each view as a script a student can run; the modules at the top (``config``,
  ``pipeline``, ``embeddings``, ``order``, ``similarity``, ``families``, ``presets``, ``prediction``)
  are the lesson's settings and the steps that join the packages.

Layers, lowest first: a module imports from its own layer or a lower one, never back up, and no two
packages import each other (``tests/test_code_layout.py`` reads this list and checks every import):

1. ``serving``: the server's budgets and cost models, plain numbers every step is held to;
2. ``text``: the first step, its texts bounded by the server's budget;
3. ``views``: units, colours, glossary, charts and diagrams, which every later step labels itself with;
4. ``similarity``, ``embeddings``: cosine similarity, and the rows of a seeded token table;
5. ``positional``: the families, each coloured and described with ``views``;
6. ``config``, ``pipeline``, ``presets``: the sidebar's settings (a text's and a family's) and the steps
   they make;
7. ``training``: the tiny GPT and its runs;
8. ``attention``: one head's scores, random or a trained model's, over the pipeline's tokens;
9. ``families``, ``order``, ``prediction``: the pages' comparisons and a student's guess;
10. ``scripts``: each page's code as a student types it, which shows the code of the layers below.

Everything here is usable from a notebook::

    from core.text.data import create_dataloader
    from core.text.tokenizer import gpt2_tokenizer
"""
