"""Typed model of one fio job section: each option's type and bounds (values read by job_values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from storbench_fio.engines import IoEngine
from storbench_fio.errors import FioJobError, OptionError, errors_from_validation, shown_value
from storbench_fio.job_values import (
    BOOL_FIELDS,
    COUNT_FIELDS,
    SECONDS_FIELDS,
    SIZE_FIELDS,
    bare_to_true,
    fio_text,
    read_bssplit,
    read_count,
    read_distribution,
    read_engine,
    read_fallocate,
    read_flag,
    read_job_name,
    read_other_option,
    read_percentile_list,
    read_rw,
    read_seconds,
    read_single_line,
    read_size,
    read_size_or_percent,
    read_steady_state,
    read_sync,
)
from storbench_fio.option_table import value_problem
from storbench_fio.options import canonical_option_name

__all__ = [
    "BOOL_FIELDS",
    "SECONDS_FIELDS",
    "SIZE_FIELDS",
    "FioJob",
    "FioJobError",
    "IoEngine",
    "OptionError",
    "RwMode",
    "validate_job_dict",
]

RwMode = Literal[
    "read",
    "write",
    "randread",
    "randwrite",
    "rw",
    "randrw",
    "trim",
    "randtrim",
    "trimwrite",
    "randtrimwrite",
]
Fallocate = Literal["none", "native", "posix", "keep", "truncate"]
Verify = Literal[
    "0",  # fio's "no verification", its default
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

Percent = Annotated[int, Field(ge=0, le=100)]
Count = Annotated[int, Field(ge=1)]
NonNegative = Annotated[int, Field(ge=0)]

# Limits past which a value is a typo rather than a benchmark; safety applies the tighter
# per-deployment limits. _CEILINGS says them in words (fio itself takes larger values).
_MAX_BS = 1 << 30
_MAX_JOBS = 4096  # fio's own REAL_MAX_JOBS
_MAX_IODEPTH = 65536
_MAX_SECONDS = 30 * 86400
_MAX_NRFILES = 10_000_000
_CEILINGS = {
    "bs": "1 GiB",
    "numjobs": f"{_MAX_JOBS} (the most jobs fio runs)",
    "iodepth": str(_MAX_IODEPTH),
    "nrfiles": f"{_MAX_NRFILES:,} files",
    **dict.fromkeys(
        ("runtime", "ramp_time", "startdelay", "ss_dur", "ss_ramp"),
        f"{_MAX_SECONDS // 86400} days ({_MAX_SECONDS} s)",
    ),
}


def _other_options_schema(schema: dict[str, Any]) -> None:
    """Other options are fio text; the schema leaves them open (typed fields keep their types)."""
    schema["additionalProperties"] = True


class FioJob(BaseModel):
    """One fio job section, values normalised (sizes in bytes, times in seconds).

    The options storbench reasons about are typed fields; every other option of fio's table is
    kept as fio text (checked against fio's value grammar) among the model's extra fields.
    """

    model_config = ConfigDict(
        extra="allow", validate_assignment=True, json_schema_extra=_other_options_schema
    )
    __pydantic_extra__: dict[str, str] = Field(init=False)

    # kb_base first: the size validators below read it to interpret units.
    kb_base: Literal[1000, 1024] | None = None
    name: str
    # fio's default is read; an offset modifier (randread:8) is kept as fio reads it.
    rw: RwMode | Annotated[str, Field(pattern=r"^[a-z]+:-?[0-9a-zA-Z]+$")] = "read"
    description: str | None = Field(default=None, max_length=1024)
    rwmixread: Percent | None = None
    rwmixwrite: Percent | None = None
    # One size, or fio's per-direction list (read,write,trim) kept as written: "512,512,16k".
    bs: Annotated[int, Field(ge=1, le=_MAX_BS)] | str | None = None
    bssplit: str | None = None
    blockalign: int | str | None = None
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
    nrfiles: Annotated[int, Field(ge=0, le=_MAX_NRFILES)] | None = None  # 0: fio does no I/O
    # 0 is fio's default for these three: as many files as the job has, no cap on I/Os, one loop.
    openfiles: NonNegative | None = None
    # random, roundrobin, sequential or a distribution (zipf, pareto, normal, gauss), with fio's
    # ":N" suffix (files served before switching, or the distribution's parameter).
    file_service_type: str | None = None
    number_ios: NonNegative | None = None
    loops: NonNegative | None = None
    runtime: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    time_based: bool | None = None
    ramp_time: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    startdelay: Annotated[int, Field(ge=0, le=_MAX_SECONDS)] | None = None
    direct: bool | None = None
    buffered: bool | None = None
    ioengine: str | None = None  # any engine fio knows; the safety rules say which may run
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
    percentage_random: Percent | str | None = None
    refill_buffers: bool | None = None
    zero_buffers: bool | None = None
    scramble_buffers: bool | None = None
    buffer_compress_percentage: Percent | None = None
    dedupe_percentage: Percent | None = None
    verify: Verify | None = None
    do_verify: bool | None = None
    verify_fatal: bool | None = None
    rate: Annotated[int, Field(ge=0)] | str | None = None
    rate_iops: NonNegative | str | None = None
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

    # What a user wrote, in fio's words, read into the value each field holds (job_values).
    @field_validator("name", mode="before")
    @classmethod
    def _check_name(cls, value: object) -> object:
        return read_job_name(value)

    @field_validator("description", "filename", "directory", mode="before")
    @classmethod
    def _single_line(cls, value: object) -> object:
        return read_single_line(value)

    @field_validator("rw", mode="before")
    @classmethod
    def _normalise_rw(cls, value: object) -> object:
        return read_rw(value)

    @field_validator("ioengine", mode="before")
    @classmethod
    def _check_engine(cls, value: object) -> object:
        return read_engine(value)

    @model_validator(mode="after")
    def _check_other_options(self) -> FioJob:
        for key, value in (self.__pydantic_extra__ or {}).items():
            read_other_option(key, value, kb_base=self.kb_base or 1024)
        return self

    @field_validator("verify", "file_service_type", mode="before")
    @classmethod
    def _lowercase(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("file_service_type", mode="after")
    @classmethod
    def _check_file_service(cls, value: str | None) -> str | None:
        problem = None if value is None else value_problem("file_service_type", value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("kb_base", mode="before")
    @classmethod
    def _int_kb_base(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
        return value

    @field_validator(*sorted(SIZE_FIELDS), mode="before")
    @classmethod
    def _parse_size_field(cls, value: object, info: ValidationInfo) -> object:
        allow_zero = info.field_name in ("blockalign", "rate")  # rate=0: no cap, fio's default
        field = str(info.field_name)
        return read_size(value, kb_base=_kb_base(info), allow_zero=allow_zero, field=field)

    @field_validator("size", "offset", mode="before")
    @classmethod
    def _parse_size_or_percent(cls, value: object, info: ValidationInfo) -> object:
        allow_zero = info.field_name == "offset"
        return read_size_or_percent(value, kb_base=_kb_base(info), allow_zero=allow_zero)

    @field_validator(*sorted(SECONDS_FIELDS), mode="before")
    @classmethod
    def _parse_seconds_field(cls, value: object) -> object:
        return read_seconds(value)

    @field_validator(*sorted(COUNT_FIELDS), mode="before")
    @classmethod
    def _parse_count_field(cls, value: object, info: ValidationInfo) -> object:
        return read_count(value, str(info.field_name))

    @field_validator(*sorted(BOOL_FIELDS), mode="before")
    @classmethod
    def _parse_bool_field(cls, value: object) -> object:
        return read_flag(value)

    @field_validator("fallocate", mode="before")
    @classmethod
    def _normalise_fallocate(cls, value: object) -> object:
        return read_fallocate(value)

    @field_validator("sync", mode="before")
    @classmethod
    def _normalise_sync(cls, value: object) -> object:
        return read_sync(value)

    @field_validator("percentile_list", mode="before")
    @classmethod
    def _split_percentiles(cls, value: object) -> object:
        return read_percentile_list(value)

    @field_validator("bssplit", mode="before")
    @classmethod
    def _check_bssplit(cls, value: object, info: ValidationInfo) -> object:
        return read_bssplit(value, kb_base=_kb_base(info))

    @field_validator("ss", mode="before")
    @classmethod
    def _check_ss(cls, value: object) -> object:
        return read_steady_state(value)

    @field_validator("random_distribution", mode="before")
    @classmethod
    def _check_distribution(cls, value: object) -> object:
        return read_distribution(value)

    def fio_options(self) -> dict[str, Any]:
        """The options that were set, by fio name, in declaration order (name first)."""
        data = self.model_dump(exclude_none=True)
        return {"name": data.pop("name"), **data}


def _kb_base(info: ValidationInfo) -> int:
    """The kb_base already validated on this job (fio's default is 1024)."""
    base = info.data.get("kb_base")
    return base if isinstance(base, int) else 1024


def _always_unsafe(d: Mapping[str, object], found: list[OptionError]) -> list[OptionError]:
    """Refusals of the safety rules that hold on every target (code, other hosts, host changes)."""
    from storbench_fio.safety_options import target_free_problems

    text = {canonical_option_name(str(k).strip()): fio_text(v) for k, v in d.items()}
    text.pop("name", None)
    already = {e.option for e in found}
    return [e for e in target_free_problems(text) if e.option not in already]


def _given_kb_base(d: Mapping[str, object]) -> int:
    return 1000 if str(d.get("kb_base", "")).strip() == "1000" else 1024


def host_dependent_value(value: object) -> OptionError | None:
    """The safety rules' refusal of a value read from the host (${ENV}, $ncpus), if it is one."""
    from storbench_fio.safety_options import host_dependent_value as check

    return check(value)


def validate_job_dict(d: Mapping[str, object]) -> FioJob:
    """Build a FioJob from fio option names and values, or raise FioJobError listing each."""
    errors: list[OptionError] = []
    clean: dict[str, object] = {}
    given: dict[str, object] = {}
    for raw_key, value in d.items():
        key = canonical_option_name(str(raw_key).strip())
        given[key] = value
        if (host_value := host_dependent_value(value)) is not None:
            errors.append(host_value.model_copy(update={"option": key}))
            continue
        if key not in FioJob.model_fields:
            try:
                clean[key] = read_other_option(key, fio_text(value), kb_base=_given_kb_base(d))
            except ValueError as exc:
                errors.append(OptionError(option=key, value=shown_value(value), reason=str(exc)))
            continue
        try:
            clean[key] = bare_to_true(key, value)
        except ValueError as exc:
            errors.append(OptionError(option=key, value="", reason=str(exc)))
    errors.extend(_always_unsafe(d, errors))
    from storbench_fio.safety_options import judged_with_engine  # it reads this module

    try:
        job = FioJob.model_validate(clean)
    except ValidationError as exc:
        errors.extend(errors_from_validation(exc, given, _CEILINGS))
    else:
        if not errors:
            return job
    raise FioJobError(judged_with_engine(errors))
