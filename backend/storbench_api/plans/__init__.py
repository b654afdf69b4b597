"""plans domain."""
