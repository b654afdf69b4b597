"""What the OpenAPI schema promises beyond each route's models, and the API keeping to it."""

import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.openapi import RULES_BEYOND_SCHEMA
from tests.conftest import Caller, make_host

HTTP_METHODS = {"get", "put", "post", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(app: FastAPI) -> dict[str, Any]:
    return app.openapi()


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    ]


def test_component_names_are_unique_and_readable(schema: dict[str, Any]) -> None:
    names = list(schema["components"]["schemas"])
    unreadable = [n for n in names if "__" in n or n.endswith(("-Input", "-Output")) or n.startswith("Body_")]
    assert not unreadable, f"module-qualified, split or generated component names: {unreadable}"
    # FastAPI's default 422 body ({detail: [...]}) is never sent: the schema must not describe it.
    assert "HTTPValidationError" not in names


def test_every_error_response_has_the_one_error_shape(schema: dict[str, Any]) -> None:
    wrong = [
        f"{method} {path} {status}"
        for method, path, operation in operations(schema)
        for status, response in operation["responses"].items()
        if int(status) >= 400
        and response.get("content", {}).get("application/json", {}).get("schema")
        != {"$ref": "#/components/schemas/ErrorOut"}
    ]
    assert not wrong
    assert set(schema["components"]["schemas"]["ErrorOut"]["properties"]) == {"code", "message", "errors"}


def test_errors_follow_from_what_an_operation_depends_on(schema: dict[str, Any]) -> None:
    for method, path, operation in operations(schema):
        statuses = set(operation["responses"])
        if "{" in path:
            assert "404" in statuses, f"{method} {path}: a path id that is not the team's is a 404"
        if "requestBody" in operation:
            assert {"413", "422"} <= statuses, f"{method} {path}: a body can be too large or unacceptable"
        if operation.get("security"):
            assert "401" in statuses, f"{method} {path}: it needs a credential"
        assert "503" in statuses, f"{method} {path}: the request queue can time out"
    paths = schema["paths"]
    # An owner's operation refuses members; a change refuses a browser session without its CSRF token.
    assert "403" in paths["/api/v1/audit"]["get"]["responses"]
    assert "403" in paths["/api/v1/plans"]["post"]["responses"]
    assert "403" not in paths["/api/v1/plans"]["get"]["responses"]
    # Sign-in routes answer wrong credentials and too many attempts; what a route declares is listed.
    assert {"401", "429"} <= set(paths["/api/v1/auth/token"]["post"]["responses"])
    assert "409" in paths["/api/v1/plans"]["post"]["responses"]
    assert "409" not in paths["/api/v1/plans/{plan_id}"]["get"]["responses"]


def test_rules_the_schema_cannot_state_are_named_on_their_operation(schema: dict[str, Any]) -> None:
    validate = schema["paths"]["/api/v1/fio/validate-jobs"]["post"]
    assert "fio" in validate[RULES_BEYOND_SCHEMA]["rules"]
    assert "fio" in validate["responses"]["422"]["description"]
    assert RULES_BEYOND_SCHEMA not in schema["paths"]["/api/v1/teams"]["post"]


def test_every_list_states_its_page_bounds(schema: dict[str, Any]) -> None:
    for method, path, operation in operations(schema):
        parameters = {p["name"]: p["schema"] for p in operation.get("parameters", [])}
        if "offset" in parameters:
            assert "maximum" in parameters["offset"], f"{method} {path}: offset without a bound"
            assert "maximum" in parameters["limit"], f"{method} {path}: limit without a bound"


@pytest.mark.parametrize("path", ["/api/v1/audit", "/api/v1/hosts", "/api/v1/plans", "/api/v1/results"])
def test_an_offset_beyond_the_bound_is_refused_saying_so(
    client: TestClient, owner: Caller, path: str
) -> None:
    response = client.get(f"{path}?offset={2**64}", headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "offset"


def test_a_method_a_path_does_not_take_is_a_405_naming_every_method_it_takes(
    client: TestClient, owner: Caller
) -> None:
    # GET /hosts and POST /hosts are two routes: the Allow header names both.
    response = client.delete("/api/v1/hosts", headers=owner.headers)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST, OPTIONS"
    assert response.json()["code"] == "method_not_allowed"
    # A POST-only path answers GET with a 405 too (the web UI's catch-all used to answer 404).
    assert client.get("/api/v1/auth/token").status_code == 405
    options = client.options("/api/v1/hosts/1")
    assert options.status_code == 204
    assert set(re.split(r",\s*", options.headers["allow"])) == {"GET", "PATCH", "DELETE", "OPTIONS"}
    missing = client.get("/api/v1/no-such-thing", headers=owner.headers)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_request_bodies_take_the_types_their_schema_states(client: TestClient, owner: Caller) -> None:
    created = client.post(
        "/api/v1/teams/current/invitations", json={"expires_in_hours": 24.0}, headers=owner.headers
    )
    assert created.status_code == 201, "24.0 is an integer to JSON Schema"
    for body in ({"expires_in_hours": "24"}, {"expires_in_hours": True}):
        refused = client.post("/api/v1/teams/current/invitations", json=body, headers=owner.headers)
        assert refused.status_code == 422, body
        assert refused.json()["errors"][0]["field"] == "expires_in_hours"
    plan = {"name": "p", "jobs": [{"name": "r", "rw": "read"}], "shared_files": 0}
    assert client.post("/api/v1/plans", json=plan, headers=owner.headers).status_code == 422


def test_text_with_a_nul_character_is_refused_by_the_schema(client: TestClient, owner: Caller) -> None:
    response = client.post("/api/v1/teams", json={"name": "a\x00b"}, headers=owner.headers)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "name"


def test_a_body_that_cannot_be_decoded_is_a_422_like_any_unreadable_body(
    client: TestClient, owner: Caller
) -> None:
    headers = {**owner.headers, "Content-Type": "application/json"}
    response = client.post("/api/v1/teams", content=b'{"name": "\xff\xfe"}', headers=headers)
    assert response.status_code == 422
    assert response.json()["errors"] == [{"field": "body", "reason": response.json()["errors"][0]["reason"]}]
    # A multipart envelope Starlette cannot parse, too.
    envelope = {**owner.headers, "Content-Type": "multipart/form-data; boundary=b"}
    broken = client.post("/api/v1/results/import", content=b"--b\r\n[[]]--b--\r\n", headers=envelope)
    assert broken.status_code == 422
    assert broken.json()["errors"][0]["field"] == "body"


def test_host_facts_are_shown_as_the_worker_reported_them(
    client: TestClient, db: Session, owner: Caller
) -> None:
    host, _ = make_host(db, team=owner.team)
    host.facts = {"memory_bytes": 8 << 30, "allowed_roots": ["/srv"], "cpu_count": -1, "retired_fact": 1}
    db.commit()
    facts = client.get(f"/api/v1/hosts/{host.id}", headers=owner.headers).json()["facts"]
    # A fact a newer rule refuses, or one no longer known, is left out rather than failing the page.
    assert facts == {"memory_bytes": 8 << 30, "allowed_roots": ["/srv"]}


def test_audit_details_are_fields_the_log_knows(db: Session, owner: Caller) -> None:
    with pytest.raises(ValueError, match="tagret"):
        audit.record(
            db,
            team_id=owner.team.id,
            actor="x",
            action="run.started",
            resource_type="run",
            resource_id=1,
            tagret="misspelt",
        )
