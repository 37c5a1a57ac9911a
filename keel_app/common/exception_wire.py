"""Exceptions across an RPC boundary, as oslo.messaging carries them: a failure dictionary.

A failure is ``{"class", "module", "message", "tb", "args", "kwargs"}``. The caller
rebuilds the class from (module, class) only for the modules it allows (Heat allows
``heat.common.exception``) and for builtins; anything else becomes a ``RemoteError``.
Our Heat exceptions travel under Heat's module name, so a Heat peer re-raises its own
class of the same name and we re-raise ours.

The errors oslo's client raises itself (``MessagingTimeout``, ``RemoteError``) live here
too, under oslo's class names: the API's fault map matches names, so they answer what
heat-api answers for oslo's (a 500 that does not show the message).
"""

from __future__ import annotations

import builtins
import traceback
from collections.abc import Collection, Mapping
from typing import Any

from keel_app.common.exception import BY_NAME, HEAT_MODULE, HeatException

BUILTINS_MODULE = "builtins"
# Python 2 peers named the builtins module "exceptions".
BUILTINS_ALIASES = ("exceptions", "builtins")
# oslo marks the classes it rebuilt from a remote error with this suffix.
REMOTE_SUFFIX = "_Remote"


class MessagingException(Exception):
    remote_module = "oslo_messaging.exceptions"


class MessagingTimeout(MessagingException):
    """No reply within the call's timeout (``rpc_response_timeout`` by default)."""

    remote_module = "oslo_messaging.exceptions"


class RemoteError(MessagingException):
    """A remote failure whose class is not rebuilt here."""

    remote_module = "oslo_messaging.rpc.client"

    def __init__(
        self,
        exc_type: str | None = None,
        value: str | None = None,
        traceback: list[str] | None = None,
    ) -> None:
        self.exc_type = exc_type
        self.value = value
        self.traceback = traceback
        super().__init__(f"Remote error: {exc_type} {value}\n{traceback}.")


def remote_name(error: BaseException) -> tuple[str, str]:
    """(module, class) under which a peer knows this exception."""
    cls = type(error)
    name = cls.__name__
    if BY_NAME.get(name) is cls:
        return HEAT_MODULE, name
    module = getattr(cls, "remote_module", cls.__module__)
    if name.endswith(REMOTE_SUFFIX) and module.endswith(REMOTE_SUFFIX):
        return module[: -len(REMOTE_SUFFIX)], name[: -len(REMOTE_SUFFIX)]
    return module, name


def _remote_traceback(error: BaseException, module: str, name: str) -> list[str]:
    lines = traceback.format_exception(error)
    # The last line names the class; name it as the peer knows it, as Heat's would.
    cls = type(error)
    local = f"{cls.__module__}.{cls.__qualname__}"
    if lines and lines[-1].startswith(local) and module != BUILTINS_MODULE:
        lines[-1] = f"{module}.{name}" + lines[-1][len(local) :]
    return lines


def failure_data(error: BaseException) -> dict[str, Any]:
    """The failure a server replies with for ``error`` (values not yet made JSON)."""
    module, name = remote_name(error)
    return {
        "class": name,
        "module": module,
        "message": str(error),
        "tb": _remote_traceback(error, module, name),
        "args": list(error.args),
        "kwargs": getattr(error, "kwargs", {}),
    }


def error_from_failure(
    data: Mapping[str, Any], allowed_modules: Collection[str] = (HEAT_MODULE,)
) -> BaseException:
    """The exception a failure stands for: ours for Heat's classes, builtins as
    themselves, a RemoteError for everything else (as an oslo client decides)."""
    name = data.get("class")
    module = data.get("module")
    message = data.get("message")
    trace = data.get("tb", [])
    if module in BUILTINS_ALIASES:
        module = BUILTINS_MODULE
    cls: Any = None
    if isinstance(name, str) and module == HEAT_MODULE and module in allowed_modules:
        cls = BY_NAME.get(name)
    elif isinstance(name, str) and module == BUILTINS_MODULE:
        cls = getattr(builtins, name, None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        return RemoteError(name, message, trace)
    try:
        error = cls(*data.get("args", []), **data.get("kwargs", {}))
    except TypeError:
        return RemoteError(name, message, trace)
    if isinstance(error, HeatException) and message is not None:
        # Rebuilding from kwargs formats again what was formatted already (an error
        # with a path repeats its separators: "Property error: : resources.a: : bad").
        # Like oslo's rebuilt errors, this one prints the text the server sent and
        # keeps the re-formatted message, which heat-api's fault body shows.
        error.remote_text = message
    error.remote_traceback = trace  # type: ignore[attr-defined]
    return error
