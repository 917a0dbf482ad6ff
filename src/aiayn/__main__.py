"""``python -m aiayn`` (and ``torchrun -m aiayn``) runs the command line."""

import sys

from .app.cli import main

sys.exit(main())
