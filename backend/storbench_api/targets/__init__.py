"""targets domain."""
