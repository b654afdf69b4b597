"""Where fio may touch a host: one rule for every path fio opens, used by the API and the worker.

A job never names a place on the host. On a directory target its `filename` and `directory` are
names relative to the run directory: plain parts of letters, digits and `._+-` joined by `/`, so a
blank, `..`, an absolute path, a `:` list, a backslash, a `$` expansion or a device node cannot be
written at all. The worker creates the run directory fresh inside the target and gives fio absolute
paths it builds itself; `confine_job_paths` is the single function that turns a job into those paths
and, on the host, checks with realpath that they stay inside the run directory.

On a block device target fio opens the target device and nothing else.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from storbench_fio.errors import Notice, OptionError
from storbench_fio.job import FioJob

__all__ = [
    "PLAIN_PART",
    "SYSTEM_TREES",
    "JobPaths",
    "confine_job_paths",
    "path_option_problems",
    "relative_name_problem",
    "separate_host_paths",
    "target_path_problem",
]

# One part of a relative name: no leading dot or dash, nothing fio or a shell would interpret.
PLAIN_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+-]{0,127}")
_MAX_PARTS = 8
_MAX_NAME = 512
_NAME_RULE = (
    "give a name relative to the run directory: parts of A-Z a-z 0-9 . _ + - (not starting with "
    "'.' or '-') joined by '/', e.g. 'data/file1'"
)

# Trees a directory target may never be in, whatever the host allows: system files, kernel
# interfaces and device nodes.
SYSTEM_TREES = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/proc",
    "/root/.ssh",
    "/run",
    "/sbin",
    "/sys",
    "/usr",
    "/var/lib",
    "/var/log",
    "/var/run",
    "/var/spool",
)
# Directories a target may be inside, but not be: a run directory at their top would sit among
# the system's own folders.
_SYSTEM_TOPS = frozenset({"/", "/home", "/mnt", "/media", "/opt", "/root", "/srv", "/tmp", "/var"})


def relative_name_problem(value: str) -> str | None:
    """Why a filename/directory value is not a plain name in the run directory (None: it is)."""
    if not value or len(value) > _MAX_NAME:
        return f"must be 1 to {_MAX_NAME} characters; {_NAME_RULE}"
    if value != value.strip() or any(c.isspace() for c in value):
        return f"blanks are not allowed (fio would strip them and open another path); {_NAME_RULE}"
    if value.startswith("/") or re.match(r"[A-Za-z]:", value) or value.startswith("\\\\"):
        return (
            f"absolute paths are not allowed: files are created in the run directory; {_NAME_RULE}"
        )
    if ":" in value:
        return f"':' lists of files are not supported; {_NAME_RULE}"
    parts = value.split("/")
    if any(part in (".", "..") for part in parts):
        return f"'.' and '..' are not allowed; {_NAME_RULE}"
    if len(parts) > _MAX_PARTS:
        return f"at most {_MAX_PARTS} levels; {_NAME_RULE}"
    if not all(PLAIN_PART.fullmatch(part) for part in parts):
        return _NAME_RULE[0].upper() + _NAME_RULE[1:]
    return None


def _under(path: str, tree: str) -> bool:
    return path == tree or path.startswith(tree.rstrip("/") + "/")


def target_path_problem(
    path: str, kind: Literal["directory", "block_device"], allowed_roots: Sequence[str] | None
) -> str | None:
    """Why a target path may not be used on a host that allows allowed_roots (None: it may).

    allowed_roots=None means the host's roots are not known yet (checked again when they are).
    A block device must be named by a root itself: a host owner lists each device they give up.
    """
    if not path.startswith("/") or path != path.strip() or "\x00" in path:
        return "must be an absolute path without surrounding blanks"
    normal = posixpath.normpath(path)
    if normal != path.rstrip("/") and normal != path:
        return f"must be written plainly, as {normal}"
    if kind == "block_device":
        if not normal.startswith("/dev/") or normal.count("/") < 2:
            return "a block device target is a device under /dev, e.g. /dev/vdb"
        if allowed_roots is not None and normal not in {
            posixpath.normpath(r) for r in allowed_roots
        }:
            return (
                f"{normal} is not one of the devices this host's worker allows "
                f"({_roots_text(allowed_roots)}): start it with --allow {normal} to benchmark it"
            )
        return None
    for tree in SYSTEM_TREES:
        if _under(normal, tree):
            return (
                f"{tree} holds system files or device nodes: "
                "choose a directory on the storage to test"
            )
    if normal in _SYSTEM_TOPS:
        example = f"{normal.rstrip('/')}/storbench"
        return f"{normal} is a system folder: choose a directory below it, e.g. {example}"
    if allowed_roots is not None and not any(
        _under(normal, posixpath.normpath(root)) for root in allowed_roots
    ):
        return (
            f"{normal} is outside the paths this host's worker allows "
            f"({_roots_text(allowed_roots)}): choose a path inside them, "
            "or start the worker with --allow for this path"
        )
    return None


def _roots_text(roots: Sequence[str]) -> str:
    return ", ".join(roots) if roots else "none"


@dataclass(frozen=True)
class JobPaths:
    """What fio is told for one job: absolute paths built here, never taken from the job."""

    directory: str | None = None
    filename: str | None = None


def _resolved_inside(path: str, run_dir: str) -> bool:
    """Whether path, with every symlink that exists now resolved, stays inside run_dir."""
    real_root = os.path.realpath(run_dir)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def confine_job_paths(
    job: FioJob,
    *,
    kind: Literal["directory", "block_device"],
    run_dir: str,
    device: str | None = None,
    resolve: bool = False,
    fio_prefix: str | None = None,
) -> tuple[JobPaths, list[OptionError]]:
    """The absolute paths fio gets for this job, and every reason the job's own paths are refused.

    run_dir is the run directory (on a directory target) as the checker sees it; with resolve=True
    (on the host, once it exists) symlinks are resolved and must stay inside it. fio_prefix, when
    given, replaces run_dir in what fio is told (the worker pins the directory by descriptor).
    """
    errors = [
        e.model_copy(update={"job": job.name})
        for e in path_option_problems(kind, job.directory, job.filename, device)
    ]
    if kind == "block_device":
        return JobPaths(filename=device), errors
    if errors:
        return JobPaths(), errors
    relative_dir = job.directory or ""
    checked_dir = posixpath.join(run_dir, relative_dir) if relative_dir else run_dir
    checked_file = posixpath.join(checked_dir, job.filename) if job.filename else None
    if resolve:
        for option, path in (("directory", checked_dir), ("filename", checked_file)):
            if path is None:
                continue
            value = getattr(job, option) or ""
            if not _resolved_inside(path, run_dir):
                errors.append(
                    _error(
                        job, option, value, "resolves outside the run directory (a symbolic link?)"
                    )
                )
            elif (kind_found := _special_file(path)) is not None:
                errors.append(
                    _error(
                        job, option, value, f"is a {kind_found} in the run directory, not a file"
                    )
                )
        if errors:
            return JobPaths(), errors
    base = fio_prefix if fio_prefix is not None else run_dir
    fio_dir = posixpath.join(base, relative_dir) if relative_dir else base
    if job.filename is not None:
        return JobPaths(filename=posixpath.join(fio_dir, job.filename)), []
    # fio names the files itself (jobname.N.M, the job name being a plain label) in this directory.
    return JobPaths(directory=fio_dir.rstrip("/") + "/"), []


def _special_file(path: str) -> str | None:
    """What is at path if it is neither a regular file nor a directory (None: nothing, or one)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISLNK(mode):
        return "symbolic link"
    return "device node" if stat.S_ISBLK(mode) or stat.S_ISCHR(mode) else "special file"


