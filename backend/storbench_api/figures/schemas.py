"""The vocabulary of figures as the API publishes it."""

from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema

from storbench_api.figures.definition import (
    COMPARED_FIGURES,
    DIRECTION_FIGURES,
    Figure,
    FigureUnit,
    MeasuredPer,
)


def _names(figures: tuple[Figure, ...]) -> str:
    return ", ".join(figure.value for figure in figures)


def _compared(figure: Figure) -> Figure:
    if not figure.compared:
        raise ValueError(
            f"{figure.value} is charted in history only; compare one of {_names(COMPARED_FIGURES)}"
        )
    return figure


def _per_direction(figure: Figure) -> Figure:
    if figure.per is not MeasuredPer.direction:
        raise ValueError(
            f"{figure.value} is a figure of the whole job; chart one of {_names(DIRECTION_FIGURES)}"
        )
    return figure


def _subset(figures: tuple[Figure, ...], description: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": [f.value for f in figures], "description": description})


# A figure comparisons and grouped views show (the API schema lists just those).
ComparedFigure = Annotated[
    Figure,
    AfterValidator(_compared),
    _subset(COMPARED_FIGURES, "a figure comparisons and grouped views show (GET /figures: compared)"),
]
# A figure of one direction, as history charts and watches it.
DirectionFigure = Annotated[
    Figure,
    AfterValidator(_per_direction),
    _subset(DIRECTION_FIGURES, "a figure of one direction (GET /figures: per direction)"),
]


class FigureOut(BaseModel):
    """How a figure is named, written and read."""

    name: Figure = Field(description="the figure's name in every request and answer (figure, metric)")
    label: str = Field(description="how people name it, e.g. 'Mean latency'")
    unit: FigureUnit = Field(description="the unit its values are in; bandwidth is bytes per second (B/s)")
    higher_is_better: bool
    per: MeasuredPer = Field(
        description="direction: one value per read, write, trim; job: one per result (CPU)"
    )
    compared: bool = Field(
        description="shown in comparisons and grouped views; every direction figure can be charted in history"
    )
    percentile: str | None = Field(
        description="the completion-latency percentile it is, as fio keys it ('99.9'); null for others"
    )


class FigureList(BaseModel):
    """Every figure, in the order they are shown."""

    items: list[FigureOut]
    total: int


def describe(figure: Figure) -> FigureOut:
    """A figure as the API shows it."""
    return FigureOut(
        name=figure,
        label=figure.label,
        unit=figure.unit,
        higher_is_better=figure.higher_is_better,
        per=figure.per,
        compared=figure.compared,
        percentile=figure.percentile,
    )
