"""Curves of a figure against a swept option (queue depth, jobs, block size), their knee and steady state."""
