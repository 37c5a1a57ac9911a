"""The Template base class: version detection, the version registry, the sections.

``Template(data)`` returns an instance of the class registered for the version the
data declares (entry point group ``openkeel.templates``, names such as
``heat_template_version.2013-05-23``), exactly as Heat picks its template plugin.
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import hashlib
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import Any

from keel_app.common.exception import (
    HeatException,
    InvalidTemplateSection,
    InvalidTemplateVersion,
    StackValidationFailed,
)
from keel_app.engine.template import function
from keel_app.engine.template.format import parse as parse_template_text
from keel_app.engine.template.limits import DEFAULT_LIMITS, TemplateLimits

ENTRY_POINT_GROUP = "openkeel.templates"

VersionKey = tuple[str, str]


class TemplatePluginNotRegistered(HeatException):
    msg_fmt = "Could not load %(name)s: %(error)s"


@functools.cache
def template_classes() -> dict[VersionKey, type[Template]]:
    """Every registered template class by (version key, version), loaded once."""
    classes: dict[VersionKey, type[Template]] = {}
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry_point.load()
        except Exception as error:
            raise TemplatePluginNotRegistered(name=entry_point.name, error=str(error)) from error
        key, _, version = entry_point.name.partition(".")
        classes[(key, version)] = loaded
    return classes


def get_version(
    template_data: Mapping[str, Any], available_versions: collections.abc.Iterable[VersionKey]
) -> VersionKey:
    """The (version key, version) the data declares; exactly one key must be present."""
    version_keys = {key for key, _ in available_versions}
    candidate_keys = {key for key, value in template_data.items() if isinstance(value, str)}
    present = version_keys & candidate_keys
    if len(present) > 1:
        raise InvalidTemplateVersion(explanation=f"Ambiguous versions ({', '.join(present)})")
    if not present:
        raise InvalidTemplateVersion(explanation="Template version was not provided")
    key = present.pop()
    return key, template_data[key]


def get_template_class(template_data: Mapping[str, Any]) -> type[Template]:
    classes = template_classes()
    version = get_version(template_data, classes.keys())
    try:
        return classes[version]
    except KeyError:
        pass
    key = version[0]
    available = sorted(value for name, value in classes if name == key)
    declared = ": ".join(version)
    listed = ", ".join(available)
    if len(available) > 1:
        explanation = f'"{declared}". "{key}" should be one of: {listed}'
    else:
        explanation = f'"{declared}". "{key}" should be: {listed}'
    raise InvalidTemplateVersion(explanation=explanation)


class Template(collections.abc.Mapping[str, Any]):
    """A template of some format and version; subclasses give the sections and functions."""

    SECTIONS: tuple[str, ...] = ()
    SECTIONS_NO_DIRECT_ACCESS: set[str] = set()
    VERSION = PARAMETERS = RESOURCES = OUTPUTS = MAPPINGS = ""
    condition_functions: dict[str, Any] = {}
    functions: dict[str, Any] = {}

    def __new__(cls, template: Mapping[str, Any], *args: Any, **kwargs: Any) -> Template:
        template_class = cls if cls is not Template else get_template_class(template)
        return super().__new__(template_class)

    def __init__(
        self,
        template: dict[str, Any],
        template_id: Any = None,
        files: Mapping[str, Any] | None = None,
        env: Any = None,
        limits: TemplateLimits = DEFAULT_LIMITS,
    ) -> None:
        self.id = template_id
        self.t = template
        self.files = files
        self.limits = limits
        self.maps = self[self.MAPPINGS]
        if env is None:
            from keel_app.engine.environment import Environment

            env = Environment({})
        self.env = env
        self.merge_sections = [self.PARAMETERS]
        self.version = get_version(self.t, template_classes().keys())
        self.t_digest: str | None = None
        condition_functions: dict[str, Any] = {name: function.Invalid for name in self.functions}
        condition_functions.update(self.condition_functions)
        self._parser_condition_functions = condition_functions

    def __deepcopy__(self, memo: dict[int, Any]) -> Template:
        return Template(
            copy.deepcopy(self.t, memo), files=self.files, env=self.env, limits=self.limits
        )

    @property
    def files(self) -> Any:
        return self._template_files

    @files.setter
    def files(self, files: Any) -> None:
        from keel_app.engine.environment import TemplateFiles

        self._template_files = TemplateFiles(files)

    def merge_snippets(self, other: Template) -> None:
        for section in self.merge_sections:
            if section not in other.t:
                continue
            if section not in self.t:
                self.t[section] = {}
            self.t[section].update(other.t[section])

    def __iter__(self) -> Iterator[str]:
        return (s for s in self.SECTIONS if s not in self.SECTIONS_NO_DIRECT_ACCESS)

    def __len__(self) -> int:
        return len(self.SECTIONS) - len(self.SECTIONS_NO_DIRECT_ACCESS)

    def __getitem__(self, section: str) -> Any:
        raise NotImplementedError

    def param_schemata(self, param_defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def all_param_schemata(self, files: Mapping[str, Any] | None) -> dict[str, Any]:
        """Parameter schemas of this template and of every template among ``files``."""
        schemata: dict[str, Any] = {}
        for content in (files or {}).values():
            try:
                data = parse_template_text(content, limits=self.limits)
            except ValueError:
                continue
            schemata.update(Template(data, limits=self.limits).param_schemata())
        # The parent template's own parameters win.
        schemata.update(self.param_schemata())
        return schemata

    def get_section_name(self, section: str) -> str:
        raise NotImplementedError

    def parameters(
        self, stack_identifier: Any, user_params: Any, param_defaults: Any = None
    ) -> Any:
        raise NotImplementedError

    def conditions(self, stack: Any) -> Any:
        from keel_app.engine.template.conditions import Conditions

        return Conditions({})

    def outputs(self, stack: Any) -> dict[str, Any]:
        raise NotImplementedError

    def resource_definitions(self, stack: Any) -> dict[str, Any]:
        raise NotImplementedError

    def add_resource(self, definition: Any, name: str | None = None) -> None:
        raise NotImplementedError

    def add_output(self, definition: Any) -> None:
        raise NotImplementedError

    def remove_resource(self, name: str) -> None:
        self.t.get(self.RESOURCES, {}).pop(name)

    def remove_all_resources(self) -> None:
        if self.RESOURCES in self.t:
            self.t.update({self.RESOURCES: {}})

    def parse(self, stack: Any, snippet: Any, path: str = "") -> Any:
        return function.parse(self.functions, stack, snippet, path, self)

    def parse_condition(self, stack: Any, snippet: Any, path: str = "") -> Any:
        return function.parse(self._parser_condition_functions, stack, snippet, path, self)

    def validate(self) -> None:
        """Check the top-level sections and that every resource names a type."""
        digest = hashlib.sha256(str(self.t).encode("utf-8")).hexdigest()
        if digest == self.t_digest:
            return
        for key in self.t.keys():
            if key not in self.SECTIONS:
                raise InvalidTemplateSection(section=key)
        for resource in self[self.RESOURCES].values():
            try:
                if not resource or not resource.get("Type"):
                    raise StackValidationFailed(message="Each Resource must contain a Type key.")
            except AttributeError:
                raise StackValidationFailed(
                    message=f"Resources must contain Resource. Found a [{type(resource)}] instead"
                ) from None
        self.t_digest = digest

    @classmethod
    def create_empty_template(
        cls,
        version: VersionKey = ("heat_template_version", "2015-04-30"),
        from_template: Template | None = None,
    ) -> Template:
        if from_template is not None:
            empty = copy.deepcopy(from_template)
            empty.remove_all_resources()
            return empty
        return cls({version[0]: version[1]})