def _error(job: FioJob, option: str, value: str, reason: str) -> OptionError:
    return OptionError(option=option, value=value, reason=reason, job=job.name)


def path_option_problems(
    kind: Literal["directory", "block_device"],
    directory: str | None,
    filename: str | None,
    device: str | None,
) -> list[OptionError]:
    """The rule for a job's own directory/filename values, before any path exists."""
    errors: list[OptionError] = []
    if kind == "block_device":
        if directory is not None:
            errors.append(
                OptionError(
                    option="directory",
                    value=directory,
                    reason="a block device target takes no directory",
                )
            )
        if filename is not None and (device is None or filename != device):
            errors.append(
                OptionError(
                    option="filename",
                    value=filename,
                    reason="on a block device target fio opens the target device only "
                    f"({device or 'the target'}); leave filename unset",
                )
            )
        return errors
    for option, value in (("directory", directory), ("filename", filename)):
        problem = None if value is None else relative_name_problem(value)
        if problem is not None and value is not None:
            errors.append(OptionError(option=option, value=value, reason=problem))
    return errors


def _looks_like_host_path(value: str) -> bool:
    """An absolute POSIX path, a Windows drive path (Z:\\, Z\\:\\ escaped), a UNC share, or a
    guide's placeholder for one (<mount>, <your share>)."""
    return (
        value.startswith(("/", "\\\\"))
        or re.match(r"[A-Za-z](\\?):", value) is not None
        or _PLACEHOLDER.search(value) is not None
    )


