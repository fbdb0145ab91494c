"""``primero eval``, ``primero rules`` and ``primero cheatsheet``."""

from __future__ import annotations
