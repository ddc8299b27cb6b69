"""fairbook."""
