"""Nothing fio is told to open resolves outside the run directory, whatever the job says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storbench_fio.confine import (
    confine_job_paths,
    path_option_problems,
    relative_name_problem,
    separate_host_paths,
    target_path_problem,
)
from storbench_fio.job import FioJob, validate_job_dict

BASE = {"name": "j", "rw": "randwrite", "bs": "4k", "size": "1m", "runtime": 1}

# Pieces of path-like values an attacker would try.
_PIECES = st.sampled_from(
    [
        "..",
        ".",
        "/",
        "//",
        "./",
        "../",
        ":",
        "\\",
        "\\:",
        " ",
        "\t",
        "\u00a0",
        "\u2003",
        "\u3000",
        "etc",
        "passwd",
        "link",
        "loop",
        "sub",
        "a",
        "$jobnum",
        "%s",
        "~",
        "C:",
        "-",
        "dev",
        "sda",
    ]
)
PATH_LIKE = st.lists(_PIECES, min_size=1, max_size=8).map("".join)


def _job(**paths: str) -> FioJob:
    return FioJob.model_validate({**BASE, **paths})


def _scratch_with_links(root: Path) -> Path:
    """A target holding symlinks that point out of it, and a run directory with some planted too."""
    outside = root / "outside"
    outside.mkdir()
    target = root / "target"
    run_dir = target / "run"
    run_dir.mkdir(parents=True)
    (target / "link").symlink_to(outside)
    (run_dir / "link").symlink_to(outside)
    (run_dir / "loop").symlink_to("loop")
    (run_dir / "sub").mkdir()
    (run_dir / "sub" / "link").symlink_to("/etc")
    return run_dir


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(directory=st.none() | PATH_LIKE, filename=st.none() | PATH_LIKE)
def test_nothing_fio_opens_resolves_outside_the_run_directory(
    tmp_path: Path, directory: str | None, filename: str | None
) -> None:
    run_dir = tmp_path / "target" / "run"
    if not run_dir.exists():
        _scratch_with_links(tmp_path)
    values = {k: v for k, v in (("directory", directory), ("filename", filename)) if v is not None}
    try:
        job = _job(**values)
    except ValueError:
        return  # refused by the job model already (e.g. a newline)
    paths, errors = confine_job_paths(job, kind="directory", run_dir=str(run_dir), resolve=True)
    if errors:
        assert paths.directory is None
        assert paths.filename is None
        return
    real_root = os.path.realpath(run_dir)
    for path in (paths.directory, paths.filename):
        if path is not None:
            assert os.path.isabs(path)
            assert path == path.strip()
            real = os.path.realpath(path)
            assert real == real_root or real.startswith(real_root + "/"), (values, path)


@given(value=PATH_LIKE)
def test_an_accepted_name_is_plain(value: str) -> None:
    if relative_name_problem(value) is None:
        parts = value.split("/")
        assert all(part not in ("", ".", "..") and not part[0].isspace() for part in parts)
        assert ":" not in value
        assert "\\" not in value
        assert not value.startswith("/")


def test_symlinks_planted_in_the_run_directory_are_refused(tmp_path: Path) -> None:
    run_dir = _scratch_with_links(tmp_path)
    for values in ({"filename": "link"}, {"directory": "link"}, {"filename": "sub/link/passwd"}):
        _, errors = confine_job_paths(
            _job(**values), kind="directory", run_dir=str(run_dir), resolve=True
        )
        assert errors, values
        assert "outside" in errors[0].reason or "link" in errors[0].reason


def test_a_device_node_in_the_run_directory_is_refused(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    os.mkfifo(run_dir / "fifo")
    _, errors = confine_job_paths(
        _job(filename="fifo"), kind="directory", run_dir=str(run_dir), resolve=True
    )
    assert "special file" in errors[0].reason


def test_fio_gets_absolute_paths_built_from_the_run_directory() -> None:
    paths, errors = confine_job_paths(
        _job(directory="d", filename="f"),
        kind="directory",
        run_dir="/t/run",
        fio_prefix="/proc/self/fd/7/",
    )
    assert errors == []
    assert paths.filename == "/proc/self/fd/7/d/f"
    assert paths.directory is None
    paths, _ = confine_job_paths(_job(), kind="directory", run_dir="/t/run")
    assert paths.directory == "/t/run/"
    paths, errors = confine_job_paths(_job(), kind="block_device", run_dir="", device="/dev/vdb")
    assert paths.filename == "/dev/vdb"
    assert errors == []


@pytest.mark.parametrize(
    ("path", "kind", "roots", "words"),
    [
        ("/", "directory", ["/"], "system folder"),
        ("/dev", "directory", ["/"], "/dev"),
        ("/dev/shm/x", "directory", ["/dev/shm"], "/dev"),
        ("/etc", "directory", None, "/etc"),
        ("/proc/1", "directory", None, "/proc"),
        ("/sys/block", "directory", None, "/sys"),
        ("/boot/efi", "directory", None, "/boot"),
        ("/usr/local", "directory", None, "/usr"),
        ("/mnt", "directory", ["/mnt"], "system folder"),
        ("/mnt/nas2", "directory", ["/mnt/nas"], "outside"),
        ("/mnt/nas/../etc", "directory", None, "plainly"),
        ("/mnt/nas", "directory", [], "outside"),
        ("/dev/sda", "block_device", ["/dev/sdb"], "--allow /dev/sda"),
        ("/dev/sda", "block_device", ["/"], "--allow /dev/sda"),
        ("/mnt/disk", "block_device", None, "under /dev"),
    ],
)
def test_targets_live_inside_what_the_host_allows(
    path: str, kind: str, roots: list[str] | None, words: str
) -> None:
    problem = target_path_problem(path, kind, roots)  # type: ignore[arg-type]
    assert problem is not None
    assert words in problem


def test_allowed_targets() -> None:
    assert target_path_problem("/mnt/nas/bench", "directory", ["/mnt/nas"]) is None
    assert target_path_problem("/mnt/nas", "directory", ["/mnt/nas"]) is None
    assert target_path_problem("/tmp/pytest-1/scratch", "directory", ["/tmp/pytest-1"]) is None
    assert target_path_problem("/dev/vdb", "block_device", ["/dev/vdb", "/mnt/x"]) is None


def test_where_a_pasted_text_ran_fio_is_separated_from_the_jobs() -> None:
    jobs = [
        validate_job_dict({"name": "a", "rw": "read", "directory": "/mnt/nas"}),
        validate_job_dict({"name": "b", "rw": "read", "directory": "/mnt/nas"}),
        validate_job_dict({"name": "c", "rw": "read", "filename": "/mnt/nas/fio.dat"}),
        validate_job_dict({"name": "d", "rw": "read", "filename": "/dev/nvme0n1"}),
        validate_job_dict({"name": "e", "rw": "read", "filename": "\\\\<server>\\<share>\\<file>"}),
        validate_job_dict({"name": "f", "rw": "read", "directory": "Z\\:\\"}),
        validate_job_dict({"name": "g", "rw": "read", "directory": "sub", "filename": "data.bin"}),
    ]
    kept, notices = separate_host_paths(jobs)
    assert [(j.directory, j.filename) for j in kept] == [
        (None, None),
        (None, None),
        (None, "fio.dat"),
        (None, None),
        (None, None),
        (None, None),
        ("sub", "data.bin"),
    ]
    # One notice per place (a [global] directory repeated in each job is said once).
    assert [(n.option, n.value) for n in notices] == [
        ("directory", "/mnt/nas"),
        ("filename", "/mnt/nas/fio.dat"),
        ("filename", "/dev/nvme0n1"),
        ("filename", "\\\\<server>\\<share>\\<file>"),
        ("directory", "Z\\:\\"),
    ]
    assert "target at /mnt/nas" in notices[0].message
    assert "block-device target" in notices[2].message
    # What is left passes the rule every run applies.
    for job in kept:
        assert not path_option_problems("directory", job.directory, job.filename, None)
