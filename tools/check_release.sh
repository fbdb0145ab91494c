#!/usr/bin/env bash
# The release as a packager makes it (run by .ci/run after `make test`): the sdist and the
# wheel built in isolation (python -m build), checked by twine, the wheel installed in a
# new venv with no editable install, and `primero simulate`, `primero replay` and a table
# of bots on `primero serve` played from it; then the compiled modules of that wheel tested against the pure-Python ones.
# Uses .venv's build and twine (`make venv`). The build prints one line when it
# makes pure-Python modules instead of compiled ones (no compiler, no headers, mypyc).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m build --outdir "$work/dist" .
.venv/bin/twine check --strict "$work"/dist/*
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check "$work"/dist/primero-*.whl
cd "$work"  # away from the checkout: the installed package, not src/
"$work/venv/bin/primero" --version
"$work/venv/bin/python" -c "import primero.research.fastsim as f; print('kernel:', f.__file__)"
"$work/venv/bin/primero" simulate --hands 200 --seed 7 --save-dir "$work/hands"
"$work/venv/bin/primero" replay "$(ls "$work"/hands/*.prh | head -n 1)"
# Its server (compiled engine, pure server) plays a table of bots to the end, its fair
# deals verify, and SIGTERM stops it with status 0.
mkdir "$work/serve"
"$work/venv/bin/python" "$root/tools/serve_smoke.py" "$work/serve"
# The wheel's compiled modules give the pure-Python results and pass the kernel's, the
# rules' and the environments' tests (tests/research/test_compiled.py, marked release).
"$root/.venv/bin/python" -m zipfile -e "$(ls "$work"/dist/primero-*.whl)" "$work/tree"
(cd "$root" && PRIMERO_COMPILED_TREE="$work/tree" .venv/bin/pytest -p no:cacheprovider -m release tests/research/test_compiled.py)
echo "release: sdist and wheel built, checked, installed, played, and its compiled modules tested"
