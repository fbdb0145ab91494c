"""No pure-Python class subclasses a class that the wheel compiles with mypyc, unless
that class allows it (``@mypyc_attr(allow_interpreted_subclasses=True)``): in a compiled
wheel such a class fails at import or at first use ("interpreted classes cannot inherit
from compiled"), which the editable, pure-Python install never shows."""

from __future__ import annotations

import ast
from pathlib import Path

import build_compiled  # tools/, on pytest's pythonpath
from tests.paths import ROOT

SRC = ROOT / "src"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def _allows_subclasses(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and any(
            k.arg == "allow_interpreted_subclasses"
            and isinstance(k.value, ast.Constant)
            and k.value.value is True
            for k in decorator.keywords
        ):
            return True
    return False


def _compiled_classes() -> dict[tuple[str, str], bool]:
    """(module, class) of every top-level class the wheel compiles -> whether pure
    subclasses are allowed."""
    out: dict[tuple[str, str], bool] = {}
    for name in build_compiled.COMPILED:
        path = SRC / name
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                out[_module(path), node.name] = _allows_subclasses(node)
    return out


def pure_subclasses_of_compiled() -> list[str]:
    """``module.Class (base module.Base)`` for each pure class whose base forbids it."""
    classes = _compiled_classes()
    compiled = {module for module, _ in classes}
    found: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        module = _module(path)
        if module in compiled:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name: node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module in compiled
            for alias in node.names
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for base in node.bases:
                name = base.id if isinstance(base, ast.Name) else None
                key = (imported.get(name or ""), name)
                if key[0] is not None and classes.get((key[0], name or "")) is False:
                    found.append(f"{module}.{node.name} (base {key[0]}.{name})")
    return found


def test_no_pure_class_subclasses_a_compiled_one() -> None:
    assert pure_subclasses_of_compiled() == [], (
        "mark the base @mypyc_attr(allow_interpreted_subclasses=True), or compile the "
        "subclass too (setup.py COMPILED)"
    )


def test_the_fair_dealer_is_seen() -> None:
    """The check sees the one such pair there is (it would fail without the mark)."""
    classes = _compiled_classes()
    assert classes[("primero.engine.dealing", "Dealer")] is True
    assert classes[("primero.engine.state", "HandState")] is False
