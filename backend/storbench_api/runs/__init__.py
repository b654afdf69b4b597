"""runs domain."""
