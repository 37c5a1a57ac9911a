"""``keel all-in-one`` run as an operator runs it: a subprocess on free ports."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any


def start_all_in_one(
    state_dir: Path, log: Path, *keel_options: str
) -> tuple[subprocess.Popen[str], str]:
    """``keel [KEEL_OPTIONS] all-in-one`` on any free ports, its standard error appended to
    ``log``; the process and the native API's URL, once it serves."""
    with log.open("a") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "keel_app.cli.keel", *keel_options, "all-in-one"]
            + ["--port", "0", "--cfn-port", "0", "--state-dir", str(state_dir)],
            stdout=subprocess.PIPE,
            stderr=log_file,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
    assert process.stdout is not None
    banner = process.stdout.readline()
    return process, banner.split(" on ")[1].split(" ")[0]


def stop(process: subprocess.Popen[str], kill: bool = False) -> None:
    """Stop it as SIGTERM does (its log complete), or as ``kill -9`` does."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert process.stdout is not None
    process.stdout.close()


def call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON request to the API (a POST when there is a body); its JSON answer."""
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
        return answer
