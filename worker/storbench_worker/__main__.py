"""python -m storbench_worker: the storbench-worker command."""

from storbench_worker.cli import main

main()
