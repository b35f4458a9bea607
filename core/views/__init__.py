"""How the numbers are shown: charts, diagrams, colours, labels and downloads (no Streamlit).

* ``charts``: Altair charts as pure functions, data in, chart out;
* ``diagrams``: the lesson's pictures as SVG (windows, table lookups, the broadcasting add);
* ``colors``: the colours of the lesson's three tensors; ``units``: readable numbers, shapes and bytes;
* ``markup``: user text escaped for Markdown; ``export``: tensors as CSV and ``.npy`` files.
"""
