"""heat.conf options, one module per family, registered by name and group as Heat does.

Each module exposes ``GROUPS``: a list of ``(group name, [options])`` pairs, ``"DEFAULT"``
for the top-level section. ``keel_app.common.config`` registers every module listed in
``MODULES`` on a fresh ``ConfigOpts``.
"""

MODULES = [
    "keel_app.common.opts.database",
    "keel_app.common.opts.engine",
    "keel_app.common.opts.limits",
    "keel_app.common.opts.resources",
    "keel_app.common.opts.identity",
    "keel_app.common.opts.keystone_authtoken",
    "keel_app.common.opts.clients",
    "keel_app.common.opts.api",
    "keel_app.common.opts.messaging",
    "keel_app.common.opts.rabbit",
    "keel_app.common.opts.cache",
    "keel_app.common.opts.profiler",
    "keel_app.common.opts.logging",
]
