"""The repository stands alone: its files cite its own documents, never files beside it
or a tracker's issues.

- No tracked file outside ``tests/`` names ``../shared``, ``shared/spec``, ``online.md``
  or ``hand-history.md``: the contracts are docs/protocol.md, docs/record-format.md,
  docs/rules.md and docs/architecture.md. Under ``tests/``, ``../shared`` may be named
  only for the public cases (``shared/cases``), which some tests read as an extra set.
- No tracked text file cites an issue number ("issue 17", "Issue 20 item 2", "issues 17
  and 18"): a reader has no tracker; code and docs cite rule sections or pages.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests import needs

ROOT = Path(__file__).resolve().parents[2]

#: What a file outside tests/ may not name.
OUTSIDE = re.compile(r"\.\./shared|shared/spec|\bonline\.md|\bhand-history\.md")
#: An issue number: "issue 17", "Issue 20, item 2", "issues 17 and 18", "issue #5".
ISSUE = re.compile(r"\bissues? +#?\d", re.IGNORECASE)
#: Files that must run the shared cases and may say so: the CI script.
CI_FILES = frozenset({".ci/run"})


def tracked() -> dict[str, str]:
    """Every tracked text file of the checkout: path (POSIX, from the root) -> text."""
    needs.check("git_checkout")
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    files: dict[str, str] = {}
    for raw in names:
        name = raw.decode()
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            files[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # pictures, fonts: not text
            continue
    return files


def offending(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The lines of ``text`` that ``pattern`` finds, numbered from 1.

    >>> offending("a\\nsee issue 17\\nb", ISSUE)
    ['2: see issue 17']
    >>> offending("the issue is 17 chips", ISSUE)
    []
    """
    return [
        f"{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_file_outside_tests_cites_a_file_beside_the_repository() -> None:
    found = {
        name: lines
        for name, text in tracked().items()
        if not name.startswith("tests/") and name not in CI_FILES
        for lines in [offending(text, OUTSIDE)]
        if lines
    }
    assert found == {}, "cite docs/protocol.md, docs/record-format.md … instead"


def test_tests_read_only_the_shared_cases_beside_the_repository() -> None:
    beside = re.compile(r"\.\./shared(?!/cases)|shared/spec|\"shared\" / \"spec\"")
    found = {
        name: lines
        for name, text in tracked().items()
        if name.startswith("tests/") and name != "tests/project/test_self_contained.py"
        for lines in [offending(text, beside)]
        if lines
    }
    assert found == {}


def test_no_file_cites_an_issue_number() -> None:
    found = {
        name: lines
        for name, text in tracked().items()
        if name != "tests/project/test_self_contained.py"  # the examples above
        for lines in [offending(text, ISSUE)]
        if lines
    }
    assert found == {}, "cite a rule section (R8) or a page of docs/ instead"
