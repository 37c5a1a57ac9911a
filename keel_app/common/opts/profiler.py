"""[profiler]: the osprofiler switch and the settings a heat.conf usually gives with it."""

from oslo_config import cfg

PROFILER_OPTS = [
    cfg.BoolOpt(
        "enabled",
        default=False,
        deprecated_name="profiler_enabled",
        help="Trace requests with osprofiler.",
    ),
    cfg.BoolOpt("trace_sqlalchemy", default=False, help="Include database calls in traces."),
    cfg.BoolOpt("trace_requests", default=False, help="Include outgoing HTTP calls in traces."),
    cfg.StrOpt(
        "hmac_keys",
        default="SECRET_KEY",
        secret=True,
        help="Comma-separated keys that sign trace requests.",
    ),
    cfg.StrOpt(
        "connection_string",
        default="messaging://",
        help="Where traces are sent, e.g. redis://127.0.0.1:6379.",
    ),
    cfg.BoolOpt(
        "filter_error_trace",
        default=False,
        help="Keep only traces that contain an error.",
    ),
]

GROUPS = [("profiler", PROFILER_OPTS)]
