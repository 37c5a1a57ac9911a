"""OS::Heat::SoftwareDeployment: a software config deployed to a server, and waited on.

Each action the deployment is triggered by (``actions``: CREATE and UPDATE by default;
a ``component`` config says for itself) stores a derived config: the config with the
deployment's ``input_values`` and the ``deploy_*`` inputs (``deployment_inputs``), among
which what the server signals back with over ``signal_transport``. The deployment row
(whose id is the resource's) is created or moved to the derived config through the
engine's software deployment service, which pushes the server's metadata; the step then
waits, polling the row, until the server's signal sets it COMPLETE or FAILED (a
NO_SIGNAL deployment is COMPLETE at once). A signal's outputs are the resource's
attributes: ``deploy_stdout``, ``deploy_stderr``, ``deploy_status_code`` and those
the config declares.

Deleting runs a DELETE deployment first when ``actions`` has DELETE (unless the server
is gone), then removes the row, the derived config and whatever was handed out for
signals, the stack user included.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.siblings import resource_by_refid
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.models.base import utcnow
from keel_app.resources.configured_defaults import given_or_configured
from keel_app.resources.heat import deployment_inputs
from keel_app.resources.heat.signal_responder import SignalResponder

LOG = logging.getLogger(__name__)

# The option ``default_deployment_signal_transport``'s default.
DEFAULT_SIGNAL_TRANSPORT = "CFN_SIGNAL"
COMPONENT_GROUP = "component"


@contextlib.contextmanager
def ignore_not_found() -> Iterator[None]:
    """Heat's ``ignore_error_by_name('NotFound')`` around a service call."""
    try:
        yield
    except exception.NotFound:
        pass


