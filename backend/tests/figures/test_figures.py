"""The one definition of figures, walked: every reader shows each figure as the definition says.

Adding a figure is one line in storbench_api/figures/definition.py (and a column if it is new).
These tests then ask each reader for it: the API's vocabulary (GET /figures, and the copy the SPA
is built with), the comparison's CSV export, the trend, and where its values are kept. The SPA's
own test (frontend/src/lib/figures.test.ts) checks it labels and formats every figure of that copy.
"""

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.figures.definition import COMPARED_FIGURES, DIRECTION_FIGURES, JOB_FIGURES, Figure
from storbench_api.models import ResultDirection
from storbench_api.results.schemas import CpuOut
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_host, make_target

SPA_FIGURES = Path(__file__).resolve().parents[3] / "frontend" / "src" / "lib" / "api" / "figures.json"
JOB = "randread-4k"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _import(client: TestClient, caller: Caller, content: str, **form: str) -> int:
    files = {"file": ("out.json", content.encode(), "application/json")}
    response = client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)
    assert response.status_code == 201, response.text
    result_id: int = response.json()["results"][0]["id"]
    return result_id


def test_the_api_publishes_every_figure_as_defined(client: TestClient, owner: Caller) -> None:
    response = client.get("/api/v1/figures", headers=owner.headers)
    assert response.status_code == 200, response.text
    published = {item["name"]: item for item in response.json()["items"]}
    assert list(published) == [figure.value for figure in Figure]
    for figure in Figure:
        assert published[figure.value] == {
            "name": figure.value,
            "label": figure.label,
            "unit": figure.unit.value,
            "higher_is_better": figure.higher_is_better,
            "per": figure.per.value,
            "compared": figure.compared,
            "percentile": figure.percentile,
        }


def test_the_spa_is_built_with_what_the_api_publishes(client: TestClient, owner: Caller) -> None:
    committed = json.loads(SPA_FIGURES.read_text(encoding="utf-8"))
    answer = client.get("/api/v1/figures", headers=owner.headers).json()
    assert answer == committed, f"{SPA_FIGURES.name} is stale: run `make api-types` and commit the result"


def test_every_figure_is_kept_where_the_definition_says() -> None:
    for figure in DIRECTION_FIGURES:
        assert figure.key in ResultDirection.__table__.columns, figure
    for figure in JOB_FIGURES:
        assert figure.key in CpuOut.model_fields, figure


def test_every_percentile_figure_holds_the_percentile_fio_reported(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    percentiles = [figure for figure in DIRECTION_FIGURES if figure.percentile is not None]
    assert [figure.percentile for figure in percentiles] == ["50", "90", "95", "99", "99.9", "99.99"]
    result_id = _import(client, owner, shaped(base, iops=10_000))
    result = client.get(f"/api/v1/results/{result_id}", headers=owner.headers).json()
    reported = result["directions"]["read"]["clat_ns"]["percentiles"]
    kept = db.scalars(
        select(ResultDirection).where(
            ResultDirection.result_id == result_id, ResultDirection.direction == "read"
        )
    ).one()
    for figure in percentiles:
        assert getattr(kept, figure.key) == reported[figure.percentile], figure


def test_every_compared_figure_is_exported_with_its_label_and_unit(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    ids = [_import(client, owner, shaped(base, iops=iops), label=f"disk {iops}") for iops in (9_000, 10_000)]
    response = client.get(f"/api/v1/compare/export?ids={ids[0]},{ids[1]}&format=csv", headers=owner.headers)
    assert response.status_code == 200, response.text
    rows = list(csv.DictReader(io.StringIO(response.text)))
    exported = {row["figure"]: row for row in rows}
    assert list(exported) == [figure.value for figure in COMPARED_FIGURES]
    for figure in COMPARED_FIGURES:
        row = exported[figure.value]
        assert (row["label"], row["unit"]) == (figure.label, figure.unit.value)
        assert row["higher_is_better"] == ("true" if figure.higher_is_better else "false")
        assert float(row["value"]) > 0


def test_every_direction_figure_is_charted_in_its_unit(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    _import(client, owner, shaped(base, iops=10_000), target_id=str(target.id))
    for figure in DIRECTION_FIGURES:
        response = client.get(
            f"/api/v1/history/trend?target_id={target.id}&job={JOB}&metric={figure.value}",
            headers=owner.headers,
        )
        assert response.status_code == 200, response.text
        trend = response.json()
        assert (trend["metric"], trend["unit"]) == (figure.value, figure.unit.value)
        assert [point["value"] > 0 for point in trend["points"]] == [True]


def test_a_job_figure_is_not_a_trend_and_the_answer_says_what_to_chart(
    client: TestClient, owner: Caller
) -> None:
    response = client.get("/api/v1/history/trend?target_id=1&job=j&metric=cpu_usr_pct", headers=owner.headers)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["errors"][0]["field"] == "metric"
    assert "cpu_usr_pct is a figure of the whole job" in body["message"]
    assert "clat_p99_ns" in body["message"]


def test_a_figure_charted_only_is_not_grouped_and_the_answer_says_what_to_compare(
    client: TestClient, owner: Caller
) -> None:
    response = client.get(
        "/api/v1/compare/groups?by=storage_class&figure=lat_stddev_ns", headers=owner.headers
    )
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["errors"][0]["field"] == "figure"
    assert "lat_stddev_ns is charted in history only" in body["message"]
    assert "cpu_usr_pct" in body["message"]
