"""Comparing results: side by side with significance, grouped views, fingerprints, saved views."""
