"""The lock, requirements/dev.txt, is what ``make test`` and CI install (``pip install
--require-hashes``): it must still satisfy pyproject.toml's requirements, with every extra
the tests and the docs need, each pin with its hashes. ``make lock`` refreshes it."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from tests.paths import ROOT

LOCK = ROOT / "requirements" / "dev.txt"
#: The extras the lock holds (the Makefile's EXTRAS): every one the tests and docs need.
EXTRAS = ("test", "research", "pdf", "docs")
FIX = "requirements/dev.txt is out of date: run `make lock` (then commit it)"


def pins(text: str) -> dict[NormalizedName, Version]:
    """``name==version`` of each requirement of a pip-compile output."""
    found = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", text, re.M)
    return {canonicalize_name(name): Version(version) for name, version in found}


def unmet(requirements: list[str], pinned: dict[NormalizedName, Version]) -> list[str]:
    """The requirements (PEP 508 strings) that the pins do not satisfy, in words."""
    problems = []
    for text in requirements:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name not in pinned:
            problems.append(f"{req} is not in the lock")
        elif not req.specifier.contains(pinned[name], prereleases=True):
            problems.append(f"{req}: the lock pins {pinned[name]}")
    return problems


def _wanted() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [*project["dependencies"], *(r for extra in EXTRAS for r in extras[extra])]


def test_the_lock_satisfies_pyproject() -> None:
    problems = unmet(_wanted(), pins(LOCK.read_text(encoding="utf-8")))
    assert problems == [], f"{FIX}:\n" + "\n".join(problems)


def test_the_lock_holds_every_extra_and_every_hash() -> None:
    text = LOCK.read_text(encoding="utf-8")
    first = re.search(r"^\w", text, re.M)
    assert first is not None, f"{FIX}: no requirement in it"
    header = text[: first.start()]
    for extra in EXTRAS:
        assert f"--extra {extra}" in header, f"{FIX} (the {extra} extra)"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"EXTRAS := {' '.join(EXTRAS)}" in makefile
    entries = re.split(r"\n(?=[A-Za-z0-9])", text[len(header) :].strip())
    assert len(entries) == len(pins(text)) > 50
    for entry in entries:
        assert "--hash=sha256:" in entry, f"{FIX}: no hash for {entry.split()[0]}"


def test_an_unmet_requirement_is_named() -> None:
    """By hand: numpy 2.3 does not meet numpy>=2.4; a missing one and a marker."""
    pinned = {canonicalize_name("numpy"): Version("2.3.1")}
    assert unmet(["numpy>=2.4", "rich>=15", "tomli; python_version < '3.0'"], pinned) == [
        "numpy>=2.4: the lock pins 2.3.1",
        "rich>=15 is not in the lock",
    ]
    assert unmet(["NumPy[extra]>=2.3"], pinned) == []


def test_the_installer_is_pinned_with_its_hashes() -> None:
    """``make venv`` installs uv from requirements/uv.txt (pip, ``--require-hashes``), then
    the lock with it: the pin is the Makefile's ``UV``, with a hash for each file."""
    text = (ROOT / "requirements" / "uv.txt").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    wanted = re.search(r"^UV := uv==(\S+)$", makefile, re.M)
    assert wanted is not None, "the Makefile names no UV := uv==VERSION"
    assert pins(text) == {canonicalize_name("uv"): Version(wanted.group(1))}, FIX
    assert text.count("--hash=sha256:") >= 10, f"{FIX}: uv's wheels need their hashes"
