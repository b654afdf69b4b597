"""Every API route × every kind of caller, generated from the route table.

A route must state its access level (ReadAccess, WriteAccess, OwnerAccess, CurrentHost) or be listed
in deps.PUBLIC_ROUTES; a new route without a rule fails `test_every_route_has_an_access_rule`.
"""

import re
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.deps import PUBLIC_ROUTES, current_host, require_member, require_owner, require_viewer
from storbench_api.main import API_PREFIX, API_ROUTERS
from storbench_api.models import (
    Assignment,
    AuthToken,
    EnrollmentToken,
    Invitation,
    Membership,
    Role,
    RunStatus,
    SavedView,
    Schedule,
    StorageClass,
    StorageClassSpec,
    Team,
    User,
    Webhook,
    WebhookDelivery,
)
from storbench_api.security import hash_password, new_token, token_digest
from tests.conftest import make_host, make_target
from tests.support.factories import make_plan, make_result, make_run

CALLERS = ("anonymous", "viewer", "member", "owner", "other_team_owner", "enrollment_token", "worker")
_LEVELS = {require_viewer: "viewer", require_member: "member", require_owner: "owner", current_host: "host"}
_RANK = {"viewer": 0, "member": 1, "owner": 2}
_PASSWORD_HASH = hash_password("matrix-password-1")
# No change point exists in the world: acknowledging one answers 404 to every allowed caller.
MAX_CHANGE_POINT_ID = 2**31 - 1


def _routes() -> list[tuple[str, str, APIRoute]]:
    found = []
    for router in API_ROUTERS:
        for route in router.routes:
            if isinstance(route, APIRoute):
                for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
                    found.append((method, API_PREFIX + route.path, route))
    return found


def _rule(method: str, path: str, route: APIRoute) -> str | None:
    if (method, path) in PUBLIC_ROUTES:
        return "public"
    pending = list(route.dependant.dependencies)
    while pending:
        dependency = pending.pop()
        if dependency.call in _LEVELS:
            return _LEVELS[dependency.call]
        pending.extend(dependency.dependencies)
    return None


ROUTES = _routes()


def test_every_route_has_an_access_rule() -> None:
    missing = [f"{m} {p}" for m, p, r in ROUTES if _rule(m, p, r) is None]
    assert not missing, f"routes without an access rule: {missing}"


@dataclass
class World:
    """Two teams with one of each kind of caller and one of each resource."""

    tokens: dict[str, str]
    ids: dict[str, Any]


def _user(db: Session, team: Team, role: Role) -> tuple[int, str]:
    user = User(email=f"{role}-{new_token('m')[-8:].lower()}@example.com", password_hash=_PASSWORD_HASH)
    db.add(user)
    db.commit()
    db.add(Membership(user_id=user.id, team_id=team.id, role=role))
    token = new_token("sbu")
    db.add(AuthToken(token_hash=token_digest(token), user_id=user.id, team_id=team.id, kind="session"))
    db.commit()
    return user.id, token


