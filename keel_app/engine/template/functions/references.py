"""Functions that read the stack: parameters, resources, attributes, files, the facade."""

from __future__ import annotations

import collections.abc
import functools
import itertools
from collections.abc import Iterator
from typing import Any

from keel_app.common.exception import (
    InvalidTemplateAttribute,
    InvalidTemplateReference,
    InvalidTemplateVersion,
    UserParameterMissing,
)
from keel_app.engine.template import function

# The attribute "name" standing for every attribute of a resource at once.
ALL_ATTRIBUTES = "*"

# Actions after which a resource's attributes can be read.
_READY_ACTIONS = ("CREATE", "ADOPT", "SUSPEND", "RESUME", "UPDATE", "ROLLBACK", "SNAPSHOT", "CHECK")
_ALL_ATTRIBUTES_ACTIONS = ("CREATE", "ADOPT", "SUSPEND", "RESUME", "UPDATE", "CHECK", "SNAPSHOT")

_HOT = "heat.engine.hot.functions."


def select_from_attribute(attribute_value: Any, path: list[Any]) -> Any:
    """Follow ``path`` into an attribute value; ``None`` where the path leads nowhere."""

    def step(collection: Any, key: Any) -> Any:
        if not isinstance(collection, (collections.abc.Mapping, collections.abc.Sequence)):
            raise TypeError("Can't traverse attribute path")
        if not isinstance(key, (str, int)):
            raise TypeError("Path components in attributes must be strings")
        return collection[key]

    try:
        return functools.reduce(step, path, attribute_value)
    except (KeyError, IndexError, TypeError):
        return None


class GetParam(function.Function):
    """``get_param: name`` or ``get_param: [name, path...]``."""

    heat_class = _HOT + "GetParam"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self.parameters = self.stack.parameters if self.stack is not None else None

    def result(self) -> Any:
        assert self.parameters is not None, "No stack definition in Function"
        args = function.resolve(self.args)
        if not args:
            raise ValueError(f'Function "{self.fn_name}" must have arguments')
        if isinstance(args, str):
            parameter_name, path = args, []
        elif isinstance(args, collections.abc.Sequence):
            parameter_name, path = args[0], args[1:]
        else:
            raise TypeError(f'Argument to "{self.fn_name}" must be string or list')
        if not isinstance(parameter_name, str):
            raise TypeError(f'Parameter name in "{self.fn_name}" must be string')
        try:
            value = self.parameters[parameter_name]
        except KeyError:
            raise UserParameterMissing(key=parameter_name) from None

        def step(collection: Any, key: Any) -> Any:
            if not isinstance(collection, (collections.abc.Mapping, collections.abc.Sequence)):
                raise TypeError(f'"{self.fn_name}" can\'t traverse path')
            if not isinstance(key, (str, int)):
                raise TypeError(f'Path components in "{self.fn_name}" must be strings')
            if isinstance(collection, collections.abc.Sequence) and isinstance(key, str):
                try:
                    key = int(key)
                except ValueError:
                    raise TypeError(
                        f"Path components in '{self.fn_name}' must be a string that can be "
                        "parsed into an integer."
                    ) from None
            return collection[key]

        try:
            return functools.reduce(step, path, value)
        except (KeyError, IndexError, TypeError):
            return ""


class GetResource(function.Function):
    """``get_resource: name``: the resource's reference id."""

    heat_class = _HOT + "GetResource"

    def _resource(self, path: str = "unknown") -> Any:
        name = function.resolve(self.args)
        try:
            return self.stack[name]
        except KeyError:
            raise InvalidTemplateReference(resource=name, key=path) from None

    def dependencies(self, path: str) -> Iterator[Any]:
        return itertools.chain(super().dependencies(path), [self._resource(path)])

    def result(self) -> Any:
        return self._resource().FnGetRefId()


