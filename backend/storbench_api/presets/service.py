"""The published fio recipes storbench ships (storbench_fio.presets), as the API shows them."""

from storbench_api.fio_tools.schemas import jobs_out
from storbench_api.presets.schemas import PresetFigure, PresetOut
from storbench_fio.presets import PRESETS, Preset


def all_presets() -> list[PresetOut]:
    """Every preset, in the order the fio package lists them."""
    return [describe(preset) for preset in PRESETS]


def describe(preset: Preset) -> PresetOut:
    """A preset with its jobs as the options their recipe sets."""
    return PresetOut.model_validate(
        {
            **dict(preset),
            "jobs": jobs_out([job.model_dump(mode="json", exclude_none=True) for job in preset.jobs]),
            "expected": [PresetFigure.model_validate(dict(figure)) for figure in preset.expected],
        }
    )
