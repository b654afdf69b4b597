"""storbench's fio toolkit: job models, command building, output parsing, safety, presets."""

from storbench_fio.command import build_command, render_job_file
from storbench_fio.errors import FioJobError, Notice, OptionError, ParseError
from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.jobfile import (
    ParsedPaste,
    parse_command_line,
    parse_fio_paste,
    parse_fio_text,
    parse_job_file,
)
from storbench_fio.presets import PRESETS, ExpectedFigure, Preset, get_preset
from storbench_fio.results import (
    CpuResult,
    DirectionResult,
    FioReport,
    JobResult,
    LatencyBucket,
    LatencyDistribution,
    LatencyStats,
    parse_fio_output,
    parse_fio_stream,
)
from storbench_fio.safety import (
    SafetyLimits,
    SafetyTarget,
    check_fio_text,
    check_job_safety,
    check_jobs_safety,
)

__all__ = [
    "PRESETS",
    "CpuResult",
    "DirectionResult",
    "ExpectedFigure",
    "FioJob",
    "FioJobError",
    "FioReport",
    "JobResult",
    "LatencyBucket",
    "LatencyDistribution",
    "LatencyStats",
    "Notice",
    "OptionError",
    "ParseError",
    "ParsedPaste",
    "Preset",
    "SafetyLimits",
    "SafetyTarget",
    "build_command",
    "check_fio_text",
    "check_job_safety",
    "check_jobs_safety",
    "get_preset",
    "parse_command_line",
    "parse_fio_output",
    "parse_fio_paste",
    "parse_fio_stream",
    "parse_fio_text",
    "parse_job_file",
    "render_job_file",
    "validate_job_dict",
]
