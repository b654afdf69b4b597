"""Fail when a product module is over 400 lines or a Python function over 80 (part of `make lint`).

    .venv/bin/python scripts/check_sizes.py

Product code is every Python module under fio/, protocol/, worker/, cli/, backend/ and scripts/ that is
not a test (no `tests/` folder) and not a database migration; the SPA's generated
frontend/src/lib/api/schema.d.ts is outside these folders and never counted. A function's length runs
from its `def` line to its last line, decorators and docstring included; a nested function counts on
its own and inside its parent. Exit status 1, naming each offender and its length, when any is over.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_FOLDERS = ("fio", "protocol", "worker", "cli", "backend", "scripts")
SKIPPED_FOLDERS = frozenset({"tests", "migrations", "__pycache__", "node_modules", ".venv"})
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80

# Offenders allowed for a while (e.g. while a split is under way on a branch): each may stay up to the
# length it has, so that it cannot grow meanwhile. An entry whose offender is back within its limit
# fails the check, so none lingers. Keys are module paths from the repository root, or
# "path::qualified.function". Empty since issue 22's splits landed.
ALLOWED: dict[str, int] = {}


class Offender(NamedTuple):
    """A module or function over its limit."""

    key: str
    lines: int
    limit: int

    def describe(self) -> str:
        kind = "function" if "::" in self.key else "module"
        return f"{self.key}: {kind} of {self.lines} lines (at most {self.limit})"


def product_modules(root: Path) -> Iterator[Path]:
    """Every product Python module under the checked folders, in path order."""
    for folder in PRODUCT_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root)
            if SKIPPED_FOLDERS.isdisjoint(relative.parts[:-1]) and not relative.name.startswith("test_"):
                yield path


def function_lengths(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """(qualified name, length in lines) of every function and method in the tree."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            yield name, (node.end_lineno or node.lineno) - start + 1
            yield from function_lengths(node, f"{name}.")
        elif isinstance(node, ast.ClassDef):
            yield from function_lengths(node, f"{prefix}{node.name}.")
        else:
            yield from function_lengths(node, prefix)


def sizes(root: Path) -> Iterator[tuple[str, int, int]]:
    """(key, length, limit) of every product module and function."""
    for path in product_modules(root):
        module = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        yield module, len(source.splitlines()), MAX_MODULE_LINES
        for name, length in function_lengths(ast.parse(source, filename=module)):
            yield f"{module}::{name}", length, MAX_FUNCTION_LINES


def check(root: Path, allowed: dict[str, int]) -> tuple[list[Offender], list[str]]:
    """The offenders over their limit, and the allowlist entries that are no longer needed."""
    offenders: list[Offender] = []
    still_needed: set[str] = set()
    for key, length, limit in sizes(root):
        if length <= limit:
            continue
        if key in allowed:
            still_needed.add(key)
            limit = allowed[key]
            if length <= limit:
                continue
        offenders.append(Offender(key, length, limit))
    stale = sorted(set(allowed) - still_needed)
    return offenders, stale


def main() -> int:
    offenders, stale = check(ROOT, ALLOWED)
    for offender in offenders:
        print(f"too long: {offender.describe()}; split it along its meaning")
    for key in stale:
        print(f"ALLOWED in scripts/check_sizes.py lists {key}, which is within its limit now: remove it")
    if offenders or stale:
        return 1
    waived = f" ({len(ALLOWED)} listed in ALLOWED while they are split)" if ALLOWED else ""
    print(
        f"product modules are at most {MAX_MODULE_LINES} lines "
        f"and functions at most {MAX_FUNCTION_LINES}{waived}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
