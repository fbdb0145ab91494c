"""The mypyc-compiled kernel and rules play exactly as the pure-Python modules.

A wheel built where a C compiler is holds the modules of ``setup.COMPILED`` compiled by
mypyc; the editable install these tests run on has the pure-Python ones. Here
``tools/build_compiled.py`` compiles them (once per change of their sources, cached in
``build/compiled/``) beside a copy of the package, and the tests run against that copy
in a subprocess (``PYTHONPATH`` first): the compiled modules must be extensions, give
the pure-Python modules' results on seeded simulations and seeded hands through the
research environments, and pass the kernel's, the rulebook's, the pots', the engine's
and the environments' own tests. They are marked ``needs("compiler")``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import build_compiled
from primero.engine.rules import Rules
from primero.research.fastsim import play_random_hand, simulate_random
from tests import needs
from tests.paths import ROOT

#: The tests on compiled modules are marked ``release``: tools/check_release.sh runs them
#: on the built wheel's modules (``make test`` leaves them out: the release step compiles
#: the package anyway, and once is enough).
release = pytest.mark.release

#: Printed by the subprocess: where each compiled module was loaded from, then seeded
#: results of the compiled kernel as JSON.
_PROBE = """\
import importlib, json, random, sys
from primero.engine.rules import Rules
from primero.research.fastsim import play_random_hand, simulate_random
files = {m: importlib.import_module(m).__file__ for m in sys.argv[1:]}
rules = Rules(min_players=2, max_players=8, ties="split")
summary = simulate_random(7, 400, 5, rules=rules, stack=15)
hand = play_random_hand([3, 9, 20, 1, 40, 6, 2, 7], rules, random.Random(4),
                        [random.Random(i) for i in range(8)], record=True)
print(json.dumps({"files": files, "summary": repr(summary), "hand": repr(hand)}))
"""


@pytest.fixture(scope="session")
def compiled_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``src/primero`` with the compiled modules (compiled at most once per change;
    C at ``-O0``: see ``build_compiled.TEST_OPT_LEVEL``)."""
    given = os.environ.get("PRIMERO_COMPILED_TREE")
    if given:  # the unpacked wheel of tools/check_release.sh
        return Path(given)
    needs.check("compiler")
    return build_compiled.build_tree(
        tmp_path_factory.mktemp("compiled"), opt_level=build_compiled.TEST_OPT_LEVEL
    )


def _env(tree: Path) -> dict[str, str]:
    """This environment with ``tree`` first on the import path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _modules() -> list[str]:
    return [p.removesuffix(".py").replace("/", ".") for p in build_compiled.COMPILED]


@release
def test_the_compiled_kernel_gives_the_pure_python_results(compiled_tree: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *_modules()],
        env=_env(compiled_tree),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out = json.loads(done.stdout)
    for module, file in out["files"].items():
        assert file.endswith(build_compiled.EXT_SUFFIX), f"{module} not compiled: {file}"
        assert file.startswith(str(compiled_tree)), file
    rules = Rules(min_players=2, max_players=8, ties="split")
    hand = play_random_hand(
        [3, 9, 20, 1, 40, 6, 2, 7],
        rules,
        random.Random(4),
        [random.Random(i) for i in range(8)],
        record=True,
    )
    assert out["summary"] == repr(simulate_random(7, 400, 5, rules=rules, stack=15))
    assert out["hand"] == repr(hand)


#: Printed by the subprocess: the record lines of seeded random hands played by the
#: research environments (PettingZoo, then pyspiel) on the engine it imports.
_ENV_PROBE = """\
import json, random
import pyspiel
import primero.research.openspiel
from primero.research.pettingzoo import env
rng = random.Random(5)
zoo = env(players=5, stack=12)
out = {"pettingzoo": [], "pyspiel": []}
for hand in range(12):
    zoo.reset(seed=hand)
    for _agent in zoo.agent_iter():
        obs, _reward, terminated, truncated, _info = zoo.last()
        if terminated or truncated:
            zoo.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        zoo.step(int(legal[int(rng.random() * len(legal))]))
    out["pettingzoo"].append(zoo.unwrapped.hand.lines())
