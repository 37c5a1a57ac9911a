"""HOT, the Heat Orchestration Template format: one class per ``heat_template_version``.

The versions differ in their sections (``conditions`` from 2016-10-14), resource and
output keys, deletion policy spellings, parameter schema rules and, above all, their
tables of functions (``hot_functions``).
"""

from __future__ import annotations

import collections.abc
from collections.abc import Iterator, Mapping
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.template import function, hot_functions
from keel_app.engine.template.common import CommonTemplate
from keel_app.engine.template.functions.references import Removed
from keel_app.engine.template.lazy import LazyImport
from keel_app.engine.template.resource_definition import ResourceDefinition

_PARAMETERS_PACKAGE = "keel_app.engine.template.parameters"

# Heat builds these two maps once and later versions add to the very same dicts, so
# every HOT version (2013-05-23 included) sees the complete maps. Kept that way: it
# decides which keys a resource snippet may carry and how errors name sections.
_CFN_TO_HOT_SECTIONS = {
    "AWSTemplateFormatVersion": "heat_template_version",
    "Description": "description",
    "Parameters": "parameters",
    "Mappings": "__undefined__",
    "Resources": "resources",
    "Outputs": "outputs",
    "Conditions": "conditions",
}
_HOT_TO_CFN_ATTRIBUTES: dict[str, str | None] = {
    "type": "Type",
    "properties": "Properties",
    "metadata": "Metadata",
    "depends_on": "DependsOn",
    "deletion_policy": "DeletionPolicy",
    "update_policy": "UpdatePolicy",
    "description": "Description",
    "value": "Value",
    "external_id": None,
    "condition": "Condition",
}
_DELETION_POLICIES = {
    "Delete": ResourceDefinition.DELETE,
    "Retain": ResourceDefinition.RETAIN,
    "Snapshot": ResourceDefinition.SNAPSHOT,
}


