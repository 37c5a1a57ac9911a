"""Custom constraints: look-up by name, and the validators that need a cloud service."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from keel_app.clients import nova_errors
from keel_app.common.exception import ClientNotAvailable, StackValidationFailed
from keel_app.engine.constraints import CustomConstraint, Schema, registry
from keel_app.engine.constraints.builtin.testing import TestConstraintDelay


@dataclass
class FlavorLookup:
    """A client plugin of a pretend compute service that knows some flavours."""

    known: set[str]
    asked: list[str] = field(default_factory=list)

    def find_flavor_by_name_or_id(self, name: str) -> str:
        self.asked.append(name)
        if name not in self.known:
            # What Heat's nova plugin lets through: novaclient's NotFound of its find().
            raise nova_errors.NotFound(404, f"No Flavor matching {{'name': '{name}'}}.")
        return name


@dataclass
class Clients:
    plugins: dict[str, Any]

    def client_plugin(self, name: str) -> Any:
        return self.plugins[name]


@dataclass
class Context:
    clients: Any


def flavor_schema() -> Schema:
    return Schema(Schema.STRING, constraints=[CustomConstraint("nova.flavor")])


def test_service_constraint_without_clients_refuses_the_value_naming_the_client() -> None:
    with pytest.raises(StackValidationFailed) as raised:
        flavor_schema().validate_constraints("m1.small", context=None)
    assert str(raised.value) == (
        "Error validating value 'm1.small': The client (nova) is not available."
    )


def test_service_constraint_whose_client_is_not_offered_refuses_the_value() -> None:
    class KeystoneOnly:
        def client_plugin(self, name: str) -> Any:
            raise ClientNotAvailable(client_name=name)

    schema = Schema(Schema.STRING, constraints=[CustomConstraint("glance.image")])
    with pytest.raises(StackValidationFailed) as raised:
        schema.validate_constraints("cirros", context=Context(KeystoneOnly()))
    assert str(raised.value) == (
        "Error validating value 'cirros': The client (glance) is not available."
    )


def test_service_constraint_accepts_what_the_service_finds() -> None:
    lookup = FlavorLookup(known={"m1.small"})
    context = Context(Clients({"nova": lookup}))
    flavor_schema().validate_constraints("m1.small", context=context)
    assert lookup.asked == ["m1.small"]


def test_service_constraint_refuses_with_the_service_message() -> None:
    context = Context(Clients({"nova": FlavorLookup(known=set())}))
    with pytest.raises(StackValidationFailed) as raised:
        flavor_schema().validate_constraints("m1.huge", context=context)
    assert str(raised.value) == (
        "Error validating value 'm1.huge': No Flavor matching {'name': 'm1.huge'}. (HTTP 404)"
    )


def test_neutron_constraint_names_the_resource_kind_to_its_plugin() -> None:
    class NeutronLookup:
        def __init__(self) -> None:
            self.asked: list[tuple[str, str]] = []

        def find_resourceid_by_name_or_id(self, kind: str, value: str) -> str:
            self.asked.append((kind, value))
            return "id"

    lookup = NeutronLookup()
    schema = Schema(Schema.STRING, constraints=[CustomConstraint("neutron.subnet")])
    schema.validate_constraints("private-subnet", context=Context(Clients({"neutron": lookup})))
    assert lookup.asked == [("subnet", "private-subnet")]


def test_keystone_constraint_refuses_an_empty_name_without_asking() -> None:
    context = Context(Clients({}))
    schema = Schema(Schema.STRING, constraints=[CustomConstraint("keystone.project")])
    with pytest.raises(StackValidationFailed) as raised:
        schema.validate_constraints("", context=context)
    assert (
        str(raised.value) == "Error validating value '': The KeystoneProject () could not be found."
    )


def test_defaults_are_not_checked_by_custom_constraints() -> None:
    schema = Schema(
        Schema.STRING, default="m1.small", constraints=[CustomConstraint("nova.flavor")]
    )
    schema.validate(context=None)
    assert schema.default == "m1.small"


def test_constraint_from_an_environment_is_preferred() -> None:
    class OnlyYes:
        def validate(self, value: Any, context: Any) -> bool:
            return value == "yes"

    class Environment:
        def get_constraint(self, name: str) -> type | None:
            return OnlyYes if name == "ip_addr" else None

    constraint = CustomConstraint("ip_addr", environment=Environment())
    constraint.validate("yes")
    with pytest.raises(ValueError, match='"10.0.0.1" does not validate ip_addr'):
        constraint.validate("10.0.0.1")


def test_test_constraint_never_sleeps() -> None:
    started = time.monotonic()
    assert TestConstraintDelay().validate(30, None) is True
    assert time.monotonic() - started < 1


def test_test_constraint_refuses_what_sleep_would_refuse() -> None:
    validator = registry.get_constraint("test_constr")()
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        validator.validate("5", None)
    with pytest.raises(ValueError, match="sleep length must be non-negative"):
        validator.validate(-1, None)