# A guide's placeholder: <mount>, <your share>, <mount point dns>.
_PLACEHOLDER = re.compile(r"<[\w .-]+>")


def _placeholder_advice(value: str) -> str:
    """What to replace, when the guide's place holds placeholders."""
    found = list(dict.fromkeys(_PLACEHOLDER.findall(value)))
    if not found:
        return ""
    named = ", ".join(found)
    several = len(found) > 1
    return (
        f" ({named}: the guide's placeholder{'s' if several else ''} for your own place; "
        f"replace {'them' if several else 'it'} by choosing the target that is there)"
    )


def _last_part(value: str) -> str:
    return re.split(r"[\\/]+", value.rstrip("\\/"))[-1]


def separate_host_paths(jobs: Sequence[FioJob]) -> tuple[list[FioJob], list[Notice]]:
    """Jobs without the places on a host a pasted text pointed fio at, and a notice for each.

    A vendor's command names where it ran fio (`--directory=/mnt/nas`, `--filename=/dev/nvme0n1`,
    `--filename=\\\\server\\share\\file`). Kept in a plan, every run would refuse it: storbench runs
    each job in a fresh run directory inside the target chosen for the run, or on the target's
    device. So the place becomes the advice to run on a target there; a file name keeps its last
    part (jobs that shared one file still share one), a device is the target's own.
    """
    notices: dict[tuple[str, str], Notice] = {}
    kept: list[FioJob] = []
    for job in jobs:
        update: dict[str, str | None] = {}
        if job.directory is not None and _looks_like_host_path(job.directory):
            update["directory"] = None
            notices.setdefault(
                ("directory", job.directory),
                Notice(
                    option="directory",
                    value=job.directory,
                    message="left out: storbench runs each job in a fresh directory inside the "
                    f"target you choose; run this plan on a target at {job.directory}"
                    + _placeholder_advice(job.directory),
                ),
            )
        if job.filename is not None and _looks_like_host_path(job.filename):
            name = _last_part(job.filename)
            if job.filename.startswith("/dev/"):
                update["filename"] = None
                message = (
                    "left out: on a block-device target fio opens the target's device; "
                    f"run this plan on a block-device target for {job.filename}"
                )
            elif PLAIN_PART.fullmatch(name):
                update["filename"] = name
                message = (
                    f"read as filename={name}, a file in the run directory of the target you "
                    f"choose; run this plan on a target at the folder that held {job.filename}"
                )
            else:
                update["filename"] = None
                message = (
                    "left out: fio names its files in the run directory of the target you choose; "
                    f"run this plan on a target at the folder that held {job.filename}"
                )
            notices.setdefault(
                ("filename", job.filename),
                Notice(
                    option="filename",
                    value=job.filename,
                    message=message + _placeholder_advice(job.filename),
                ),
            )
        kept.append(job.model_copy(update=update) if update else job)
    return kept, list(notices.values())
