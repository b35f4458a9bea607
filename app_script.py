"""Positional Embeddings Explorer: the script every session runs, at every rerun.

The server (``streamlit_app.py``) serves it. Every page shares one sidebar, drawn here before the
page runs: its settings are the same widgets on every page, bound to the URL, so a link or a reload
reproduces the view after any page switch. The pages (``pages/``) read them with ``ui.app.settings()``.
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
