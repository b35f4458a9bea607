"""No request leaves the server the page came from (a classroom may have no network), on every page:
``test_layout`` watches each page it draws with ``watch_requests``; here, presenting (the clicker keys).

A page's ``:material/…`` icon once became the tab's favicon, which the browser fetched from
fonts.gstatic.com; offline it failed, and each page load tried again.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ui.page_setup import FAVICON


def watch_requests(page, server: str) -> list[str]:
    """The list that will hold every request ``page`` makes to a host other than ``server``'s."""
    host = urlsplit(server).netloc
    elsewhere = []
    page.on(
        "request", lambda r: elsewhere.append(r.url) if urlsplit(r.url).netloc not in (host, "") else None
    )
    return elsewhere


def offline_problems(page, server: str, elsewhere: list[str]) -> list[str]:
    """Requests made elsewhere, and a tab icon that is not the app's own inline favicon."""
    page.wait_for_timeout(1000)  # the favicon and fonts load after the page
    host = urlsplit(server).netloc
    icon = page.evaluate("[...document.querySelectorAll('link[rel*=icon]')].map(l => l.href)")
    found = [f"asked {url}" for url in elsewhere]
    if FAVICON not in icon:
        found.append(f"not the app's favicon: {icon}")
    found += [
        f"icon from elsewhere: {href}" for href in icon if href != FAVICON and urlsplit(href).netloc != host
    ]
    return found


def test_presenting_asks_nothing_of_any_other_host(server, page, wait_for_app, wait_for_charts):
    elsewhere = watch_requests(page, server)
    page.goto(f"{server}/Pipeline?present=true")
    wait_for_app(page)
    wait_for_charts(page)
    assert offline_problems(page, server, elsewhere) == []
