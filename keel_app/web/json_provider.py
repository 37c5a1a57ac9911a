"""JSON answers byte for byte as heat-api writes them.

Keys in the order the view built them, ``json.dumps``'s default separators, ASCII
only, no trailing newline; datetimes as ISO 8601 and anything else unknown as its
string. A view may then simply return a dict.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from flask import Response
from flask.json.provider import DefaultJSONProvider


def heat_default(value: Any) -> str:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return str(value)


class HeatJSONProvider(DefaultJSONProvider):
    sort_keys = False
    ensure_ascii = True
    default = staticmethod(heat_default)  # type: ignore[assignment]

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", heat_default)
        kwargs.setdefault("ensure_ascii", True)
        return json.dumps(obj, **kwargs)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        body = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(
            self.dumps(body).encode("latin-1"), headers={"Content-Type": "application/json"}
        )
