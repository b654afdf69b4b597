"""The worker's Celery settings: fixed here, in code, never taken from the server.

The server tells only which queue to consume and the broker URL (with this host's own broker
user). Everything that could change what a message may make the worker do (serializers, remote
control) is decided here: JSON only, no remote control, no events; a server or a man in the
middle cannot switch on pickle.
"""

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

_SCHEMES = ("redis", "rediss", "filesystem")


class BadBrokerSettings(ValueError):
    """The server sent a queue name or broker URL this worker will not use."""


def check_queue(queue: str) -> str:
    """A queue name as the server names them: host.<id>."""
    prefix, _, number = queue.partition(".")
    if prefix != "host" or not number.isdigit() or len(number) > 18:
        raise BadBrokerSettings(f"the server named an unexpected queue {queue!r}")
    return queue


def celery_settings(broker_url: str, queue: str) -> dict[str, Any]:
    """Celery configuration for consuming one host's queue from broker_url."""
    check_queue(queue)
    scheme = urlsplit(broker_url).scheme
    if scheme not in _SCHEMES:
        raise BadBrokerSettings(
            f"broker URL scheme {scheme!r} is not one this worker uses ({', '.join(_SCHEMES)})"
        )
    settings: dict[str, Any] = {
        "broker_url": broker_url,
        "broker_connection_retry_on_startup": True,
        "broker_connection_max_retries": None,
        "task_serializer": "json",
        "accept_content": ["json"],
        "result_accept_content": ["json"],
        "event_serializer": "json",
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "worker_enable_remote_control": False,
        "worker_send_task_events": False,
        "task_send_sent_event": False,
        "worker_hijack_root_logger": False,
        # A broker that refuses this host's login (restarted, its ACL users gone) gets it renewed.
        "worker_consumer": "storbench_worker.broker_login:LoginRenewingConsumer",
    }
    if scheme == "filesystem":
        # The embedded mode: the broker is a folder on this machine, named by the URL's path.
        folder = Path(unquote(urlsplit(broker_url).path) or ".")
        if not folder.is_absolute():
            raise BadBrokerSettings("a filesystem broker URL must name an absolute folder")
        settings["broker_url"] = "filesystem://"
        settings["broker_transport_options"] = {
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "control_folder": str(folder / "control"),
            "store_processed": False,
            "polling_interval": 0.2,
        }
    else:
        # Only this queue's keys: the host's broker user may touch nothing else.
        settings["broker_transport_options"] = {
            "priority_steps": [0],
            "unacked_key": f"unacked.{queue}",
            "unacked_index_key": f"unacked_index.{queue}",
            "unacked_mutex_key": f"unacked_mutex.{queue}",
            # A run may take over an hour; an unacknowledged message is redelivered only after this
            # (a redelivered assignment that already ran is skipped).
            "visibility_timeout": 6 * 3600,
        }
    return settings
