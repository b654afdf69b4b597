"""Compare endpoints: results side by side, against the previous run, grouped, exported, saved."""

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response, status

from storbench_api.compare import export, grouping, service, views
from storbench_api.compare.schemas import (
    CompareDirection,
    ComparisonOut,
    ExportFormat,
    GroupBy,
    GroupsOut,
    Pooling,
    SavedViewIn,
    SavedViewList,
    SavedViewOut,
)
from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict, NotFound
from storbench_api.figures.definition import Figure
from storbench_api.figures.schemas import ComparedFigure
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.results.filters import ResultFilters

router = APIRouter(prefix="/compare", tags=["compare"])

IDS_RULES = (
    "ids must be result ids of your team separated by commas (at most 200; another team's or an "
    "unknown id is a 404 naming it); baseline must be one of them"
)
IdList = Annotated[
    str,
    Query(
        min_length=1,
        max_length=2600,
        pattern=r"^[0-9, ]+$",
        description="result ids separated by commas (at most 200), e.g. 12,15,19",
        examples=["12,15,19"],
    ),
]
OptionalIdList = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=2600,
        pattern=r"^[0-9, ]+$",
        description="only these results (ids separated by commas, at most 200)",
    ),
]
Text = Annotated[str | None, Query(max_length=120, pattern=r"^[^\x00]*$")]
LongText = Annotated[str | None, Query(max_length=200, pattern=r"^[^\x00]*$")]


def _file(content: str, fmt: ExportFormat, stem: str) -> Response:
    media = "text/csv; charset=utf-8" if fmt is ExportFormat.csv else "application/json"
    return Response(
        content=content,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{stem}.{fmt.value}"'},
    )


_FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The file (Content-Disposition: attachment)",
        "content": {
            "text/csv": {"schema": {"type": "string"}},
            "application/json": {"schema": {"type": "object"}},
        },
    }
}


def result_filters(
    ids: OptionalIdList = None,
    target_id: OptionalIdQuery = None,
    storage_class: Text = None,
    imported: bool | None = None,
    job_name: Text = None,
    label: LongText = None,
    host_name: Annotated[str | None, Query(max_length=255, pattern=r"^[^\x00]*$")] = None,
    run_id: OptionalIdQuery = None,
    measured_after: datetime | None = None,
    measured_before: datetime | None = None,
) -> ResultFilters:
    """The results list's filters, plus an optional set of ids."""
    return ResultFilters(
        ids=service.parse_ids(ids) if ids is not None else None,
        target_id=target_id,
        storage_class=storage_class,
        imported=imported,
        job_name=job_name,
        label=label,
        host_name=host_name,
        run_id=run_id,
        measured_after=measured_after,
        measured_before=measured_before,
    )


Filters = Annotated[ResultFilters, Depends(result_filters)]
GroupByQuery = Annotated[GroupBy, Query(description="what to group by")]
FigureQuery = Annotated[ComparedFigure, Query(description="the figure (CPU figures ignore direction)")]
DirectionQuery = Annotated[CompareDirection, Query(description="read, write or trim")]
PoolQuery = Annotated[
    Pooling,
    Query(
        alias="pool",
        description="measured (default): runs of one plan on one target pool into one side per job and "
        "fingerprint, labels split them; run: each run is a side of its own",
    ),
]


@router.get(
    "",
    response_model=ComparisonOut,
    summary="Results side by side against a baseline",
    responses=errors(NotFound),
    openapi_extra=rules_beyond_schema(IDS_RULES),
)
def compare(
    db: DB,
    principal: ReadAccess,
    ids: IdList,
    baseline: OptionalIdQuery = None,
    pooling: PoolQuery = Pooling.measured,
) -> ComparisonOut:
    """What differs in how they were measured, then every figure with deltas and significance."""
    return service.compare(db, principal.team_id, service.parse_ids(ids), baseline, pooling)


