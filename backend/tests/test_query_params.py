"""A query parameter an operation does not declare is a 422 on every route, never ignored."""

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Caller


@pytest.mark.parametrize(
    ("method", "path", "unknown", "accepted"),
    [
        ("GET", "/api/v1/hosts?limit=5&sort=name", "sort", ["limit", "offset"]),
        ("GET", "/api/v1/storage-classes?vendor=acme", "vendor", ["limit", "offset"]),
        ("GET", "/api/v1/health?verbose=1", "verbose", []),
        ("GET", "/api/v1/runs?limit=5&target=3", "target", ["limit"]),
        ("POST", "/api/v1/plans?dry_run=true", "dry_run", []),
    ],
)
def test_an_unknown_query_parameter_is_named_with_what_the_operation_takes(
    client: TestClient, owner: Caller, method: str, path: str, unknown: str, accepted: list[str]
) -> None:
    response = client.request(method, path, headers=owner.headers, json={"name": "p", "jobs": []})
    assert response.status_code == 422, response.text
    body = response.json()
    assert [e["field"] for e in body["errors"]] == [unknown]
    assert "unknown query parameter" in body["message"]
    for name in accepted:
        assert name in body["message"]
    if not accepted:
        assert "takes no query parameters" in body["message"] or "takes:" in body["message"]


def test_several_unknown_parameters_are_all_named(client: TestClient, owner: Caller) -> None:
    response = client.get("/api/v1/results?labels=a&_=1700000000", headers=owner.headers)
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == ["_", "labels"]


def test_declared_parameters_still_work_and_paths_do_not_count(client: TestClient, owner: Caller) -> None:
    # limit and offset come from the shared page dependency, not the endpoint's own signature.
    assert client.get("/api/v1/hosts?limit=5&offset=0", headers=owner.headers).status_code == 200
    assert client.get("/api/v1/results?label=x&storage_class=y", headers=owner.headers).status_code == 200
    assert (
        client.get("/api/v1/storage-classes/1/spec?capacity_gib=800", headers=owner.headers).status_code
        == 200
    )
