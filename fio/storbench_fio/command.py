"""Turn FioJob models into a fio argv or an INI job file fio accepts."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence

from storbench_fio.confine import JobPaths
from storbench_fio.job import FioJob
from storbench_fio.options import FLAG_OPTIONS
from storbench_fio.units import format_size

__all__ = ["OUTPUT_FORMATS", "build_command", "format_value", "render_job_file"]

OUTPUT_FORMATS = frozenset({"normal", "terse", "json", "json+"})
# fio's "empty or boolean" options read naturally as a bare flag.
_BARE_FLAGS = FLAG_OPTIONS
_SIZE_OPTIONS = frozenset(
    {"bs", "size", "filesize", "io_size", "offset", "rate", "blockalign", "offset_increment"}
)


def format_value(option: str, value: object, *, kb_base: int | None = None) -> str | None:
    """fio's spelling of a normalised value; None means the bare option form."""
    if isinstance(value, bool):
        if value and option in _BARE_FLAGS:
            return None
        return "1" if value else "0"
    if isinstance(value, int) and option in _SIZE_OPTIONS:
        # With kb_base=1000 "4k" would mean 4000, so plain bytes are the only safe spelling.
        return str(value) if kb_base == 1000 else format_size(value)
    if isinstance(value, list):
        return ":".join(_format_float(v) for v in value)
    if isinstance(value, float):
        return _format_float(value)
    if value == "":
        return None  # an option fio takes bare (write_bw_log: fio names the log)
    return str(value)


def _format_float(value: object) -> str:
    """A float without a trailing ".0" (99.0 -> "99", 99.9 -> "99.9")."""
    number = float(str(value))
    return str(int(number)) if number.is_integer() else repr(number)


def _job_options(job: FioJob, where: JobPaths | None) -> dict[str, object]:
    """The job's options, with the paths the worker built replacing the job's own names."""
    options: dict[str, object] = job.fio_options()
    if where is not None:
        options.pop("directory", None)
        options.pop("filename", None)
        if where.directory is not None:
            options["directory"] = where.directory
        if where.filename is not None:
            options["filename"] = where.filename
    return options


def _check_output_format(output_format: str) -> None:
    """Refuse an output format fio does not know."""
    parts = [p.strip() for p in output_format.split(",")]
    bad = [p for p in parts if p not in OUTPUT_FORMATS]
    if bad:
        raise ValueError(f"unknown fio output format(s): {', '.join(bad)}")


def build_command(
    jobs: Sequence[FioJob],
    *,
    paths: Sequence[JobPaths] | None = None,
    output_format: str = "json+",
    extra_args: Sequence[str] = (),
    fio_binary: str = "fio",
) -> list[str]:
    """The exact fio argv running these jobs (no shell involved, so no quoting).

    paths, one per job, are where fio works (from confine_job_paths); without them the jobs' own
    names are shown as they are, for display only.
    """
    if not jobs:
        raise ValueError("at least one job is needed")
    if paths is not None and len(paths) != len(jobs):
        raise ValueError("one JobPaths per job is needed")
    _check_output_format(output_format)
    argv = [fio_binary, f"--output-format={output_format}", *extra_args]
    for index, job in enumerate(jobs):
        where = paths[index] if paths is not None else None
        for option, value in _job_options(job, where).items():
            text = format_value(option, value, kb_base=job.kb_base)
            argv.append(f"--{option}" if text is None else f"--{option}={text}")
    return argv


def render_job_file(
    jobs: Sequence[FioJob],
    *,
    global_options: Mapping[str, object] | None = None,
    directory: str | None = None,
) -> str:
    """An INI job file: a [global] section, then one section per job."""
    if not jobs:
        raise ValueError("at least one job is needed")
    lines: list[str] = []
    globals_: dict[str, object] = dict(global_options or {})
    if directory is not None:
        globals_["directory"] = directory
    if globals_:
        lines.append("[global]")
        for option, value in globals_.items():
            lines.append(_ini_line(option, value, None))
        lines.append("")
    for job in jobs:
        options = _job_options(job, None)
        own_dir = options.get("directory")
        if directory is not None and isinstance(own_dir, str):
            # A job-level directory replaces [global]'s, so keep it inside the target.
            options["directory"] = posixpath.join(directory, own_dir)
        lines.append(f"[{options.pop('name')}]")
        for option, value in options.items():
            lines.append(_ini_line(option, value, job.kb_base))
        lines.append("")
    return "\n".join(lines)


def _ini_line(option: str, value: object, kb_base: int | None) -> str:
    """One `key=value` (or bare `key`) line, refusing values that would break the file."""
    text = None if value is None else format_value(option, value, kb_base=kb_base)
    if text is not None and any(c in text for c in "\n\r\x00"):
        raise ValueError(f"{option}: value must be a single line")
    return option if text is None else f"{option}={text}"
