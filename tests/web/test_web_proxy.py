"""Friends in other homes: the web table behind a reverse proxy.

nginx (Debian's ``nginx-light``) on a port of its own forwards to a real ``primero
serve``, configured as docs/hosting.md says (WebSocket upgrade, ``Host``, ``X-Forwarded-For``);
Chromium opens the table through the proxy only: it creates a table, plays to its first
turn over the proxied WebSocket, and the share box and its QR code carry the proxy's
address. Skips when nginx is not installed (``apt-get install nginx-light``).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import needs
from tests.webtools import free_port, shared_browser, shared_server

pytestmark = pytest.mark.timeout(180)

CONF = """
worker_processes 1;
error_log {dir}/error.log;
pid {dir}/nginx.pid;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://127.0.0.1:{upstream};
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 1h;
    }}
  }}
}}
"""


@contextlib.contextmanager
def nginx(folder: Path, upstream: int) -> Iterator[str]:
    needs.check("nginx")
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    port = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(CONF.format(dir=folder, port=port, upstream=upstream), encoding="utf-8")
    proc = subprocess.Popen(
        [binary, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while True:
        try:
            urllib.request.urlopen(base + "/api/tables", timeout=2).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"nginx did not start: see {folder}/error.log") from None
            time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


def test_friends_join_through_a_reverse_proxy(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Through nginx to the test process's shared server, in the shared Chromium (a
    context of its own)."""
    srv = shared_server(request)
    context = shared_browser(request).new_context(viewport={"width": 390, "height": 844})
    try:
        with nginx(tmp_path, srv.port) as base:
            page = context.new_page()
            page.goto(base + "/")
            page.locator("#c-player").fill("Ana")
            page.get_by_label("Turn timer").fill("0")
            page.get_by_role("button", name="Create table").click()
            page.wait_for_url(re.compile(r"/t/"))
            assert page.url.startswith(base)
            page.wait_for_function(
                "() => document.querySelector('#actions button')", timeout=20_000
            )  # the WebSocket works through the proxy
            assert page.locator("#conn").inner_text() == "connected"
            share = page.locator("#share-url").text_content() or ""
            assert share == page.url  # the address friends are given is the proxy's
            table_id = page.url.rsplit("/", 1)[1]
            qr = page.request.get(f"{base}/t/{table_id}/qr.svg")
            assert qr.status == 200 and qr.headers["content-type"].startswith("image/svg+xml")
            page.locator("#actions button").last.click()  # a move through the proxy
            page.wait_for_function("() => Number(document.body.dataset.version) > 0")
    finally:
        context.close()
