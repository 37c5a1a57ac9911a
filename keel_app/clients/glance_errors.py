"""Glance's errors as Heat reports them: python-glanceclient's ``HTTP<Reason>`` classes,
whose text is ``HTTP <details>`` (the messages of a JSON answer, else the lines of an
HTML one without their tags, joined by colons)."""

from __future__ import annotations

import re
from typing import Any


class HTTPException(Exception):
    code: Any = "N/A"

    def __init__(self, details: str | None = None) -> None:
        self.details = details or type(self).__name__
        super().__init__(self.details)

    def __str__(self) -> str:
        return f"HTTP {self.details}"


def _kind(name: str, code: int) -> type[HTTPException]:
    return type(name, (HTTPException,), {"code": code, "__module__": __name__})


HTTPBadRequest = _kind("HTTPBadRequest", 400)
HTTPUnauthorized = _kind("HTTPUnauthorized", 401)
HTTPForbidden = _kind("HTTPForbidden", 403)
HTTPNotFound = _kind("HTTPNotFound", 404)
HTTPMethodNotAllowed = _kind("HTTPMethodNotAllowed", 405)
HTTPConflict = _kind("HTTPConflict", 409)
HTTPOverLimit = _kind("HTTPOverLimit", 413)
HTTPUnsupported = _kind("HTTPUnsupported", 415)
HTTPInternalServerError = _kind("HTTPInternalServerError", 500)
HTTPNotImplemented = _kind("HTTPNotImplemented", 501)
HTTPBadGateway = _kind("HTTPBadGateway", 502)
HTTPServiceUnavailable = _kind("HTTPServiceUnavailable", 503)

BY_STATUS = {
    kind.code: kind
    for kind in (
        HTTPBadRequest, HTTPUnauthorized, HTTPForbidden, HTTPNotFound, HTTPMethodNotAllowed,
        HTTPConflict, HTTPOverLimit, HTTPUnsupported, HTTPInternalServerError,
        HTTPNotImplemented, HTTPBadGateway, HTTPServiceUnavailable,
    )
}  # fmt: skip


def from_response(response: Any) -> HTTPException:
    kind = BY_STATUS.get(response.status_code, HTTPException)
    content_type = response.headers.get("content-type", "")
    if response.content and "json" in content_type:
        messages = [fault.get("message") for fault in response.json().values()]
        return kind("\n".join(message for message in messages if message is not None))
    if response.content and "html" in content_type:
        lines: list[str] = []
        for line in response.text.splitlines():
            text = re.sub(r"<.+?>", "", line.strip())
            if text and text not in lines:
                lines.append(text)
        return kind(": ".join(lines))
    if response.content:
        return kind(response.content.decode("utf-8").replace("\n\n", "\n"))
    return kind()
