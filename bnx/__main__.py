"""``python -m bnx``: the same as the ``bnx`` command."""

import sys

from .cli import main

sys.exit(main())
