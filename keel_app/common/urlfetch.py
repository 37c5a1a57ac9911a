"""Downloading a template (or an environment, or a nested template) from a URL, as Heat does.

Only http and https by default; the body is read in small pieces and the download
stops as soon as it passes the size limit, because a Content-Length header can lie
and a huge body must not reach memory. The caller passes the limits (heat.conf's
``template_fetch_timeout`` and ``max_template_size``): nothing here reads global
configuration.
"""

from __future__ import annotations

import logging
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Collection

import requests
from oslo_config import cfg

from keel_app.common.exception import Error

LOG = logging.getLogger(__name__)

DEFAULT_SCHEMES = ("http", "https")

# Small enough that the size limit is overshot by at most this much, large enough not
# to spend the time joining tiny pieces.
CHUNK_SIZE = 1000


class URLFetchError(Error, OSError):
    """A download that failed; an ``IOError`` too, as callers catch it as one."""


def get(
    url: str,
    *,
    timeout: float,
    max_size: int,
    allowed_schemes: Collection[str] = DEFAULT_SCHEMES,
) -> bytes:
    """The body at ``url``; ``URLFetchError`` with Heat's message when it cannot be had."""
    scheme = urllib.parse.urlparse(url).scheme
    if scheme not in allowed_schemes:
        raise URLFetchError(f"Invalid URL scheme {scheme}")

    LOG.info("Fetching data from %s", url)

    if scheme == "file":
        # Only reachable when a caller allows it explicitly (tests, local tools).
        try:
            with urllib.request.urlopen(url) as local_file:
                return local_file.read()
        except urllib.error.URLError as error:
            raise URLFetchError(f"Failed to retrieve template: {error}") from error

    try:
        with requests.get(url, stream=True, timeout=timeout) as response:
            response.raise_for_status()
            return _read_limited(response, max_size)
    except (requests.RequestException, TimeoutError) as error:
        LOG.info("Failed to retrieve template: %s", error)
        raise URLFetchError(f"Failed to retrieve template from {url}") from error


def get_with_conf(url: str, conf: cfg.ConfigOpts) -> bytes:
    """``get`` with heat.conf's limits."""
    return get(url, timeout=conf.template_fetch_timeout, max_size=conf.max_template_size)


def _read_limited(response: requests.Response, max_size: int) -> bytes:
    body = bytearray()
    for chunk in response.iter_content(chunk_size=CHUNK_SIZE):
        body += chunk
        if len(body) > max_size:
            raise URLFetchError(f"Template exceeds maximum allowed size ({max_size} bytes)")
    return bytes(body)
