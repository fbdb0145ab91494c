"""The release's metadata (pyproject.toml): version 0.2.0 wherever it is read, a license
expression, classifiers, project URLs and the README; and the habits: pre-commit runs
ruff, ruff format, mypy, lint-imports and tsc."""

from __future__ import annotations

import importlib.metadata
import tomllib

from typer.testing import CliRunner

from primero.cli import app
from tests.paths import ROOT


def _project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project: dict[str, object] = data["project"]
    return project


def test_the_version_is_0_2_0_and_primero_says_it() -> None:
    assert _project()["version"] == "0.2.0"
    assert importlib.metadata.version("primero") == "0.2.0", "reinstall: make venv"
    result = CliRunner().invoke(app, ["--version"])
    assert result.stdout == "primero 0.2.0\n"


def test_the_metadata_is_complete() -> None:
    project = _project()
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["dynamic"] == ["readme"]  # setup.py: the README, links made absolute
    meta = importlib.metadata.metadata("primero")
    assert meta["Description-Content-Type"] == "text/markdown", "reinstall: make venv"
    description = meta.get_payload()  # type: ignore[attr-defined]
    assert description.startswith("# primero"), description[:80]
    assert "](docs/" not in description  # a package index shows it away from the repository
    raw = "https://raw.githubusercontent.com/primero-developers/primero/main/docs/"
    assert f"]({raw}" in description
    classifiers = project["classifiers"]
    assert isinstance(classifiers, list) and "Typing :: Typed" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the expression says it
    urls = project["urls"]
    assert isinstance(urls, dict) and {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)


def test_pre_commit_runs_the_checks_of_make_test() -> None:
    text = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    for hook in ("id: ruff", "id: ruff-format", "id: mypy", "id: lint-imports", "id: tsc"):
        assert hook in text, hook
