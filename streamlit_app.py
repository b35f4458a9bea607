"""Positional Embeddings Explorer: the server. ``streamlit run streamlit_app.py`` serves ``app``.

``app`` is Streamlit's ``App`` for ``app_script.py``, the script every session runs. Its start-up
imports what every page imports, builds GPT-2's BPE and runs the main page once, as a session that
nobody sees (``ui.server.warm_up``), before the server answers. So no student's first run pays for that:
thirty students opening the link of a fresh server at once wait for their own pages alone.
"""

from contextlib import asynccontextmanager

import streamlit as st


@asynccontextmanager
async def warmed_up(_app):
    """Start-up, before the server answers: ``ui.server.warm_up``'s imports and first run.
    Nothing at shut-down."""
    from ui.server.warm_up import warmed_up_server

    await warmed_up_server()
    yield


app = st.App("app_script.py", lifespan=warmed_up)
