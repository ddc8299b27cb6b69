"""``python -m fairbook``: the same as the ``fairbook`` command."""

import sys

from fairbook.cli import main

if __name__ == "__main__":
    sys.exit(main())
