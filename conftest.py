"""Root pytest configuration: skip modules whose optional packages are not installed.

The research interfaces import OpenSpiel, PettingZoo and Gymnasium at the top (the
``research`` extra); without the extra, doctest collection (``--doctest-modules``) leaves
them out instead of failing on the import. Their tests skip with a reason (or fail when
``PRIMERO_CI=1``).
"""

from __future__ import annotations

import importlib.util

_OPTIONAL = {
    "src/primero/openspiel": ("pyspiel",),
    "src/primero/pettingzoo.py": ("pettingzoo", "gymnasium"),
    "src/primero/gymnasium_env.py": ("gymnasium",),
}

collect_ignore = [
    path
    for path, modules in _OPTIONAL.items()
    if any(importlib.util.find_spec(m) is None for m in modules)
]
