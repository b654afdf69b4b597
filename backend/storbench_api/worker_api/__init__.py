"""worker api domain."""
