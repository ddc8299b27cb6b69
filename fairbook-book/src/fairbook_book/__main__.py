"""``python -m fairbook_book``: the same as the ``fairbook-book`` command."""

__all__: list[str] = []

import sys

from fairbook_book.cli import main

if __name__ == "__main__":
    sys.exit(main())
