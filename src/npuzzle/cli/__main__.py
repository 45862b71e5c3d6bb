"""``python -m npuzzle.cli``: the ``npuzzle`` command."""

import sys

from . import main

sys.exit(main())
