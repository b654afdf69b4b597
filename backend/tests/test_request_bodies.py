"""A request body field an operation does not declare is a 422 naming it, never silently ignored."""

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy.orm import Session

from storbench_api.errors import model_in
from storbench_api.main import API_ROUTERS
from tests.conftest import Caller, make_host, make_target

JOB = {"name": "randread-4k", "rw": "randread", "bs": "4k", "size": "16m", "runtime": 1}


def _body_models() -> dict[str, type[BaseModel]]:
    """Every operation's request body model, by 'METHOD path'."""
    models = {}
    for route in (r for router in API_ROUTERS for r in router.routes):
        if isinstance(route, APIRoute):
            for param in route.dependant.body_params:
                model = model_in(param.field_info.annotation)
                assert model is not None, f"{route.path}: a body that is not a model"
                models[f"{sorted(route.methods)[0]} {route.path}"] = model
    return models


def test_every_request_body_of_the_api_refuses_unknown_fields() -> None:
    models = _body_models()
    assert len(models) > 40, "the routes were not found"
    tolerant = {op: m.__name__ for op, m in models.items() if m.model_config.get("extra") != "forbid"}
    assert tolerant == {}, "derive these from wire.KnownFieldsOnly (or protocol's WireRequest)"


def test_a_misspelt_field_of_a_run_is_named_with_the_fields_it_takes(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    body = {"target_id": target.id, "jobs": [JOB], "repetiton": 3}
    for path in ("/api/v1/runs", "/api/v1/runs/check"):
        response = client.post(path, json=body, headers=owner.headers)
        assert response.status_code == 422, response.text
        [error] = response.json()["errors"]
        assert error["field"] == "repetiton" and error["value"] == "3"
        assert "not a field of this body" in error["reason"] and "repetitions" in error["reason"]
        assert response.json()["message"].startswith("repetiton: not a field of this body")
    assert client.get("/api/v1/runs", headers=owner.headers).json()["total"] == 0


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/api/v1/hosts", {"name": "h1", "bogus": 1}, "bogus"),
        ("POST", "/api/v1/plans", {"name": "p", "jobs": [JOB], "sweep": {"bs": ["4k"]}}, "sweep.bs"),
        ("POST", "/api/v1/compare/views", {"name": "v", "kind": "compare", "query": {}, "x": 1}, "x"),
        ("POST", "/api/v1/storage-classes", {"name": "c", "protocol": "nfs", "vendr": "a"}, "vendr"),
    ],
)
def test_unknown_fields_of_json_bodies_are_refused(
    client: TestClient, owner: Caller, method: str, path: str, body: dict[str, Any], field: str
) -> None:
    response = client.request(method, path, json=body, headers=owner.headers)
    assert response.status_code == 422, response.text
    assert field in [e["field"] for e in response.json()["errors"]]


def test_unknown_fields_of_forms_are_refused(client: TestClient, owner: Caller) -> None:
    token = client.post(
        "/api/v1/auth/token",
        data={"username": owner.user.email, "password": "pw-123456", "remember": "yes"},
    )
    assert token.status_code == 422 and token.json()["errors"][0]["field"] == "remember"
    # What OAuth2 lets a client send besides its credentials is still taken.
    signed_in = client.post(
        "/api/v1/auth/token",
        data={"username": owner.user.email, "password": "pw-123456", "client_id": "cli", "scope": ""},
    )
    assert signed_in.status_code == 200, signed_in.text
    imported = client.post(
        "/api/v1/results/import",
        files={"file": ("out.json", b"{}")},
        data={"labl": "after firmware 2.1"},
        headers=owner.headers,
    )
    assert imported.status_code == 422 and imported.json()["errors"][0]["field"] == "labl"


def test_a_workers_body_refuses_unknown_fields_but_not_facts_it_does_not_know(
    client: TestClient, db: Session, owner: Caller
) -> None:
    _, token = make_host(db, team=owner.team)
    worker = {"Authorization": f"Bearer {token}"}
    unknown = client.post("/api/v1/worker/heartbeat", json={"fio_versoin": "fio-3.33"}, headers=worker)
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "fio_versoin"
    # A fact a newer worker reads is left aside: the host stays online and keeps the rest.
    newer = {"fio_version": "fio-3.33", "facts": {"cpu_count": 4, "numa_nodes": 2}}
    assert client.post("/api/v1/worker/heartbeat", json=newer, headers=worker).status_code == 200
