"""fairbook."""

from .instruction_set import pin as _pin_instruction_set

# before any PyTorch operation: the same CPU kernels on every x86-64 machine, so that the
# recordings and the chapters' references reproduce bit for bit (fairbook.instruction_set)
_pin_instruction_set()

__all__: list[str] = []  # the package is used through its modules (see CONTRIBUTING.md)
