"""Shared test settings: everything offline, nothing waits."""

import os

# Never use a real model in tests, even if a key is set.
os.environ["TOOLFAULTS_MODE"] = "offline"
