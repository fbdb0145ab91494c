"""Helpers of the browser tests: a real ``primero serve`` subprocess and Debian's Chromium.

The browser needs Chromium at /usr/bin/chromium and Playwright for Python:
``needs("chromium", "playwright")`` (tests/needs.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import needs

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
#: The flags the task fixes for Debian's Chromium in containers and CI.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).parent / "artifacts"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``primero serve`` on 127.0.0.1 with a temporary SQLite file, bot pause 0."""

    def __init__(
        self,
        folder: Path,
        *,
        seed: int | None,
        bot_pause: float = 0.0,
        extra: tuple[str, ...] = (),
    ) -> None:
        """``seed`` None: no fixed test seed (tables deal fairly, docs/fair-deals.md)."""
        self.db = folder / "web.db"
        self.url = f"sqlite:///{self.db}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        primero = Path(sys.executable).parent / "primero"
        env = {k: v for k, v in os.environ.items() if k != "PRIMERO_TEST_SEED"}
        if seed is not None:
            env["PRIMERO_TEST_SEED"] = str(seed)
        self.log = (folder / "server.log").open("w")
        self.proc = subprocess.Popen(
            [
                str(primero),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--database-url",
                self.url,
                "--bot-pause",
                str(bot_pause),
                # the finished hand's pause and the rebuy window: 0 unless a test is
                # about them (it sets the table's own at creation)
                "--hand-pause",
                "0",
                "--rebuy-seconds",
                "0",
                # the pages, not the bots' worker processes (the live tests run those)
                "--bot-processes",
                "0",
                *extra,
            ],
            cwd=folder,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/tables")
                break
            except OSError as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = folder / "server.log"
                    raise RuntimeError(f"the server did not start: see {log}") from exc
                time.sleep(0.1)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=5) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST ``body`` as JSON; the answer's JSON (an HTTP error raises)."""
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.load(answer)

    def export(self, table_id: str, out: Path) -> list[Path]:
        """The table's finished hands as .prh files (``primero hands export``)."""
        primero = Path(sys.executable).parent / "primero"
        subprocess.run(
            [
                str(primero),
                "hands",
                "export",
                "--database-url",
                self.url,
                "--table",
                table_id,
                "--out",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        return sorted((out / table_id).glob("*.prh"), key=lambda p: int(p.stem))

    def stop(self) -> None:
        self.proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        if self.proc.poll() is None:
            self.proc.kill()
        self.log.close()


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Playwright's Chromium driver on Debian's /usr/bin/chromium (never a download)."""
    needs.check("chromium", "playwright")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


#: The seed of the shared server: every browser test's moments are counted on it.
SHARED_SEED = 1
_SHARED = pytest.StashKey[dict[str, Any]]()


def _shared(request: pytest.FixtureRequest) -> dict[str, Any]:
    """This test process's shared objects (kept in the pytest config's stash)."""
    config = request.config
    if _SHARED not in config.stash:
        config.stash[_SHARED] = {}
    return config.stash[_SHARED]


def shared_server(request: pytest.FixtureRequest) -> Server:
    """One ``primero serve`` (seed :data:`SHARED_SEED`, bot pause 0) for every browser
    test module this test process runs, stopped when the process's session ends.

    The browser tests need no server of their own: each works at tables it creates, the
    test seed fixes each table's bots and deals by the table's own hands played (not by
    the other tables), and what they read of the lobby is relative to their own tables.
    No creation limit: together the modules create more tables a minute than one address
    may (the limits have tests of their own)."""
    shared = _shared(request)
    if "server" not in shared:
        folder = request.getfixturevalue("tmp_path_factory").mktemp("webserver")
        srv = Server(folder, seed=SHARED_SEED, extra=("--create-rate", "0"))
        request.config.add_cleanup(srv.stop)
        shared["server"] = srv
    server: Server = shared["server"]
    return server


def shared_browser(request: pytest.FixtureRequest) -> Browser:
    """A Chromium for the scope of the fixture (or test) asking: a module's tests share
    one (each opens contexts of its own), closed when that scope ends.

    Never kept for the whole session: while Playwright's sync API is open it keeps an
    asyncio event loop running in this thread, and every later ``asyncio.run`` of the
    same test process (the terminal and server tests) would fail with "cannot be called
    from a running event loop"."""
    session = chromium()
    browser = session.__enter__()
    request.addfinalizer(lambda: session.__exit__(None, None, None))
    return browser


def wait_until(
    page: Page, expression: str, arg: Any = None, *, what: str, seconds: float = 10.0
) -> None:
    """Wait until the JavaScript function ``expression`` (of ``arg``) returns a truthy
    value, checked on every animation frame, for at most ``seconds`` seconds.

    Raises ``AssertionError`` naming ``what`` was awaited when the time runs out.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(expression, arg=arg, timeout=seconds * 1000)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"not within {seconds:g} s: {what}") from exc


#: True once the window has the size ``[w, h]``, no CSS animation or transition runs, and
#: every element's box is the same as on the previous animation frame.
_SETTLED = """([w, h]) => {
  if (innerWidth !== w || innerHeight !== h) return false;
  if (document.getAnimations().some(a => a.playState === "running")) return false;
  const boxes = [...document.querySelectorAll("body *")].map(e => {
    const r = e.getBoundingClientRect();
    return `${r.x},${r.y},${r.width},${r.height}`;
  }).join(";");
  const same = window.__primeroBoxes === boxes;
  window.__primeroBoxes = boxes;
  return same;
}"""


def resize(page: Page, width: int, height: int, *, seconds: float = 10.0) -> None:
    """Set the viewport to ``width`` × ``height`` CSS pixels and wait, at most ``seconds``
    seconds, until the page has taken that size and its layout has settled (no animation
    running, every box unchanged over one animation frame)."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.__primeroBoxes = null")
    wait_until(
        page,
        _SETTLED,
        [width, height],
        seconds=seconds,
        what=f"the page's layout settled at {width}x{height}",
    )
