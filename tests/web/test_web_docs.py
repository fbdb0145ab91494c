"""``/docs`` in a real Chromium that can reach nothing but the server (a LAN without
internet): Swagger UI draws the API from files this server serves (server/apidocs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.webtools import ARTIFACTS, Server, resize, shared_browser, shared_server, wait_until

pytestmark = pytest.mark.timeout(300)  # a stuck browser or server fails instead of hanging


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server (webtools.shared_server)."""
    return shared_server(request)


def test_the_api_docs_page_works_with_no_internet(
    server: Server, request: pytest.FixtureRequest
) -> None:
    elsewhere: list[str] = []
    context = shared_browser(request).new_context()  # a page of its own in the shared Chromium
    try:
        page = context.new_page()

        def only_this_server(route: object) -> None:
            from playwright.sync_api import Route

            assert isinstance(route, Route)
            if route.request.url.startswith(server.base + "/"):
                route.continue_()
            else:  # what a LAN without internet does to it
                elsewhere.append(route.request.url)
                route.abort()

        page.route("**/*", only_this_server)
        page.goto(server.base + "/docs")
        resize(page, 360, 640)
        wait_until(
            page,
            "() => document.querySelector('.swagger-ui .info .title')",
            what="Swagger UI drew the API's title",
        )
        wait_until(
            page,
            "() => document.querySelectorAll('.opblock').length > 10",
            what="Swagger UI listed the API's operations",
        )
        assert page.inner_text(".swagger-ui .info .title").startswith("primero")
        paths = page.eval_on_selector_all(
            ".opblock-summary-path", "els => els.map(e => e.dataset.path || e.textContent)"
        )
        assert "/api/tables/{table_id}/hands/{number}" in [p.replace("\u200b", "") for p in paths]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(Path(ARTIFACTS) / "docs-360x640.png"))
    finally:
        context.close()
    assert elsewhere == []
