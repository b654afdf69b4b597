"""The vocabulary of figures: what clients label and format figures by."""

from fastapi import APIRouter

from storbench_api.deps import ReadAccess
from storbench_api.figures.definition import Figure
from storbench_api.figures.schemas import FigureList, describe

router = APIRouter(prefix="/figures", tags=["figures"])


@router.get("", response_model=FigureList, summary="List figures")
def list_figures(principal: ReadAccess) -> FigureList:
    """Every figure a result has: its label, unit, which way is better and where it is shown."""
    items = [describe(figure) for figure in Figure]
    return FigureList(items=items, total=len(items))
