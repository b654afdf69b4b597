"""storbench command-line client: the public REST API from a terminal."""

__version__ = "0.1.0"
