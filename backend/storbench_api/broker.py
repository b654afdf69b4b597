"""The Celery client the API enqueues work with; it never imports worker code."""

from functools import lru_cache
from typing import Any

from celery import Celery

from storbench_api.settings import Settings, get_settings

EXECUTE_ASSIGNMENT_TASK = "storbench.execute_assignment"


def host_queue(host_id: int) -> str:
    """The queue only this host's worker consumes."""
    return f"host.{host_id}"


def celery_config(settings: Settings) -> dict[str, Any]:
    """Broker configuration shared by the API and, through /worker/me, by workers."""
    config: dict[str, Any] = {
        "broker_url": settings.effective_broker_url,
        "broker_connection_retry_on_startup": True,
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_connection_timeout": 3,
        "task_serializer": "json",
        "accept_content": ["json"],
        "broker_transport_options": {
            "max_retries": 2,
            "interval_start": 0,
            "interval_step": 0.5,
            "priority_steps": [0],
        },
    }
    if config["broker_url"].startswith("filesystem://"):
        folder = str(settings.broker_folder)
        config["broker_transport_options"] = {
            "data_folder_in": folder,
            "data_folder_out": folder,
            "control_folder": str(settings.broker_folder / "control"),
            "store_processed": False,
            "polling_interval": 0.2,
        }
    return config


@lru_cache
def get_celery() -> Celery:
    """The process-wide Celery client."""
    settings = get_settings()
    if settings.effective_broker_url.startswith("filesystem://"):
        (settings.broker_folder / "control").mkdir(parents=True, exist_ok=True)
    app = Celery("storbench-api")
    app.conf.update(celery_config(settings))
    return app


def enqueue_assignment(assignment_id: int, host_id: int) -> None:
    """Send one assignment to its host's queue; the message carries only the id."""
    get_celery().send_task(
        EXECUTE_ASSIGNMENT_TASK, args=[assignment_id], queue=host_queue(host_id), retry=False
    )
