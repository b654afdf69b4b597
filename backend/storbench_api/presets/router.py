"""The published fio recipes storbench ships as presets."""

from fastapi import APIRouter

from storbench_api.deps import ReadAccess
from storbench_api.presets import service
from storbench_api.presets.schemas import PresetList

router = APIRouter(prefix="/presets", tags=["presets"])


@router.get("", response_model=PresetList, summary="List presets")
def list_presets(principal: ReadAccess) -> PresetList:
    """Published recipes, parameters exactly as published."""
    items = service.all_presets()
    return PresetList(items=items, total=len(items))
