"""Typed model of one fio job section, with fio's own value grammar."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from storbench_fio.engines import IoEngine
from storbench_fio.errors import FioJobError, OptionError
from storbench_fio.options import RW_ALIASES, canonical_option_name, unknown_option_reason
from storbench_fio.units import (
    parse_bool,
    parse_percent,
    parse_seconds,
    parse_size,
)

__all__ = [
    "BOOL_FIELDS",
    "FioJob",
    "FioJobError",
    "IoEngine",
    "OptionError",
    "RwMode",
    "validate_job_dict",
]

RwMode = Literal[
    "read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim", "trimwrite"
]
Fallocate = Literal["none", "native", "posix", "keep", "truncate"]
Verify = Literal[
    "md5",
    "crc64",
    "crc32c",
    "crc32c-intel",
    "crc32",
    "crc16",
    "crc7",
    "xxhash",
    "sha512",
    "sha256",
    "sha1",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "meta",
    "pattern",
    "null",
]
FileServiceType = Literal["random", "roundrobin", "sequential"]

Percent = Annotated[int, Field(ge=0, le=100)]
Count = Annotated[int, Field(ge=1)]
NonNegative = Annotated[int, Field(ge=0)]

# Limits past which a value is a typo rather than a benchmark; safety applies the tighter
# per-deployment limits.
_MAX_BS = 1 << 30
_MAX_JOBS = 4096  # fio's own REAL_MAX_JOBS
_MAX_IODEPTH = 65536
_MAX_SECONDS = 30 * 86400
_MAX_NRFILES = 10_000_000

# Letters, digits, blanks inside ("random read") and . _ + - /: fio names the job's files after it
# in the run directory when no filename is given, so no '..' part and no leading '/'.
_NAME_RE = re.compile(r"[A-Za-z0-9._+/-](?:[A-Za-z0-9 ._+/-]{0,62}[A-Za-z0-9._+/-])?")
_SS_RE = re.compile(r"(iops|iops_slope|bw|bw_slope):\d+(\.\d+)?%?", re.IGNORECASE)
_DIST_RE = re.compile(
    r"random|(zipf|pareto|normal|gauss):\d+(\.\d+)?(:\d+(\.\d+)?)?|zoned(_abs)?:[0-9a-z/:.%]+",
    re.IGNORECASE,
)

SIZE_FIELDS = frozenset({"bs", "filesize", "io_size", "rate", "blockalign", "offset_increment"})
SECONDS_FIELDS = frozenset({"runtime", "ramp_time", "startdelay", "ss_dur", "ss_ramp"})
COUNT_FIELDS = frozenset(
    {
        "iodepth",
        "numjobs",
        "nrfiles",
        "openfiles",
        "loops",
        "fsync",
        "fdatasync",
        "log_avg_msec",
        "rwmixread",
        "rwmixwrite",
        "iodepth_batch_submit",
        "iodepth_batch_complete_min",
        "iodepth_batch_complete_max",
        "iodepth_low",
        "number_ios",
        "rate_iops",
        "randseed",
        "percentage_random",
        "buffer_compress_percentage",
        "dedupe_percentage",
    }
)
BOOL_FIELDS = frozenset(
    {
        "time_based",
        "direct",
        "buffered",
        "thread",
        "group_reporting",
        "randrepeat",
        "allrandrepeat",
        "norandommap",
        "refill_buffers",
        "zero_buffers",
        "scramble_buffers",
        "unique_filename",
        "end_fsync",
        "fsync_on_close",
        "invalidate",
        "stonewall",
        "new_group",
        "lat_percentiles",
        "clat_percentiles",
        "slat_percentiles",
        "disable_lat",
        "disable_clat",
        "disable_slat",
        "create_on_open",
        "overwrite",
        "hipri",
        "fixedbufs",
        "registerfiles",
        "sqthread_poll",
        "unlink",
        "do_verify",
        "verify_fatal",
        "gtod_reduce",
        "per_job_logs",
        "log_offset",
        "log_unix_epoch",
        "bs_unaligned",
    }
)


class FioJob(BaseModel):
    """One fio job section, values normalised (sizes in bytes, times in seconds)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # kb_base first: the size validators below read it to interpret units.
    kb_base: Literal[1000, 1024] | None = None
    name: str
    rw: RwMode
    description: str | None = Field(default=None, max_length=1024)
    rwmixread: Percent | None = None
    rwmixwrite: Percent | None = None
    bs: Annotated[int, Field(ge=1, le=_MAX_BS)] | None = None
    bssplit: str | None = None
    blockalign: int | None = None
    bs_unaligned: bool | None = None
    iodepth: Annotated[int, Field(ge=1, le=_MAX_IODEPTH)] | None = None
    iodepth_batch_submit: NonNegative | None = None
    iodepth_batch_complete_min: NonNegative | None = None
    iodepth_batch_complete_max: NonNegative | None = None
    iodepth_low: NonNegative | None = None
    numjobs: Annotated[int, Field(ge=1, le=_MAX_JOBS)] | None = None
    size: int | str | None = None
    filesize: int | None = None
    io_size: int | None = None
    offset: int | str | None = None
    offset_increment: int | None = None
    nrfiles: Annotated[int, Field(ge=1, le=_MAX_NRFILES)] | None = None
    openfiles: Count | None = None
    file_service_type: FileServiceType | None = None
    number_ios: Count | None = None
    loops: Count | None = None
    runtime: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    time_based: bool | None = None
    ramp_time: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    startdelay: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    direct: bool | None = None
    buffered: bool | None = None
    ioengine: IoEngine | None = None
    hipri: bool | None = None
    fixedbufs: bool | None = None
    registerfiles: bool | None = None
    sqthread_poll: bool | None = None
    fallocate: Fallocate | None = None
    thread: bool | None = None
    # Pin the job to CPUs, a list such as 0-3,8 (vendor recipes pin to the NIC's NUMA node).
    cpus_allowed: str | None = Field(
        default=None, pattern=r"^\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?)*$"
    )
    cpus_allowed_policy: Literal["shared", "split"] | None = None
    sync: bool | Literal["sync", "dsync"] | None = None
    fsync: NonNegative | None = None
    fdatasync: NonNegative | None = None
    end_fsync: bool | None = None
    fsync_on_close: bool | None = None
    invalidate: bool | None = None
    create_on_open: bool | None = None
    overwrite: bool | None = None
    unlink: bool | None = None
    group_reporting: bool | None = None
    stonewall: bool | None = None
    new_group: bool | None = None
    randrepeat: bool | None = None
    allrandrepeat: bool | None = None
    randseed: NonNegative | None = None
    norandommap: bool | None = None
    random_distribution: str | None = None
    percentage_random: Percent | None = None
    refill_buffers: bool | None = None
    zero_buffers: bool | None = None
    scramble_buffers: bool | None = None
    buffer_compress_percentage: Percent | None = None
    dedupe_percentage: Percent | None = None
    verify: Verify | None = None
    do_verify: bool | None = None
    verify_fatal: bool | None = None
    rate: Annotated[int, Field(ge=1)] | None = None
    rate_iops: Count | None = None
    lat_percentiles: bool | None = None
    clat_percentiles: bool | None = None
    slat_percentiles: bool | None = None
    percentile_list: list[float] | None = None
    disable_lat: bool | None = None
    disable_clat: bool | None = None
    disable_slat: bool | None = None
    gtod_reduce: bool | None = None
    ss: str | None = None
    ss_dur: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    ss_ramp: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    unique_filename: bool | None = None
    log_avg_msec: NonNegative | None = None
    per_job_logs: bool | None = None
    log_offset: bool | None = None
    log_unix_epoch: bool | None = None
    filename: str | None = Field(default=None, min_length=1, max_length=4096)
    directory: str | None = Field(default=None, min_length=1, max_length=4096)

    @field_validator("name", mode="before")
    @classmethod
    def _check_name(cls, value: object) -> object:
        if isinstance(value, str) and (
            not _NAME_RE.fullmatch(value) or value.startswith("/") or ".." in value.split("/")
        ):
            raise ValueError(
                "job name must be 1-64 characters of A-Z a-z 0-9 . _ + - / and blanks inside, "
                "with no '..' part and no leading '/'"
            )
        if isinstance(value, str) and value.lower().startswith("global"):
            # fio reads any section or --name starting with "global" as options for every later job.
            raise ValueError(
                "a job name must not start with 'global' (fio would read it as global options)"
            )
        return value

    @field_validator("description", "filename", "directory", mode="before")
    @classmethod
    def _single_line(cls, value: object) -> object:
        # A newline or NUL would let a value smuggle extra options into a rendered job file.
        if isinstance(value, str) and any(c in value for c in "\n\r\x00"):
            raise ValueError("must be a single line without control characters")
        return value

    @field_validator("rw", mode="before")
    @classmethod
    def _normalise_rw(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        text = value.strip().lower()
        if ":" in text:
            raise ValueError("rw offset modifiers (e.g. randread:8) are not supported")
        return RW_ALIASES.get(text, text)

    @field_validator("ioengine", "verify", "file_service_type", mode="before")
    @classmethod
    def _lowercase(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("kb_base", mode="before")
    @classmethod
    def _int_kb_base(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
        return value

    @field_validator(*sorted(SIZE_FIELDS), mode="before")
    @classmethod
    def _parse_size_field(cls, value: object, info: ValidationInfo) -> object:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str) and ("," in value or "-" in value.strip()[1:]):
            raise ValueError("per-direction values and ranges are not supported; give one value")
        return parse_size(value, kb_base=_kb_base(info), allow_zero=info.field_name == "blockalign")

    @field_validator("size", "offset", mode="before")
    @classmethod
    def _parse_size_or_percent(cls, value: object, info: ValidationInfo) -> object:
        if isinstance(value, str):
            pct = parse_percent(value)
            if pct is not None:
                return f"{pct}%"
        if value is None or isinstance(value, bool):
            return value
        return parse_size(value, kb_base=_kb_base(info), allow_zero=info.field_name == "offset")

    @field_validator(*sorted(SECONDS_FIELDS), mode="before")
    @classmethod
    def _parse_seconds_field(cls, value: object) -> object:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str) and "-" in value.strip()[1:]:
            raise ValueError("ranges are not supported; give one value")
        return parse_seconds(value)

    @field_validator(*sorted(COUNT_FIELDS), mode="before")
    @classmethod
    def _parse_count_field(cls, value: object) -> object:
        if isinstance(value, str):
            if "," in value:
                raise ValueError("per-direction values are not supported; give one value")
            return parse_size(value, allow_zero=True)
        return value

    @field_validator(*sorted(BOOL_FIELDS), mode="before")
    @classmethod
    def _parse_bool_field(cls, value: object) -> object:
        return parse_bool(value) if value is not None else None

    @field_validator("fallocate", mode="before")
    @classmethod
    def _normalise_fallocate(cls, value: object) -> object:
        if isinstance(value, bool | int | str):
            # fio's backwards-compatible aliases: 0 is none, 1 is posix.
            text = str(int(value)) if isinstance(value, bool | int) else value.strip().lower()
            return {"0": "none", "1": "posix"}.get(text, text)
        return value

    @field_validator("sync", mode="before")
    @classmethod
    def _normalise_sync(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip().lower()
            if text in ("sync", "dsync"):
                return text
            if text == "none":
                return False
            return parse_bool(text)
        return value

    @field_validator("percentile_list", mode="before")
    @classmethod
    def _split_percentiles(cls, value: object) -> object:
        if isinstance(value, str):
            value = [p for p in value.split(":") if p.strip()]
        if isinstance(value, list):
            if not value or len(value) > 20:
                raise ValueError("give 1 to 20 percentiles")
            for item in value:
                number = float(item)
                if not 0 < number <= 100:
                    raise ValueError(f"percentile {item} is outside (0, 100]")
        return value

    @field_validator("bssplit", mode="before")
    @classmethod
    def _check_bssplit(cls, value: object, info: ValidationInfo) -> object:
        if isinstance(value, str):
            validate_bssplit(value, kb_base=_kb_base(info))
            return value.strip()
        return value

    @field_validator("ss", mode="before")
    @classmethod
    def _check_ss(cls, value: object) -> object:
        if isinstance(value, str) and not _SS_RE.fullmatch(value.strip()):
            raise ValueError("expected criterion:limit with iops, iops_slope, bw or bw_slope")
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("random_distribution", mode="before")
    @classmethod
    def _check_distribution(cls, value: object) -> object:
        if isinstance(value, str) and not _DIST_RE.fullmatch(value.strip()):
            raise ValueError("expected random, zipf:N, pareto:N, normal:N or zoned:...")
        return value

    def fio_options(self) -> dict[str, Any]:
        """The options that were set, by fio name, in declaration order (name first)."""
        data = self.model_dump(exclude_none=True)
        return {"name": data.pop("name"), **data}


def _kb_base(info: ValidationInfo) -> int:
    """The kb_base already validated on this job (fio's default is 1024)."""
    base = info.data.get("kb_base")
    return base if isinstance(base, int) else 1024


def validate_bssplit(value: str, *, kb_base: int = 1024) -> None:
    """Refuse a bssplit fio would refuse: bad sizes, percentages over 100, >64 entries."""
    groups = value.strip().split(",")
    if len(groups) > 3:
        raise ValueError("at most three comma-separated groups (read, write, trim)")
    for group in groups:
        if not group.strip():
            if len(groups) == 1:
                raise ValueError("empty bssplit")
            continue
        entries = group.split(":")
        if len(entries) > 64:
            raise ValueError("fio supports at most 64 block sizes per direction")
        total = 0
        for entry in entries:
            size_text, _, pct_text = entry.partition("/")
            parse_size(size_text.strip(), kb_base=kb_base)
            if pct_text.strip():
                if not pct_text.strip().isdigit():
                    raise ValueError(f"percentage in {entry!r} is not a whole number")
                total += int(pct_text)
        if total > 100:
            raise ValueError(f"percentages add up to {total}, more than 100")


def _bare_to_true(key: str, value: object) -> object:
    """A bare option (`key` with no value) means 1 for booleans; elsewhere it's an error."""
    if value is None or (isinstance(value, str) and value == ""):
        if key in BOOL_FIELDS:
            return True
        if key == "sync":
            return True
        raise ValueError("this option needs a value")
    return value


def validate_job_dict(d: Mapping[str, object]) -> FioJob:
    """Build a FioJob from fio option names and values, or raise FioJobError listing each."""
    errors: list[OptionError] = []
    clean: dict[str, object] = {}
    given: dict[str, object] = {}
    for raw_key, value in d.items():
        key = canonical_option_name(str(raw_key).strip())
        given[key] = value
        if key not in FioJob.model_fields:
            errors.append(
                OptionError(option=key, value=_show(value), reason=unknown_option_reason(key))
            )
            continue
        try:
            clean[key] = _bare_to_true(key, value)
        except ValueError as exc:
            errors.append(OptionError(option=key, value="", reason=str(exc)))
    try:
        job = FioJob.model_validate(clean)
    except ValidationError as exc:
        errors.extend(errors_from_validation(exc, given))
        raise FioJobError(errors) from None
    if errors:
        raise FioJobError(errors)
    return job


def errors_from_validation(exc: ValidationError, given: Mapping[str, object]) -> list[OptionError]:
    """One OptionError per offending option from a pydantic ValidationError."""
    by_option: dict[str, OptionError] = {}
    for err in exc.errors(include_url=False):
        option = str(err["loc"][0]) if err["loc"] else "job"
        if option in by_option:
            continue  # a union reports every branch; the first reason is enough
        reason = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "missing":
            reason = "required option is missing"
        value = given.get(option, err.get("input") if err["loc"] else "")
        by_option[option] = OptionError(option=option, value=_show(value), reason=reason)
    return list(by_option.values())


def _show(value: object) -> str:
    """The value as the user wrote it, for error messages."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ":".join(str(v) for v in value)
    return str(value)
