"""storbench worker: executes fio on a target host for the storbench service."""

__version__ = "0.1.0"
