"""Every URL-bound setting's key, registered by the module that draws its widget.

Each module that draws a URL-bound widget registers its keys when it is imported
(``register_url_keys``); ``url_bound`` refuses a key nobody registered, and Copy link carries every
registered key and each positional family's settings. A new setting cannot be left out of a link.
"""

from __future__ import annotations

import contextlib

from core.positional.family import all_params
from ui.state.url_params import BOUND_TABS, url_text

# Every setting is a widget bound to its URL parameter. The sidebar's widgets are drawn by the entry
# point, so they are the same widgets on every page and the address bar keeps them through page
# switches; a page's own widgets are kept in the session while another page is shown.
URL_BOUND = {"bind": "query-params", "persist_state": "session"}
_REGISTERED: dict[str, None] = {}  # URL keys in the order they were registered
BOUND_KEYS: set[str] = set()  # every widget key bound to the URL so far
_SHOWN: dict[str, None] = {}  # URL keys the app writes itself for what it shows (no widget binds them)


def register_url_keys(*keys: str) -> tuple[str, ...]:
    """Declare the URL-bound settings a module draws (at import), so Copy link carries them."""
    _REGISTERED.update(dict.fromkeys(keys))
    return keys


def url_keys() -> tuple[str, ...]:
    """Every setting a copied link carries: the registered keys and each family's own settings."""
    return (*_REGISTERED, *(k for k in all_params() if k not in _REGISTERED))


def register_shown_keys(*keys: str) -> tuple[str, ...]:
    """Declare URL parameters that the app keeps in step with what it shows (presenting: the slide),
    so that Copy link carries them from the address bar."""
    _SHOWN.update(dict.fromkeys(keys))
    return keys


def register_tab_keys(*keys: str) -> tuple[str, ...]:
    """Declare tab sets bound to the URL (``st.tabs(key=k, bind="query-params")``, the open tab's label):
    Copy link carries them, and the URL check leaves their values to Streamlit."""
    BOUND_TABS.update(keys)
    return register_shown_keys(*keys)


def link_keys() -> tuple[str, ...]:
    """Every parameter a copied link carries: the settings (``url_keys``) and what is shown."""
    return (*url_keys(), *_SHOWN)


def url_bound(key: str) -> dict[str, str]:
    """A widget's ``key`` and the arguments that bind it to the URL (the key must be registered)."""
    if key not in url_keys():
        raise KeyError(
            f"The URL key {key!r} is not registered: call register_url_keys({key!r}) in the module that "
            "draws its widget, so that Copy link carries it."
        )
    BOUND_KEYS.add(key)
    return {"key": key, **URL_BOUND}


def url_settings(state: dict, keys: tuple[str, ...] | None = None) -> dict[str, str]:
    """The settings among ``keys`` (default: every URL key) that ``state`` holds, as query parameters.

    Each value is written by ``ui.state.url_params.url_text``, the one writer the reader accepts.
    """
    keys = url_keys() if keys is None else keys
    params = {}
    for key in keys:
        if state.get(key) is None:
            continue
        with contextlib.suppress(ValueError):  # a value no reader takes: the link's reader gets the default
            params[key] = url_text(key, state[key])
    return params
