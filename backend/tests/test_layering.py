"""Which package may import which: kit below every domain, the rollup below its writers and readers."""

import ast
from pathlib import Path

import storbench_api

PACKAGE = Path(storbench_api.__file__).parent


def _imports(folder: str) -> set[str]:
    """The storbench_api modules imported anywhere in one of its folders."""
    found: set[str] = set()
    for path in (PACKAGE / folder).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found.update(n for n in names if n.startswith("storbench_api."))
    return found


def test_the_rollup_imports_only_the_models_the_figures_and_itself() -> None:
    below = ("storbench_api.models", "storbench_api.figures", "storbench_api.rollup")
    outside = {name for name in _imports("rollup") if not name.startswith(below)}
    assert outside == set()


def test_the_writers_of_results_never_reach_into_compare() -> None:
    for folder in ("results", "hosts", "history", "rollup"):
        assert not {n for n in _imports(folder) if n.startswith("storbench_api.compare")}, folder


def test_the_kit_knows_no_domain() -> None:
    # kit/ holds what any domain may use; it may read the settings and the error shape, nothing else.
    allowed = ("storbench_api.kit", "storbench_api.errors", "storbench_api.settings")
    outside = {name for name in _imports("kit") if not name.startswith(allowed)}
    assert outside == set()
