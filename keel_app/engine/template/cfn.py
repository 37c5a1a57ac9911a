"""CloudFormation-style templates: AWSTemplateFormatVersion 2010-09-09 and
HeatTemplateFormatVersion 2012-12-12 (the same format without conditions)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from keel_app.engine.template import function
from keel_app.engine.template.common import CommonTemplate
from keel_app.engine.template.functions import cfn as cfn_functions
from keel_app.engine.template.resource_definition import ResourceDefinition

_CFN_FUNCTIONS = {
    "Fn::FindInMap": cfn_functions.FindInMap,
    "Fn::GetAZs": cfn_functions.GetAZs,
    "Ref": cfn_functions.Ref,
    "Fn::GetAtt": cfn_functions.GetAtt,
    "Fn::Select": cfn_functions.Select,
    "Fn::Join": cfn_functions.Join,
    "Fn::Split": cfn_functions.Split,
    "Fn::Replace": cfn_functions.Replace,
    "Fn::Base64": cfn_functions.Base64,
    "Fn::MemberListToMap": cfn_functions.MemberListToMap,
    "Fn::ResourceFacade": cfn_functions.ResourceFacade,
}

# Shared by both formats, as Heat's one dict is: CfnTemplate's "condition" is in it.
_HOT_TO_CFN_RESOURCE_ATTRIBUTES = {
    "type": "Type",
    "properties": "Properties",
    "metadata": "Metadata",
    "depends_on": "DependsOn",
    "deletion_policy": "DeletionPolicy",
    "update_policy": "UpdatePolicy",
    "condition": "Condition",
}


class CfnTemplateBase(CommonTemplate):
    SECTIONS = (
        VERSION,
        ALTERNATE_VERSION,
        DESCRIPTION,
        MAPPINGS,
        PARAMETERS,
        RESOURCES,
        OUTPUTS,
    ) = (
        "AWSTemplateFormatVersion",
        "HeatTemplateFormatVersion",
        "Description",
        "Mappings",
        "Parameters",
        "Resources",
        "Outputs",
    )
    OUTPUT_KEYS = (OUTPUT_DESCRIPTION, OUTPUT_VALUE) = ("Description", "Value")
    SECTIONS_NO_DIRECT_ACCESS = {PARAMETERS, VERSION, ALTERNATE_VERSION}
    _RESOURCE_KEYS = (
        RES_TYPE,
        RES_PROPERTIES,
        RES_METADATA,
        RES_DEPENDS_ON,
        RES_DELETION_POLICY,
        RES_UPDATE_POLICY,
        RES_DESCRIPTION,
    ) = (
        "Type",
        "Properties",
        "Metadata",
        "DependsOn",
        "DeletionPolicy",
        "UpdatePolicy",
        "Description",
    )
    functions = {
        name: _CFN_FUNCTIONS[name]
        for name in (
            "Fn::FindInMap",
            "Fn::GetAZs",
            "Ref",
            "Fn::GetAtt",
            "Fn::Select",
            "Fn::Join",
            "Fn::Base64",
        )
    }
    deletion_policies = {
        "Delete": ResourceDefinition.DELETE,
        "Retain": ResourceDefinition.RETAIN,
        "Snapshot": ResourceDefinition.SNAPSHOT,
    }
    HOT_TO_CFN_RES_ATTRS = _HOT_TO_CFN_RESOURCE_ATTRIBUTES
    HOT_TO_CFN_OUTPUT_ATTRS = {"description": OUTPUT_DESCRIPTION, "value": OUTPUT_VALUE}

    def __getitem__(self, section: str) -> Any:
        if section not in self.SECTIONS:
            raise KeyError(f'"{section}" is not a valid template section')
        if section in self.SECTIONS_NO_DIRECT_ACCESS:
            raise KeyError(f"Section {section} can not be accessed directly.")
        default: Any = "No description" if section == self.DESCRIPTION else {}
        return self.t.get(section) or default

    def param_schemata(self, param_defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from keel_app.engine.template.parameters import Schema

        section = self.t.get(self.PARAMETERS) or {}
        defaults = param_defaults or {}
        for name in section:
            if name in defaults:
                section[name]["Default"] = defaults[name]
        return {name: Schema.from_dict(name, schema) for name, schema in section.items()}

    def get_section_name(self, section: Any) -> Any:
        return section

    def parameters(
        self, stack_identifier: Any, user_params: Any, param_defaults: Any = None
    ) -> Any:
        from keel_app.engine.template.parameters import CfnParameters

        return CfnParameters(
            stack_identifier, self, user_params=user_params, param_defaults=param_defaults
        )

    CONDITION_KEY_FOR_ERRORS = "Condition"

    def add_resource(self, definition: ResourceDefinition, name: str | None = None) -> None:
        if name is None:
            name = definition.name
        rendered = definition.render_hot()
        if self.t.get(self.RESOURCES) is None:
            self.t[self.RESOURCES] = {}
        snippet = {self.HOT_TO_CFN_RES_ATTRS[key]: value for key, value in rendered.items()}
        dependencies = snippet.get(self.RES_DEPENDS_ON, [])
        if len(dependencies) == 1:
            dependency = snippet[self.RES_DEPENDS_ON][0]
            if dependency in self.t[self.RESOURCES]:
                snippet[self.RES_DEPENDS_ON] = dependency
            else:
                del snippet[self.RES_DEPENDS_ON]
        elif dependencies:
            snippet[self.RES_DEPENDS_ON] = [
                item for item in dependencies if item in self.t[self.RESOURCES]
            ]
        self.t[self.RESOURCES][name] = snippet

    def add_output(self, definition: Any) -> None:
        rendered = definition.render_hot()
        snippet = {self.HOT_TO_CFN_OUTPUT_ATTRS[key]: value for key, value in rendered.items()}
        if self.t.get(self.OUTPUTS) is None:
            self.t[self.OUTPUTS] = {}
        self.t[self.OUTPUTS][definition.name] = snippet


class CfnTemplate(CfnTemplateBase):
    """``AWSTemplateFormatVersion: 2010-09-09``: with Conditions and Fn::If."""

    CONDITIONS = "Conditions"
    SECTIONS = CfnTemplateBase.SECTIONS + (CONDITIONS,)
    SECTIONS_NO_DIRECT_ACCESS = CfnTemplateBase.SECTIONS_NO_DIRECT_ACCESS | {CONDITIONS}
    RES_CONDITION = "Condition"
    _RESOURCE_KEYS = CfnTemplateBase._RESOURCE_KEYS + (RES_CONDITION,)
    OUTPUT_CONDITION = "Condition"
    OUTPUT_KEYS = CfnTemplateBase.OUTPUT_KEYS + (OUTPUT_CONDITION,)

    functions = {**_CFN_FUNCTIONS, "Fn::If": cfn_functions.If}
    condition_functions = {
        "Fn::Equals": cfn_functions.Equals,
        "Ref": cfn_functions.ParamRef,
        "Fn::FindInMap": cfn_functions.FindInMap,
        "Fn::Not": cfn_functions.Not,
        "Fn::And": cfn_functions.And,
        "Fn::Or": cfn_functions.Or,
    }

    def __init__(self, template: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(template, *args, **kwargs)
        self.merge_sections = [self.PARAMETERS, self.CONDITIONS]

    def _get_condition_definitions(self) -> Any:
        return self.t.get(self.CONDITIONS, {})

    def _rsrc_defn_args(
        self, stack: Any, name: str, data: Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        yield from super()._rsrc_defn_args(stack, name, data)

        def parse_condition(snippet: Any, path: str) -> Any:
            return self.parse_condition(stack, snippet, path)

        yield (
            "condition",
            self._parse_resource_field(
                self.RES_CONDITION,
                (str, bool, function.Function),
                "string or boolean",
                name,
                data,
                parse_condition,
            ),
        )


class HeatTemplate(CfnTemplateBase):
    """``HeatTemplateFormatVersion: 2012-12-12``."""

    functions = dict(_CFN_FUNCTIONS)
