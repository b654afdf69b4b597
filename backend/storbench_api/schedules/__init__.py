"""schedules domain: recurring runs of a plan on a target, at cron slots in a timezone.

- cron.py: reading a 5-field cron expression and an IANA timezone, and the slots they give
- scheduler.py: one pass that fires every due slot once (the database's unique (schedule, slot)
  is the lock), records missed and refused slots, and starts runs through runs.start
- service.py: create, change, delete, list, firings; repository.py: every query
- router.py: HTTP; schemas.py: bodies
"""
