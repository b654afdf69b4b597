"""Bodies of imports not filed under a target: their groups in History, and filing them later."""

from datetime import datetime

from pydantic import BaseModel, Field, model_validator

from storbench_api.ids import IdField
from storbench_api.wire import NAME, RequestBody

# At most this many results are filed by one request (a host name's imports of a year fit).
MAX_FILED = 5000


class UnfiledGroupOut(BaseModel):
    """Imports of one job from one host name that are not filed under a target."""

    host_name: str
    job_name: str
    results: int = Field(description="how many such imports")
    fingerprints: int = Field(
        description="how many ways they were measured (distinct fingerprints): 1 means they compare fairly"
    )
    first_measured_at: datetime
    last_measured_at: datetime
    newest_result_id: int = Field(description="the newest of them (its result page)")


class UnfiledGroupList(BaseModel):
    """The team's imports without a target, by host name and job, newest first."""

    items: list[UnfiledGroupOut]
    total: int = Field(description="groups listed (at most 500, the most recently measured)")
    results: int = Field(description="imports without a target in those groups")


class FileResultsIn(RequestBody):
    """Which imports to file under which target: listed by id, or every unfiled one of a host name."""

    target_id: IdField
    result_ids: list[IdField] | None = Field(
        default=None, min_length=1, max_length=MAX_FILED, description="these imports"
    )
    host_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=255,
        pattern=NAME,
        description="every import of this host name not filed under a target yet",
    )
    job_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=120,
        pattern=NAME,
        description="with host_name: only this job's imports",
    )

    @model_validator(mode="after")
    def _one_selection(self) -> "FileResultsIn":
        if (self.result_ids is None) == (self.host_name is None):
            raise ValueError("give either result_ids or host_name (with job_name to narrow it), not both")
        if self.job_name is not None and self.host_name is None:
            raise ValueError("job_name narrows host_name: give host_name too")
        return self


class FiledOut(BaseModel):
    """What filing changed."""

    target_id: int
    target_name: str
    target_host_name: str
    result_ids: list[int] = Field(description="the imports now filed under the target")
    notices: list[str] = Field(
        default_factory=list, description="what it means, e.g. imports measured on another host"
    )
