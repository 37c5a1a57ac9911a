"""The engine's RPC surface as plain functions of (context, settings, database, dispatcher, ...).

One module per family of calls (``keel_app.rpc.methods`` names each call's function):

- stacks: create, delete, identify, show, list and count stacks; a stack's template,
  environment, files and outputs
- stack_update (update_stack), stack_preview (preview_stack, preview_update_stack),
  stack_abandon (abandon_stack, export_stack), stack_cancel (stack_cancel_update),
  stack_actions (stack_suspend, stack_resume, stack_check)
- snapshots: stack_snapshot, show, list and delete snapshots, stack_restore
- resources: list_stack_resources, describe_stack_resource(s), list_events
- resource_state: resource_mark_unhealthy, find_physical_resource
- signals: resource_signal
- catalog: template versions and functions, resource types and schemata;
  provider_template (generate_template); validation (validate_template, get_revision)
- software_configs: show, list, create and delete software configs
- software_deployments: list, show, check, create, update, delete and signal software
  deployments, and a server's deployed configs (metadata_software_deployments)
- services: list_services

And the helpers they share: arguments (a create's or update's ``args``), stack_query
(which stack rows a listing or count selects), resource_tree (which resources a listing
reaches through nested stacks), server_metadata (a server's deployments as its
metadata), stack_adopt (what a create with ``adopt_stack_data`` does differently).
"""
