"""The root of Heat's exception tree and the few generic classes every family uses.

Import exceptions from ``keel_app.common.exception``; this module only holds the
machinery (message formatting, error codes, error paths) that the family modules share.
"""

from __future__ import annotations

import logging
from typing import Any

LOG = logging.getLogger(__name__)

# Heat's RPC peers rebuild a remote error from (module, class name); every class of
# ours answers for the class of the same name in this module of Heat's.
HEAT_MODULE = "heat.common.exception"

# An error code replaces the class's message template; Heat prefixes the message with
# "HEAT-E<code>" so that users can quote it.
ERROR_CODE_MAP: dict[str, str] = {
    "99001": (
        "Service %(service_name)s is not available for resource type %(resource_type)s, "
        "reason: %(reason)s"
    ),
}

UNKNOWN_MESSAGE = "An unknown exception occurred."


class HeatException(Exception):
    """An error whose message is ``msg_fmt`` filled in with the constructor's keywords."""

    message: str = UNKNOWN_MESSAGE
    # Declared, not defined: as in Heat, only subclasses (or an error code) provide it.
    msg_fmt: str
    error_code: str | None = None
    # The API shows the message of a "safe" error to the user.
    safe = True
    # Heat's templates are lazily translated strings, which fall back to their own
    # text when formatting leaves them empty; the user then sees the bare template.
    empty_message_shows_template = True
    # Set on an error rebuilt from an RPC failure: the text the server sent, which is
    # what it prints, while ``message`` is formatted anew from the keywords it carried
    # (as Heat's rebuilt errors are, and what heat-api's fault body shows).
    remote_text: str | None = None

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs
        if self.error_code in ERROR_CODE_MAP:
            self.msg_fmt = ERROR_CODE_MAP[self.error_code]
        try:
            self.message = self.msg_fmt % kwargs
            if not self.message and self.empty_message_shows_template:
                self.message = self.msg_fmt
        except KeyError:
            # A template asking for a keyword nobody passed must not hide the error
            # being raised: Heat keeps the generic message and only logs the mismatch.
            LOG.exception("Exception in string format operation")
            for name, value in kwargs.items():
                LOG.error("%(name)s: %(value)s", {"name": name, "value": value})
        if self.error_code:
            self.message = f"HEAT-E{self.error_code} {self.message}"

    def __str__(self) -> str:
        return self.message if self.remote_text is None else self.remote_text

    def __deepcopy__(self, memo: dict[int, Any]) -> HeatException:
        return self.__class__(**self.kwargs)


class HeatExceptionWithPath(HeatException):
    """An error located in a template: "<error>: <dotted.path[0]>: <message>"."""

    msg_fmt = "%(error)s%(path)s%(message)s"

    def __init__(
        self,
        error: str | None = None,
        path: list[Any] | str | None = None,
        message: str | None = None,
    ) -> None:
        self.error = error or ""
        self.path: list[Any] = []
        if isinstance(path, list):
            self.path = path
        elif isinstance(path, str):
            self.path = [path]
        self.error_message = message or ""
        dotted_path = format_path(self.path)
        super().__init__(
            error=f"{self.error}: " if self.error != "" else "",
            path=f"{dotted_path}: " if dotted_path else "",
            message=self.error_message,
        )


def format_path(path: list[Any]) -> str:
    """``["resources", "server", "networks", 0]`` as ``resources.server.networks[0]``."""
    text = ""
    for item in path:
        if isinstance(item, int) or item.isdigit():
            text += f"[{item}]"
        elif text:
            text += f".{item}"
        else:
            text = item
    return text


class Error(HeatException):
    msg_fmt = "%(message)s"
    # The one template Heat does not mark for translation.
    empty_message_shows_template = False

    def __init__(self, message: str) -> None:
        super().__init__(message=message)


class NotFound(HeatException):
    def __init__(self, msg_fmt: str = "Not found") -> None:
        self.msg_fmt = msg_fmt
        super().__init__()


class Invalid(HeatException):
    msg_fmt = "Data supplied was not valid: %(reason)s"


class NotSupported(HeatException):
    msg_fmt = "%(feature)s is not supported."
