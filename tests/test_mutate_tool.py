"""tools/mutate.py, the mutation sweep of CONTRIBUTING.md: which mutants it makes and
what each changes (the runs themselves are too slow for the suite)."""

from __future__ import annotations

import mutate

SOURCE = '''"""Docstring: never mutated."""

__all__ = ["f"]


def f(a: int, b: list[int]) -> bool:
    """Docstring."""
    for x in b:
        if not x:
            continue
        b.append(x - 1)
    return a == 1 and "yes" in ("yes",)
'''


def test_the_mutants_of_a_small_module_in_line_order() -> None:
    made = [(m.line, m.what) for m in mutate.list_mutants(SOURCE)]
    assert made == [
        (9, "not:removed"),
        (10, "continue->break"),
        (11, "call:removed"),
        (11, "op:Sub->Add"),
        (11, "const:1->2"),
        (12, "return:None"),
        (12, "bool:and->or"),
        (12, "cmp0:Eq->NotEq"),
        (12, "cmp0:In->NotIn"),
        (12, "const:1->2"),
        (12, "const:'yes'->'XX'"),
        (12, "const:'yes'->'XX'"),
    ]


def test_each_mutant_changes_one_thing() -> None:
    mutants = {m.what: m for m in mutate.list_mutants(SOURCE)}
    changed = mutate.mutated_source(SOURCE, mutants["not:removed"])
    assert "if bool(x):" in changed and "x - 1" in changed
    changed = mutate.mutated_source(SOURCE, mutants["cmp0:Eq->NotEq"])
    assert "return a != 1 and 'yes' in ('yes',)" in changed
    changed = mutate.mutated_source(SOURCE, mutants["continue->break"])
    assert "break" in changed and "continue" not in changed
    changed = mutate.mutated_source(SOURCE, mutants["call:removed"])
    assert "b.append" not in changed
