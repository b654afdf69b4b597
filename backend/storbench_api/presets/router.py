"""The published fio recipes storbench ships as presets."""

from fastapi import APIRouter
from pydantic import BaseModel

from storbench_api.deps import ReadAccess
from storbench_api.errors import NotFound
from storbench_fio.presets import PRESETS, Preset

router = APIRouter(prefix="/presets", tags=["presets"])


class PresetList(BaseModel):
    """Every preset, with its source and the publisher's expected figures."""

    items: list[Preset]
    total: int


@router.get("", response_model=PresetList, summary="List presets")
def list_presets(principal: ReadAccess) -> PresetList:
    """Published recipes, parameters exactly as published."""
    return PresetList(items=list(PRESETS), total=len(PRESETS))


@router.get("/{preset_id}", response_model=Preset, summary="One preset")
def get_preset(preset_id: str, principal: ReadAccess) -> Preset:
    """A preset by id."""
    for preset in PRESETS:
        if preset.id == preset_id:
            return preset
    raise NotFound(f"preset '{preset_id}' not found")