class GetAttThenSelect(function.Function):
    """``get_attr: [resource, attribute, path...]`` (2013-05-23: the path selects afterwards)."""

    heat_class = _HOT + "GetAttThenSelect"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._resource_name, self._attribute, self._path_components = self._parse_args()

    def _parse_args(self) -> tuple[Any, Any, Any]:
        if not isinstance(self.args, collections.abc.Sequence) or isinstance(self.args, str):
            raise TypeError(f'Argument to "{self.fn_name}" must be a list')
        if len(self.args) < 2:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form '
                "[resource_name, attribute, (path), ...]"
            )
        return self.args[0], self.args[1], self.args[2:]

    def _res_name(self) -> Any:
        return function.resolve(self._resource_name)

    def _resource(self, path: str = "unknown") -> Any:
        name = self._res_name()
        try:
            return self.stack[name]
        except KeyError:
            raise InvalidTemplateReference(resource=name, key=path) from None

    def _attr_path(self) -> Any:
        return function.resolve(self._attribute)

    def dep_attrs(self, resource_name: str) -> Iterator[Any]:
        attributes: list[Any] = []
        if self._res_name() == resource_name:
            try:
                attributes = [self._attr_path()]
            except Exception:
                # An attribute that cannot be worked out yet is simply not required yet.
                attributes = []
        return itertools.chain(super().dep_attrs(resource_name), attributes)

    def all_dep_attrs(self) -> Iterator[tuple[str, Any]]:
        try:
            attributes = [(self._res_name(), self._attr_path())]
        except Exception:
            attributes = []
        return itertools.chain(function.all_dep_attrs(self.args), attributes)

    def dependencies(self, path: str) -> Iterator[Any]:
        return itertools.chain(super().dependencies(path), [self._resource(path)])

    def _allow_without_attribute_name(self) -> bool:
        return False

    def validate(self) -> None:
        super().validate()
        resource = self._resource()
        if self._allow_without_attribute_name() and self._attribute is None:
            return
        attribute = function.resolve(self._attribute)
        if attribute not in resource.attributes_schema:
            raise InvalidTemplateAttribute(
                resource=function.message_value(self._resource_name), key=attribute
            )

    @staticmethod
    def _result_ready(resource: Any) -> bool:
        return resource.action in _READY_ACTIONS

    def result(self) -> Any:
        attribute_name = function.resolve(self._attribute)
        resource = self._resource()
        value = resource.FnGetAtt(attribute_name) if self._result_ready(resource) else None
        if value is None:
            return None
        return select_from_attribute(value, function.resolve(self._path_components))


class GetAtt(GetAttThenSelect):
    """``get_attr`` from 2014-10-16: the resource resolves the whole path itself."""

    heat_class = _HOT + "GetAtt"

    def result(self) -> Any:
        path = function.resolve(self._path_components)
        attribute = function.resolve(self._attribute)
        resource = self._resource()
        if self._result_ready(resource):
            return resource.FnGetAtt(attribute, *path)
        return None

    def _attr_path(self) -> Any:
        path = function.resolve(self._path_components)
        attribute = function.resolve(self._attribute)
        if path:
            return tuple([attribute] + path)
        return attribute


class GetAttAllAttributes(GetAtt):
    """``get_attr`` from 2015-10-15: ``[resource]`` alone means every attribute."""

    heat_class = _HOT + "GetAttAllAttributes"

    def _parse_args(self) -> tuple[Any, Any, Any]:
        if not self.args:
            raise ValueError(
                f'Arguments to "{self.fn_name}" can be of the next forms: '
                "[resource_name] or [resource_name, attribute, (path), ...]"
            )
        if isinstance(self.args, collections.abc.Sequence):
            if len(self.args) > 1:
                return super()._parse_args()
            return self.args[0], None, []
        raise TypeError(f'Argument to "{self.fn_name}" must be a list')

    def _attr_path(self) -> Any:
        if self._attribute is None:
            return ALL_ATTRIBUTES
        return super()._attr_path()

    def result(self) -> Any:
        if self._attribute is not None:
            return super().result()
        resource = self._resource()
        if (
            resource.status in ("IN_PROGRESS", "COMPLETE")
            and resource.action in _ALL_ATTRIBUTES_ACTIONS
        ):
            return resource.FnGetAtts()
        return None

    def _allow_without_attribute_name(self) -> bool:
        return True


class GetFile(function.Function):
    """``get_file: key``: the content stored under ``key`` in the files map."""

    heat_class = _HOT + "GetFile"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self.files = self.stack.t.files if self.stack is not None else None

    def result(self) -> Any:
        assert self.files is not None, "No stack definition in Function"
        key = function.resolve(self.args)
        if not isinstance(key, str):
            raise TypeError(f'Argument to "{self.fn_name}" must be a string')
        content = self.files.get(key)
        if content is None:
            raise ValueError(
                f'No content found in the "files" section for {self.fn_name} path: {key}'
            )
        return content


class ResourceFacade(function.Function):
    """``resource_facade: metadata|deletion_policy|update_policy`` of the parent resource."""

    heat_class = _HOT + "ResourceFacade"
    _RESOURCE_ATTRIBUTES = (METADATA, DELETION_POLICY, UPDATE_POLICY) = (
        "metadata",
        "deletion_policy",
        "update_policy",
    )

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        if self.args not in self._RESOURCE_ATTRIBUTES:
            allowed = ", ".join(self._RESOURCE_ATTRIBUTES)
            raise ValueError(f'Incorrect arguments to "{self.fn_name}" should be one of: {allowed}')

    def result(self) -> Any:
        attribute = function.resolve(self.args)
        parent = self.stack.parent_resource
        if attribute == self.METADATA:
            return parent.metadata_get()
        if attribute == self.UPDATE_POLICY:
            return function.resolve(parent.t._update_policy or {})
        if attribute == self.DELETION_POLICY:
            return parent.t.deletion_policy()
        return None


class Removed(function.Function):
    """A function this HOT version no longer has: validation says so."""

    heat_class = _HOT + "Removed"

    def validate(self) -> None:
        raise InvalidTemplateVersion(
            explanation=f"The function {self.fn_name} is not supported in this version of HOT."
        )
