"""storbench's fio toolkit: job models, command building, output parsing, safety, presets."""

from storbench_fio.command import build_command, render_job_file
from storbench_fio.errors import FioJobError, OptionError, ParseError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.results import (
    CpuResult,
    DirectionResult,
    FioReport,
    JobResult,
    LatencyDistribution,
    LatencyStats,
    parse_fio_output,
    parse_fio_stream,
)

__all__ = [
    "CpuResult",
    "DirectionResult",
    "FioJob",
    "FioJobError",
    "FioReport",
    "JobResult",
    "LatencyDistribution",
    "LatencyStats",
    "OptionError",
    "ParseError",
    "build_command",
    "parse_fio_output",
    "parse_fio_stream",
    "render_job_file",
    "validate_job_dict",
]
