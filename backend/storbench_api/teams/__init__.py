"""teams domain."""
