"""Worker configuration from the command line and STORBENCH_* variables."""

import os
from dataclasses import dataclass, field
from pathlib import Path

from storbench_fio.safety import SafetyLimits


@dataclass(frozen=True)
class WorkerConfig:
    """Everything a worker needs to know before it talks to the server."""

    server: str
    token: str
    name: str | None = None
    # Roots the worker may touch whatever the server says (at least one is required).
    allowed_roots: tuple[Path, ...] = ()
    state_dir: Path = field(default_factory=lambda: Path.home() / ".local/state/storbench-worker")
    fio_binary: str = "fio"
    # How often the running fio's assignment is checked for cancellation.
    cancel_poll_s: float = 1.0
    # How long an upload is retried before the spooled output waits for the next start.
    upload_retry_for_s: float = 600.0
    # Layout slower than this (bytes/s) is stopped: a target that slow needs no benchmark.
    layout_min_bytes_per_s: float = 20e6
    # This host's own ceilings, applied whatever the server allows.
    limits: SafetyLimits = field(default_factory=SafetyLimits)

    @property
    def spool_dir(self) -> Path:
        """Where outputs wait until the server acknowledges them."""
        return self.state_dir / "spool"


def env(name: str, default: str | None = None) -> str | None:
    """A STORBENCH_ variable."""
    return os.environ.get(f"STORBENCH_{name}", default)
