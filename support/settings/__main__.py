import sys

from support.settings.cli import main

sys.exit(main())
