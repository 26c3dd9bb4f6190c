"""Entry point: ``python -m benchmarks [--quick] [--out PATH] ...`` (see :mod:`benchmarks.cli`)."""

import sys

from benchmarks.cli import main

sys.exit(main())
