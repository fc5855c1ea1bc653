"""`python -m bench.load`, the same as `python -m bench load`."""

import sys

from bench.load import main

sys.exit(main())
