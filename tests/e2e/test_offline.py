"""No request leaves the server the page came from (a classroom may have no network), on every page.

A page's ``:material/…`` icon once became the tab's favicon, which the browser fetched from
fonts.gstatic.com; offline it failed, and each page load tried again.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from ui.navigation import PAGES
from ui.page_setup import FAVICON


@pytest.mark.parametrize(
    "url_path", ["" if k == 0 else stop.url for k, stop in enumerate(PAGES)] + ["Pipeline?present=true"]
)  # the clicker keys too
def test_a_page_asks_nothing_of_any_other_host(server, page, wait_for_app, wait_for_charts, url_path):
    host = urlsplit(server).netloc
    elsewhere = []
    page.on(
        "request", lambda r: elsewhere.append(r.url) if urlsplit(r.url).netloc not in (host, "") else None
    )
    page.goto(f"{server}/{url_path}")
    wait_for_app(page)
    wait_for_charts(page)
    page.wait_for_timeout(1000)  # the favicon and fonts load after the page
    assert elsewhere == []
    icon = page.evaluate("[...document.querySelectorAll('link[rel*=icon]')].map(l => l.href)")
    assert FAVICON in icon, icon  # the app's own favicon, inline
    assert all(href == FAVICON or urlsplit(href).netloc == host for href in icon), icon
