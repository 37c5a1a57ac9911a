"""The access log: one line per API request, as heat-api's server writes it."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

from tests.cli.all_in_one_process import start_all_in_one, stop

ACCESS_LINE = re.compile(
    r" INFO keel_app\.web\.access_log: \[(?P<request_id>req-[0-9a-f-]{36})\] 127\.0\.0\.1 "
    r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/1\.1" status: (?P<status>\d{3}) '
    r"len: (?P<length>\d+) time: (?P<ms>\d+\.\d) ms$"
)


def answer(url: str, method: str = "GET") -> tuple[int, str, int]:
    """The status, the x-openstack-request-id header and the body's length."""
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["x-openstack-request-id"], len(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers["x-openstack-request-id"], len(error.read())


def test_all_in_one_logs_one_line_per_request_with_its_request_id(tmp_path: Path) -> None:
    process, url = start_all_in_one(tmp_path / "state", tmp_path / "all-in-one.log")
    try:
        root = url.removesuffix("/v1/admin")
        requests = [
            ("GET", f"{url}/stacks?limit=2", "/v1/admin/stacks?limit=2"),
            ("GET", f"{url}/stacks/missing", "/v1/admin/stacks/missing"),
            ("DELETE", f"{url}/build_info", "/v1/admin/build_info"),
            ("GET", f"{root}/", "/"),
        ]
        answers = [answer(address, method) for method, address, _ in requests]
    finally:
        stop(process)

    lines = (tmp_path / "all-in-one.log").read_text().splitlines()
    logged = [ACCESS_LINE.search(line) for line in lines if "keel_app.web.access_log" in line]
    # A request's line is written once its answer has gone, so the server's thread for one
    # request may log after the next request's: the lines are compared in any order.
    sent = zip(requests, answers, strict=True)
    assert sorted(map(fields, logged), key=str) == sorted(
        (
            (request_id, method, path, status, length)
            for (method, _, path), (status, request_id, length) in sent
        ),
        key=str,
    )
    assert [status for status, _, _ in answers] == [200, 404, 405, 300]


def fields(entry: re.Match[str] | None) -> tuple[str, str, str, int, int] | None:
    if entry is None:
        return None
    return (
        entry["request_id"],
        entry["method"],
        entry["path"],
        int(entry["status"]),
        int(entry["length"]),
    )
