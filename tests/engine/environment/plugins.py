"""Small plugin classes for the environment tests: resource types, a sink, template support."""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment import Environment, build_global_environment
from keel_app.engine.environment.support import DEPRECATED, HIDDEN, SupportStatus


class NoneResource:
    """Does nothing."""

    support_status = SupportStatus(version="5.0.0")

    @classmethod
    def getdoc(cls) -> str:
        return "Does nothing."

    @classmethod
    def is_service_available(cls, context: Any) -> tuple[bool, str | None]:
        return True, None


class ServerResource(NoneResource):
    support_status = SupportStatus(version="2014.1")

    @classmethod
    def is_service_available(cls, context: Any) -> tuple[bool, str | None]:
        return context.get("compute", False), "no compute"


class OldAlarm(NoneResource):
    support_status = SupportStatus(DEPRECATED, message="Use NewAlarm.", version="7.0.0")


class HiddenThing(NoneResource):
    support_status = SupportStatus(HIDDEN, message="Gone.")


class QueueSink:
    def __init__(self, target: str, ttl: int | None = None) -> None:
        self.target = target
        self.ttl = ttl


class TemplateResource:
    """Records what the registry asks of the template resource plugin."""

    support_status = SupportStatus()
    fetched: list[tuple[str, tuple[str, ...]]] = []

    @staticmethod
    def get_template_file(template_name: str, allowed_schemes: tuple[str, ...]) -> str:
        TemplateResource.fetched.append((template_name, allowed_schemes))
        return f"fetched {template_name}"

    @classmethod
    def generate_class(cls, name: str, data: str, param_defaults: Any) -> type:
        return type(name, (cls,), {"template_data": data, "param_defaults": param_defaults})

    @classmethod
    def getdoc(cls) -> str:
        return getattr(cls, "template_data", "")


RESOURCE_CLASSES = [
    ("OS::Heat::None", NoneResource),
    ("OS::Nova::Server", ServerResource),
    ("OS::Neutron::Net", NoneResource),
    ("OS::Neutron::Port", NoneResource),
    ("OS::Aodh::Alarm", OldAlarm),
    ("OS::Heat::Hidden", HiddenThing),
]


def make_global_env(environment_dir: Any = None) -> Environment:
    return build_global_environment(
        environment_dir,
        resource_classes=RESOURCE_CLASSES,
        event_sink_classes=[("queue", QueueSink)],
        template_resource_class=TemplateResource,
    )
