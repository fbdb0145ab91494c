"""The web client's own checks (src/primero/web/): types, lint, unit tests, message types.

``tests/js/`` holds the JavaScript tooling, pinned in its ``package-lock.json``
(``npm ci --prefix tests/js`` installs it): ``tsc --noEmit`` checks the client's JSDoc
types (files marked ``// @ts-check``) against ``tests/js/messages.d.ts``, the message
types generated from the server's Pydantic models; ESLint lints it; ``node --test`` runs
the unit tests of its pure functions (``tests/js/*.test.js``). The tests that run the
tooling need Node.js (>= 20.19) and the installed tooling (``needs("node")``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import gen_message_types
from tests.paths import ROOT, TESTS

JS = TESTS / "js"
WEB = ROOT / "src" / "primero" / "web"


def _npm(script: str) -> None:
    done = subprocess.run(
        ["npm", "run", "--silent", script],
        cwd=JS,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, f"npm run {script}:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"


def test_the_message_types_match_the_pydantic_models() -> None:
    """tests/js/messages.d.ts is what tools/gen_message_types.py writes from the models."""
    assert gen_message_types.OUT.read_text(encoding="utf-8") == gen_message_types.render(), (
        "stale: run python tools/gen_message_types.py"
    )


def test_the_message_types_name_every_model_field() -> None:
    """Each model field appears in its interface (by alias), with the right optionality."""
    text = gen_message_types.render()
    for model in gen_message_types.models():
        block = text.split(f"interface {model.__name__} {{", 1)[1].split("\n}", 1)[0]
        for name, field in model.model_fields.items():
            key = field.alias or name
            assert f"\n  {key}" in block, (model.__name__, key)
    state = text.split("interface StateOut {", 1)[1].split("\n}", 1)[0]
    assert '\n  type: "state";' in state and "\n  hand: HandOut | null;" in state
    assert "\n  name?: string | null;" in text.split("interface CreateTable {", 1)[1]


def test_every_web_client_module_is_type_checked() -> None:
    """tsc checks only files marked ``// @ts-check`` (``checkJs`` is off): every module of
    the web client is marked, and jsconfig.json's include list names them all."""
    modules = sorted(p.name for p in WEB.glob("*.js"))
    assert {"actions.js", "lobby.js", "table.js", "common.js"} <= set(modules)
    unmarked = [
        m
        for m in modules
        if (WEB / m).read_text(encoding="utf-8").splitlines()[0] != "// @ts-check"
    ]
    assert unmarked == []
    config = (JS / "jsconfig.json").read_text(encoding="utf-8")
    assert '"../../src/primero/web/*.js"' in config


def test_the_type_check_refuses_an_implicit_any_in_every_module() -> None:
    """``noImplicitAny`` is on for the whole check (every module and test file), so an
    untyped parameter anywhere in the client fails ``test_the_web_client_type_checks``."""
    options = json.loads((JS / "jsconfig.json").read_text(encoding="utf-8"))["compilerOptions"]
    assert options["noImplicitAny"] is True
    package = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    assert package["scripts"]["types"] == "tsc -p jsconfig.json"  # no flag turns it off


@pytest.mark.needs("node")
def test_an_untyped_parameter_fails_the_type_check(tmp_path: Path) -> None:
    """The check itself: with the client's compiler options (tests/js/jsconfig.json), a
    module with one untyped parameter is refused with TS7006, and the same module typed
    with JSDoc passes. One tsc run checks both modules (tsc names the file of each error):
    every error it reports is in the untyped one."""
    tsc = str(JS / "node_modules" / ".bin" / "tsc")
    twice = "export function twice(n) { return 2 * n; }\n"
    code = {
        "untyped": f"// @ts-check\n{twice}",
        "typed": f"// @ts-check\n/** @param {{number}} n */\n{twice}",
    }
    for name, text in code.items():
        (tmp_path / f"{name}.js").write_text(text, encoding="utf-8")
    config = {
        "extends": str(JS / "jsconfig.json"),
        "compilerOptions": {"types": []},
        "include": [f"{name}.js" for name in code],
    }
    (tmp_path / "both.json").write_text(json.dumps(config), encoding="utf-8")
    answer = subprocess.run(
        [tsc, "-p", str(tmp_path / "both.json"), "--pretty", "false"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
    )
    errors = [line for line in answer.stdout.splitlines() if ": error TS" in line]
    assert answer.returncode != 0, answer.stdout
    assert errors == [
        "untyped.js(2,23): error TS7006: Parameter 'n' implicitly has an 'any' type."
    ], answer.stdout


def test_the_message_types_include_the_seating_messages() -> None:
    """conn.send's messages are all generated: sit out, sit in, leave and rebuy too."""
    text = gen_message_types.render()
    for name, kind in [
        ("SitOutIn", "sit_out"),
        ("SitInIn", "sit_in"),
        ("LeaveIn", "leave"),
        ("RebuyIn", "rebuy"),
    ]:
        assert f'interface {name} {{\n  type: "{kind}";\n}}' in text


@pytest.mark.needs("node")
def test_the_web_client_type_checks() -> None:
    _npm("types")


@pytest.mark.needs("node")
def test_the_web_client_lints_clean() -> None:
    _npm("lint")


@pytest.mark.needs("node")
def test_the_web_client_unit_tests_pass() -> None:
    _npm("unit")
