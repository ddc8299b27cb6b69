"""fairbook."""

__all__: list[str] = []  # the package is used through its modules (see CONTRIBUTING.md)
