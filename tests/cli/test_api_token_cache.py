"""``keel-api`` behind Keystone with keystonemiddleware's token cache in memcached.

Most deployments of Heat set ``[keystone_authtoken] memcached_servers``: the validated
tokens are then kept in memcached (the machine's, on 127.0.0.1:11211, which .ci/run
starts), under keystonemiddleware's key ``tokens/<sha256 of the token>``.
"""

from __future__ import annotations

import hashlib
import json
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.cli import distributed
from tests.keystone import ALICE, Keystone

MEMCACHED = ("127.0.0.1", 11211)


def memcached_get(key: str) -> bytes | None:
    """The value memcached holds under ``key``, read with its text protocol."""
    with socket.create_connection(MEMCACHED, timeout=5) as connection:
        connection.sendall(f"get {key}\r\n".encode())
        answer = b""
        while not answer.endswith(b"END\r\n"):
            chunk = connection.recv(65536)
            assert chunk, answer
            answer += chunk
    if answer == b"END\r\n":
        return None
    header, _, rest = answer.partition(b"\r\n")
    size = int(header.split()[3])
    return rest[:size]


def get_stacks(port: int, project_id: str, token: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://{distributed.HOST}:{port}/v1/{project_id}/stacks",
        headers={"X-Auth-Token": token, "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode()


def test_a_token_validated_by_keel_api_is_cached_in_memcached(
    keystone_service: Keystone, tmp_path: Path
) -> None:
    memcached = f"memcached_servers = {MEMCACHED[0]}:{MEMCACHED[1]}\n"
    with distributed.behind_keystone(tmp_path, keystone_service, authtoken=memcached):
        port = distributed.api_port(tmp_path / "heat.conf")
        token = keystone_service.token(ALICE)
        project_id = keystone_service.project_id(ALICE)

        status, body = get_stacks(port, project_id, token)

        assert (status, body) == (200, {"stacks": []})
        cached = memcached_get(f"tokens/{hashlib.sha256(token.encode()).hexdigest()}")
        assert cached is not None
        validated = json.loads(cached)
        assert validated["token"]["user"]["name"] == ALICE.user_name
        assert validated["token"]["project"]["id"] == project_id
