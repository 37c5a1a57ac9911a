"""What an engine does with one call, whichever transport brought it: run the service
function and answer a reply (``keel_app.rpc.reply``), never an exception."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from keel_app.common.exception import HeatException
from keel_app.rpc import methods, reply

LOG = logging.getLogger(__name__)


def serve(
    context: Any,
    settings: Any,
    database: Any,
    dispatcher: Any,
    method: str,
    arguments: Mapping[str, Any],
) -> dict[str, Any]:
    try:
        value = methods.invoke(context, settings, database, dispatcher, method, arguments)
        return reply.result_reply(value)
    except Exception as error:
        # Heat's errors are answers (a missing stack, an invalid template); anything
        # else is a fault of the engine and is logged with its traceback, as Heat does.
        if isinstance(error, HeatException):
            LOG.debug("Engine call %s answered %s: %s", method, type(error).__name__, error)
        else:
            LOG.exception("Engine call %s failed", method)
        return reply.failure_reply(error)
