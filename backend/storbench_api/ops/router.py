"""GET /metrics for Prometheus: off unless STORBENCH_METRICS_TOKEN is set, then only with that token.

A token rather than "loopback only": behind the reverse proxy every request comes from loopback (or
the proxy's address), so the peer address would let the world in; a bearer token works the same
behind a proxy, from a Prometheus on another machine, or on this one.
"""

from typing import Annotated

from fastapi import APIRouter, Depends, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CONTENT_TYPE_LATEST

from storbench_api.deps import DB
from storbench_api.errors import NotFound, Unauthorized
from storbench_api.ops.gauges import StateGauges
from storbench_api.ops.metrics import exposition
from storbench_api.security import same_secret
from storbench_api.settings import get_settings

router = APIRouter(tags=["operations"])
_bearer = HTTPBearer(auto_error=False, scheme_name="MetricsToken")


@router.get("/metrics", include_in_schema=False)
def metrics(
    db: DB, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Response:
    """Prometheus's text format: every API process's counts, and gauges read now."""
    settings = get_settings()
    if not settings.metrics_token:
        raise NotFound("metrics are off: set STORBENCH_METRICS_TOKEN to serve them (see README)")
    if credentials is None or not same_secret(credentials.credentials, settings.metrics_token):
        raise Unauthorized(
            "metrics need 'Authorization: Bearer <STORBENCH_METRICS_TOKEN>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
    body = exposition(StateGauges(db, settings.effective_broker_url))
    return Response(body, media_type=CONTENT_TYPE_LATEST)
