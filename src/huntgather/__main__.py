"""``python -m huntgather`` runs the command line."""

import sys

from huntgather.cli import main

sys.exit(main())
