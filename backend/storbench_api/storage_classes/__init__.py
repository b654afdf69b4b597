"""Storage classes: the published catalogue and teams' own classes, with versioned specs."""
