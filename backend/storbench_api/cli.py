"""storbench-api: migrate, prepare embedded mode, serve."""

import argparse
import ipaddress
import os
import socket
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import select

from storbench_api.db import get_sessionmaker
from storbench_api.hosts import repository as hosts_repository
from storbench_api.hosts import service as hosts_service
from storbench_api.models import Target, TargetKind
from storbench_api.settings import DEFAULT_ADMIN_PASSWORD, DEFAULT_SECRET, REPO_ROOT, get_settings
from storbench_api.teams.service import (
    admin_keeps_default_password,
    default_team,
    ensure_first_admin,
    replace_default_admin_password,
)


def alembic_config() -> Config:
    """Alembic configured for this repository's migrations folder."""
    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    return config


def migrate() -> None:
    """Bring the database schema to the newest migration."""
    settings = get_settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(), "head")


def refuse_unsafe_production() -> None:
    """Outside embedded mode, default secrets are a mistake worth stopping for."""
    settings = get_settings()
    if settings.mode == "embedded":
        return
    problems = []
    if settings.secret_key == DEFAULT_SECRET:
        problems.append("STORBENCH_SECRET_KEY is the built-in development secret")
    if settings.admin_password == DEFAULT_ADMIN_PASSWORD:
        problems.append("STORBENCH_ADMIN_PASSWORD is the documented default")
    if problems:
        sys.exit("refusing to start in production mode: " + "; ".join(problems) + ". Set them and retry.")


def ensure_admin() -> None:
    """Create the first admin and team if the database has no user yet."""
    settings = get_settings()
    with get_sessionmaker()() as db:
        if ensure_first_admin(db, settings.admin_email, settings.admin_password, settings.default_team_name):
            print(f"created first admin {settings.admin_email} in team '{settings.default_team_name}'")
        elif replace_default_admin_password(db, settings.admin_email, settings.admin_password):
            print(f"{settings.admin_email} had the documented password: set to STORBENCH_ADMIN_PASSWORD")
        db.commit()


def listens_on_loopback_only(host: str) -> bool:
    """True when every address `host` stands for is a loopback one (0.0.0.0 and :: are not)."""
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
        return bool(addresses) and all(ipaddress.ip_address(a).is_loopback for a in addresses)
    except (OSError, ValueError):
        return False


def refuse_default_admin_beyond_loopback(host: str) -> None:
    """Refuse to listen where others can reach us while the admin's password is the published one.

    The stored password is checked, not STORBENCH_ADMIN_PASSWORD: that variable only matters when the
    admin is created, and a password changed on the Account page must count.
    """
    if listens_on_loopback_only(host):
        return
    settings = get_settings()
    with get_sessionmaker()() as db:
        exposed = admin_keeps_default_password(db, settings.admin_email)
    if exposed:
        sys.exit(
            f"refusing to listen on {host}, beyond loopback: {settings.admin_email} still has the "
            f"documented password '{DEFAULT_ADMIN_PASSWORD}', which anyone who reaches this port can "
            "use. Set one: STORBENCH_ADMIN_PASSWORD='a password of yours' make up REMOTE=1 (it "
            "replaces the documented one), or run make up (loopback only), change it on the Account "
            "page, then make up REMOTE=1."
        )


def bootstrap_local_host(host_name: str, scratch: Path, token_file: Path) -> None:
    """Register this machine as a host with a scratch target; write its worker token to a file."""
    scratch.mkdir(parents=True, exist_ok=True)
    with get_sessionmaker()() as db:
        team = default_team(db)
        host = hosts_repository.host_by_name(db, team.id, host_name)
        if host is None:
            host, token = hosts_service.register_host(db, team.id, host_name)
        else:
            token = hosts_service.rotate_credential(db, host)
        target_name = f"scratch on {host_name}"
        exists = db.scalar(select(Target).where(Target.team_id == team.id, Target.name == target_name))
        if exists is None:
            db.add(
                Target(
                    team_id=team.id,
                    host_id=host.id,
                    name=target_name,
                    path=str(scratch.resolve()),
                    kind=TargetKind.directory,
                    storage_class="local directory",
                    description="Scratch directory created by make up for a first benchmark.",
                )
            )
        db.commit()
    token_file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token)


def serve(host: str, port: int) -> None:
    """Serve the API and SPA with uvicorn."""
    import uvicorn

    from storbench_api.kit.served_protocol import with_header_timeout
    from storbench_api.ops.metrics import prepare_multiprocess_folder

    refuse_unsafe_production()
    refuse_default_admin_beyond_loopback(host)
    settings = get_settings()
    proxies = settings.forwarded_allow_ips
    if settings.metrics_token:
        # Counts in files every API process of this server shares (see storbench_api.ops.metrics).
        prepare_multiprocess_folder(settings.data_dir / "metrics")
    uvicorn.run(
        "storbench_api.main:create_served_app",
        factory=True,
        host=host,
        port=port,
        log_level="info",
        # The app renders every line itself (kit.logs); uvicorn's access lines only in console mode
        # (in json mode the app writes a line per request, with its id).
        log_config=None,
        access_log=settings.effective_log_format == "console",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        # Connections slow to send their headers are closed; past max_connections, new requests
        # get a 503 instead of piling up.
        http=with_header_timeout(settings.request_header_timeout.total_seconds()),
        limit_concurrency=settings.max_connections,
    )


def main(argv: list[str] | None = None) -> None:
    """Entry point of the storbench-api command."""
    parser = argparse.ArgumentParser(prog="storbench-api", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply database migrations")
    sub.add_parser("create-admin", help="create the first admin if there is no user")
    boot = sub.add_parser("bootstrap-host", help="register this machine as a host (embedded mode)")
    boot.add_argument("--name", default="localhost")
    boot.add_argument("--scratch", type=Path, required=True)
    boot.add_argument("--token-file", type=Path, required=True)
    srv = sub.add_parser("serve", help="migrate, create the first admin, and serve")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if args.command == "migrate":
        migrate()
    elif args.command == "create-admin":
        ensure_admin()
    elif args.command == "bootstrap-host":
        migrate()
        ensure_admin()
        bootstrap_local_host(args.name, args.scratch, args.token_file)
    elif args.command == "serve":
        refuse_unsafe_production()
        migrate()
        ensure_admin()
        serve(args.host, args.port)


if __name__ == "__main__":
    main()
