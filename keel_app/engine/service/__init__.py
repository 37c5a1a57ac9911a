"""The engine's RPC surface as plain functions of (context, settings, database, dispatcher, ...).

One module per family: stacks (create, delete, show, list, template/environment/files,
outputs), stack_update (update_stack), stack_preview (preview_stack,
preview_update_stack), stack_abandon (abandon_stack, export_stack), stack_cancel
(stack_cancel_update), stack_actions (stack_suspend, stack_resume, stack_check),
snapshots (stack_snapshot, show/list/delete snapshots, stack_restore), resources
(resources and events), resource_state (resource_mark_unhealthy,
find_physical_resource), catalog (template versions and
functions, resource types and schemata), provider_template (generate_template), validation
(validate_template, get_revision), signals (resource_signal) and software_configs
(show, list, create and delete software configs).
"""
