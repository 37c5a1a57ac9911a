"""The engine's RPC surface as plain functions of (context, settings, database, dispatcher, ...).

One module per family: stacks (create, delete, show, list, template/environment/files,
outputs), stack_update (update_stack), stack_preview (preview_stack,
preview_update_stack), stack_abandon (abandon_stack, export_stack), stack_cancel
(stack_cancel_update), resources (resources and events), catalog (template versions and
functions, resource types and schemata), provider_template (generate_template), validation
(validate_template, get_revision), signals (resource_signal) and software_configs
(show, list, create and delete software configs).
"""
