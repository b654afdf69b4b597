"""How a new host joins (for signed-in users), and the worker's packages it installs with one command
(no credential needed for those: the worker is no secret, and a host has none before it enrolls)."""

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import PlainTextResponse

from storbench_api.deps import ReadAccess
from storbench_api.errors import NotFound
from storbench_api.hosts import setup, worker_dist
from storbench_api.hosts.schemas import WorkerSetup
from storbench_api.openapi import errors

router = APIRouter(prefix="/worker", tags=["worker"])

WheelName = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_.+-]{1,200}\.whl$", examples=["storbench_worker-0.1.0-py3-none-any.whl"])
]


@router.get("/setup", response_model=WorkerSetup, summary="How a new host joins this server")
def worker_setup(request: Request, principal: ReadAccess) -> WorkerSetup:
    """Whether a worker on another machine can join (and, if not, why and what to do), with the
    commands that install fio and the worker, put the token in a file and start the worker."""
    return setup.worker_setup(setup.server_url(request.scope))


def _wheels() -> dict[str, worker_dist.Wheel]:
    try:
        return worker_dist.wheels()
    except worker_dist.WorkerPackagesMissing as exc:
        raise NotFound(str(exc)) from exc


@router.get(
    "/requirements.txt",
    response_class=PlainTextResponse,
    summary="What pip installs for a worker",
    responses=errors(NotFound),
)
def requirements(request: Request) -> PlainTextResponse:
    """`pip install -r` this URL installs the worker: its packages from this server (by URL), its
    third-party dependencies at the versions this server runs."""
    _wheels()
    text = worker_dist.requirements_txt(setup.server_url(request.scope))
    return PlainTextResponse(text)


@router.get(
    "/dist/{filename}",
    response_class=Response,
    summary="One of the worker's wheels",
    responses={
        200: {
            "description": "the wheel",
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
        },
        **errors(NotFound),
    },
)
def wheel(filename: WheelName) -> Response:
    """storbench-fio, storbench-protocol or storbench-worker as a wheel, as requirements.txt names it."""
    found = _wheels().get(filename)
    if found is None:
        raise NotFound(f"no worker package named {filename}: see /api/v1/worker/requirements.txt")
    return Response(
        found.content,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{found.filename}"'},
    )
