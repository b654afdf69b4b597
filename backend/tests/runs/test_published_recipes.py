"""Every published recipe starts under the service's default limits."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_fio.presets import PRESETS
from tests.conftest import Caller, make_host, make_target

# Recipes a Linux host runs in a directory (the Windows ones run on Windows hosts, the device
# survey on a raw block device).
DIRECTORY_RECIPES = [p.id for p in PRESETS if p.platform == "linux" and p.target_kind == "directory"]


def test_there_are_published_directory_recipes_to_check() -> None:
    assert len(DIRECTORY_RECIPES) >= 10


@pytest.mark.parametrize("preset_id", DIRECTORY_RECIPES)
def test_a_published_recipe_is_not_refused_by_the_default_limits(
    client: TestClient, db: Session, owner: Caller, preset_id: str
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host)
    response = client.post(
        "/api/v1/runs", json={"target_id": target.id, "preset_id": preset_id}, headers=owner.headers
    )
    assert response.status_code == 201, response.text
