"""Resource ids as the API accepts them: positive and within the database's integer range."""

from typing import Annotated

from fastapi import Path, Query
from pydantic import Field

from storbench_api.wire import JSON_INTEGER

MAX_ID = 2**31 - 1

IdField = Annotated[int, Field(ge=1, le=MAX_ID, strict=False), JSON_INTEGER]
IdPath = Annotated[int, Path(ge=1, le=MAX_ID)]
OptionalIdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID)]
