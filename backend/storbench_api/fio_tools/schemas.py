"""fio jobs on the wire: as a user writes them (fio's own option names and units), and as normalised."""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, model_serializer

from storbench_api.wire import RequestBody, SparseModel
from storbench_fio.job import FioJob

# What a job must satisfy beyond its schema (for operations' 422 documentation).
FIO_JOB_RULES = (
    "each job must be one fio accepts (option names, values and units as fio reads them, a name and "
    "an rw) within this service's limits (numjobs, iodepth, runtime, jobs per plan)"
)

# Any text with something besides blanks in it.
NOT_BLANK = r"\S"

FioOptionName = Annotated[str, StringConstraints(min_length=1, max_length=64)]
# A value as fio's grammar reads it: "4k", 4096, "10s", true, "99:99.9" or [99, 99.9]; null means unset.
FioOptionValue = (
    Annotated[str, StringConstraints(max_length=4096)]
    | int
    | float
    | bool
    | Annotated[list[float | Annotated[str, StringConstraints(max_length=32)]], Field(max_length=20)]
    | None
)


class FioJobIn(RootModel[Annotated[dict[FioOptionName, FioOptionValue], Field(max_length=200)]]):
    """One fio job as fio options by name, e.g. {"name": "r", "rw": "randread", "bs": "4k", "direct": 1}.

    Option names and values follow fio (aliases, units, booleans as 0/1); every job needs a `name`
    and an `rw`. The API answers with the jobs normalised, or 422 with one error per option.
    """

    model_config = ConfigDict(strict=True)


class FioJobOut(SparseModel, FioJob):
    """An fio job as storbench normalised it: only the options it sets, sizes in bytes, times in seconds."""

    # The options beyond the typed fields (fio text) are set too, though pydantic keeps them apart.
    @model_serializer(mode="wrap")
    def _given_fields_only(self, handler):  # type: ignore[no-untyped-def]
        data = handler(self)
        given = self.model_fields_set | set(self.model_extra or {})
        return {key: value for key, value in data.items() if key in given}


class JobsIn(RequestBody):
    """Jobs to check, as JSON objects of fio options."""

    jobs: list[FioJobIn] = Field(
        min_length=1, max_length=1000, examples=[[{"name": "r", "rw": "randread", "bs": "4k"}]]
    )


class NoticeOut(BaseModel):
    """How a paste was read where that differs from its literal text (a rejoined line, a variable)."""

    option: str = Field(description="the option or word concerned ('command' for the paste as a whole)")
    value: str
    message: str


class JobsOut(BaseModel):
    """Jobs as storbench normalised them."""

    jobs: list[FioJobOut]
    notices: list[NoticeOut] = Field(default_factory=list, description="how a pasted text was read, to check")


class FioTextIn(RequestBody):
    """A job file or a pasted fio command line."""

    text: str = Field(
        min_length=1,
        max_length=256 * 1024,
        pattern=NOT_BLANK,
        examples=["fio --name=randread --rw=randread --bs=4k --iodepth=32 --direct=1 --ioengine=libaio"],
    )


def jobs_in(jobs: list[FioJobIn]) -> list[dict[str, Any]]:
    """The jobs as the option dictionaries fio's rules check."""
    return [dict(job.root) for job in jobs]


def jobs_out(jobs: list[dict[str, Any]]) -> list[FioJobOut]:
    """Normalised jobs (as stored) as the API shows them.

    Not validated again: they were when stored, and a rule added since must not make a saved
    plan unreadable (it refuses to run, saying why, instead).
    """
    return [FioJobOut.model_construct(**job) for job in jobs]
