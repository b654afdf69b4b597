"""`make lint`'s size check names every module over 400 lines and function over 80, and no other."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

CHECK_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_sizes.py"


@pytest.fixture(scope="module")
def check_sizes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("storbench_check_sizes", CHECK_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def function_of(lines: int, name: str = "f", indent: str = "") -> str:
    """Source of a function `lines` long, from its def line to its last."""
    body = "".join(f"{indent}    x = {n}\n" for n in range(lines - 2))
    return f"{indent}def {name}() -> int:\n{body}{indent}    return 0\n"


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def described(check_sizes: ModuleType, root: Path, allowed: dict[str, int] | None = None) -> list[str]:
    offenders, stale = check_sizes.check(root, allowed or {})
    return [offender.describe() for offender in offenders] + [f"stale {key}" for key in stale]


def test_names_the_long_module_and_the_long_method_with_their_lengths(
    check_sizes: ModuleType, tmp_path: Path
) -> None:
    write(tmp_path, "fio/storbench_fio/short.py", function_of(80) + "\n" * 300)
    write(tmp_path, "fio/storbench_fio/long.py", "x = 1\n" * 401)
    write(tmp_path, "worker/storbench_worker/tasks.py", "class Task:\n" + function_of(81, "run", "    "))

    assert described(check_sizes, tmp_path) == [
        "fio/storbench_fio/long.py: module of 401 lines (at most 400)",
        "worker/storbench_worker/tasks.py::Task.run: function of 81 lines (at most 80)",
    ]


def test_tests_and_migrations_are_not_product_code(check_sizes: ModuleType, tmp_path: Path) -> None:
    write(tmp_path, "backend/tests/test_everything.py", function_of(500))
    write(tmp_path, "backend/migrations/versions/0001_start.py", "x = 1\n" * 900)
    write(tmp_path, "scripts/tool.py", function_of(81, "main"))

    assert described(check_sizes, tmp_path) == ["scripts/tool.py::main: function of 81 lines (at most 80)"]


def test_an_allowed_offender_may_not_grow_and_must_leave_the_list_once_split(
    check_sizes: ModuleType, tmp_path: Path
) -> None:
    module = "backend/storbench_api/history/service.py"
    write(tmp_path, module, "x = 1\n" * 452)
    assert described(check_sizes, tmp_path, {module: 452}) == []

    write(tmp_path, module, "x = 1\n" * 453)
    assert described(check_sizes, tmp_path, {module: 452}) == [f"{module}: module of 453 lines (at most 452)"]

    write(tmp_path, module, "x = 1\n" * 300)
    assert described(check_sizes, tmp_path, {module: 452}) == [f"stale {module}"]
