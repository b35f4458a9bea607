"""A page's tables (ui.tables.table): what each holds and shows, and which rows or cells are marked."""

from streamlit.testing.v1 import AppTest


def tables_app():
    import math

    import pandas as pd

    from ui.tables import table

    floats = pd.DataFrame({"x": [0.123456789, -1.5]}, index=["first", "second"])
    table(floats, "{:.4f}", marked={1})  # the browser's own format: a plain frame, its 2nd row marked
    table(floats, "{:.6f}")  # a format of its own: a pandas Styler
    table(pd.DataFrame({"x": [1.0, math.nan]}), "{:.4f}")  # a missing value, which the browser shows empty
    table(pd.DataFrame({"x": [1234.5]}), "{:.4f}")  # the browser would write 1,234.5000: a Styler
    words = pd.DataFrame({"token": [" cat", " sat"], "n": [1, 2]})
    table(words, {"token": repr}, hide_index=True, marked={0})  # text formatted in the frame
    table(pd.DataFrame({"t=0": [10, 11], "t=1": [12, 13]}), marked_cells={(1, 0)})


def test_tables_hold_what_they_show_and_mark_rows_and_cells_with_the_mark():
    at = AppTest.from_function(tables_app).run()
    assert not at.exception
    plain, own_format, missing, thousands, words, cells = at.table
    assert list(plain.value.index) == ["first", "▶ second"]  # marked by ▶ as well as by colour
    assert plain.value["x"].tolist() == [0.123456789, -1.5]  # the full float, shown to 4 decimals
    assert not plain.proto.arrow_data.styler.uuid  # no Styler: the browser formats it
    assert own_format.proto.arrow_data.styler.uuid and thousands.proto.arrow_data.styler.uuid
    assert not missing.proto.arrow_data.styler.uuid
    assert words.value["token"].tolist() == ["▶ ' cat'", "' sat'"]  # hidden index: the first cell marked
    assert cells.value.iat[1, 0] == "▶ 11" and cells.value.iat[0, 0] == "10"
