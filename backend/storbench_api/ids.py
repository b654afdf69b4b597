"""Resource ids as the API accepts them: positive and within the database's integer range."""

from collections.abc import Iterable
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.routing import APIRoute
from pydantic import Field
from starlette.routing import compile_path

from storbench_api.wire import JSON_INTEGER

MAX_ID = 2**31 - 1

IdField = Annotated[int, Field(ge=1, le=MAX_ID, strict=False), JSON_INTEGER]
IdPath = Annotated[int, Path(ge=1, le=MAX_ID)]
OptionalIdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID)]


def match_ids_by_digits(routers: Iterable[APIRouter]) -> None:
    """Every integer path parameter matches digits only, so `/schedules/next-slots` is never an id.

    Without this, `PATCH /schedules/next-slots` reaches `PATCH /schedules/{schedule_id}` and is
    refused as a bad id (422) where the truth is that the path takes no PATCH (405, with Allow).
    Applied to every API router before it is included: no route can forget it.
    """
    for router in routers:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            path = route.path
            for param in route.dependant.path_params:
                if param.field_info.annotation is int:
                    path = path.replace(f"{{{param.name}}}", f"{{{param.name}:int}}")
            if path != route.path:
                route.path = path
                route.path_regex, route.path_format, route.param_convertors = compile_path(path)