@pytest.fixture
def world(db: Session) -> World:
    team = Team(name=f"matrix-{new_token('t')[-8:]}")
    other = Team(name=f"other-{new_token('t')[-8:]}")
    db.add_all([team, other])
    db.commit()
    viewer_id, viewer_token = _user(db, team, Role.viewer)
    tokens = {
        "viewer": viewer_token,
        "member": _user(db, team, Role.member)[1],
        "owner": _user(db, team, Role.owner)[1],
        "other_team_owner": _user(db, other, Role.owner)[1],
    }
    host, host_token = make_host(db, team=team)
    tokens["worker"] = host_token
    target = make_target(db, host=host)
    plan = make_plan(db, team=team)
    run = make_run(db, target=target, plan=plan)
    assignment = Assignment(run_id=run.id, host_id=host.id, status=RunStatus.queued, worker_info={})
    enrollment_secret = new_token("sbe")
    enrollment = EnrollmentToken(
        team_id=team.id, token_hash=token_digest(enrollment_secret), expires_at=utcnow().replace(year=2100)
    )
    invitation = Invitation(
        team_id=team.id, token_hash=token_digest(new_token("sbi")), role=Role.member, expires_at=utcnow()
    )
    api_token = AuthToken(
        token_hash=token_digest(new_token("sbt")),
        user_id=viewer_id,
        team_id=team.id,
        kind="api",
        role=Role.viewer,
    )
    storage_class = StorageClass(
        team_id=team.id,
        name="filer",
        vendor="v",
        product="p",
        tier="t",
        protocol="nfs",
        medium="ssd",
        source="s",
    )
    spec = StorageClassSpec(
        storage_class=storage_class,
        version=1,
        expectations=[{"metric": "iops", "workload": "any", "formula": "100"}],
        created_by="matrix",
    )
    db.add_all([assignment, enrollment, invitation, api_token, storage_class, spec])
    db.commit()
    schedule = Schedule(
        team_id=team.id, name="s", plan_id=plan.id, target_id=target.id, cron="0 2 * * *", timezone="UTC"
    )
    webhook = Webhook(team_id=team.id, url="https://93.184.215.14/h", secret="whsec_m", events=[])
    db.add_all([schedule, webhook])
    db.commit()
    delivery = WebhookDelivery(
        webhook_id=webhook.id, team_id=team.id, delivery_uid=new_token("d")[-36:], event="ping", payload={}
    )
    db.add(delivery)
    db.commit()
    view = SavedView(team_id=team.id, name="v", kind="compare", query={"ids": "1"})
    db.add(view)
    db.commit()
    result = make_result(db, team=team, options={"rw": "read"})
    tokens["enrollment_token"] = enrollment_secret
    ids = {
        "host_id": host.id,
        "target_id": target.id,
        "plan_id": plan.id,
        "run_id": run.id,
        "assignment_id": assignment.id,
        "token_id": api_token.id,
        "user_id": viewer_id,
        "invitation_id": invitation.id,
        "preset_id": "randread-4k-iops",
        "class_id": storage_class.id,
        "view_id": view.id,
        "result_id": result.id,
        "change_point_id": MAX_CHANGE_POINT_ID,
        "schedule_id": schedule.id,
        "webhook_id": webhook.id,
        "delivery_id": delivery.id,
        "filename": "storbench_worker-0.1.0-py3-none-any.whl",
    }
    return World(tokens=tokens, ids=ids)


def _expected(rule: str, caller: str, team_scoped_id: bool) -> str:
    """'ok' (anything but 401/403/500), '401', '403' or '404'."""
    if rule == "public":
        return "ok"
    if rule == "host":
        return "ok" if caller == "worker" else "401"
    if caller in ("anonymous", "enrollment_token", "worker"):
        return "401"
    if caller == "other_team_owner":
        return "404" if team_scoped_id else "ok"
    return "ok" if _RANK[caller] >= _RANK[rule] else "403"


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path", "route"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_access(
    client: TestClient, world: World, method: str, path: str, route: APIRoute, caller: str
) -> None:
    rule = _rule(method, path, route)
    assert rule is not None
    params = re.findall(r"{(\w+)(?::\w+)?}", path)
    url = path
    for name in params:
        url = re.sub(r"{" + name + r"(?::\w+)?}", str(world.ids[name]), url)
    headers = {"Authorization": f"Bearer {world.tokens[caller]}"} if caller != "anonymous" else {}
    response = client.request(
        method, url, headers=headers, json={} if method in ("POST", "PATCH", "PUT") else None
    )
    team_scoped_id = any(p != "preset_id" for p in params)
    expected = _expected(rule, caller, team_scoped_id)
    assert response.status_code != 500, response.text
    if expected == "ok":
        assert response.status_code not in (401, 403), f"{caller} refused: {response.text}"
    elif expected == "404":
        # An invalid body is refused before the lookup; neither answer reveals the other team's resource.
        assert response.status_code in (404, 422), f"{caller} got {response.status_code}: {response.text}"
    else:
        assert response.status_code == int(expected), f"{caller} got {response.status_code}: {response.text}"
