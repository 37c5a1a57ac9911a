"""``keel --version``: the installed distribution's version."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys


def test_keel_prints_the_package_version() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "keel_app.cli.keel", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == f"{importlib.metadata.version('openkeel')}\n"
