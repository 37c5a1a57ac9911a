"""The engine service: its identity, workers, plug-in locations and feature switches."""

import socket

from oslo_config import cfg

DEFAULT_BACKEND_NOTE = "Accepted for heat.conf compatibility; OpenKeel has a single backend."

ENGINE_OPTS = [
    cfg.StrOpt(
        "host",
        # Heat names the engine after the machine unless told otherwise.
        default=socket.gethostname(),
        sample_default="<Hostname>",
        help="Name of this engine node; any opaque identifier will do.",
    ),
    cfg.IntOpt(
        "num_engine_workers",
        min=1,
        help="Engine worker processes; unset: the number of CPUs, at least 4.",
    ),
    cfg.IntOpt("periodic_interval", default=60, help="Seconds between periodic tasks."),
    cfg.ListOpt(
        "plugin_dirs",
        default=[
            "/usr/lib64/heat",
            "/usr/lib/heat",
            "/usr/local/lib/heat",
            "/usr/local/lib64/heat",
        ],
        help="Directories searched for resource plug-ins.",
    ),
    cfg.StrOpt(
        "environment_dir",
        default="/etc/heat/environment.d",
        help="Directory of the global environment files.",
    ),
    cfg.StrOpt(
        "template_dir",
        default="/etc/heat/templates",
        help="Directory of the templates that global environments refer to.",
    ),
    cfg.BoolOpt(
        "convergence_engine",
        default=True,
        deprecated_for_removal=True,
        deprecated_reason="Only the convergence engine remains.",
        help="Create stacks with the convergence engine.",
    ),
    cfg.BoolOpt(
        "observe_on_update",
        default=False,
        help="On update, read resources' actual properties and converge them to the template.",
    ),
    cfg.BoolOpt("enable_stack_abandon", default=False, help="Allow abandoning stacks (preview)."),
    cfg.BoolOpt("enable_stack_adopt", default=False, help="Allow adopting stacks (preview)."),
    cfg.ListOpt(
        "hidden_stack_tags",
        default=[],
        help="Stacks carrying any of these tags are left out of listings.",
    ),
    cfg.BoolOpt(
        "encrypt_parameters_and_properties",
        default=False,
        help="Encrypt hidden parameters and all resource properties in the database.",
    ),
    cfg.StrOpt(
        "cloud_backend",
        default="heat.engine.clients.OpenStackClients",
        help=DEFAULT_BACKEND_NOTE,
    ),
    cfg.StrOpt(
        "keystone_backend",
        default="heat.engine.clients.os.keystone.heat_keystoneclient.KsClientWrapper",
        help=DEFAULT_BACKEND_NOTE,
    ),
]

REVISION_OPTS = [
    cfg.StrOpt("heat_revision", default="unknown", help="Build revision reported by the API."),
]

GROUPS = [
    ("DEFAULT", ENGINE_OPTS),
    ("revision", REVISION_OPTS),
]
