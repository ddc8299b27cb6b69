"""fairbook: fairness under uncertainty and variance.

The package is used through its modules (``fairbook.metrics``, ``fairbook.stats``,
``fairbook.uncertainty``, ``fairbook.variance``, ``fairbook.audit``, ...; see ARCHITECTURE.md).
Importing it changes nothing in the process: the book's CPU-kernel cap for bit-reproducible
PyTorch runs is an explicit call, :func:`fairbook.instruction_set.pin`.
"""

__all__: list[str] = []
