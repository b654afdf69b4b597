"""The worker protocol: every body a storbench worker and the API exchange under /api/v1/worker.

One definition for both sides: the API validates requests and documents its schema with these
models, the worker builds its requests and reads the answers with them. Neither imports the other.

- identity: enrolling a host, and who a worker is (GET /worker/me)
- facts: the heartbeat and the host facts it carries
- assignments: fetching an assignment, the barrier, start, failure, files and restart reports
- progress: per-second samples sent while fio runs
- results: fio's output uploaded once fio is done
"""
