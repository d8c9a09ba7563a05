"""Mutation testing of the rule modules, by hand: does a fast subset of tests notice when a
rule is broken on purpose?

Each *mutant* is one small change to one module — a comparison flipped (``<`` ↔ ``<=``,
``>`` ↔ ``>=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``, ``is`` ↔ ``is not``), an integer
constant moved by ±1, ``True`` ↔ ``False``, ``and`` ↔ ``or``, a condition of ``if`` / ``while``
/ a conditional expression negated, a ``not`` dropped, ``+`` ↔ ``-``. For each, the module's
tests run (``pytest -x -q``, a timeout per mutant); a mutant the tests pass *survives* — a
rule the tests do not pin, or a change that makes no difference (an equivalent mutant).

The source tree is never touched: the script copies ``src/`` to a temporary directory,
mutates the copy and runs the tests with that copy first on ``PYTHONPATH`` (no bytecode
written, no pytest cache, hypothesis's database in the temporary directory); Ctrl-C
stops the running tests and removes the copy.

Run by hand, not by ``make test`` (see docs/testing.md)::

    .venv/bin/python benchmarks/mutants.py src/paiju/shengji/trick.py
    .venv/bin/python benchmarks/mutants.py src/paiju/shuangkou/combos.py --max 40 --seed 2
    .venv/bin/python benchmarks/mutants.py src/paiju/baohuang/scoring.py --tests tests/test_baohuang_scoring.py
    .venv/bin/python benchmarks/mutants.py src/paiju/shengji/trick.py --list    # the mutants only

``--max N`` runs a random sample of N mutants (``--seed`` picks it), ``--lines A-B`` only
mutates those lines, ``--timeout`` is per mutant (a timeout counts as killed). The exit
status is 0 when every mutant run was killed, 1 when some survived, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the fast tests of each rule module (a module not listed needs --tests)
SHENGJI_RULES = [
    "tests/test_shengji_rules_pure.py",
    "tests/test_shengji_rules_engine.py",
    "tests/test_shengji_rules_variants.py",
]
TESTS: dict[str, list[str]] = {
    "src/paiju/baohuang/plays.py": ["tests/test_baohuang_play.py"],
    "src/paiju/baohuang/scoring.py": ["tests/test_baohuang_scoring.py"],
    "src/paiju/baohuang/game.py": ["tests/test_baohuang_play.py", "tests/test_baohuang_scoring.py"],
    "src/paiju/baohuang/hand.py": ["tests/test_baohuang_play.py", "tests/test_baohuang_scoring.py"],
    "src/paiju/baohuang/declarations.py": ["tests/test_baohuang_play.py", "tests/test_baohuang_scoring.py"],
    "src/paiju/baohuang/tricks.py": ["tests/test_baohuang_play.py", "tests/test_baohuang_scoring.py"],
    "src/paiju/baohuang/ending.py": ["tests/test_baohuang_play.py", "tests/test_baohuang_scoring.py"],
    "src/paiju/shengji/trick.py": SHENGJI_RULES,
    "src/paiju/shengji/follow.py": SHENGJI_RULES,
    "src/paiju/shengji/units.py": SHENGJI_RULES,
    "src/paiju/shengji/throw.py": [*SHENGJI_RULES, "tests/test_shengji_throws.py"],
    "src/paiju/shengji/scoring.py": SHENGJI_RULES,
    "src/paiju/shengji/game.py": [*SHENGJI_RULES, "tests/test_shengji_throws.py", "tests/test_shengji_kitty.py"],
    "src/paiju/shuangkou/combos.py": ["tests/test_shuangkou_rules.py"],
    "src/paiju/shuangkou/game.py": ["tests/test_shuangkou_rules.py"],
    # the hall's write paths: a failed write shown to nobody, the writer's seq and fence checks
    "src/paiju/server/tables/table.py": [
        "tests/server/test_table_rules.py",
        "tests/server/test_failed_writes.py",
        "tests/server/test_in_process.py",
    ],
    "src/paiju/server/store/writer.py": ["tests/test_writer.py", "tests/test_lease.py"],
}

FLIP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}

_ORDER_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)  # flipped to their boundary twin, not negated


@dataclass(frozen=True)
class Mutant:
    """One change: the source text from (line, col) to (end_line, end_col) becomes ``new``."""

    line: int
    col: int
    end_line: int
    end_col: int
    old: str
    new: str
    kind: str

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        start = sum(len(x) for x in lines[: self.line - 1]) + _byte_to_char(lines[self.line - 1], self.col)
        end = sum(len(x) for x in lines[: self.end_line - 1]) + _byte_to_char(lines[self.end_line - 1], self.end_col)
        assert source[start:end] == self.old, (source[start:end], self.old)
        return source[:start] + self.new + source[end:]

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind}: {_short(self.old)}  →  {_short(self.new)}"


def _byte_to_char(line: str, offset: int) -> int:
    """ast column offsets count UTF-8 bytes; the text is indexed by characters."""
    return len(line.encode()[:offset].decode())


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes not worth mutating: docstrings, annotations, ``assert`` statements (internal
    checks), the arguments of ``raise`` (error messages) and ``__all__``."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assert | ast.Raise):
            mark(node)
        elif isinstance(node, ast.arg | ast.AnnAssign):
            mark(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
        elif isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ):
            mark(node)
    return skip


def mutants(source: str) -> Iterator[Mutant]:
    """Every mutant of a module's source, in source order."""
    tree = ast.parse(source)
    skip = _skipped_nodes(tree)

    def seg(node: ast.AST) -> str:
        text = ast.get_source_segment(source, node)
        assert text is not None
        return text

    def at(node: ast.AST, new: str, kind: str) -> Mutant:
        return Mutant(
            node.lineno,  # type: ignore[attr-defined]
            node.col_offset,  # type: ignore[attr-defined]
            node.end_lineno,  # type: ignore[attr-defined]
            node.end_col_offset,  # type: ignore[attr-defined]
            seg(node),
            f"({new})",
            kind,
        )

    found: list[Mutant] = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "lineno"):
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                flip = FLIP_COMPARE.get(type(op))
                if flip is not None:
                    ops = list(node.ops)
                    ops[i] = flip()
                    new = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
                    found.append(at(node, ast.unparse(new), "comparison"))
        elif isinstance(node, ast.BoolOp):
            other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            found.append(at(node, ast.unparse(ast.BoolOp(op=other, values=node.values)), "and/or"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append(at(node, ast.unparse(node.operand), "drop not"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            found.append(at(node, repr(not node.value), "True/False"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            for d in (1, -1):
                found.append(at(node, repr(node.value + d), f"constant {d:+d}"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            other_op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            new_op = ast.BinOp(left=node.left, op=other_op, right=node.right)
            found.append(at(node, ast.unparse(new_op), "+/-"))
        if isinstance(node, ast.If | ast.While | ast.IfExp) and id(node.test) not in skip:
            t = node.test
            # a single ==, !=, in, is … is already negated by its comparison flip
            if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and not isinstance(t.ops[0], _ORDER_OPS)):
                found.append(at(t, f"not ({seg(t)})", "negate condition"))
    found.sort(key=lambda m: (m.line, m.col, m.kind, m.new))
    for m in found:
        try:
            ast.parse(m.apply(source))
        except SyntaxError:
            continue
        yield m


def run_tests(tree: Path, tests: list[str], timeout: float, extra: list[str]) -> tuple[str, float]:
    """``passed``, ``failed`` or ``timeout`` for the tests against the copy at ``tree``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # an edit of the same size in the same second must not reuse a .pyc
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(tree / ".hypothesis")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--timeout", str(int(timeout))]
    cmd += extra + tests
    start = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        code = None
    finally:  # Ctrl-C or a timeout: stop the tests and whatever they started
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    spent = time.monotonic() - start
    if code is None:
        return "timeout", spent
    return ("passed" if code == 0 else "failed"), spent


def _lines(text: str) -> tuple[int, int]:
    a, _, b = text.partition("-")
    return int(a), int(b or a)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("module", help="a module under src/, e.g. src/paiju/shengji/trick.py")
    ap.add_argument("--tests", nargs="+", help="test files or node ids to run (default: the module's fast tests)")
    ap.add_argument("--max", type=int, help="run a random sample of this many mutants")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--lines", type=_lines, help="only mutate these lines, e.g. 20-60")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per mutant (default 60)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--pytest-args", default="", help="more pytest arguments, e.g. \"-k 'not slow'\"")
    a = ap.parse_args()

    module = Path(a.module).resolve().relative_to(ROOT).as_posix()
    if not module.startswith("src/"):
        ap.error("the module must be under src/")
    tests = a.tests or TESTS.get(module)
    if not tests:
        ap.error(f"no tests known for {module}: give --tests")
    source = (ROOT / module).read_text()
    todo = list(mutants(source))
    if a.lines:
        todo = [m for m in todo if a.lines[0] <= m.line <= a.lines[1]]
    total = len(todo)
    if a.max is not None and a.max < total:
        todo = sorted(random.Random(a.seed).sample(todo, a.max), key=lambda m: (m.line, m.col))
    if a.list:
        for m in todo:
            print(m)
        print(f"{len(todo)} of {total} mutants of {module}")
        return 0

    extra = a.pytest_args.split()
    survivors: list[Mutant] = []
    counts = {"killed": 0, "timeout": 0, "survived": 0}
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="paiju-mutants-") as tmp:
        tree = Path(tmp)
        shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        target = tree / module
        print(f"{module}: {len(todo)} of {total} mutants; tests: {' '.join(tests)}")
        status, spent = run_tests(tree, tests, a.timeout * 3, extra)
        if status != "passed":
            print(f"the tests do not pass on the unmutated copy ({status}): fix that first")
            return 2
        print(f"unmutated: passed in {spent:.1f} s")
        try:
            for i, m in enumerate(todo, 1):
                target.write_text(m.apply(source))
                status, spent = run_tests(tree, tests, a.timeout, extra)
                target.write_text(source)
                if status == "passed":
                    survivors.append(m)
                    counts["survived"] += 1
                    verdict = "SURVIVED"
                else:
                    counts["killed" if status == "failed" else "timeout"] += 1
                    verdict = "killed" if status == "failed" else "killed (timeout)"
                print(f"[{i}/{len(todo)}] {verdict:16} {spent:5.1f} s  {m}", flush=True)
        except KeyboardInterrupt:
            interrupted = True
            print("interrupted: the results so far")
        finally:
            target.write_text(source)
    run = sum(counts.values())
    print()
    print(f"{module}: {run} mutants run, {counts['killed']} killed, {counts['timeout']} timed out, ", end="")
    print(f"{counts['survived']} survived")
    for m in survivors:
        print(f"  survivor: {m}")
    return 130 if interrupted else 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
