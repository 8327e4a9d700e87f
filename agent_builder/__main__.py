import sys

from agent_builder.cli import main

sys.exit(main())
