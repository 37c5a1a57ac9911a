"""The method table: each served call names a service function, and Heat's arguments map
onto its keywords (or are known to be unserved)."""

from __future__ import annotations

import inspect

import pytest

from keel_app.common import exception
from keel_app.rpc import methods
from keel_app.rpc.contract import HEAT_ENGINE_API

# Heat's arguments that today's service functions do not take; each is dropped when it
# is None and refused otherwise.
UNSERVED: dict[str, tuple[str, ...]] = {}


@pytest.mark.parametrize("method", sorted(methods.METHODS))
def test_each_method_is_a_service_function_of_heats_api(method: str) -> None:
    function = methods.METHODS[method].resolve()

    assert method in HEAT_ENGINE_API
    positionals = list(inspect.signature(function).parameters)[: methods.SERVICE_POSITIONALS]
    assert positionals == ["context", "settings", "database", "dispatcher"]


@pytest.mark.parametrize("method", sorted(methods.METHODS))
def test_each_renamed_argument_is_heats(method: str) -> None:
    assert set(methods.METHODS[method].renames) <= set(HEAT_ENGINE_API[method].arguments)


@pytest.mark.parametrize("method", sorted(methods.METHODS))
def test_unserved_arguments_are_the_known_ones(method: str) -> None:
    assert methods.unserved_arguments(method) == UNSERVED.get(method, ())


def _serve_get_template_without_stack_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    # Stands for a service function that does not take one of Heat's arguments yet.
    entry = methods.ServiceFunction("stacks:identify_stack")
    monkeypatch.setitem(methods.METHODS, "get_template", entry)


def test_unserved_argument_of_none_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    _serve_get_template_without_stack_identity(monkeypatch)

    assert methods.service_keywords("get_template", {"stack_identity": None}) == {}


def test_unserved_argument_with_a_value_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _serve_get_template_without_stack_identity(monkeypatch)

    with pytest.raises(exception.NotSupported) as raised:
        methods.service_keywords("get_template", {"stack_identity": {"stack_id": "x"}})

    assert str(raised.value) == "The stack_identity argument of get_template is not supported."


def test_a_function_only_keyword_is_not_reachable_from_a_message() -> None:
    # list_stacks takes tenant_safe, which Heat's API stopped sending at version 1.33.
    with pytest.raises(TypeError):
        methods.service_keywords("list_stacks", {"tenant_safe": False})


def test_renamed_argument_reaches_the_functions_keyword(monkeypatch) -> None:
    # Stands for a service function whose keyword is not Heat's argument name.
    renames = {"stack_identity": "stack_name"}
    entry = methods.ServiceFunction("stacks:identify_stack", renames=renames)
    monkeypatch.setitem(methods.METHODS, "get_template", entry)

    assert methods.unserved_arguments("get_template") == ()
    assert methods.service_keywords("get_template", {"stack_identity": "web"}) == {
        "stack_name": "web"
    }
