"""A small mutation sweep over one module at a time (issue 20, item 7; CONTRIBUTING.md).

Each mutant changes one thing in the module's syntax tree (a comparison, an arithmetic or
boolean operator, a ``not``, an integer, a string, a ``True``/``False``, a returned value,
a call made for its effect, ``break``/``continue``) and the given test files run against
it; a mutant no test fails on *survives*, and the report lists it with its line. Whether a
survivor is a missing test or an equivalent mutant (no behaviour changes) is for a person
to judge.

It runs on a copy of the checkout (``--work``, default a temporary folder), never on the
checkout itself, one mutant at a time (the machine is shared: run it under ``nice``). The
test process is forked from one that has already imported pytest and the heavy third-party
packages, so a mutant costs its tests' time, not the interpreter's start-up.

Usage::

    nice -n 10 .venv/bin/python tools/mutate.py src/primero/play/tablemodel/payload.py \\
        tests/test_tablemodel.py tests/test_presence.py [--json out.json] [--only 12,40]

Exit status 0; the survivors are printed (and written to ``--json``).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BIN_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
}


@dataclass
class Mutant:
    """One mutation: the node's index in ``ast.walk`` order, its line, what it does."""

    index: int
    node: int
    line: int
    what: str
    source_line: str
    status: str = ""
    seconds: float = 0.0


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Ids of nodes never mutated: docstrings, annotations, decorators, ``__all__``."""
    skip: set[int] = set()

    def add(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            add(body[0])
        if isinstance(node, ast.arg):
            add(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            add(node.returns)
            for d in node.decorator_list:
                add(d)
        if isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                add(d)
        if isinstance(node, ast.AnnAssign):
            add(node.annotation)
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                add(node)
        if isinstance(node, ast.ImportFrom | ast.Import):
            add(node)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            add(node)
    return skip


def _mutations(node: ast.AST) -> Iterator[str]:
    """The mutations of one node, as short descriptions (applied by :func:`_apply`)."""
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in _CMP_SWAP:
                yield f"cmp{k}:{type(op).__name__}->{_CMP_SWAP[type(op)].__name__}"
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _BIN_SWAP:
        yield f"op:{type(node.op).__name__}->{_BIN_SWAP[type(node.op)].__name__}"
    elif isinstance(node, ast.BoolOp):
        yield "bool:" + ("and->or" if isinstance(node.op, ast.And) else "or->and")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not:removed"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield "neg:removed"
    elif isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            yield f"const:{v}->{not v}"
        elif isinstance(v, int):
            yield f"const:{v}->{v + 1}"
        elif isinstance(v, str):
            yield f"const:{v!r}->'XX'"
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield "return:None"
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield "call:removed"
    elif isinstance(node, ast.Break):
        yield "break->continue"
    elif isinstance(node, ast.Continue):
        yield "continue->break"


def _apply(node: ast.AST, what: str) -> ast.AST:
    """The node that replaces ``node`` under the mutation ``what`` (a :func:`_mutations`
    description); operators are changed in place."""
    kind, _, _change = what.partition(":")
    if kind.startswith("cmp") and isinstance(node, ast.Compare):
        k = int(kind[3:])
        node.ops[k] = _CMP_SWAP[type(node.ops[k])]()
    elif kind == "op" and isinstance(node, ast.BinOp | ast.AugAssign):
        node.op = _BIN_SWAP[type(node.op)]()
    elif kind == "bool" and isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "not" and isinstance(node, ast.UnaryOp):
        return ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
    elif kind == "neg" and isinstance(node, ast.UnaryOp):
        return node.operand
    elif kind == "const" and isinstance(node, ast.Constant):
        v = node.value
        node.value = (not v) if isinstance(v, bool) else (v + 1 if isinstance(v, int) else "XX")
    elif kind in ("return", "call") and isinstance(node, ast.Return | ast.Expr):
        node.value = ast.Constant(None)
    elif what == "break->continue":
        return ast.Continue()
    elif what == "continue->break":
        return ast.Break()
    else:  # pragma: no cover - a description this module did not make
        raise ValueError(what)
    return node


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, what: str) -> None:
        self.target, self.what = target, what

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return _apply(node, self.what)
        new: ast.AST = super().visit(node)
        return new


def list_mutants(source: str) -> list[Mutant]:
    """Every mutant of ``source``, in a fixed order."""
    tree = ast.parse(source)
    skip = _skipped_nodes(tree)
    lines = source.splitlines()
    out: list[Mutant] = []
    for n, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        for what in _mutations(node):
            line = getattr(node, "lineno", 0)
            text = lines[line - 1].strip() if line else ""
            out.append(Mutant(0, n, line, what, text))
    out.sort(key=lambda m: m.line)  # stable: walk order within a line
    for i, m in enumerate(out):
        m.index = i
    return out


def mutated_source(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` applied (unparsed: comments and layout are not kept)."""
    tree = ast.parse(source)
    target = list(ast.walk(tree))[mutant.node]
    mutated = _Replace(target, mutant.what).visit(tree)
    ast.fix_missing_locations(mutated)
    return ast.unparse(mutated)


