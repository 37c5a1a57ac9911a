"""EC2 query signatures, version 2, as the pre-signed signal URLs of Heat carry them.

A signal URL is signed with its resource's EC2 secret so that whoever holds the URL can
POST to the CFN API without a token: the API hands the signature to Keystone
(``/v3/ec2tokens``), which recomputes it from the same fields. The string signed is the
verb, the host, the path and the sorted, percent-encoded parameters, one a line; the
MAC is HMAC-SHA256 (or HMAC-SHA1 when ``SignatureMethod`` asks for it), base64-encoded.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from urllib.parse import quote

HMAC_SHA256, HMAC_SHA1 = "HmacSHA256", "HmacSHA1"


def canonical_query(params: Mapping[str, str]) -> str:
    """The parameters sorted by name, names and values percent-encoded as EC2 wants."""
    return "&".join(
        f"{quote(name, safe='')}={quote(str(params[name]), safe='-_~')}" for name in sorted(params)
    )


def sign_v2(secret: str, verb: str, host: str, path: str, params: Mapping[str, str]) -> str:
    """The version-2 signature of a request (``params`` without ``Signature``)."""
    digest = hashlib.sha1 if params.get("SignatureMethod") == HMAC_SHA1 else hashlib.sha256
    text = f"{verb}\n{host}\n{path}\n{canonical_query(params)}"
    mac = hmac.new(secret.encode(), text.encode(), digest)
    return base64.b64encode(mac.digest()).decode()
