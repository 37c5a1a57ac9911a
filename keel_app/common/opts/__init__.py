"""heat.conf options, one module per family, registered by name and group as Heat does.

Each module exposes ``GROUPS``: a list of ``(group name, [options])`` pairs, ``"DEFAULT"``
for the top-level section. ``keel_app.common.config`` registers every module listed in
``MODULES`` on a fresh ``ConfigOpts``.
"""

MODULES = [
    "keel_app.common.opts.database",
]
