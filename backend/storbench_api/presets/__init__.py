"""presets domain."""
