"""DNS name constraints: ``dns_name``, ``dns_domain`` (ends with a dot) and ``rel_dns_name``.

Labels are 1-63 characters of lower-case letters, digits and hyphens, not starting or
ending with a hyphen; a name is at most 255 characters; the top-level label of a fully
qualified name is not all digits (RFC 1123).
"""

from __future__ import annotations

import re
from typing import Any

from keel_app.engine.constraints.custom import BaseCustomConstraint

LABEL_MAX_LENGTH = 63
LABEL_PATTERN = f"[a-z0-9-]{{1,{LABEL_MAX_LENGTH}}}$"
FQDN_MAX_LENGTH = 255


def check_dns_format(data: Any) -> None:
    """Raise ``ValueError`` saying why ``data`` is not a DNS name; empty data passes."""
    if not data:
        return
    trimmed = data[:-1] if data.endswith(".") else data
    if len(trimmed) > FQDN_MAX_LENGTH:
        raise ValueError(f"'{trimmed}' exceeds the {FQDN_MAX_LENGTH} character FQDN limit")
    labels = trimmed.split(".")
    for label in labels:
        if not label:
            raise ValueError("Encountered an empty component.")
        if label.endswith("-") or label.startswith("-"):
            raise ValueError(f"Name '{label}' must not start or end with a hyphen.")
        if not re.match(LABEL_PATTERN, label):
            raise ValueError(
                f"Name '{label}' must be 1-{LABEL_MAX_LENGTH} characters long, each of "
                "which can only be alphanumeric or a hyphen."
            )
    if data.endswith(".") and len(labels) > 1 and re.match("^[0-9]+$", labels[-1]):
        raise ValueError(f"TLD '{labels[-1]}' must not be all numeric.")


class DNSNameConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any) -> bool:
        try:
            check_dns_format(value)
        except ValueError as error:
            self._error_message = f"'{value}' not in valid format. Reason: {error}"
            return False
        return True


class RelativeDNSNameConstraint(DNSNameConstraint):
    def validate(self, value: Any, context: Any) -> bool:
        if not value:
            return True
        if value.endswith("."):
            self._error_message = f"'{value}' is a FQDN. It should be a relative domain name."
            return False
        # Room is left for the dot and a domain of at least one character.
        if len(value) > FQDN_MAX_LENGTH - 3:
            self._error_message = (
                f"'{value}' contains '{len(value)}' characters. Adding a domain name will "
                f"cause it to exceed the maximum length of a FQDN of '{FQDN_MAX_LENGTH}'."
            )
            return False
        return super().validate(value, context)


class DNSDomainConstraint(DNSNameConstraint):
    def validate(self, value: Any, context: Any) -> bool:
        if not value:
            return True
        if not super().validate(value, context):
            return False
        if not value.endswith("."):
            self._error_message = f"'{value}' must end with '.'."
            return False
        return True
