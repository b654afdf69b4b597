"""The methodology advisor: findings on every result, each with its fix."""
