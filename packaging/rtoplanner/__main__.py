"""`python -m rtoplanner`: the same command line as `rto-planner` (also the bundle's entry).

This folder is mapped onto the `rtoplanner` namespace (pyproject `package-dir`); it holds
only this file, so `rtoplanner` stays a namespace package over core/, app/, data/, resources/.
"""

import sys

from rtoplanner.app.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
