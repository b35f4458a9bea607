"""Streamlit pieces shared by every page: set-up, the sidebar, cached calls into ``core``."""
