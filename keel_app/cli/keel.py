"""``keel``: OpenKeel's command line, one sub-command group a feature.

``keel template validate TEMPLATE [-e ENV]... [-P key=value]... [--show-nested]
[--ignore-errors CODES] [--services TYPES]`` validates a template offline, as Heat's
API of a cloud with every service would: the template and environments are read from
disk the way python-heatclient reads them, then Heat's validate_template runs on them.

Output: the JSON document the API's validate returns (keys sorted, indented by two),
exit status 0. An invalid template prints one line on standard error and exits with 1::

    ERROR: <type>: <message>

where ``<type>`` is the class of Heat's error (``StackValidationFailed``,
``InvalidTemplateVersion``, ``ResourceTypeUnavailable`` ...), ``HTTPBadRequest`` for
what the API rejects before validating, and ``CommandError`` for files that cannot be
read. The caller's catalog lists every service a resource type may need (each with
every extension); ``--services`` lists only the service types given, and a type whose
service is left out is unavailable (error code 99001), as in a cloud without it.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from typing import Any

from keel_app.cli import all_in_one, offline_cloud, stack_graph, stack_watch, template_files
from keel_app.cli.package_version import package_version
from keel_app.engine.template import DEFAULT_LIMITS, TemplateLimits
from keel_app.engine.validate import (
    BadRequest,
    TemplateInvalid,
    check_template,
    request_environment,
    request_template,
)

PROG = "keel"
VALIDATE_DESCRIPTION = """\
Validate a template offline, as Heat's API validates it: the template and the
environments are read as python-heatclient reads them (files named by get_file and
by template resource types are gathered), then Heat's validate_template runs.

Prints the API's answer as JSON. An invalid template prints
"ERROR: <type>: <message>" on standard error and exits with 1.

The answer is that of a cloud with every service in its catalog (each with every
extension). --services restricts the catalog to the service types given, e.g.
--services orchestration,compute; --services "" validates as with no cloud at all.
A resource type whose service is left out is unavailable (error 99001, which
--ignore-errors 99001 ignores).
"""


def _validate(arguments: argparse.Namespace) -> dict[str, Any]:
    files, template = template_files.load_template(arguments.template)
    environment_files, environment_urls = template_files.load_environments(arguments.environment)
    body: dict[str, Any] = {
        "template": template,
        "parameters": template_files.format_parameters(arguments.parameter),
        "files": {**files, **environment_files},
        "environment": {},
    }
    if environment_urls:
        body["environment_files"] = environment_urls
    limits = TemplateLimits(
        max_template_size=arguments.max_template_size,
        max_resources_per_stack=arguments.max_resources_per_stack,
        max_nested_stack_depth=arguments.max_nested_stack_depth,
    )
    ignorable_errors = arguments.ignore_errors.split(",") if arguments.ignore_errors else None
    return check_template(
        request_template(body, limits),
        request_environment(body),
        files=body["files"],
        environment_files=body.get("environment_files"),
        show_nested=arguments.show_nested,
        ignorable_errors=ignorable_errors,
        limits=limits,
        context=offline_cloud.caller(arguments.services),
    )


def template_validate(arguments: argparse.Namespace) -> int:
    try:
        result = _validate(arguments)
    except TemplateInvalid as invalid:
        return _error(type(invalid.error).__name__, str(invalid.error))
    except BadRequest as bad_request:
        return _error("HTTPBadRequest", bad_request.explanation)
    except template_files.CommandError as error:
        return _error("CommandError", str(error))
    except Exception as error:
        return _error(type(error).__name__, str(error))
    print(json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def _error(kind: str, message: str) -> int:
    print(f"ERROR: {kind}: {message}", file=sys.stderr)
    return 1


def _add_template_commands(commands: Any) -> None:
    template = commands.add_parser("template", help="Work with HOT and CFN templates.")
    actions = template.add_subparsers(dest="action", metavar="ACTION", required=True)
    validate = actions.add_parser(
        "validate",
        help="Validate a template offline, as Heat's API validates it.",
        description=VALIDATE_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    validate.add_argument("template", metavar="TEMPLATE", help="Path to the template.")
    validate.add_argument(
        "-e",
        "--environment",
        metavar="ENV",
        action="append",
        default=[],
        help="Path to an environment; repeat to merge several, in order.",
    )
    validate.add_argument(
        "-P",
        "--parameter",
        metavar="KEY=VALUE",
        action="append",
        help="A parameter value; repeat for more (one option may hold KEY1=V1;KEY2=V2).",
    )
    validate.add_argument(
        "--show-nested",
        action="store_true",
        help="Also show the parameters of nested templates.",
    )
    validate.add_argument(
        "--ignore-errors",
        metavar="CODES",
        help="Comma-separated Heat error codes to ignore (99001: service unavailable).",
    )
    validate.add_argument(
        "--services",
        metavar="TYPES",
        type=offline_cloud.parse_services,
        default=offline_cloud.SERVICE_TYPES,
        help=(
            "Comma-separated service types the caller's catalog lists (default: all of "
            f"{', '.join(offline_cloud.SERVICE_TYPES)}); an empty value lists none."
        ),
    )
    limits = validate.add_argument_group("limits (heat.conf options of the same names)")
    limits.add_argument("--max-template-size", type=int, default=DEFAULT_LIMITS.max_template_size)
    limits.add_argument(
        "--max-resources-per-stack", type=int, default=DEFAULT_LIMITS.max_resources_per_stack
    )
    limits.add_argument(
        "--max-nested-stack-depth", type=int, default=DEFAULT_LIMITS.max_nested_stack_depth
    )
    validate.set_defaults(handler=template_validate)


def _add_stack_commands(commands: Any) -> None:
    stack = commands.add_parser(
        "stack", help="Follow a stack of any Heat-compatible endpoint (OS_* or clouds.yaml)."
    )
    actions = stack.add_subparsers(dest="action", metavar="ACTION", required=True)
    stack_watch.add_parser(actions)
    stack_graph.add_parser(actions)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="OpenKeel, a drop-in Heat.")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="Log what happens on standard error (all-in-one always does).",
    )
    parser.add_argument("--version", action="version", version=package_version())
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_template_commands(commands)
    _add_stack_commands(commands)
    all_in_one.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    if arguments.verbose:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    else:
        # The registry warns about every deprecated type it loads; an answer on standard
        # output and one error line are all a pipeline wants.
        logging.getLogger().addHandler(logging.NullHandler())
    status: int = arguments.handler(arguments)
    return status


if __name__ == "__main__":
    sys.exit(main())
