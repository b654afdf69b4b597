"""storbench-worker: register with the server and run its fio assignments on this host."""

import argparse
import dataclasses
import logging
import os
import sys
from pathlib import Path

from storbench_worker.api_client import ApiClient, ServerRefused
from storbench_worker.broker import BadBrokerSettings, celery_settings
from storbench_worker.broker_login import renew_login_with
from storbench_worker.config import WorkerConfig, env
from storbench_worker.context import WorkerContext
from storbench_worker.heartbeat import Heartbeat
from storbench_worker.spool import ScratchRecord, Spool, SpoolSender
from storbench_worker.tasks import app, configure

log = logging.getLogger("storbench_worker")


def parse_config(argv: list[str] | None) -> WorkerConfig:
    """Options from the command line, falling back to STORBENCH_* variables."""
    parser = argparse.ArgumentParser(prog="storbench-worker", description=__doc__)
    parser.add_argument("--server", default=env("SERVER"), help="API URL, e.g. https://storbench.example")
    parser.add_argument(
        "--token-file",
        type=Path,
        default=env("WORKER_TOKEN_FILE"),
        help="file holding this host's worker or enrollment token (or set STORBENCH_WORKER_TOKEN); "
        "never given on the command line, where every user of the host could read it",
    )
    parser.add_argument(
        "--name", default=env("WORKER_NAME"), help="expected host name (checked against the server)"
    )
    parser.add_argument(
        "--allow",
        action="append",
        type=Path,
        default=[Path(p) for p in (env("WORKER_ALLOW") or "").split(":") if p],
        help="a directory or block device the worker may benchmark (repeatable; at least one): "
        "targets outside them are refused whatever the server asks",
    )
    parser.add_argument("--state-dir", type=Path, default=env("WORKER_STATE_DIR"))
    parser.add_argument("--fio", default=env("WORKER_FIO", "fio"), help="fio binary")
    args = parser.parse_args(argv)
    token = env("WORKER_TOKEN")
    if args.token_file:
        try:
            token = args.token_file.read_text().strip()
        except OSError as exc:
            parser.error(f"--token-file {args.token_file}: {exc.strerror}")
    if not args.server or not token:
        parser.error("--server and a token (--token-file FILE or STORBENCH_WORKER_TOKEN) are required")
    if not args.allow:
        parser.error(
            "--allow is required: name each directory (e.g. --allow /mnt/nas) or block device "
            "(--allow /dev/vdb) this host lends to benchmarks; nothing else will be touched"
        )
    for root in args.allow:
        if not root.is_absolute():
            parser.error(f"--allow {root}: give an absolute path")
    config = WorkerConfig(
        server=args.server,
        token=token,
        name=args.name,
        allowed_roots=tuple(dict.fromkeys(Path(os.path.normpath(root)) for root in args.allow)),
        fio_binary=args.fio,
    )
    if args.state_dir:
        config = dataclasses.replace(config, state_dir=args.state_dir)
    return config


def _prepare_filesystem_broker(celery_config: dict[str, object]) -> None:
    """The embedded broker exchanges files in folders that must exist before the worker polls them."""
    if not str(celery_config.get("broker_url", "")).startswith("filesystem://"):
        return
    options = celery_config.get("broker_transport_options")
    if isinstance(options, dict):
        for key in ("data_folder_in", "data_folder_out", "control_folder"):
            if isinstance(options.get(key), str):
                Path(options[key]).mkdir(parents=True, exist_ok=True)


ENROLLMENT_PREFIX = "sbe_"


def host_credential(config: WorkerConfig) -> str:
    """The host's own worker token: given directly, saved from an earlier enrollment, or enrolled now."""
    saved = config.state_dir / "credential"
    if not config.token.startswith(ENROLLMENT_PREFIX):
        return config.token
    if saved.exists():
        return saved.read_text().strip()
    if not config.name:
        sys.exit("storbench-worker: enrolling needs --name (the name this host gets in storbench)")
    enroller = ApiClient(config.server, "")
    try:
        enrolled = enroller.enroll(config.token, config.name)
    except ServerRefused as exc:
        sys.exit(f"storbench-worker: enrollment refused: {exc.message}")
    finally:
        enroller.close()
    config.state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(saved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(enrolled.worker_token)
    log.info("enrolled as host '%s'; credential saved in %s", enrolled.name, saved)
    return enrolled.worker_token


def main(argv: list[str] | None = None) -> None:
    """Connect to the server, then consume this host's queue until stopped."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # One line per heartbeat and cancel poll would bury what matters.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    config = parse_config(argv)
    api = ApiClient(config.server, host_credential(config))
    try:
        identity = api.whoami(retry_for_s=120)
    except ServerRefused as exc:
        sys.exit(f"storbench-worker: the server refused this token ({exc.message})")
    except Exception as exc:
        sys.exit(f"storbench-worker: cannot reach {config.server}: {exc}")
    if config.name and config.name != identity.name:
        sys.exit(f"storbench-worker: this token belongs to host '{identity.name}', not '{config.name}'")
    host_name = identity.name
    spool = Spool(config.spool_dir)
    spool.upload_pending(api, retry_for_s=30)
    # A fresh process runs nothing: whatever this host had begun died with the previous one
    # (but for outputs still waiting in the spool: those were measured and will be delivered).
    try:
        interrupted = api.restarted(spool.pending())
        if interrupted:
            log.info(
                "%d assignment(s) the previous worker had begun were failed with the reason", interrupted
            )
    except Exception as exc:
        log.warning("could not report the restart: %s", exc)
    scratch = ScratchRecord(config.state_dir / "scratch")
    for leftover in scratch.remove_leftovers(lambda assignment_id: api.release_files(assignment_id, 10)):
        log.info("removed scratch files an interrupted run left behind: %s", leftover)
    configure(WorkerContext(config=config, api=api, host_name=host_name, spool=spool, scratch=scratch))
    try:
        settings = celery_settings(identity.broker_url, identity.queue)
    except BadBrokerSettings as exc:
        sys.exit(f"storbench-worker: {exc}")
    app.conf.update(settings)
    _prepare_filesystem_broker(settings)
    # Asking who it is recreates the host's broker user on the server (after a Redis restart).
    renew_login_with(lambda: api.whoami(retry_for_s=10).broker_url)
    heartbeat = Heartbeat(
        api, identity.heartbeat_interval_s, config.fio_binary, allowed_roots=config.allowed_roots
    )
    # Outputs the server refused or could not take yet are sent again from their own thread, with
    # backoff: a long upload never delays a heartbeat.
    SpoolSender(spool, api, identity.heartbeat_interval_s).start()
    heartbeat.beat()
    heartbeat.start()
    log.info("host '%s' ready; consuming queue %s (pid %d)", host_name, identity.queue, os.getpid())
    try:
        app.worker_main(
            [
                "worker",
                "--queues",
                identity.queue,
                "--hostname",
                f"storbench@{host_name}",
                "--pool",
                "solo",
                "--concurrency",
                "1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "INFO",
            ]
        )
    finally:
        heartbeat.stop()
        api.close()


if __name__ == "__main__":
    main()
