"""``python -m npuzzle``: the ``npuzzle`` command."""

import sys

from .cli import main

sys.exit(main())
