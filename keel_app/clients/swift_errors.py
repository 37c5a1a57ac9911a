"""Swift's errors as Heat reports them: python-swiftclient's ``ClientException``.

Its text names the call that failed (``Container PUT failed``), then the URL, the status
and reason, the start of the answer's body and the transaction id, as swiftclient
prints it.
"""

from __future__ import annotations

from typing import Any
from urllib import parse

RESPONSE_EXCERPT = 60


class ClientException(Exception):
    def __init__(
        self,
        msg: str,
        url: str = "",
        http_status: int | None = None,
        http_reason: str = "",
        http_response_content: Any = "",
        http_response_headers: Any = None,
    ) -> None:
        super().__init__(msg)
        self.msg = msg
        self.url = url
        self.http_status = http_status
        self.http_reason = http_reason
        self.http_response_content = http_response_content
        self.http_response_headers = http_response_headers
        self.transaction_id = None
        for header in ("X-Trans-Id", "X-Openstack-Request-Id"):
            if http_response_headers and header in http_response_headers:
                self.transaction_id = http_response_headers[header]
                break

    @classmethod
    def from_response(cls, response: Any, msg: str) -> ClientException:
        return cls(
            msg,
            response.request.url if response.request is not None else "",
            response.status_code,
            response.reason,
            response.content,
            response.headers,
        )

    def __str__(self) -> str:
        where = ""
        if self.url:
            parsed = parse.urlparse(self.url)
            where = f"{parsed.scheme}://{parsed.hostname}"
            if parsed.port:
                where += f":{parsed.port}"
            where += parsed.path
            if parsed.query:
                where += f"?{parsed.query}"
        if self.http_status:
            where = f"{where} {self.http_status}" if where else str(self.http_status)
        if self.http_reason:
            where = f"{where} {self.http_reason}" if where else f"- {self.http_reason}"
        content = self.http_response_content
        if content:
            if len(content) <= RESPONSE_EXCERPT:
                where += f"   {content}"
            else:
                where += f"  [first 60 chars of response] {content[:RESPONSE_EXCERPT]}"
        transaction = f" (txn: {self.transaction_id})" if self.transaction_id else ""
        return f"{self.msg}: {where}{transaction}" if where else self.msg + transaction
