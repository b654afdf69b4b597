"""results domain."""
