"""The body of a stack create, preview or update, read as Heat's ``InstantiationData`` reads it.

Each part is read when the view asks for it, in the order Heat's views ask, so that a
body with several faults gets Heat's first complaint. Faults are webob's 400s with
Heat's messages; anything else that goes wrong (a string where a mapping belongs) fails
as the same Python operation fails in Heat, and the fault middleware names it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from oslo_config import cfg

from keel_app.common import urlfetch
from keel_app.common.fault_map import BAD_REQUEST
from keel_app.engine.environment import format as environment_format
from keel_app.engine.template import TemplateLimits
from keel_app.engine.template import format as template_format
from keel_app.web.faults import HttpFault
from keel_app.web.v1 import stack_params

PARAMS = (
    STACK_NAME,
    TEMPLATE,
    TEMPLATE_URL,
    USER_PARAMS,
    ENVIRONMENT,
    FILES,
    ENVIRONMENT_FILES,
    FILES_CONTAINER,
) = (
    "stack_name",
    "template",
    "template_url",
    "parameters",
    "environment",
    "files",
    "environment_files",
    "files_container",
)
ADOPT_STACK_DATA = "adopt_stack_data"
# Added to a PATCH body: the engine keeps what the body leaves out.
EXISTING = "existing"
TIMEOUT = "timeout_mins"
TAGS = "tags"
CONVERGE = "converge"


@contextlib.contextmanager
def parse_error_check(data_type: str) -> Iterator[None]:
    try:
        yield
    except ValueError as error:
        raise HttpFault(BAD_REQUEST, f"{data_type} not in valid format: {error}") from None


class InstantiationData:
    """One request body; ``patch`` for PATCH, where the template may be left out."""

    def __init__(self, data: dict[str, Any], conf: cfg.ConfigOpts, patch: bool = False) -> None:
        self.data = data
        self.conf = conf
        self.patch = patch
        if patch:
            self.data[EXISTING] = True

    @property
    def limits(self) -> TemplateLimits:
        return TemplateLimits(max_template_size=self.conf.max_template_size)

    def stack_name(self) -> Any:
        if STACK_NAME not in self.data:
            raise HttpFault(BAD_REQUEST, "No stack name specified")
        return self.data[STACK_NAME]

    def template(self) -> dict[str, Any] | None:
        """The template: the adopt data's, the body's own, or the one at ``template_url``."""
        data = self.data
        template_text: Any = None
        if ADOPT_STACK_DATA in data:
            return self.adopted_template(data[ADOPT_STACK_DATA])
        if TEMPLATE in data:
            template_text = data[TEMPLATE]
            if isinstance(template_text, dict):
                template_format.validate_template_limit(str(template_text), self.limits)
                return template_text
        elif TEMPLATE_URL in data:
            try:
                template_text = urlfetch.get_with_conf(data[TEMPLATE_URL], self.conf)
            except OSError as error:
                raise HttpFault(BAD_REQUEST, f"Could not retrieve template: {error}") from None
        if template_text is None:
            if self.patch:
                return None
            raise HttpFault(BAD_REQUEST, "No template specified")
        with parse_error_check("Template"):
            return template_format.parse(template_text, limits=self.limits)

    def adopted_template(self, adopt_data: Any) -> Any:
        try:
            adopted = template_format.simple_parse(adopt_data)
            template_format.validate_template_limit(str(adopted["template"]), self.limits)
            return adopted["template"]
        except (ValueError, KeyError) as error:
            raise HttpFault(BAD_REQUEST, f"Invalid adopt data: {error}") from None

    def environment(self) -> dict[str, Any]:
        """The environment, every section present, with ``parameters`` merged in; the
        body's environment is ignored when environment files are given (the engine
        merges those)."""
        environment: dict[str, Any] = {}
        if ENVIRONMENT in self.data and not self.data.get(ENVIRONMENT_FILES):
            environment_data = self.data[ENVIRONMENT]
            with parse_error_check("Environment"):
                if isinstance(environment_data, dict):
                    environment = environment_format.validate(environment_data)
                else:
                    environment = environment_format.parse(environment_data)
        environment_format.default_for_missing(environment)
        environment[USER_PARAMS].update(self.data.get(USER_PARAMS, {}))
        return environment

    def files(self) -> Any:
        return self.data.get(FILES, {})

    def environment_files(self) -> Any:
        return self.data.get(ENVIRONMENT_FILES)

    def files_container(self) -> Any:
        return self.data.get(FILES_CONTAINER)

    def args(self) -> dict[str, Any]:
        """Everything else the body holds: the stack's options."""
        return {key: value for key, value in self.data.items() if key not in PARAMS}

    def check_parts(self) -> None:
        """Read every part a PATCH's no-change test reads, for the faults it would raise.

        Heat compares the environment with what its ``default_for_missing`` returns,
        which is None, so a PATCH never counts as a change-free one: the test only
        matters for its faults, raised before the policy check.
        """
        if self.template() is None:
            self.environment()

    def prepared_args(self, is_update: bool = False) -> dict[str, Any]:
        """``args()`` with the timeout and tags converted (Heat's ``prepare_args``)."""
        args = self.args()
        if TIMEOUT in args:
            args[TIMEOUT] = stack_params.extract_int(TIMEOUT, args[TIMEOUT])
        if args.get(TAGS) is not None:
            args[TAGS] = stack_params.extract_tags(args[TAGS])
        if not is_update and CONVERGE in args:
            raise HttpFault(
                BAD_REQUEST,
                f"{CONVERGE} flag only supported in stack update (or update preview) request.",
            )
        return args

    def engine_arguments(self) -> dict[str, Any]:
        """``template``, ``params`` and the rest, read in the order Heat's views read them."""
        return {
            "template": self.template(),
            "params": self.environment(),
            "files": self.files(),
        }

    def environment_arguments(self) -> dict[str, Any]:
        return {
            "environment_files": self.environment_files(),
            "files_container": self.files_container(),
        }
