"""Every service lists ``--config-file`` and ``--config-dir`` in its ``--help``, as Heat's do."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["worker", "api", "bridge"])
def test_the_help_of_each_service_lists_the_configuration_options(module: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", f"keel_app.cli.{module}", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )

    assert completed.returncode == 0, completed.stderr
    assert "--config-file PATH" in completed.stdout
    assert "--config-dir DIR" in completed.stdout
