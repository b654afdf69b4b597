"""History: trends over time, change points found in them, their review and the CI check."""
