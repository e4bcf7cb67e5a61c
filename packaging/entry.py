"""Entry script for the frozen bundle: the same `rto-planner` command line."""

import sys

from rtoplanner.app.__main__ import main

sys.exit(main())