#: pytest options of every run: fail fast, no cache, fixed Hypothesis seed, and without the
#: schemathesis plugin (its import costs seconds per mutant; no test of these modules uses it).
PYTEST_ARGS = ["-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:schemathesis"]


def _run_tests(
    work: Path, tests: list[str], timeout: float, extra: list[str] | None = None
) -> tuple[str, float]:
    """Run ``tests`` in a forked child inside ``work``: 'killed', 'survived' or 'timeout'."""
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: import the package from the copy, run pytest, exit
        try:
            os.chdir(work)
            sys.path.insert(0, str(work / "src"))
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            import pytest

            rc = pytest.main([*PYTEST_ARGS, "--hypothesis-seed=0", *(extra or []), *tests])
            os._exit(int(rc))
        except BaseException:
            os._exit(99)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        elapsed = time.monotonic() - start
        if done:
            code = os.waitstatus_to_exitcode(status)
            return ("survived" if code == 0 else "killed"), elapsed
        if elapsed > timeout:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", elapsed
        time.sleep(0.05)


def _copy_checkout(work: Path) -> None:
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", "node_modules", ".hypothesis")
    for name in ("src", "tests", "tools", "docs", "benchmarks"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, work / name, ignore=ignore, dirs_exist_ok=True)
    for f in ROOT.iterdir():
        if f.is_file():
            shutil.copy2(f, work / f.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="the module to mutate, e.g. src/primero/engine/views.py")
    parser.add_argument("tests", nargs="+", help="test files (or node ids) run per mutant")
    parser.add_argument("--json", help="write every mutant and its status here")
    parser.add_argument("--only", help="comma-separated mutant indices to run")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument(
        "--pytest-arg",
        action="append",
        default=[],
        help="one more pytest argument (repeat), e.g. --pytest-arg=--deselect=tests/x.py::slow",
    )
    parser.add_argument(
        "--then",
        help="comma-separated test files run only on the survivors of the first ones "
        "(a before/after sweep in one pass: new tests against the old tests' survivors)",
    )
    parser.add_argument("--work", help="folder for the checkout's copy (default: temporary)")
    args = parser.parse_args(argv)

    source = (ROOT / args.module).read_text(encoding="utf-8")
    mutants = list_mutants(source)
    if args.list:
        for m in mutants:
            print(f"{m.index:4d} L{m.line:<4d} {m.what:32s} {m.source_line}")
        return 0
    if args.only:
        wanted = {int(i) for i in args.only.split(",")}
        mutants = [m for m in mutants if m.index in wanted]

    # Byte-code caches on (the copy's own __pycache__; the mutated module's is removed
    # before each run), and the heavy imports once, in the parent: every forked child
    # starts with them.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    import pytest  # noqa: F401

    for optional in ("numpy", "pyspiel", "textual", "hypothesis", "fastapi", "pydantic"):
        with contextlib.suppress(ImportError):
            __import__(optional)

    work = Path(args.work or tempfile.mkdtemp(prefix="primero-mutate-"))
    _copy_checkout(work)
    target = work / args.module
    cache = target.parent / "__pycache__"

    def install(text: str) -> None:
        target.write_text(text, encoding="utf-8")
        for pyc in cache.glob(f"{target.stem}.*.pyc"):
            pyc.unlink()

    install(source)
    status, base = _run_tests(work, args.tests, 600, args.pytest_arg)
    if status != "survived":
        print(f"the tests fail on the unchanged module ({status}); nothing to measure")
        return 1
    timeout = max(10.0, 3 * base)
    print(f"{len(mutants)} mutants; unchanged module: tests pass in {base:.1f} s", flush=True)
    for m in mutants:
        install(mutated_source(source, m))
        m.status, m.seconds = _run_tests(work, args.tests, timeout, args.pytest_arg)
        if m.status == "survived" and args.then:
            after, seconds = _run_tests(work, args.then.split(","), timeout, args.pytest_arg)
            m.status = "survived" if after == "survived" else f"{after} after"
            m.seconds += seconds
        print(f"{m.index:4d} L{m.line:<4d} {m.status:8s} {m.what:32s} {m.source_line}", flush=True)
    install(source)
    statuses = ("killed", "timeout", "killed after", "timeout after", "survived")
    counts = {s: sum(m.status == s for m in mutants) for s in statuses}
    print(f"{args.module}: {len(mutants)} mutants, {counts}")
    for m in mutants:
        if m.status == "survived":
            print(f"SURVIVED {m.index:4d} L{m.line:<4d} {m.what:32s} {m.source_line}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "module": args.module,
                    "tests": args.tests,
                    "counts": counts,
                    "mutants": [asdict(m) for m in mutants],
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
