"""The training command line: ``python -m core.training --method rope --context 32 --steps 300`` trains
the tiny GPT on a text and prints its metrics as JSON (``--help`` lists the settings)."""

from core.training.training import main

main()
