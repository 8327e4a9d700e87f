"""`python -m support.lint [paths...]`: the feature linter (`make lint`; support/lint/features.py)."""

import sys

from support.lint.features import main

sys.exit(main())
