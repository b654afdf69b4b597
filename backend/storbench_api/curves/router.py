"""Curves: a figure against a swept option, with its knee."""

from typing import Annotated

from fastapi import APIRouter, Query

from storbench_api.curves import service
from storbench_api.curves.axis import AXIS_OPTIONS
from storbench_api.curves.schemas import CurvesOut
from storbench_api.deps import DB, ReadAccess
from storbench_api.figures.definition import Figure
from storbench_api.figures.schemas import DirectionFigure
from storbench_api.kit.id_list import parse_id_list
from storbench_api.openapi import rules_beyond_schema
from storbench_protocol.progress import Direction

router = APIRouter(prefix="/curves", tags=["curves"])

MAX_IDS = 2000
IdText = Annotated[
    str | None,
    Query(max_length=24000, pattern=r"^[0-9, ]*$", description="ids separated by commas, e.g. 12,15,19"),
]


@router.get(
    "",
    response_model=CurvesOut,
    summary="Curves of a figure along a swept option, with their knee",
    openapi_extra=rules_beyond_schema(
        f"ids and run_ids must be your team's (an unknown result id is a 404 naming it; at most {MAX_IDS} "
        "each); direction is required when the results did I/O in more than one"
    ),
)
def get_curves(
    db: DB,
    principal: ReadAccess,
    axis: Annotated[str, Query(description=f"the swept option: {', '.join(AXIS_OPTIONS)}")],
    ids: IdText = None,
    run_ids: IdText = None,
    figure: Annotated[DirectionFigure, Query()] = Figure.iops,
    direction: Direction | None = None,
    p99_bound_ns: Annotated[
        float | None, Query(gt=0, le=1e13, description="a p99 latency bound (ns)")
    ] = None,
) -> CurvesOut:
    """One curve per series (a run's job, or imported results of one label) and per host, each point the
    median of its repetitions with their range; the knee is the last point before the curve saturates
    (the next step adds < 5 % of IOPS or bandwidth while mean latency rises > 50 %), or null with the
    reason; with p99_bound_ns, the highest load whose p99 stays under it."""
    return service.curves(
        db,
        principal.team_id,
        result_ids=parse_id_list(ids or "", "ids", MAX_IDS),
        run_ids=parse_id_list(run_ids or "", "run_ids", MAX_IDS),
        axis=axis,
        figure=figure,
        direction=direction,
        p99_bound_ns=p99_bound_ns,
    )
