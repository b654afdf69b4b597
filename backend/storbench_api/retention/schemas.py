"""A team's retention settings as the API reads and sets them."""

from typing import Annotated

from pydantic import BaseModel, Field

from storbench_api.wire import JSON_INTEGER, RequestBody

# Up to ten years; null keeps forever (the default).
RetentionDays = Annotated[int, Field(ge=1, le=3650, strict=False), JSON_INTEGER] | None


class RetentionOut(BaseModel):
    """How long the team keeps what is bulky; its summaries (results, their figures) are kept forever."""

    raw_output_days: int | None = Field(
        description="days fio's raw output of a result is kept after it was stored (null: forever)"
    )
    series_days: int | None = Field(
        description="days a run's per-second series are kept after it ended (null: forever)"
    )


class RetentionIn(RequestBody):
    """New retention settings; null keeps forever."""

    raw_output_days: RetentionDays = Field(
        description="days fio's raw output of a result is kept after it was stored (1-3650; null: forever)"
    )
    series_days: RetentionDays = Field(
        description="days a run's per-second series are kept after it ended (1-3650; null: forever)"
    )
