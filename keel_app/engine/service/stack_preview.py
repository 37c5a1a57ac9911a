"""preview_stack and preview_update_stack: what a create or an update would do.

Nothing is stored. A create preview is the stack's document without its state, each
resource shown with its properties (a nested stack's resources in a list of their
own). An update preview sorts the resources into unchanged, updated, replaced, added
and deleted, by the rules an update follows, without calling any plugin's handler; the
answer cannot promise what plugins will decide at run time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine import api_format
from keel_app.engine.resource import update as update_rules
from keel_app.engine.service.container_files import with_container_files
from keel_app.engine.service.resources import format_resource
from keel_app.engine.service.stack_update import prepare_stack_updates
from keel_app.engine.service.stacks import load_stack, parse_and_validate_stack
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.models.database import Database

PARAM_SHOW_NESTED = "show_nested"
CATEGORIES = ("unchanged", "updated", "replaced", "added", "deleted")


# preview_stack


def _format_preview_resource(shown: Any) -> Any:
    """A previewed resource with its properties; a nested stack's, as a list."""
    if isinstance(shown, list):
        return [_format_preview_resource(entry) for entry in shown]
    answer = format_resource(shown.stack, shown)
    answer["properties"] = api_format.format_resource_properties(shown)
    return answer


def format_stack_preview(stack: Stack) -> dict[str, Any]:
    answer = api_format.format_stack(stack, preview=True)
    answer["resources"] = [_format_preview_resource(shown) for shown in stack.preview_resources()]
    return answer


def preview_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_name: str,
    template: Mapping[str, Any],
    params: dict[str, Any],
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    files_container: str | None = None,
) -> dict[str, Any]:
    """The stack a create would make, validated as create validates it."""
    files = with_container_files(context, settings, files_container, files)
    stack = parse_and_validate_stack(
        context, settings, database, stack_name, template, params, files, args, environment_files
    )
    return format_stack_preview(stack)


# preview_update_stack


def _changes_in_place(current: Any, updated: Any) -> bool:
    """Whether ``current`` would be updated in place into ``updated`` (Heat's
    ``preview_update``): raises UpdateReplace when only a replacement will do."""
    before = current.frozen_definition()
    after = updated.frozen_definition()
    before_properties = before.properties(current.properties_schema, current.context)
    after_properties = after.properties(updated.properties_schema, updated.context)
    if not update_rules.needs_update(
        current, after, before, after_properties, before_properties, check_init_complete=False
    ):
        return False
    template_diff = after.freeze() - before
    if template_diff and current.needs_replace_with_tmpl_diff(template_diff):
        raise exception.UpdateReplace(str(current))
    update_rules.changed_properties(current, after_properties, before_properties)
    return True


def preview_actions(current: Any, updated: Any) -> dict[str, list[str]]:
    """The names of the resources in each category of an update preview."""
    current_resources = current.resources
    updated_resources = updated.resources
    common = [name for name in updated_resources if name in current_resources]
    changed: list[str] = []
    replaced: list[str] = []
    for name in common:
        before, after = current_resources[name], updated_resources[name]
        # The same comparison an update makes before deciding to replace.
        if type(before) is not type(after):
            replaced.append(name)
            continue
        try:
            if _changes_in_place(before, after):
                changed.append(name)
        except exception.UpdateReplace:
            replaced.append(name)
    return {
        "unchanged": [name for name in common if name not in changed + replaced],
        "updated": changed,
        "replaced": replaced,
        "added": [name for name in updated_resources if name not in current_resources],
        "deleted": [name for name in current_resources if name not in updated_resources],
    }


def _format_actions(current: Any, updated: Any, actions: Mapping[str, Any]) -> dict[str, Any]:
    """Unchanged, replaced and added resources as the update would make them; updated
    and deleted ones as they are now."""

    def shown(stack: Any, category: str) -> list[dict[str, Any]]:
        return [
            format_resource(stack, stack.resources.get(name)) for name in actions.get(category, [])
        ]

    return {
        "unchanged": shown(updated, "unchanged"),
        "updated": shown(current, "updated"),
        "replaced": shown(updated, "replaced"),
        "added": shown(updated, "added"),
        "deleted": shown(current, "deleted"),
    }


def _nested(resource: Any) -> Any:
    """The resource's nested stack, or None for a resource without one."""
    has_nested = getattr(resource, "has_nested", None)
    if callable(has_nested) and has_nested():
        return resource.nested()
    return None


def _add_nested_actions(
    answer: dict[str, list[Any]], current: Any, updated: Any, actions: Mapping[str, Any]
) -> None:
    """Add what happens inside nested stacks: everything below a deleted (or replaced)
    resource is deleted, everything below an added (or replaced) one added, and a
    nested stack updated in place is previewed in turn."""
    updated.id = current.id

    def below(stack: Any, names: list[str], category: str) -> None:
        for name in names:
            nested = _nested(stack.resources.get(name))
            if nested is None:
                continue
            nested_names = list(nested.resources)
            answer[category].extend(
                format_resource(nested, nested.resources[nested_name])
                for nested_name in nested_names
            )
            below(nested, nested_names, category)

    below(current, actions["deleted"] + actions["replaced"], "deleted")
    below(updated, actions["added"] + actions["replaced"], "added")
    for name in actions["updated"]:
        current_nested = _nested(current.resources.get(name))
        updated_nested = _nested(updated.resources.get(name))
        if current_nested is None or updated_nested is None:
            continue
        nested_actions = preview_actions(current_nested, updated_nested)
        nested_answer = _format_actions(current_nested, updated_nested, nested_actions)
        for category in answer:
            answer[category].extend(nested_answer[category])
        _add_nested_actions(answer, current_nested, updated_nested, nested_actions)


def preview_update_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    template: Mapping[str, Any] | None,
    params: dict[str, Any],
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    files_container: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The resources an update would leave, update, replace, add and delete."""
    files = with_container_files(context, settings, files_container, files)
    current = load_stack(context, settings, database, stack_identity)
    # What the resources read of each other, so their attributes show their values.
    current.resolve_outputs_data()
    _, updated = prepare_stack_updates(
        context, settings, database, current, template, params, files, args, environment_files
    )
    actions = preview_actions(current, updated)
    # Built before it has the id, so none of the stored state is read into it.
    updated.id = current.id
    answer = _format_actions(current, updated, actions)
    if args.get(PARAM_SHOW_NESTED):
        # Builds the nested stacks of the new definition, for the nested previews.
        updated.preview_resources()
        _add_nested_actions(answer, current, updated, actions)
    return answer
