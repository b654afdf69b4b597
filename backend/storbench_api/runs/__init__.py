"""runs domain: a plan, preset or jobs executed on a target by one or more hosts' workers.

- router.py → service.py (find, list, cancel, progress) and start.py (starting a run)
- lifecycle.py: every status change of a run and its assignments, the sweeper's decisions included
- presenters.py: rows into responses, for users and for workers
- repository.py: every query; tasks.py: enqueueing after the commit, one sweeper pass
- worker_router.py → worker_service.py: what a worker reports about its assignments
- events.py: the live event stream (GET /runs/{id}/events); aggregate.py: multi-host figures
- schemas.py: request, response and event bodies (the worker's are storbench_protocol's)
"""