class SoftwareDeployment(SignalResponder):
    """Deploys a software config to a server and waits for the server's outputs."""

    support_status = SupportStatus(version="2014.1")
    default_client_name = "heat"
    entity = "software_deployments"
    type_description = """\
This resource associates a server with some configuration.

The configuration is to be deployed to that server.

A deployment allows input values to be specified which map to the inputs
schema defined in the config resource. These input values are interpreted
by the configuration tool in a tool-specific manner.

Whenever this resource goes to an IN_PROGRESS state, it creates an
ephemeral config that includes the inputs values plus a number of extra
inputs which have names prefixed with ``deploy_``. The extra inputs relate
to the current state of the stack, along with the information and
credentials required to signal back the deployment results.

Unless signal_transport=NO_SIGNAL, this resource will remain in an
IN_PROGRESS state until the server signals it with the output values
for that deployment. Those output values are then available as resource
attributes, along with the default attributes deploy_stdout,
deploy_stderr and deploy_status_code.

Specifying actions other than the default CREATE and UPDATE will result
in the deployment being triggered in those actions. For example this would
allow cleanup configuration to be performed during actions SUSPEND and
DELETE. A config could be designed to only work with some specific
actions, or a config can read the value of the deploy_action input to
allow conditional logic to perform different configuration for different
actions.
"""

    PROPERTIES = (CONFIG, SERVER, INPUT_VALUES, DEPLOY_ACTIONS, NAME, SIGNAL_TRANSPORT) = (
        "config",
        "server",
        "input_values",
        "actions",
        "name",
        "signal_transport",
    )
    ALLOWED_DEPLOY_ACTIONS = ("CREATE", "UPDATE", "DELETE", "SUSPEND", "RESUME")
    ATTRIBUTES = (STDOUT, STDERR, STATUS_CODE) = (
        "deploy_stdout",
        "deploy_stderr",
        "deploy_status_code",
    )
    SIGNAL_TRANSPORTS = (
        SignalResponder.CFN_SIGNAL,
        SignalResponder.TEMP_URL_SIGNAL,
        SignalResponder.HEAT_SIGNAL,
        SignalResponder.NO_SIGNAL,
        SignalResponder.ZAQAR_SIGNAL,
    )

    properties_schema = {
        CONFIG: Schema(
            Schema.STRING,
            "ID of software configuration resource to execute when applying to the server.",
            update_allowed=True,
        ),
        SERVER: Schema(
            Schema.STRING,
            "ID of resource to apply configuration to. Normally this should be a Nova server ID.",
            required=True,
        ),
        INPUT_VALUES: Schema(
            Schema.MAP,
            "Input values to apply to the software configuration on this server.",
            update_allowed=True,
        ),
        DEPLOY_ACTIONS: Schema(
            Schema.LIST,
            "Which lifecycle actions of the deployment resource will result in this "
            "deployment being triggered.",
            update_allowed=True,
            default=["CREATE", "UPDATE"],
            constraints=[constraints.AllowedValues(ALLOWED_DEPLOY_ACTIONS)],
        ),
        NAME: Schema(
            Schema.STRING,
            "Name of the derived config associated with this deployment. This is used to "
            "apply a sort order to the list of configurations currently deployed to a "
            "server.",
            update_allowed=True,
        ),
        SIGNAL_TRANSPORT: Schema(
            Schema.STRING,
            "How the server should signal to heat with the deployment output values. "
            "CFN_SIGNAL will allow an HTTP POST to a CFN keypair signed URL. "
            "TEMP_URL_SIGNAL will create a Swift TempURL to be signaled via HTTP PUT. "
            "HEAT_SIGNAL will allow calls to the Heat API resource-signal using the "
            "provided keystone credentials. ZAQAR_SIGNAL will create a dedicated zaqar "
            "queue to be signaled using the provided keystone credentials. NO_SIGNAL will "
            "result in the resource going to the COMPLETE state without waiting for any "
            "signal.",
            default=DEFAULT_SIGNAL_TRANSPORT,
            constraints=[constraints.AllowedValues(SIGNAL_TRANSPORTS)],
        ),
    }

    attributes_schema = {
        STDOUT: AttributeSchema(
            "Captured stdout from the configuration execution.", type=AttributeSchema.STRING
        ),
        STDERR: AttributeSchema(
            "Captured stderr from the configuration execution.", type=AttributeSchema.STRING
        ),
        STATUS_CODE: AttributeSchema(
            "Returned status code from the configuration execution.",
            type=AttributeSchema.STRING,
        ),
    }

    # A deployment takes the server's signal in any action, a DELETE's included.
    no_signal_actions = ()
    # Signals change the deployment row, through its own API, not the metadata.
    signal_needs_metadata_updates = False

    # The software config and deployment services, as this stack's user

    def _transport(self) -> Any:
        return given_or_configured(
            self.properties,
            self.SIGNAL_TRANSPORT,
            self.stack.settings.default_deployment_signal_transport,
        )

    def _service(self, module_name: str, method: str, /, **arguments: Any) -> Any:
        # Imported when first used: the service layer builds on the config declarations.
        from keel_app.engine.service import software_configs, software_deployments

        module = {"configs": software_configs, "deployments": software_deployments}
        call = getattr(module[module_name], method)
        return call(self.context, self.stack.settings, self.stack.database, None, **arguments)

    def _show_deployment(self) -> dict[str, Any]:
        return dict(
            self._service("deployments", "show_software_deployment", deployment_id=self.resource_id)
        )

    def _get_derived_config_id(self) -> Any:
        return self._show_deployment()["config_id"]

    def _delete_derived_config(self, config_id: str) -> None:
        with ignore_not_found():
            self._service("configs", "delete_software_config", config_id=config_id)

    def _load_config(self, config_id: str | None = None) -> dict[str, Any]:
        """The config (the template's unless named) with its inputs and outputs checked."""
        if config_id is None:
            config_id = self.properties.get(self.CONFIG)
        config: dict[str, Any] = {}
        if config_id:
            config = dict(self._service("configs", "show_software_config", config_id=config_id))
        config["inputs"] = [
            deployment_inputs.input_config(item) for item in config.get("inputs") or []
        ]
        config["outputs"] = [
            deployment_inputs.output_config(item) for item in config.get("outputs") or []
        ]
        return config

    # The derived config

    def empty_config(self) -> Any:
        return ""

    def _build_derived_config(
        self, action: str, source: dict[str, Any], inputs: list[dict[str, Any]], options: Any
    ) -> Any:
        return source.get("config")

    def _build_derived_inputs(self, action: str, source: dict[str, Any]) -> list[dict[str, Any]]:
        return deployment_inputs.derived_inputs(self, action, source)

    def _build_derived_config_params(self, action: str, source: dict[str, Any]) -> dict[str, Any]:
        inputs = self._build_derived_inputs(action, source)
        options = source.get("options")
        derived = self._build_derived_config(action, source, inputs, options)
        name = self.properties.get(self.NAME) or source.get("name")
        return {
            "group": source.get("group") or "Heat::Ungrouped",
            "config": derived or self.empty_config(),
            "options": options,
            "inputs": inputs,
            "outputs": list(source["outputs"]),
            "name": name or self.physical_resource_name(),
        }

    def _create_derived_config(self, action: str, source: dict[str, Any]) -> str:
        params = self._build_derived_config_params(action, source)
        return str(self._service("configs", "create_software_config", **params)["id"])

    def _build_properties(self, config_id: str, action: str) -> dict[str, Any]:
        properties: dict[str, Any] = {
            "config_id": config_id,
            "action": action,
            "input_values": self.properties.get(self.INPUT_VALUES),
        }
        if self._signal_transport_none():
            properties["status"] = self.COMPLETE
            properties["status_reason"] = "Not waiting for outputs signal"
        else:
            properties["status"] = self.IN_PROGRESS
            properties["status_reason"] = "Deploy data available"
        return properties

    # The actions

    def _triggered_by(self, action: str, config: dict[str, Any]) -> bool:
        if config.get("group") == COMPONENT_GROUP:
            # A component's configs name the actions they are for.
            return any(action in part["actions"] for part in config["config"]["configs"])
        return action in self.properties[self.DEPLOY_ACTIONS]

    def _handle_action(
        self,
        action: str,
        config: dict[str, Any] | None = None,
        prev_derived_config: str | None = None,
    ) -> dict[str, Any] | None:
        """Deploy for ``action`` if it triggers the deployment: the row to wait on, or
        None when there is nothing to wait for."""
        if config is None:
            config = self._load_config()
        if not self._triggered_by(action, config):
            return None
        properties = self._build_properties(self._create_derived_config(action, config), action)
        if self.resource_id is None:
            deployment_id = str(uuid.uuid4())
            self.resource_id_set(deployment_id)
            deployment = self._service(
                "deployments",
                "create_software_deployment",
                deployment_id=deployment_id,
                server_id=self.properties[self.SERVER],
                stack_user_project_id=self._stack_user_project_id(),
                **properties,
            )
        else:
            if prev_derived_config is None:
                prev_derived_config = self._get_derived_config_id()
            deployment = self._service(
                "deployments",
                "update_software_deployment",
                deployment_id=self.resource_id,
                **properties,
            )
            if prev_derived_config:
                self._delete_derived_config(prev_derived_config)
        if self._signal_transport_none():
            return None
        return dict(deployment)

    def _check_complete(self) -> bool:
        deployment = self._show_deployment()
        status = deployment["status"]
        if status == self.COMPLETE:
            return True
        if status == self.FAILED:
            message = f"Deployment to server failed: {deployment['status_reason']}"
            LOG.info(message)
            raise exception.Error(message)
        return False

    def _server_exists(self, deployment: dict[str, Any]) -> bool:
        try:
            self.client_plugin("nova").get_server(deployment["server_id"])
        except exception.EntityNotFound:
            return False
        return True

    def handle_create(self) -> Any:
        return self._handle_action(self.CREATE)

    def check_create_complete(self, deployment: Any) -> bool:
        return not deployment or self._check_complete()

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        if self.resource_id is None:
            prev_derived_config = None
            old_inputs: dict[str, dict[str, Any]] = {}
        else:
            prev_derived_config = self._get_derived_config_id()
            old_config = self._load_config(prev_derived_config)
            old_inputs = {item["name"]: item for item in old_config["inputs"]}
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        config = self._load_config()
        for item in self._build_derived_inputs(self.UPDATE, config):
            name = item["name"]
            if item.get("replace_on_change") and name in old_inputs:
                if item.get("value") != old_inputs[name].get("value"):
                    LOG.debug('Replacing SW Deployment due to change in input "%s"', name)
                    raise exception.UpdateReplace()
        return self._handle_action(
            self.UPDATE, config=config, prev_derived_config=prev_derived_config
        )

    def check_update_complete(self, deployment: Any) -> bool:
        return not deployment or self._check_complete()

    def handle_delete(self) -> Any:
        with ignore_not_found():
            return self._handle_action(self.DELETE)
        return None

    def check_delete_complete(self, deployment: Any = None) -> bool:
        if not deployment or not self._server_exists(deployment) or self._check_complete():
            self._delete_resource()
            return True
        return False

    def _delete_resource(self) -> None:
        derived_config_id = None
        if self.resource_id is not None:
            with ignore_not_found():
                derived_config_id = self._get_derived_config_id()
                self._service(
                    "deployments", "delete_software_deployment", deployment_id=self.resource_id
                )
        if derived_config_id:
            self._delete_derived_config(derived_config_id)
        self._delete_signals()
        self._delete_user()

    def handle_suspend(self) -> Any:
        return self._handle_action(self.SUSPEND)

    def check_suspend_complete(self, deployment: Any) -> bool:
        return not deployment or self._check_complete()

    def handle_resume(self) -> Any:
        return self._handle_action(self.RESUME)

    def check_resume_complete(self, deployment: Any) -> bool:
        return not deployment or self._check_complete()

    def handle_signal(self, details: Any = None) -> Any:
        return self._service(
            "deployments",
            "signal_software_deployment",
            deployment_id=self.resource_id,
            details=details,
            updated_at=utcnow().isoformat(),
        )

    # A cancelled action fails the deployment that was waiting

    def _handle_cancel(self) -> None:
        if self.resource_id is None:
            return
        deployment = self._show_deployment()
        if deployment["status"] == self.IN_PROGRESS:
            self._service(
                "deployments",
                "update_software_deployment",
                deployment_id=self.resource_id,
                status=self.FAILED,
                status_reason="Deployment cancelled.",
            )

    def handle_create_cancel(self, cookie: Any) -> None:
        self._handle_cancel()

    def handle_update_cancel(self, cookie: Any) -> None:
        self._handle_cancel()

    def handle_delete_cancel(self, cookie: Any) -> None:
        self._handle_cancel()

    def handle_suspend_cancel(self, cookie: Any) -> None:
        self._handle_cancel()

    def handle_resume_cancel(self, cookie: Any) -> None:
        self._handle_cancel()

    # Attributes: the outputs the server signalled

    def get_attribute(self, key: str, *path: Any) -> Any:
        if self.resource_id is not None:
            output_values = self._show_deployment()["output_values"] or {}
            if key in output_values:
                return select_from_attribute(output_values.get(key), list(path))
        # No value yet: the key must be one the config declares (or a standard one).
        config = self._service(
            "configs", "show_software_config", config_id=self.properties[self.CONFIG]
        )
        declared = [output["name"] for output in config["outputs"] or []]
        if key not in declared and key not in self.ATTRIBUTES:
            raise exception.InvalidTemplateAttribute(resource=self.name, key=key)
        return None

    def validate(self) -> Any:
        result = super().validate()
        server = self.properties[self.SERVER]
        if server:
            found = resource_by_refid(self.stack, server)
            if found is not None:
                user_data_format = found.properties.get("user_data_format")
                if user_data_format and user_data_format != "SOFTWARE_CONFIG":
                    raise exception.StackValidationFailed(
                        message=(
                            f"Resource {server}'s property user_data_format should be set "
                            "to SOFTWARE_CONFIG since there are software deployments on it."
                        )
                    )
        return result


RESOURCE_CLASSES = {"OS::Heat::SoftwareDeployment": SoftwareDeployment}
