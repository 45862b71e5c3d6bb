"""``python -m npuzzle.cli``: the ``npuzzle`` command."""

import sys

try:
    from . import main
except KeyboardInterrupt:  # Ctrl-C while the command's modules load
    print("npuzzle: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
