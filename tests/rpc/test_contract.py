"""The engine API as data against Heat 27.0.1's own EngineClient: the same methods, the
same signatures, and the same message (name, arguments, version, timeout) for a call."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.rpc import client as client_module
from keel_app.rpc.client import EngineClient
from keel_app.rpc.contract import HEAT_ENGINE_API
from keel_app.rpc.methods import METHODS
from tests import oracle

pytestmark = pytest.mark.oracle

HEAT_SIGNATURES = """
import inspect, json
from heat.rpc.client import EngineClient
helpers = {"call", "cast", "make_msg", "local_error_name", "ignore_error_by_name"}
answer = {}
for name, function in inspect.getmembers(EngineClient, inspect.isfunction):
    if name.startswith("__") or name in helpers:
        continue
    parameters = list(inspect.signature(function).parameters.values())[2:]
    answer[name] = [
        [p.name, None if p.default is inspect.Parameter.empty else ["default", p.default]]
        for p in parameters
    ]
print(json.dumps(answer))
"""

HEAT_MESSAGES = """
import json, sys
from heat.rpc.client import EngineClient
sent = []
client = EngineClient.__new__(EngineClient)
client.call = lambda ctxt, msg, version=None, timeout=None: sent.append(
    ["call", msg[0], msg[1], version or "1.0", timeout])
client.cast = lambda ctxt, msg, version=None: sent.append(
    ["cast", msg[0], msg[1], version or "1.0", None])
for attribute, args, kwargs in json.loads(sys.argv[1]):
    getattr(client, attribute)(None, *args, **kwargs)
print(json.dumps(sent))
"""


def _our_signatures() -> dict[str, list[list[Any]]]:
    answer = {}
    for name, signature in HEAT_ENGINE_API.items():
        variants = {name: {}}
        if signature.internal:
            variants[f"_{name}"] = signature.internal
        for attribute, internal in variants.items():
            parameters: list[list[Any]] = [[argument, None] for argument in signature.required]
            defaults = {**signature.optional, **internal}
            parameters += [[argument, ["default", value]] for argument, value in defaults.items()]
            if signature.castable:
                parameters.append(["cast", ["default", False]])
            answer[attribute] = parameters
    return answer


def test_signatures_are_heats() -> None:
    assert _our_signatures() == oracle.run_json(HEAT_SIGNATURES)


class Recorder:
    """A transport that only writes down what the client sends."""

    def __init__(self) -> None:
        self.sent: list[list[Any]] = []

    def call(self, context, method, arguments, version, timeout) -> None:
        self.sent.append(["call", method, arguments, version, timeout])

    def cast(self, context, method, arguments, version) -> None:
        self.sent.append(["cast", method, arguments, version, None])


def _cases() -> list[list[Any]]:
    """Each method called with its required arguments, then with every argument given."""
    cases = []
    for name, signature in HEAT_ENGINE_API.items():
        required = [f"{name}-{argument}" for argument in signature.required]
        cases.append([name, required, {}])
        cases.append([name, required, {key: f"given-{key}" for key in signature.optional}])
        if signature.castable:
            cases.append([name, required, {"cast": True}])
        if signature.internal:
            internal = {key: f"given-{key}" for key in signature.internal}
            cases.append([f"_{name}", required, internal])
    return cases


def test_messages_are_heats() -> None:
    cases = _cases()
    recorder = Recorder()
    client = EngineClient(recorder)
    for attribute, args, kwargs in cases:
        internal = attribute.startswith("_")
        name = attribute.removeprefix("_")
        # Every method of the contract, served or not: one line in METHODS exposes it.
        method = client_module._client_method(name, HEAT_ENGINE_API[name], internal)
        method(client, None, *args, **kwargs)

    assert recorder.sent == oracle.run_json(HEAT_MESSAGES, json.dumps(cases))


def test_client_has_exactly_the_served_methods() -> None:
    exposed = {
        name
        for name in HEAT_ENGINE_API.keys() | {f"_{name}" for name in HEAT_ENGINE_API}
        if hasattr(EngineClient, name)
    }

    assert exposed == set(METHODS) | {
        f"_{name}" for name in METHODS if HEAT_ENGINE_API[name].internal
    }
