"""One module per command (or family of list commands)."""
