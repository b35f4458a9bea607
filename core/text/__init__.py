"""The pipeline's first steps: text → token IDs → batches of windows.

* ``tokenizer``: GPT-2's byte-pair encoding, built offline, and cut to a smaller vocabulary;
* ``vocab``: the vocabulary-size trade-off (shorter sequences against a bigger token table);
* ``data``: sliding-window batches of token IDs, as in the book's ``create_dataloader_v1``;
* ``samples``: the texts the app ships; ``textfile``: reading an uploaded text file;
* ``book``: the book's text (``the-verdict.txt``), recognised by its fingerprint, never shipped.
"""
