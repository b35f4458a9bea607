"""How the numbers are shown: charts, diagrams, colours, labels and downloads (no Streamlit).

* ``charts``: Altair charts as pure functions, data in, chart out;
* ``diagrams``: the lesson's pictures as SVG (windows, table lookups, the broadcasting add);
* ``colors``: the colours of the lesson's three tensors; ``units``: readable numbers, shapes and bytes;
* ``markup``: user text escaped for Markdown; ``export``: tensors as CSV and ``.npy`` files.
"""

from core import lazy_exports

__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "core.views.charts": ("heatmap", "line_chart"),
        "core.views.diagrams": ("MAX_LOOKUP_ROWS", "lookup_svg", "shown_piece"),
        "core.views.colors": ("TENSOR_COLORS",),
        "core.views.units": ("human_bytes", "human_count", "shape_str"),
        "core.views.markup": ("escape_markdown",),
        "core.views.export": ("to_csv", "to_npy"),
    },
)
