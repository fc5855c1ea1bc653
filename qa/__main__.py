"""`python -m qa NAME [options]`, `python -m qa --list`: see qa/__init__.py."""

import sys

from bench.cli import dispatch

sys.exit(dispatch("qa", sys.argv[1:]))
