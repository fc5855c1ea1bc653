"""`python -m bench NAME [options]`, `python -m bench --list`: see bench/__init__.py."""

import sys

from bench.cli import dispatch

sys.exit(dispatch("bench", sys.argv[1:]))
