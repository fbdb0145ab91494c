"""The documentation site builds with ``mkdocs build --strict`` (mkdocs.yml): every page
of the nav, the API reference from the docstrings, and no broken link or anchor. Needs
the ``docs`` extra (``pip install -e '.[docs]'``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("mkdocs", "material", "mkdocstrings")),
    reason="the docs extra is missing: pip install -e '.[docs]'",
)


def test_the_site_builds_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    # the pages of the nav, the pages from the root, and the API reference are there
    for page in (
        "index.html",
        "rules/index.html",
        "protocol/index.html",
        "contributing/index.html",
        "changelog/index.html",
        "performance/index.html",
    ):
        assert (site / page).is_file(), page
    engine = (site / "api" / "engine" / "index.html").read_text(encoding="utf-8")
    assert "primero.engine.state" in engine and "HandState" in engine
    protocol = (site / "protocol" / "index.html").read_text(encoding="utf-8")
    assert "seat_note" in protocol
