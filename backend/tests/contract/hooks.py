"""Schemathesis hooks: how it signs in to a running storbench, as a user would.

Loaded by the contract test and, through schemathesis.toml's `hooks`, by `scripts/schema_check.py`.
Each operation gets the credential its access rule asks for, kept valid whatever the fuzzing does:

- the user routes: a session of a team owner (signed in with email and password once, again on a 401);
- /api/v1/worker/...: the worker token of a host registered for the purpose (another is registered
  when the fuzzing revoked the host or rotated its token);
- POST /api/v1/auth/logout: a fresh API token each time, since signing out revokes the token used.

The service and its owner come from STORBENCH_CONTRACT_URL, STORBENCH_CONTRACT_EMAIL and
STORBENCH_CONTRACT_PASSWORD, or from configure().
"""

import itertools
import os
import threading
from dataclasses import dataclass
from typing import Any

import httpx
import schemathesis

API = "/api/v1"
LOGOUT = f"{API}/auth/logout"
WORKER = f"{API}/worker/"


@dataclass
class Service:
    """A running storbench and one of its team owners."""

    url: str
    email: str
    password: str


_service: Service | None = None
_lock = threading.Lock()
_hosts = itertools.count(1)
# A session of the owner for registering hosts and creating tokens, never handed to the fuzzing.
_admin_session: str | None = None


def configure(url: str, email: str, password: str) -> None:
    """Point the hooks at a service (the contract test does; the script sets the environment)."""
    global _service, _admin_session
    _service = Service(url.rstrip("/"), email, password)
    _admin_session = None


def _current() -> Service:
    if _service is None:
        configure(
            os.environ["STORBENCH_CONTRACT_URL"],
            os.environ["STORBENCH_CONTRACT_EMAIL"],
            os.environ["STORBENCH_CONTRACT_PASSWORD"],
        )
    assert _service is not None
    return _service


def sign_in(service: Service) -> str:
    """A new session token of the owner."""
    response = httpx.post(
        f"{service.url}{API}/auth/token",
        data={"username": service.email, "password": service.password},
        timeout=30,
    )
    response.raise_for_status()
    return str(response.json()["access_token"])


def _as_owner(service: Service, method: str, path: str, **kwargs: Any) -> Any:
    """A request in the owner's own session (signing in is rate limited: once, and again on a 401)."""
    global _admin_session
    for _ in range(2):
        _admin_session = _admin_session or sign_in(service)
        headers = {"Authorization": f"Bearer {_admin_session}"}
        response = httpx.request(method, f"{service.url}{API}{path}", headers=headers, timeout=30, **kwargs)
        if response.status_code != 401:
            break
        _admin_session = None
    response.raise_for_status()
    return response.json()


def _credential_kind(case: Any, context: schemathesis.AuthContext) -> str:
    path = context.operation.path
    if path.startswith(WORKER) or path.startswith(WORKER.removeprefix(API)):
        return "host"
    if path in (LOGOUT, LOGOUT.removeprefix(API)):
        return f"logout-{id(case)}"
    return "user"


@schemathesis.auth(cache_by_key=_credential_kind, retry_on=[401])
class StorbenchAuth:
    """A bearer token for each operation, by its access rule (see the module's docstring)."""

    def get(self, case: Any, context: schemathesis.AuthContext) -> str:
        service = _current()
        kind = _credential_kind(case, context)
        with _lock:
            if kind == "host":
                created = _as_owner(service, "POST", "/hosts", json={"name": f"contract-host-{next(_hosts)}"})
                return str(created["worker_token"])
            if kind.startswith("logout"):
                created = _as_owner(service, "POST", "/tokens", json={"name": "signs out", "role": "viewer"})
                return str(created["token"])
            return sign_in(service)

    def set(self, case: Any, data: str, context: schemathesis.AuthContext) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