class HOTemplate20130523(CommonTemplate):
    SECTIONS = (
        VERSION,
        DESCRIPTION,
        PARAMETER_GROUPS,
        PARAMETERS,
        RESOURCES,
        OUTPUTS,
        MAPPINGS,
    ) = (
        "heat_template_version",
        "description",
        "parameter_groups",
        "parameters",
        "resources",
        "outputs",
        "__undefined__",
    )
    OUTPUT_KEYS = (OUTPUT_DESCRIPTION, OUTPUT_VALUE) = ("description", "value")
    SECTIONS_NO_DIRECT_ACCESS = {PARAMETERS, VERSION}

    _RESOURCE_KEYS = (
        RES_TYPE,
        RES_PROPERTIES,
        RES_METADATA,
        RES_DEPENDS_ON,
        RES_DELETION_POLICY,
        RES_UPDATE_POLICY,
        RES_DESCRIPTION,
    ) = (
        "type",
        "properties",
        "metadata",
        "depends_on",
        "deletion_policy",
        "update_policy",
        "description",
    )
    _CFN_TO_HOT_SECTIONS = _CFN_TO_HOT_SECTIONS
    _RESOURCE_HOT_TO_CFN_ATTRS = _HOT_TO_CFN_ATTRIBUTES
    _HOT_TO_CFN_ATTRS = _HOT_TO_CFN_ATTRIBUTES

    functions = hot_functions.HOT_2013_05_23
    deletion_policies = _DELETION_POLICIES
    param_schema_class = LazyImport(_PARAMETERS_PACKAGE, "HOTParamSchema")

    def __getitem__(self, section: str) -> Any:
        if section not in self.SECTIONS:
            try:
                section = self._CFN_TO_HOT_SECTIONS[section]
            except KeyError:
                raise KeyError(f'"{section}" is not a valid template section') from None
        if section not in self.SECTIONS:
            raise KeyError(f'"{section}" is not a valid template section')
        if section in self.SECTIONS_NO_DIRECT_ACCESS:
            raise KeyError(f"Section {section} can not be accessed directly.")
        if section == self.MAPPINGS:
            return {}
        default: Any = "No description" if section == self.DESCRIPTION else {}
        # An empty YAML section (None) reads like an empty JSON one.
        the_section = self.t.get(section) or default
        if section == self.RESOURCES:
            return self._translate_resources(the_section)
        if section == self.OUTPUTS:
            self.validate_section(self.OUTPUTS, self.OUTPUT_VALUE, the_section, self.OUTPUT_KEYS)
        return the_section

    def validate_section(
        self,
        section: str,
        sub_section: str,
        data: Any,
        allowed_keys: collections.abc.Container[Any],
    ) -> None:
        object_name = section[:-1]
        missing = f"Each {object_name} must contain a {sub_section} key."
        for _name, attributes in sorted(data.items()):
            if not attributes:
                raise StackValidationFailed(message=missing)
            try:
                for attribute in attributes.items():
                    if attribute[0] not in allowed_keys:
                        raise StackValidationFailed(
                            message=(
                                f'"{attribute[0]}" is not a valid keyword inside a '
                                f"{object_name} definition"
                            )
                        )
                if sub_section not in attributes:
                    raise StackValidationFailed(message=missing)
            except AttributeError:
                raise StackValidationFailed(
                    message=(
                        f'"{section}" must contain a map of {object_name} maps. '
                        f"Found a [{type(attributes)}] instead"
                    )
                ) from None

    def _translate_section(
        self, section: str, sub_section: str, data: Any, mapping: Mapping[str, str | None]
    ) -> dict[Any, dict[str, Any]]:
        self.validate_section(section, sub_section, data, mapping)
        translated = {}
        for name, attributes in sorted(data.items()):
            translated[name] = {
                mapping[key]: value for key, value in attributes.items() if mapping[key] is not None
            }
        return translated

    def _translate_resources(self, resources: Any) -> dict[Any, dict[str, Any]]:
        """The resources section with CFN key names (what Template.validate reads)."""
        return self._translate_section(
            self.RESOURCES, self.RES_TYPE, resources, self._RESOURCE_HOT_TO_CFN_ATTRS
        )

    def get_section_name(self, section: Any) -> Any:
        cfn_to_hot = {cfn: hot for hot, cfn in self._HOT_TO_CFN_ATTRS.items()}
        return cfn_to_hot.get(section, section)

    def param_schemata(self, param_defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
        section = self.t.get(self.PARAMETERS) or {}
        defaults = param_defaults or {}
        for name in section:
            if name in defaults:
                section[name]["default"] = defaults[name]
        schema_class = self.param_schema_class
        return {name: schema_class.from_dict(name, schema) for name, schema in section.items()}

    def parameters(
        self, stack_identifier: Any, user_params: Any, param_defaults: Any = None
    ) -> Any:
        from keel_app.engine.template.parameters import HOTParameters

        return HOTParameters(
            stack_identifier, self, user_params=user_params, param_defaults=param_defaults
        )

    def _invalid_keys_message(self, snippet: Any) -> str | None:
        invalid = set(snippet) - frozenset(self._RESOURCE_KEYS)
        if invalid:
            return "Invalid keyword(s) inside a resource definition: " + ", ".join(invalid)
        return None

    def add_resource(self, definition: ResourceDefinition, name: str | None = None) -> None:
        if name is None:
            name = definition.name
        if self.t.get(self.RESOURCES) is None:
            self.t[self.RESOURCES] = {}
        rendered = definition.render_hot()
        dependencies = rendered.get(self.RES_DEPENDS_ON)
        if dependencies:
            rendered[self.RES_DEPENDS_ON] = [
                dependency for dependency in dependencies if dependency in self.t[self.RESOURCES]
            ]
        self.t[self.RESOURCES][name] = rendered

    def add_output(self, definition: Any) -> None:
        if self.t.get(self.OUTPUTS) is None:
            self.t[self.OUTPUTS] = {}
        self.t[self.OUTPUTS][definition.name] = definition.render_hot()


class HOTemplate20141016(HOTemplate20130523):
    functions = hot_functions.HOT_2014_10_16


class HOTemplate20150430(HOTemplate20141016):
    functions = hot_functions.HOT_2015_04_30


class HOTemplate20151015(HOTemplate20150430):
    functions = hot_functions.HOT_2015_10_15


class HOTemplate20160408(HOTemplate20151015):
    functions = hot_functions.HOT_2016_04_08


class HOTemplate20161014(HOTemplate20160408):
    CONDITIONS = "conditions"
    SECTIONS = HOTemplate20160408.SECTIONS + (CONDITIONS,)
    SECTIONS_NO_DIRECT_ACCESS = HOTemplate20160408.SECTIONS_NO_DIRECT_ACCESS | {CONDITIONS}

    _EXTRA_RES_KEYS = (RES_EXTERNAL_ID, RES_CONDITION) = ("external_id", "condition")
    _RESOURCE_KEYS = HOTemplate20160408._RESOURCE_KEYS + _EXTRA_RES_KEYS

    OUTPUT_CONDITION = "condition"
    OUTPUT_KEYS = HOTemplate20160408.OUTPUT_KEYS + (OUTPUT_CONDITION,)

    # Lower-case spellings are accepted from this version on.
    deletion_policies = {
        **_DELETION_POLICIES,
        "delete": ResourceDefinition.DELETE,
        "retain": ResourceDefinition.RETAIN,
        "snapshot": ResourceDefinition.SNAPSHOT,
    }

    functions = hot_functions.HOT_2016_10_14
    condition_functions = hot_functions.HOT_CONDITIONS_2016_10_14

    def __init__(self, template: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(template, *args, **kwargs)
        # In a condition, a removed function still says it was removed; any other
        # function that is not a condition function is refused outright.
        self._parser_condition_functions = {
            name: (function_class if function_class is Removed else function.Invalid)
            for name, function_class in self.functions.items()
        }
        self._parser_condition_functions.update(self.condition_functions)
        self.merge_sections = [self.PARAMETERS, self.CONDITIONS]

    def _get_condition_definitions(self) -> Any:
        return self.t.get(self.CONDITIONS, {})

    def _rsrc_defn_args(
        self, stack: Any, name: str, data: Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        yield from super()._rsrc_defn_args(stack, name, data)

        def parse(snippet: Any, path: str) -> Any:
            return self.parse(stack, snippet, path)

        def parse_condition(snippet: Any, path: str) -> Any:
            return self.parse_condition(stack, snippet, path)

        yield (
            "external_id",
            self._parse_resource_field(
                self.RES_EXTERNAL_ID, (str, function.Function), "string", name, data, parse
            ),
        )
        yield (
            "condition",
            self._parse_resource_field(
                self.RES_CONDITION,
                (str, bool, function.Function),
                "string_or_boolean",
                name,
                data,
                parse_condition,
            ),
        )


class HOTemplate20170224(HOTemplate20161014):
    functions = hot_functions.HOT_2017_02_24
    param_schema_class = LazyImport(_PARAMETERS_PACKAGE, "HOTParamSchema20170224")


class HOTemplate20170901(HOTemplate20170224):
    functions = hot_functions.HOT_2017_09_01
    condition_functions = hot_functions.HOT_CONDITIONS_2017_09_01


class HOTemplate20180302(HOTemplate20170901):
    functions = hot_functions.HOT_2018_03_02
    param_schema_class = LazyImport(_PARAMETERS_PACKAGE, "HOTParamSchema20180302")


class HOTemplate20180831(HOTemplate20180302):
    functions = hot_functions.HOT_2018_08_31


class HOTemplate20210416(HOTemplate20180831):
    functions = hot_functions.HOT_2021_04_16
