"""Oversized requests get a clear 413 before anything reads them."""

from fastapi.testclient import TestClient

from tests.conftest import Caller


def test_an_oversized_json_body_is_refused_with_413(client: TestClient, owner: Caller) -> None:
    huge = {"name": "x" * (2 * 1024 * 1024), "jobs": [{"name": "r", "rw": "read"}]}
    response = client.post("/api/v1/plans", json=huge, headers=owner.headers)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "1 MiB" in response.json()["message"]


def test_an_import_may_be_larger_than_an_ordinary_request(client: TestClient, owner: Caller) -> None:
    padding = " " * (3 * 1024 * 1024)
    files = {"file": ("out.txt", f"not fio output{padding}".encode(), "text/plain")}
    response = client.post("/api/v1/results/import", files=files, headers=owner.headers)
    assert response.status_code == 422  # read, then refused for its content, not its size


def test_a_streamed_body_without_content_length_is_cut_off(client: TestClient, owner: Caller) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(40):
            yield b"x" * 65536

    response = client.post(
        "/api/v1/plans",
        content=chunks(),
        headers={**owner.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 413
