"""API tokens for automation."""
