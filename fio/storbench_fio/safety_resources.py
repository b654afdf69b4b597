"""Safety rules on all of a run's jobs together: the space their files take on the target, the
region of a device they cover and the memory fio's buffers hold on the host."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storbench_fio.budget import (
    describe_footprint,
    footprint_bytes,
    human_bytes,
    largest_file_bytes,
    run_memory_bytes,
)
from storbench_fio.errors import OptionError
from storbench_fio.safety_scope import SafetyLimits, SafetyTarget, memory_budget_bytes

__all__ = ["resource_problems"]


def resource_problems(
    jobs: Sequence[tuple[str, Mapping[str, str | None]]], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """What all the jobs (name, options as fio text) need together that the target cannot give."""
    errors = _memory_check([options for _, options in jobs], target, limits)
    if target.kind == "directory":
        errors.extend(_space_check(jobs, target, limits))
    elif target.device_bytes is not None:
        errors.extend(_device_size_check(jobs, target.path, target.device_bytes))
    return errors


def _err(option: str, value: str | None, reason: str) -> OptionError:
    return OptionError(option=option, value=value or "", reason=reason)


def _space_check(
    jobs: Sequence[tuple[str, Mapping[str, str | None]]], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    """The files all jobs lay out against the service's ceiling and the target's free space."""
    total = sum(footprint_bytes(options) or 0 for _, options in jobs)
    parts = [
        (name, describe_footprint(options)) for name, options in jobs if footprint_bytes(options)
    ]
    if len(parts) == 1:
        breakdown = str(parts[0][1])
    else:
        breakdown = " + ".join(f"{name}: {text}" for name, text in parts)
    needs = f"the jobs' files need {human_bytes(total)} ({breakdown}, offsets included)"
    errors: list[OptionError] = []
    if limits.max_total_size_bytes is not None and total > limits.max_total_size_bytes:
        errors.append(
            _err(
                "size",
                str(total),
                f"{needs}; a run may use at most {human_bytes(limits.max_total_size_bytes)} on "
                "this service: lower size, nrfiles or numjobs",
            )
        )
    if target.free_bytes is not None:
        usable = int(target.free_bytes * (1 - limits.free_space_margin))
        if total > usable:
            kept = (
                f", of which {human_bytes(usable)} may be used ({limits.free_space_margin:.0%} "
                "is kept free)"
                if limits.free_space_margin
                else ""
            )
            errors.append(
                _err(
                    "size",
                    str(total),
                    f"{needs}, the target has {human_bytes(target.free_bytes)} free{kept}: "
                    "free space on the target or choose one with more, or lower size, nrfiles "
                    "or numjobs",
                )
            )
    return errors


def _device_size_check(
    jobs: Sequence[tuple[str, Mapping[str, str | None]]], device: str, device_bytes: int
) -> list[OptionError]:
    """Each job's region (offset + size, per clone) must lie on the device."""
    errors: list[OptionError] = []
    for name, options in jobs:
        needed = largest_file_bytes(options)
        if needed is not None and needed > device_bytes:
            errors.append(
                _err(
                    "size",
                    options.get("size"),
                    f"needs {human_bytes(needed)} of the device (offset + size), "
                    f"{device} holds {human_bytes(device_bytes)}: lower size or "
                    "offset, or choose a larger device",
                ).model_copy(update={"job": name or None})
            )
    return errors


def _memory_check(
    every_options: Sequence[Mapping[str, str | None]], target: SafetyTarget, limits: SafetyLimits
) -> list[OptionError]:
    needed = run_memory_bytes(every_options)
    budget = memory_budget_bytes(target, limits)
    if needed <= budget:
        return []
    where = (
        f"{limits.host_memory_share:.0%} of the host's "
        f"{human_bytes(target.host_memory_bytes)} memory"
        if target.host_memory_bytes and budget < limits.max_io_memory_bytes
        else "the service's limit"
    )
    return [
        _err(
            "iodepth",
            None,
            f"fio's buffers (bs x iodepth x numjobs, per job running at once) need "
            f"{human_bytes(needed)}; at most {human_bytes(budget)} is allowed ({where}): "
            "lower bs, iodepth or numjobs, or run the jobs one after another with stonewall",
        )
    ]
