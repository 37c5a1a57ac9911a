"""Runs oracle snippets in children forked from one process that has Heat imported.

Runs in the oracle's environment (``tests/oracle.py`` starts it, one per test process).
Importing Heat's engine costs about a second of CPU, as much as many snippets' own work;
here it is paid once, and each snippet still runs in a process of its own, as it would
under ``python -c SOURCE ARGS...``: its arguments in ``sys.argv``, its working directory
and environment, its standard output and error captured, non-daemon threads and atexit
handlers run before it ends, and its exit status reported.

Requests and answers are JSON documents, one a line, on standard input and output:
``{"source", "args", "cwd", "env", "timeout"}`` -> ``{"returncode", "stdout", "stderr",
"timed_out"}``.
"""

import atexit
import importlib
import json
import os
import signal
import sys
import tempfile
import threading
import time
import traceback

# What every Heat snippet imports first; modules that read options at import time are
# left for the snippet to import after it has set them.
PRELOADED = ("oslo_config.cfg", "oslo_serialization.jsonutils", "heat.engine.service")


def _exit_status(error: SystemExit) -> int:
    if error.code is None:
        return 0
    if isinstance(error.code, int):
        return error.code
    print(error.code, file=sys.stderr)
    return 1


def _run_child(request: dict, stdout_fd: int, stderr_fd: int) -> None:
    status = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 (the process's own descriptor)
        if request.get("cwd"):
            os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["-c", *request["args"]]
        try:
            code = compile(request["source"], "<string>", "exec")
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})  # noqa: S102
            status = 0
        except SystemExit as error:
            status = _exit_status(error)
        except BaseException:  # noqa: BLE001 (reported as python -c reports it)
            traceback.print_exc()
            status = 1
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status), True
        time.sleep(0.005)


def serve() -> None:
    for name in PRELOADED:
        importlib.import_module(name)
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            answers.flush()
            pid = os.fork()
            if pid == 0:
                _run_child(request, out.fileno(), err.fileno())
            returncode, timed_out = _wait(pid, request["timeout"])
            out.seek(0)
            err.seek(0)
            answer = {
                "returncode": returncode,
                "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace"),
                "timed_out": timed_out,
            }
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
