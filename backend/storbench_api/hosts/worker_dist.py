"""The worker's packages as wheels the server hands out, so a fresh host installs it with one command.

`pip install -r <server>/api/v1/worker/requirements.txt` installs storbench-fio, storbench-protocol
and storbench-worker from this server (by URL, so a same-named package on a public index can never
stand in for them, each URL carrying its wheel's sha256 as a `#sha256=` fragment, which pip checks
against what it downloads: a `--hash=` option instead would turn on pip's hash-checking mode for
every line, and the third-party ones, pinned by version only, would then be refused), and their
third-party dependencies from the host's index at the versions this server runs. The wheels are
built here from the packages' sources (pure Python: a zip with the package and its metadata), in
memory, once per process.
"""

import base64
import hashlib
import importlib.metadata
import io
import re
import threading
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from storbench_api.settings import REPO_ROOT

# The worker and what it installs of ours, in install order.
WORKER_PACKAGES = ("fio", "protocol", "worker")
_OURS = {"storbench-fio", "storbench-protocol", "storbench-worker"}
# A wheel's files carry a fixed date: the same sources give the same bytes.
_EPOCH = (2020, 1, 1, 0, 0, 0)
_lock = threading.Lock()
_built: dict[str, "Wheel"] | None = None


@dataclass(frozen=True)
class Wheel:
    """One built wheel."""

    filename: str
    content: bytes
    sha256: str


class WorkerPackagesMissing(Exception):
    """The server has no source of the worker's packages to build from."""


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def build_wheel(project_dir: Path) -> Wheel:
    """A pure-Python wheel of one of our packages, from its pyproject.toml and package folder."""
    project = tomllib.loads((project_dir / "pyproject.toml").read_text())["project"]
    name: str = project["name"]
    version: str = project["version"]
    dist = name.replace("-", "_")
    package = project_dir / dist
    files: list[tuple[str, bytes]] = [
        (path.relative_to(project_dir).as_posix(), path.read_bytes())
        for path in sorted(package.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]
    info = f"{dist}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3.11')}",
        *(f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])),
    ]
    files.append((f"{info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    wheel_file = "Wheel-Version: 1.0\nGenerator: storbench\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files.append((f"{info}/WHEEL", wheel_file.encode()))
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]", *(f"{script} = {target}" for script, target in scripts.items())]
        files.append((f"{info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    files.append((f"{info}/top_level.txt", f"{dist}\n".encode()))
    record = [f"{path},{_record_hash(data)},{len(data)}" for path, data in files]
    files.append((f"{info}/RECORD", ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files:
            entry = zipfile.ZipInfo(path, _EPOCH)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data, zipfile.ZIP_DEFLATED)
    content = buffer.getvalue()
    return Wheel(f"{dist}-{version}-py3-none-any.whl", content, hashlib.sha256(content).hexdigest())


def wheels(source_root: Path = REPO_ROOT) -> dict[str, Wheel]:
    """The worker's wheels by file name, built on first use."""
    global _built
    with _lock:
        if _built is None:
            missing = [p for p in WORKER_PACKAGES if not (source_root / p / "pyproject.toml").is_file()]
            if missing:
                raise WorkerPackagesMissing(
                    f"this server has no sources of the worker's packages ({', '.join(missing)}) to "
                    "hand out: install the worker from a storbench checkout "
                    "(pip install ./fio ./protocol ./worker)"
                )
            built = [build_wheel(source_root / p) for p in WORKER_PACKAGES]
            _built = {wheel.filename: wheel for wheel in built}
        return _built


def _pinned(requirement: str) -> str:
    """A third-party requirement pinned to the version this server runs with, when it has it."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    if name is None:
        return requirement
    try:
        return f"{name.group(0)}=={importlib.metadata.version(name.group(0))}"
    except importlib.metadata.PackageNotFoundError:
        return requirement


def requirements_txt(server_url: str, source_root: Path = REPO_ROOT) -> str:
    """A pip requirements file installing the worker from this server (ours by URL, the rest pinned)."""
    built = wheels(source_root)
    third_party: list[str] = []
    for package in WORKER_PACKAGES:
        project = tomllib.loads((source_root / package / "pyproject.toml").read_text())["project"]
        for requirement in project.get("dependencies", []):
            match = re.match(r"[A-Za-z0-9._-]+", requirement)
            if match and match.group(0) not in _OURS and requirement not in third_party:
                third_party.append(requirement)
    lines = [
        f"# storbench worker, served by {server_url}:",
        f"#   pip install -r {server_url}/api/v1/worker/requirements.txt",
        *(f"{server_url}/api/v1/worker/dist/{name}#sha256={wheel.sha256}" for name, wheel in built.items()),
        *sorted({_pinned(requirement) for requirement in third_party}),
    ]
    return "\n".join(lines) + "\n"
