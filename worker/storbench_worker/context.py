"""What a worker's task needs, set once by the command line before the worker starts."""

from dataclasses import dataclass

from storbench_worker.api_client import ApiClient
from storbench_worker.config import WorkerConfig
from storbench_worker.spool import ScratchRecord, Spool


@dataclass
class WorkerContext:
    """What the task needs, set once by the command line before the worker starts."""

    config: WorkerConfig
    api: ApiClient
    host_name: str
    spool: Spool
    scratch: ScratchRecord
