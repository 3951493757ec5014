"""``python -m bnx``: the same as the ``bnx`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
