"""heat.conf for the WSGI modules: ``$KEEL_CONFIG_FILE`` (paths separated by commas), or
else Heat's default locations (``/etc/heat/heat.conf`` among them)."""

from __future__ import annotations

import os

from oslo_config import cfg

from keel_app.common import config

CONFIG_FILE_ENV = "KEEL_CONFIG_FILE"


def heat_conf() -> cfg.ConfigOpts:
    argv: list[str] = []
    for path in filter(None, os.environ.get(CONFIG_FILE_ENV, "").split(",")):
        argv += ["--config-file", path]
    return config.load(argv)
