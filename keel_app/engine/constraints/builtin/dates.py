"""Time constraints: ``iso_8601``, ``expiration`` (a future ISO 8601 time), ``timezone``
(an IANA zone name) and ``cron_expression``.

ISO 8601 text is read by the ``iso8601`` package and cron lines by ``croniter``, the
libraries Heat uses, so that what passes and the reasons given for what fails are Heat's.
A time without a zone is taken as UTC.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

import croniter
import iso8601

from keel_app.engine.constraints.custom import BaseCustomConstraint


def parse_isotime(text: Any) -> datetime.datetime:
    """An aware datetime from ISO 8601 text; ``ValueError`` when it does not parse."""
    try:
        return iso8601.parse_date(text)
    except (iso8601.ParseError, TypeError) as error:
        raise ValueError(str(error)) from error


class ISO8601Constraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        try:
            parse_isotime(value)
        except Exception:
            return False
        return True


class ExpirationConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any) -> bool:
        if not value:
            return True
        try:
            expiration = parse_isotime(value.strip())
            offset = expiration.utcoffset() or datetime.timedelta(0)
            expiration_utc = expiration.replace(tzinfo=None) - offset
            now_utc = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
            if expiration_utc > now_utc:
                return True
            raise ValueError("Expiration time is out of date.")
        except Exception as error:
            self._error_message = f"Expiration {value} is invalid: {error}"
        return False


class TimezoneConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        if not value:
            return True
        try:
            zoneinfo.ZoneInfo(value)
        except Exception as error:
            self._error_message = f"Invalid timezone: {error}"
            return False
        return True


class CRONExpressionConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        if not value:
            return True
        try:
            croniter.croniter(value)
        except Exception as error:
            self._error_message = f"Invalid CRON expression: {error}"
            return False
        return True
