"""The engine's RPC surface as plain functions of (context, settings, database, dispatcher, ...).

One module per family: stacks (create, delete, show, list, template/environment/files,
outputs), resources (resources and events), catalog (template versions and functions,
resource types and schemata), provider_template (generate_template) and validation
(validate_template, get_revision).
"""
