"""Shared test set-up: hypothesis profiles ("ci" when the CI variable is set)."""

import os

from hypothesis import settings

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=False, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
