"""The test cloud's processes: started in sessions of their own, each logging to a file,
waited for until they answer, and stopped with everything they forked."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class CloudStartError(RuntimeError):
    """A service of the test cloud did not start; the message names it and its log."""


def log_tail(path: Path, characters: int = 4000) -> str:
    return path.read_text(errors="replace")[-characters:] if path.exists() else "(no log)"


@dataclass
class Service:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def failure(self, what: str) -> CloudStartError:
        return CloudStartError(
            f"{self.name} {what}; its log {self.log_path} ends with:\n{log_tail(self.log_path)}"
        )


class ProcessGroup:
    """The processes of one cloud, stopped in the reverse order of their start."""

    def __init__(self, log_directory: Path) -> None:
        self.log_directory = log_directory
        self.services: dict[str, Service] = {}

    def start(
        self, name: str, argv: list[str], env: dict[str, str], cwd: Path | None = None
    ) -> Service:
        log_path = self.log_directory / f"{name}.log"
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=cwd,
                # A session of its own: stopping the leader's group takes its forks too.
                start_new_session=True,
            )
        service = Service(name, process, log_path)
        self.services[name] = service
        return service

    def check_alive(self) -> None:
        for service in self.services.values():
            if service.process.poll() is not None:
                raise service.failure(f"exited with status {service.process.returncode}")

    def wait_until(
        self, name: str, condition: Callable[[], bool], timeout: float, what: str
    ) -> None:
        """Poll ``condition`` until it holds; fail naming ``name`` if it does not in time
        or if any process of the cloud dies meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_alive()
            if condition():
                return
            time.sleep(0.5)
        raise self.services[name].failure(f"did not {what} within {timeout:.0f} s")

    def wait_answering(self, name: str, url: str, timeout: float) -> None:
        self.wait_until(name, lambda: answers(url), timeout, f"answer at {url}")

    def stop(self, grace: float = 5) -> None:
        """Ask every session to terminate at once, then kill what is left after
        ``grace`` seconds (gunicorn's graceful shutdown alone takes longer)."""
        leaders = [service.process for service in self.services.values()]
        for process in leaders:
            _signal_group(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for process in leaders:
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                pass
        for process in leaders:
            # Whatever a leader forked stays in its session even when the leader is gone.
            _signal_group(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        self.services.clear()

    def pids(self) -> dict[str, int]:
        return {name: service.process.pid for name, service in self.services.items()}


def clean_environment(**extra: str) -> dict[str, str]:
    # No OS_* variable of the caller's may point a service at another cloud.
    inherited = {key: value for key, value in os.environ.items() if not key.startswith("OS_")}
    return {**inherited, "PYTHONWARNINGS": "ignore", **extra}


def run_logged(
    name: str, argv: list[str], log_path: Path, env: dict[str, str] | None = None
) -> None:
    with open(log_path, "ab") as log:
        completed = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env or clean_environment(),
            timeout=600,
        )
    if completed.returncode != 0:
        raise CloudStartError(f"{name} failed; its log {log_path} ends with:\n{log_tail(log_path)}")


def answers(url: str) -> bool:
    """Whether an HTTP server answers at ``url`` with anything but a server error."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except (urllib.error.URLError, OSError):
        return False


def _signal_group(leader: int, sent: signal.Signals) -> None:
    try:
        os.killpg(leader, sent)
    except ProcessLookupError:
        pass


def group_rss_kib(leader: int) -> int:
    """Resident memory of every process in the session led by ``leader``, in KiB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != leader:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ProcessLookupError):
            continue
    return total
