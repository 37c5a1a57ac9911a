"""What the engine offers, independent of any stack: template versions and functions,
resource types and their schemata. Heat's answers for the same registrations."""

from __future__ import annotations

import datetime
import inspect
from typing import Any

from keel_app.common import exception
from keel_app.engine.environment import global_environment
from keel_app.engine.resource import schema_output
from keel_app.engine.settings import EngineSettings
from keel_app.engine.template import base as template_base
from keel_app.engine.template.cfn import CfnTemplateBase
from keel_app.engine.template.functions.references import Removed
from keel_app.models.database import Database


def _template_classes_by_name() -> dict[str, Any]:
    return {
        f"{key}.{version}": template_class
        for (key, version), template_class in template_base.template_classes().items()
    }


def _is_dated(name: str) -> bool:
    try:
        datetime.datetime.strptime(name.split(".")[-1], "%Y-%m-%d")
    except ValueError:
        return False
    return True


def list_template_versions(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any
) -> list[dict[str, Any]]:
    """Each dated version with its type and the release names that alias it."""
    versions: list[dict[str, Any]] = []
    classes: list[Any] = []
    # Sorted by name, the dated versions come before the release-name aliases.
    for name, template_class in sorted(_template_classes_by_name().items()):
        kind = "cfn" if issubclass(template_class, CfnTemplateBase) else "hot"
        if _is_dated(name):
            versions.append({"version": name, "type": kind, "aliases": []})
            classes.append(template_class)
            continue
        for version, known in zip(versions, classes, strict=True):
            if known is template_class:
                version["aliases"].append(name)
                break
        else:
            raise exception.InvalidTemplateVersions(version=name)
    return versions


def _summary(function_class: Any) -> str:
    doc = inspect.getdoc(function_class) or ""
    return doc.strip().split("\n\n")[0].strip() if doc else ""


def list_template_functions(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    template_version: str,
    with_condition: bool = False,
) -> list[dict[str, str]]:
    try:
        template_class = _template_classes_by_name()[template_version]
    except KeyError:
        raise exception.NotFound(f"Template with version {template_version} not found") from None
    functions = dict(template_class.functions)
    if with_condition:
        functions.update(template_class.condition_functions)
    return [
        {"functions": name, "description": _summary(function_class)}
        for name, function_class in functions.items()
        if function_class is not Removed
    ]


def enforce_resource_type(context: Any, settings: EngineSettings, type_name: str) -> None:
    """Forbidden, as Heat's engine raises it, when the resource type policy refuses."""
    if settings.resource_type_policy is None:
        return
    refused = settings.resource_type_policy(context, type_name)
    if refused is not None:
        raise exception.Forbidden(action=refused)


def enforce_stack(context: Any, settings: EngineSettings, stack: Any) -> None:
    """Heat's ``enforce_stack``: every resource type of the stack's template must pass the
    resource type policy, or the whole request is Forbidden ("You are not authorized to
    use OS::Keystone::Project.")."""
    if settings.resource_type_policy is None:
        return
    for type_name in sorted(stack.defn.all_resource_types()):
        enforce_resource_type(context, settings, type_name)


def list_resource_types(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    support_status: str | None = None,
    type_name: str | None = None,
    heat_version: str | None = None,
    with_description: bool = False,
    environment: Any = None,
) -> list[Any]:
    environment = environment if environment is not None else global_environment.global_env()
    policy = settings.resource_type_policy
    return list(
        environment.get_types(
            context,
            support_status=support_status,
            type_name=type_name,
            version=heat_version,
            with_description=with_description,
            is_allowed=None if policy is None else lambda ctx, name: policy(ctx, name) is None,
        )
    )


def resource_schema(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    type_name: str,
    with_description: bool = False,
    environment: Any = None,
) -> dict[str, Any]:
    enforce_resource_type(context, settings, type_name)
    environment = environment if environment is not None else global_environment.global_env()
    return schema_output.resource_schema(environment, type_name, context, with_description)
