"""Deciding an update: nothing to do, change in place, or replace (Heat's rules).

``UpdateReplace`` is how every rule says "replace": a failed resource (unless the type
says otherwise), a resource never created, a plugin's ``needs_replace*`` hooks, a
changed property that may not change in place.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common import exception

LOG = logging.getLogger(__name__)


def prepare_properties(resource: Any, after: Any, before: Any) -> tuple[Any, Any]:
    """The new and old properties, with the type's translation rules applied."""
    before_properties = before.properties(resource.properties_schema, resource.context)
    after.set_translation_rules(resource.translation_rules(resource.properties))
    after_properties = after.properties(resource.properties_schema, resource.context)
    resource.translate_properties(after_properties)
    resource.translate_properties(before_properties, ignore_resolve_error=True)
    return after_properties, before_properties


def needs_update(
    resource: Any,
    after: Any,
    before: Any,
    after_properties: Any,
    before_properties: Any,
    check_init_complete: bool = True,
) -> bool:
    """Whether an update is needed; raises UpdateReplace when only a replacement will do.

    A preview passes ``check_init_complete=False``: a resource never created is then
    judged on its definition like any other.
    """
    custom = getattr(resource, "_needs_update", None)
    if custom is not None:
        return bool(
            custom(after, before, after_properties, before_properties, None, check_init_complete)
        )
    if resource.status == resource.FAILED:
        if (
            resource.action == resource.CHECK and resource.always_replace_on_check_failed
        ) or resource.needs_replace_failed():
            raise exception.UpdateReplace(str(resource))
    state = (resource.action, resource.status)
    if state == (resource.DELETE, resource.COMPLETE):
        raise exception.UpdateReplace(str(resource))
    if check_init_complete and state == (resource.INIT, resource.COMPLETE):
        raise exception.UpdateReplace(str(resource))
    if resource.needs_replace(after_properties):
        raise exception.UpdateReplace(str(resource))
    if before != after.freeze():
        return True
    try:
        return bool(before_properties != after_properties)
    except ValueError:
        return True


def changed_properties(resource: Any, after_properties: Any, before_properties: Any) -> dict:
    """The properties whose value changes, if they may change in place."""
    update_allowed = resource.calc_update_allowed(after_properties)
    immutable = {name for name, prop in after_properties.props.items() if prop.immutable()}

    def changed(name: str) -> bool:
        try:
            before = before_properties.get(name)
        except (TypeError, ValueError) as error:
            LOG.warning("Ignoring error in old property value %s: %s", name, error)
            return True
        return bool(before != after_properties.get(name))

    changed_names = {name for name in after_properties if changed(name)}
    forbidden = sorted(changed_names & immutable)
    if forbidden:
        raise exception.NotSupported(
            feature=(
                f"Update to properties {', '.join(forbidden)} of {resource.name} "
                f"({resource.type()})"
            )
        )
    if changed_names and resource.needs_replace_with_prop_diff(
        changed_names, after_properties, before_properties
    ):
        raise exception.UpdateReplace(str(resource))
    if not changed_names <= update_allowed:
        raise exception.UpdateReplace(resource.name)
    return {name: after_properties.get(name) for name in changed_names}
