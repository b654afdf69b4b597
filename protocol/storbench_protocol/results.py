"""fio's output, uploaded once fio is done (POST /worker/assignments/{id}/result).

The worker keeps the same body in its spool until the server has stored it.
"""

from pydantic import Field

from storbench_protocol.common import NonNegativeInt, WireModel, WireRequest

MAX_FIO_OUTPUT_CHARS = 64 * 1024 * 1024


class ResultUpload(WireRequest):
    """fio's complete output for an assignment."""

    # Raw fio output (json+), parsed by the server: the only untyped text of the protocol.
    fio_output: str = Field(min_length=1, max_length=MAX_FIO_OUTPUT_CHARS)
    # Set when fio was stopped before the end: what was measured is kept, marked partial.
    stopped_early: str | None = Field(default=None, max_length=2000)
    # The worker's own CPU use while fio ran (percent of one core): how much it could disturb fio.
    worker_cpu_percent: float | None = Field(default=None, ge=0, le=100_000)


class ResultStored(WireModel):
    """Acknowledgement of an upload: how many results (one per fio job) the server holds."""

    results: NonNegativeInt
