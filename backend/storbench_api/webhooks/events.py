"""The event names a webhook may subscribe to."""

CHANGE_POINT_REGRESSION = "change_point.regression"
CHANGE_POINT_IMPROVEMENT = "change_point.improvement"
SCHEDULE_FIRING_FAILED = "schedule.firing_failed"
# A run a schedule started ended failed (fio or the host failed it, not the slot).
SCHEDULE_RUN_FAILED = "schedule.run_failed"
RUN_FINISHED = "run.finished"
# Sent only by "send test event", whatever the webhook subscribed to.
PING = "ping"

EVENTS: tuple[str, ...] = (
    CHANGE_POINT_REGRESSION,
    CHANGE_POINT_IMPROVEMENT,
    SCHEDULE_FIRING_FAILED,
    SCHEDULE_RUN_FAILED,
)
