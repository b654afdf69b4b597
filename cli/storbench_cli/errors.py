"""Expected failures and the exit code each one ends the command with."""

from __future__ import annotations

from typing import Any

EXIT_OK = 0
EXIT_FAILED = 1  # a run failed or was cancelled, or a result or import problem
EXIT_USAGE = 2  # bad usage or input, a refused request, or no service to talk to
EXIT_INTERRUPTED = 130  # the shell's convention for SIGINT
EXIT_PIPE_CLOSED = 141  # the shell's for SIGPIPE: the program reading our output stopped reading


class CliError(Exception):
    """A failure the user should read about, never as a traceback."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []


class UsageError(CliError):
    """The command line or an input file cannot be used."""


class Unreachable(CliError):
    """No answer from the service at all."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"cannot reach the storbench API at {url} ({reason}); check STORBENCH_URL or --url")
        self.url = url


def describe_error_item(item: dict[str, Any]) -> str:
    """One {field|option, value, reason} item of an API error as a line."""
    where = item.get("option") or item.get("field")
    if item.get("job"):
        where = f"job {item['job']}: {where}" if where else f"job {item['job']}"
    value = item.get("value")
    prefix = f"{where}={value}" if where and value not in (None, "") else (where or "")
    reason = str(item.get("reason", "invalid"))
    return f"{prefix}: {reason}" if prefix else reason


class ApiError(CliError):
    """The service answered with an error body."""

    def __init__(
        self, status: int, code: str, message: str, errors: list[dict[str, Any]] | None = None
    ) -> None:
        super().__init__(message, [describe_error_item(e) for e in errors or []])
        self.status = status
        self.code = code
        # A 4xx is the caller's to fix; a 5xx is the service's fault, like a failed run.
        self.exit_code = EXIT_USAGE if status < 500 else EXIT_FAILED
