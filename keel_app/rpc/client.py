"""``EngineClient``: Heat's engine RPC client, over the transport it is built with.

It has one method per call that ``keel_app.rpc.methods`` serves, with the argument
names, defaults and version of Heat's ``heat/rpc/client.py`` (``keel_app.rpc.contract``):
``client.show_stack(ctxt, identity)`` sends ``show_stack`` with ``stack_identity`` and
``resolve_outputs=True`` at version 1.20. Methods taking Heat's engine-only arguments
also come as ``_<method>`` (``_create_stack(..., owner_id=...)`` for nested stacks).

Arguments are made JSON primitives before any transport sees them, and replies come
back as JSON primitives, so in-process calls behave as calls over the broker do.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from keel_app.common import jsonwire
from keel_app.rpc.contract import HEAT_ENGINE_API, RpcSignature
from keel_app.rpc.methods import METHODS

REMOTE_SUFFIX = "_Remote"


class Transport(Protocol):
    def call(
        self,
        context: Any,
        method: str,
        arguments: dict[str, Any],
        version: str,
        timeout: float | None,
    ) -> Any:
        """The reply's result, or its failure raised."""

    def cast(self, context: Any, method: str, arguments: dict[str, Any], version: str) -> None:
        """Send without waiting for (or hearing of) an answer."""


class EngineClient:
    BASE_RPC_API_VERSION = "1.0"

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def call(
        self,
        ctxt: Any,
        method: str,
        arguments: dict[str, Any],
        version: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        return self.transport.call(
            ctxt,
            method,
            jsonwire.to_primitive(arguments),
            version or self.BASE_RPC_API_VERSION,
            timeout,
        )

    def cast(
        self, ctxt: Any, method: str, arguments: dict[str, Any], version: str | None = None
    ) -> None:
        self.transport.cast(
            ctxt, method, jsonwire.to_primitive(arguments), version or self.BASE_RPC_API_VERSION
        )

    @staticmethod
    def local_error_name(error: BaseException) -> str:
        """The error's class name without oslo's ``_Remote`` suffix."""
        return type(error).__name__.split(REMOTE_SUFFIX)[0]

    @contextlib.contextmanager
    def ignore_error_by_name(self, name: str) -> Iterator[None]:
        """Swallow an error whose class is called ``name`` (remote or not)."""
        try:
            yield
        except Exception as error:
            if self.local_error_name(error) != name:
                raise


def _parameters(signature: RpcSignature, internal: bool) -> list[inspect.Parameter]:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter("self", kind), inspect.Parameter("ctxt", kind)]
    parameters += [inspect.Parameter(name, kind) for name in signature.required]
    defaults = {**signature.optional, **(signature.internal if internal else {})}
    parameters += [inspect.Parameter(name, kind, default=value) for name, value in defaults.items()]
    if signature.castable:
        parameters.append(inspect.Parameter("cast", kind, default=False))
    return parameters


def _client_method(name: str, signature: RpcSignature, internal: bool) -> Callable[..., Any]:
    python_signature = inspect.Signature(_parameters(signature, internal))

    def send(self: EngineClient, *args: Any, **kwargs: Any) -> Any:
        bound = python_signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        given = bound.arguments
        arguments = {
            argument: given[argument] if argument in given else signature.internal[argument]
            for argument in signature.arguments
        }
        for argument, empty in signature.or_values.items():
            arguments[argument] = arguments[argument] or copy.deepcopy(empty)
        if given.get("cast"):
            return self.cast(given["ctxt"], name, arguments, signature.version)
        timeout = arguments[signature.timeout_argument] if signature.timeout_argument else None
        return self.call(given["ctxt"], name, arguments, signature.version, timeout)

    send.__name__ = f"_{name}" if internal else name
    send.__qualname__ = f"EngineClient.{send.__name__}"
    send.__signature__ = python_signature  # type: ignore[attr-defined]
    send.__doc__ = f"Heat's ``{name}`` engine call, version {signature.version}."
    return send


def _add_methods() -> None:
    for name in METHODS:
        signature = HEAT_ENGINE_API[name]
        setattr(EngineClient, name, _client_method(name, signature, internal=False))
        if signature.internal:
            setattr(EngineClient, f"_{name}", _client_method(name, signature, internal=True))


_add_methods()
