"""The look-up errors Heat's client plugins share: nothing, or more than one thing,
matched what was looked for."""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import HeatException


class EntityMatchNotFound(HeatException):
    msg_fmt = "No %(entity)s matching %(args)s."

    def __init__(self, entity: str | None = None, args: Any = None, **kwargs: Any) -> None:
        self.entity = entity
        self.args_matched = args
        super().__init__(entity=entity, args=args, **kwargs)


class EntityUniqueMatchNotFound(EntityMatchNotFound):
    msg_fmt = "No %(entity)s unique match found for %(args)s."


class InterfaceNotFound(HeatException):
    msg_fmt = "No network interface found for server %(id)s."