game = pyspiel.load_game("python_primero", {"players": 3, "stack": 9})
for _ in range(12):
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    out["pyspiel"].append(state.hand.lines())
print(json.dumps(out))
"""


@release
@pytest.mark.needs("pyspiel", "pettingzoo")
def test_the_compiled_engine_plays_the_envs_as_pure_python(compiled_tree: Path) -> None:
    """The research environments over the compiled engine make the same hands, line for
    line, as over the pure-Python engine."""
    outputs = [
        subprocess.run(
            [sys.executable, "-c", _ENV_PROBE],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout
        for env in (
            _env(compiled_tree),
            {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
        )
    ]
    compiled, pure = (json.loads(out) for out in outputs)
    assert len(pure["pettingzoo"]) == len(pure["pyspiel"]) == 12
    assert all(len(lines) >= 5 for lines in pure["pettingzoo"] + pure["pyspiel"])
    assert compiled == pure


#: The test modules run again on the compiled modules.
COMPILED_RUN = [
    "tests/research/test_fastsim.py",
    "tests/engine/test_rulebook.py",
    "tests/engine/test_pots.py",
    "tests/engine/test_state.py",
    "tests/engine/test_copy.py",
    "tests/engine/test_views.py",
    "tests/research/test_openspiel.py",
    "tests/research/test_openspiel_clone.py",
    "tests/research/test_pettingzoo.py",
    "tests/research/test_features.py",
    "tests/research/test_actionids.py",
    "tests/research/test_stepper.py",
    "tests/research/test_gym_fast.py",
    "tests/research/test_gym_vector.py",
    "tests/research/test_gym_batch.py",
    # the fair dealer: a pure-Python subclass of the compiled Dealer (the server's deals)
    "tests/engine/test_fairdeal.py",
]
#: Blocks of the long seeded tests left out of the compiled run: each block is the same
#: test over other seeds, and the first block alone reaches every branch of the compiled
#: modules that all the blocks reach (measured with coverage on the pure-Python modules:
#: the commit that made this list). The pure-Python run keeps every block.
COMPILED_RUN_SKIPS = [
    "tests/research/test_fastsim.py::test_kernel_plays_the_checked_engines_hands[1]",
    "tests/research/test_fastsim.py::test_kernel_hands_obey_the_rules_referee[1]",
    # a soak test (ten thousand hands); the fair dealer's other tests run compiled
    "tests/engine/test_fairdeal.py::test_ten_thousand_random_hands_verify",
    # counts calls through the pure module's name (needs "pure_build")
    "tests/engine/test_views.py::test_each_record_line_is_redacted_once",
]


@release
def test_the_kernel_and_rule_tests_pass_compiled(compiled_tree: Path) -> None:
    """tests/research/test_fastsim.py (the kernel against the checked engine and the referee),
    test_rulebook.py and test_pots.py, and the engine's and research environments' tests
    (the hand state, its copies, the views, pyspiel, PettingZoo, the observations, the
    action ids, the flat stepper against the engine, the Gymnasium env against its
    recorded episodes and the vector env against it), run on the compiled modules (the
    long seeded tests with their first block of seeds: :data:`COMPILED_RUN_SKIPS`)."""
    skips = [arg for test in COMPILED_RUN_SKIPS for arg in ("--deselect", test)]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-o",
            "addopts=-q",
            "--no-header",
            *COMPILED_RUN,
            *skips,
        ],  # no --dist, no xdist
        cwd=ROOT,
        env=_env(compiled_tree),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
    assert f"{len(COMPILED_RUN_SKIPS)} deselected" in done.stdout  # each skip names a test


@pytest.mark.parametrize(
    ("args", "compiles"),
    [
        (["editable_wheel", "--dist-info-dir", "x"], False),  # pip install -e .
        (["egg_info"], False),
        (["dist_info"], False),
        (["bdist_wheel", "--dist-dir", "x"], True),  # pip install ., pip wheel .
        (["-q", "build_ext", "--inplace"], True),
    ],
)
@pytest.mark.needs("compiler")
def test_setup_compiles_wheels_only(
    args: list[str], compiles: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install and metadata-only commands stay pure Python (edits take effect)."""
    monkeypatch.delenv("PRIMERO_PURE_PYTHON", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", *args])
    assert (build_compiled._SETUP.why_pure() is None) == compiles
    monkeypatch.setenv("PRIMERO_PURE_PYTHON", "1")
    assert build_compiled._SETUP.why_pure() == "PRIMERO_PURE_PYTHON=1"


@pytest.mark.needs("compiler")
def test_a_failing_mypyc_makes_a_pure_python_wheel_and_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """mypyc exits on a type error (as it did in an isolated build without numpy's types):
    the build goes on with the pure-Python modules and says why in one line."""

    def failing(*args: object, **kwargs: object) -> None:
        raise SystemExit(2)

    monkeypatch.delenv("PRIMERO_PURE_PYTHON", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setattr("mypyc.build.mypycify", failing)
    assert build_compiled._SETUP.ext_modules() == []
    said = capsys.readouterr().err.strip().splitlines()
    assert said == ["primero: pure-Python modules (mypyc failed: 2; see the lines above)"]
