"""Heat 27.0.1 itself, in a virtual environment of its own: the oracle of differential tests.

The environment is created on first use and cached (``$KEEL_ORACLE_VENV``, default
``/var/tmp/openkeel-oracle``) so that later runs only pay for the calls.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

HEAT_REQUIREMENT = "openstack-heat==27.0.1"
EXTRA_PACKAGES = ["pymysql", "psycopg2-binary"]
VENV = Path(os.environ.get("KEEL_ORACLE_VENV", "/var/tmp/openkeel-oracle"))
_READY_MARK = VENV / ".openkeel-oracle-ready"


def python() -> Path:
    """The oracle's interpreter, the environment built first if it is not there yet."""
    ensure()
    return VENV / "bin" / "python"


def ensure() -> None:
    if _READY_MARK.exists():
        return
    VENV.parent.mkdir(parents=True, exist_ok=True)
    lock_path = VENV.parent / (VENV.name + ".lock")
    with open(lock_path, "w") as lock:
        # Several pytest processes may start at once; one builds, the others wait.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _READY_MARK.exists():
            return
        if not (VENV / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(VENV / "bin" / "pip"), "install", "-q", HEAT_REQUIREMENT, *EXTRA_PACKAGES],
            check=True,
        )
        _READY_MARK.write_text(HEAT_REQUIREMENT + "\n")


FORKSERVER = Path(__file__).with_name("oracle_forkserver.py")
_forkserver: subprocess.Popen[str] | None = None
_forkserver_lock = threading.Lock()


def _started_forkserver() -> subprocess.Popen[str]:
    global _forkserver
    if _forkserver is None or _forkserver.poll() is not None:
        _forkserver = subprocess.Popen(
            [str(python()), str(FORKSERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        atexit.register(_stop_forkserver, _forkserver)
    return _forkserver


def _stop_forkserver(server: subprocess.Popen[str]) -> None:
    """End the server (it stops at the end of its input) and reap it."""
    assert server.stdin is not None and server.stdout is not None
    server.stdin.close()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    server.stdout.close()


def run(source: str, *args: str, cwd: Path | None = None, timeout: float = 300) -> str:
    """Run a Python snippet in the oracle, as ``python -c``, and return its standard output.

    The snippet runs in a child forked from a process with Heat already imported
    (tests/oracle_forkserver.py): a process of its own, without a second of imports.
    """
    request = {
        "source": textwrap.dedent(source),
        "args": list(args),
        "cwd": str(cwd) if cwd is not None else None,
        "env": {**os.environ, "PYTHONWARNINGS": "ignore"},
        "timeout": timeout,
    }
    with _forkserver_lock:
        server = _started_forkserver()
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        line = server.stdout.readline()
    if not line:
        raise RuntimeError("the oracle's fork server ended")
    answer = json.loads(line)
    if answer["timed_out"]:
        raise subprocess.TimeoutExpired(["python", "-c", "..."], timeout, answer["stdout"])
    if answer["returncode"] != 0:
        raise RuntimeError(f"oracle snippet failed:\n{answer['stderr']}")
    return str(answer["stdout"])


def run_json(source: str, *args: str, **kwargs: Any) -> Any:
    """Run a snippet that prints one JSON document and decode it."""
    return json.loads(run(source, *args, **kwargs))


SHIPPED_TEMPLATE_DIR = "/etc/heat/templates"


def shipped_environment_dir(directory: Path) -> Path:
    """Heat's shipped environment.d in ``directory``, its template URLs pointed at the
    oracle's copies (nothing is installed in /etc/heat on the test machine)."""
    shipped = (VENV / "etc" / "heat" / "environment.d" / "default.yaml").read_text()
    assert SHIPPED_TEMPLATE_DIR in shipped
    templates = str(VENV / "etc" / "heat" / "templates")
    (directory / "default.yaml").write_text(shipped.replace(SHIPPED_TEMPLATE_DIR, templates))
    return directory


def heat_manage(config_file: Path, *args: str, timeout: float = 300) -> str:
    """Run Heat's own ``heat-manage`` against a heat.conf."""
    ensure()
    completed = subprocess.run(
        [str(VENV / "bin" / "heat-manage"), "--config-file", str(config_file), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    if completed.returncode != 0:
        raise RuntimeError(f"heat-manage {' '.join(args)} failed:\n{completed.stderr}")
    return completed.stdout
