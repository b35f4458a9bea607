"""Positional Embeddings Explorer: the script every session runs, at every rerun.

One run, from a browser's request to the drawn page (a student changed the seed, say):

1. ``ui.navigation.navigation()``: the page the URL names, of ``ui.navigation.PAGES``.
2. ``ui.app.start_run(page)``: the page's set-up, then ``ui.sidebar`` draws the sidebar every page shares
   (its widgets are bound to the URL: the new seed is read here) and the run is marked started.
3. ``page.run()``: the page file, ``pages/<Page>.py``, reads the sidebar's settings with
   ``ui.app.settings()`` and draws its sections with its views, ``ui/<page>/``; they compute with
   ``core/`` (pure Python and torch) through ``ui.server.cache``, so what the seed does not change is
   found kept (``ui.server.cache.KEPT``) and only what it does is computed again. ``next_step()`` links
   the next page.
4. ``ui.app.end_run(page)``: this run's settings forgotten, its memory given back, the run noted.

The server (``streamlit_app.py``) serves it after a warm-up (``ui.server.warm_up``). A fresh server's
first run may run a page file on its own instead: its ``settings()`` then starts the run itself.
"""

from ui.server.first_imports import imports_without_collection

with imports_without_collection():  # also when served without the warm-up (``streamlit run app_script.py``)
    from ui.app import end_run, start_run
    from ui.navigation import navigation, next_step

page = navigation()
start_run(page)
try:
    page.run()
    next_step()  # not after a page that stopped early (st.stop): its message is the last word
finally:  # also when the page stops early (st.stop) or reruns
    end_run(page)
