"""The folders the tests read: the repository, the tests' own folder, and the public
cases that may sit beside the repository (``../shared/cases``; tests that read them are
marked ``needs("shared_cases")``)."""

from __future__ import annotations

from pathlib import Path

#: The repository's root folder (pyproject.toml, src/, tests/, docs/).
ROOT = Path(__file__).resolve().parents[1]
#: The tests' folder.
TESTS = ROOT / "tests"
#: ``shared`` beside the repository, or beside the folder holding it (a git worktree of
#: the repository in a sub-folder); the first that exists, else the first.
SHARED = next(
    (up / "shared" for up in (ROOT.parent, ROOT.parent.parent) if (up / "shared").is_dir()),
    ROOT.parent / "shared",
)
#: The public cases (``*.prh`` with an ``[expected]`` table).
CASES_DIR = SHARED / "cases"
