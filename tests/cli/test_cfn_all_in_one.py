"""``keel all-in-one`` serves the CFN API on the same embedded engine as the native API."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from keel_app.cli import all_in_one

TEMPLATE = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "Resources": {"Nothing": {"Type": "OS::Heat::None"}},
}


def test_the_cfn_port_is_8000_unless_told_otherwise() -> None:
    parser = argparse.ArgumentParser()
    all_in_one.add_parser(parser.add_subparsers())

    assert parser.parse_args(["all-in-one"]).cfn_port == 8000
    assert parser.parse_args(["all-in-one", "--cfn-port", "8123"]).cfn_port == 8123


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "keel_app.cli.keel",
            "all-in-one",
            "--port",
            "0",
            "--cfn-port",
            "0",
            "--state-dir",
            str(tmp_path / "state"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert process.stdout is not None
    native_url = process.stdout.readline().split(" on ")[1].split(" ")[0]
    cfn_url = process.stdout.readline().split(" on ")[1].strip()
    yield process, native_url, cfn_url
    if process.poll() is None:
        process.kill()
        process.wait()
    process.stdout.close()


def cfn(url: str, **parameters: str) -> Any:
    query = urlencode({**parameters, "ContentType": "JSON"})
    with urllib.request.urlopen(f"{url}?{query}", timeout=10) as response:
        return json.load(response)


def test_a_stack_created_through_the_cfn_api_is_built_and_listed_by_the_native_api(
    served: tuple[subprocess.Popen[str], str, str],
) -> None:
    process, native_url, cfn_url = served
    assert cfn_url.startswith("http://127.0.0.1:") and cfn_url.endswith("/v1/")

    created = cfn(cfn_url, Action="CreateStack", StackName="web", TemplateBody=json.dumps(TEMPLATE))
    stack_id = created["CreateStackResponse"]["CreateStackResult"]["StackId"]
    deadline = time.monotonic() + 30
    while True:
        described = cfn(cfn_url, Action="DescribeStacks", StackName="web")
        stack = described["DescribeStacksResponse"]["DescribeStacksResult"]["Stacks"][0]
        if stack["StackStatus"] != "CREATE_IN_PROGRESS" or time.monotonic() > deadline:
            break
        time.sleep(0.05)

    assert (stack["StackId"], stack["StackStatus"]) == (stack_id, "CREATE_COMPLETE")
    assert stack_id.startswith("arn:openstack:heat::admin:stacks/web/")
    with urllib.request.urlopen(f"{native_url}/stacks", timeout=10) as response:
        listed = json.load(response)["stacks"]
    assert [(entry["stack_name"], entry["id"]) for entry in listed] == [
        ("web", stack_id.rsplit("/", 1)[1])
    ]
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
