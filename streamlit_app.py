"""Positional Embeddings Explorer: the entry point.

Every page shares one sidebar, drawn here before the page runs: its settings are the same widgets
on every page, bound to the URL, so a link or a reload reproduces the view after any page switch.
The pages (``pages/``) read them with ``ui.sidebar.settings()``.
"""

from ui import cache
from ui.components import page_setup
from ui.memory import give_back_memory
from ui.presenter import presenter_style, presenting
from ui.sidebar import forget_settings, navigation, sidebar

page = navigation()
page_setup(page.title, page.icon, sidebar_collapsed=presenting())
cache.warm_tokenizer()
sidebar()
presenter_style()
try:
    page.run()
finally:  # also when the page stops early (st.stop) or reruns
    forget_settings()
    give_back_memory()
