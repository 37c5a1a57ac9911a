"""The request context as our own Celery messages carry it: credentials sealed.

Flower, the broker's management UI and anyone reading a queue see a message's arguments,
so a context travels as Heat's dictionary form with its credentials (token, token body,
password, EC2 credentials) removed and put back only as one Fernet token made with
``auth_encryption_key``, which every engine of a deployment shares.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from keel_app.common import crypt
from keel_app.common.context import CREDENTIAL_FIELDS, RequestContext

SEALED_KEY = "keel_sealed_credentials"


def seal(context: RequestContext, encryption_key: str) -> dict[str, Any]:
    """The context's dictionary form, safe to show: credentials only in sealed form."""
    values = context.redacted().to_dict()
    secrets = {name: getattr(context, name) for name in CREDENTIAL_FIELDS}
    if any(value is not None for value in secrets.values()):
        values[SEALED_KEY] = list(_sealed(json.dumps(secrets, sort_keys=True), encryption_key))
    return values


@functools.lru_cache(maxsize=64)
def _sealed(secrets: str, encryption_key: str) -> tuple[str, str]:
    # A traversal sends every step with the same credentials: they are encrypted once.
    method, token = crypt.encrypt(secrets, encryption_key)
    return method, token


def unseal(values: Mapping[str, Any], encryption_key: str) -> RequestContext:
    """The context ``seal`` was given, credentials included."""
    plain = {key: value for key, value in values.items() if key != SEALED_KEY}
    sealed = values.get(SEALED_KEY)
    secrets: dict[str, Any] = {}
    if sealed:
        method, token = sealed
        secrets = json.loads(crypt.decrypt(method, token, encryption_key) or "{}")
    context = RequestContext.from_dict(plain)
    for name in CREDENTIAL_FIELDS:
        setattr(context, name, secrets.get(name))
    return context
