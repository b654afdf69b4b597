"""Preset response bodies: the fio package's presets, their jobs shown as normalised fio jobs."""

from typing import TYPE_CHECKING

from pydantic import BaseModel

from storbench_api.fio_tools.schemas import FioJobOut
from storbench_api.wire import renamed_model
from storbench_fio.preset_model import ExpectedFigure, Preset


class PresetFigure(ExpectedFigure):
    """A figure the publisher says one client host should see (a storage class's spec has its own)."""


if TYPE_CHECKING:
    PresetOut = Preset
else:
    # Every field of the fio package's Preset; the jobs as the options their recipe sets.
    PresetOut = renamed_model(Preset, "PresetOut", jobs=list[FioJobOut], expected=list[PresetFigure])


class PresetList(BaseModel):
    """Every preset, with its source and the publisher's expected figures."""

    items: list[PresetOut]
    total: int
