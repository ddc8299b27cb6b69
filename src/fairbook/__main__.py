"""``python -m fairbook``: the same as the ``fairbook`` command."""

__all__: list[str] = []

import sys

from fairbook.cli import main

if __name__ == "__main__":
    sys.exit(main())
