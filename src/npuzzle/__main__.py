"""``python -m npuzzle``: the ``npuzzle`` command."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command's modules load
    print("npuzzle: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
