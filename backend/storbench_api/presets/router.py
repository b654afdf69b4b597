"""The published fio recipes storbench ships as presets."""

from fastapi import APIRouter

from storbench_api.deps import ReadAccess
from storbench_api.presets import service
from storbench_api.presets.schemas import PresetList
from storbench_api.presets.sweeps import SWEEP_PRESETS, SweepPresetList

router = APIRouter(prefix="/presets", tags=["presets"])


@router.get("", response_model=PresetList, summary="List presets")
def list_presets(principal: ReadAccess) -> PresetList:
    """Published recipes, parameters exactly as published."""
    items = service.all_presets()
    return PresetList(items=items, total=len(items))


@router.get("/sweeps", response_model=SweepPresetList, summary="List sweep presets")
def list_sweep_presets(principal: ReadAccess) -> SweepPresetList:
    """Common sweeps (queue depth, jobs, block size): a job and its sweep, to start as a run."""
    return SweepPresetList(items=SWEEP_PRESETS, total=len(SWEEP_PRESETS))
