"""python -m storbench_api: the storbench-api command."""

from storbench_api.cli import main

main()