@router.get(
    "/export",
    response_class=Response,
    summary="A comparison as a CSV or JSON file",
    responses={**errors(NotFound), **_FILE_RESPONSES},
    openapi_extra=rules_beyond_schema(IDS_RULES),
)
def export_comparison(
    db: DB,
    principal: ReadAccess,
    ids: IdList,
    baseline: OptionalIdQuery = None,
    format: ExportFormat = ExportFormat.csv,
    pooling: PoolQuery = Pooling.measured,
) -> Response:
    """The comparison GET /compare answers, as a file (CSV: one row per figure, direction and side)."""
    comparison = service.compare(db, principal.team_id, service.parse_ids(ids), baseline, pooling)
    content = export.comparison_csv(comparison) if format is ExportFormat.csv else export.as_json(comparison)
    return _file(content, format, f"comparison-{comparison.baseline_result_id}")


@router.get(
    "/previous",
    response_model=ComparisonOut,
    summary="A run against the previous run of its plan on its target",
    responses=errors(NotFound),
    openapi_extra=rules_beyond_schema("the run must have results"),
)
def compare_previous(
    db: DB, principal: ReadAccess, run_id: Annotated[int, Query(ge=1, le=2**31 - 1)]
) -> ComparisonOut:
    """The previous run's results are the baseline; 404 when there is no earlier run of the plan."""
    return service.compare_with_previous(db, principal.team_id, run_id)


@router.get(
    "/groups",
    response_model=GroupsOut,
    summary="Results grouped by class, vendor, host, label or a job option",
    openapi_extra=rules_beyond_schema("with ids, at least one of them must have the figure"),
)
def groups(
    db: DB,
    principal: ReadAccess,
    by: GroupByQuery,
    filters: Filters,
    figure: FigureQuery = Figure.iops,
    direction: DirectionQuery = CompareDirection.read,
) -> GroupsOut:
    """Per group its median, quartiles and range; per provisioned GiB and per dollar where known."""
    return grouping.groups(db, principal.team_id, by, figure, direction, filters)


@router.get(
    "/groups/export",
    response_class=Response,
    summary="A grouped view as a CSV or JSON file",
    responses=_FILE_RESPONSES,
    openapi_extra=rules_beyond_schema("with ids, at least one of them must have the figure"),
)
def export_groups(
    db: DB,
    principal: ReadAccess,
    by: GroupByQuery,
    filters: Filters,
    figure: FigureQuery = Figure.iops,
    direction: DirectionQuery = CompareDirection.read,
    format: ExportFormat = ExportFormat.csv,
) -> Response:
    """The grouped view GET /compare/groups answers, as a file (CSV: one row per group)."""
    view = grouping.groups(db, principal.team_id, by, figure, direction, filters)
    content = export.groups_csv(view) if format is ExportFormat.csv else export.as_json(view)
    return _file(content, format, f"groups-by-{by.value}")


@router.get("/views", response_model=SavedViewList, summary="The team's saved views")
def list_views(db: DB, principal: ReadAccess, page: Annotated[Page, page_params()]) -> SavedViewList:
    """Named comparisons and grouped queries, newest first."""
    items, total = views.list_views(db, principal.team_id, page)
    return SavedViewList(items=items, total=total)


@router.post(
    "/views",
    response_model=SavedViewOut,
    status_code=status.HTTP_201_CREATED,
    summary="Save a view for the team",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(
        "a compare view's ids must be your team's results and its baseline one of them; a groups "
        "view's by, figure and direction must be ones GET /compare/groups takes"
    ),
)
def create_view(body: SavedViewIn, db: DB, principal: WriteAccess) -> SavedViewOut:
    """Keep a comparison (ids, baseline) or grouped query under a name; teammates open it by id."""
    view = views.create_view(db, principal.team_id, principal.user_id, body)
    db.commit()
    return view


@router.get("/views/{view_id}", response_model=SavedViewOut, summary="One saved view")
def get_view(view_id: IdPath, db: DB, principal: ReadAccess) -> SavedViewOut:
    """A saved view with the web UI path that opens it."""
    return views.get_view(db, principal.team_id, view_id)


@router.delete("/views/{view_id}", status_code=status.HTTP_204_NO_CONTENT, summary="Delete a saved view")
def delete_view(view_id: IdPath, db: DB, principal: WriteAccess) -> Response:
    """The view is forgotten; its results stay."""
    views.delete_view(db, principal.team_id, view_id)
    db.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
