"""The CloudFormation family: Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::FindInMap, ..."""

from __future__ import annotations

import collections.abc
import itertools
import json
import re
from typing import Any

from keel_app.common.exception import InvalidTemplateReference
from keel_app.engine.template import function
from keel_app.engine.template.functions import conditional, references, strings

_CFN = "heat.engine.cfn.functions."


class FindInMap(function.Function):
    """``Fn::FindInMap: [mapping, key, value]`` from the template's Mappings."""

    heat_class = _CFN + "FindInMap"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        try:
            self._mapname, self._mapkey, self._mapvalue = self.args
        except ValueError as error:
            raise KeyError(str(error)) from None

    def result(self) -> Any:
        mapping = self.stack.t.maps[function.resolve(self._mapname)]
        key = function.resolve(self._mapkey)
        value = function.resolve(self._mapvalue)
        return mapping[key][value]


class GetAZs(function.Function):
    """``Fn::GetAZs: region``: the availability zones (the region is not used)."""

    heat_class = _CFN + "GetAZs"

    def result(self) -> Any:
        if self.stack is None:
            return ["nova"]
        return self.stack.get_availability_zones()


class ParamRef(function.Function):
    """``Ref: parameter``."""

    heat_class = _CFN + "ParamRef"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self.parameters = self.stack.parameters

    def result(self) -> Any:
        name = function.resolve(self.args)
        try:
            return self.parameters[name]
        except KeyError:
            raise InvalidTemplateReference(resource=name, key="unknown") from None


def Ref(stack: Any, fn_name: str, args: Any) -> function.Function:  # noqa: N802 - a function name
    """``Ref: name``: a resource's reference id if a resource has that name, else a parameter."""
    if stack is None or args in stack:
        return references.GetResource(stack, fn_name, args)
    return ParamRef(stack, fn_name, args)


Ref.heat_class = _CFN + "Ref"  # type: ignore[attr-defined]


class GetAtt(references.GetAttThenSelect):
    """``Fn::GetAtt: [resource, attribute]``."""

    heat_class = _CFN + "GetAtt"

    def _parse_args(self) -> tuple[Any, Any, Any]:
        try:
            resource_name, attribute = self.args
        except ValueError:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form [resource_name, attribute]'
            ) from None
        return resource_name, attribute, []


class Select(function.Function):
    """``Fn::Select: [index, list or map]``; what is not there is ``""``."""

    heat_class = _CFN + "Select"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        try:
            self._lookup, self._strings = self.args
        except ValueError:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form [index, collection]'
            ) from None

    def result(self) -> Any:
        index = function.resolve(self._lookup)
        strings = function.resolve(self._strings)
        # Other functions answer "" for "not available yet": so does this one.
        if strings == "":
            return ""
        if isinstance(strings, str):
            try:
                strings = json.loads(strings)
            except ValueError as error:
                raise ValueError(f'"{self.fn_name}": {error}') from None
        if isinstance(strings, collections.abc.Mapping):
            if not isinstance(index, str):
                raise TypeError(f'Index to "{self.fn_name}" must be a string')
            return strings.get(index, "")
        try:
            index = int(index)
        except (ValueError, TypeError):
            pass
        if isinstance(strings, collections.abc.Sequence) and not isinstance(strings, str):
            if not isinstance(index, int):
                raise TypeError(f'Index to "{self.fn_name}" must be an integer')
            try:
                return strings[index]
            except IndexError:
                return ""
        if strings is None:
            return ""
        raise TypeError(f"Arguments to {self.fn_name} not fully resolved")


class Join(strings.Join):
    """``Fn::Join: [delimiter, [strings...]]``."""

    heat_class = _CFN + "Join"


class Split(function.Function):
    """``Fn::Split: [delimiter, string]``."""

    heat_class = _CFN + "Split"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        usage = (
            f'Incorrect arguments to "{self.fn_name}" should be: '
            f'"{self.fn_name}" : [ ",", "str1,str2"]]'
        )
        if isinstance(self.args, (str, collections.abc.Mapping)):
            raise TypeError(usage)
        try:
            self._delim, self._strings = self.args
        except ValueError:
            raise ValueError(usage) from None

    def result(self) -> Any:
        text = function.resolve(self._strings)
        # The delimiter is used as written: Heat never resolves it.
        if not isinstance(self._delim, str):
            raise TypeError(f"Delimiter for {self.fn_name} must be string")
        if not isinstance(text, str):
            raise TypeError(f"String to split must be string; got {type(text)}")
        return text.split(self._delim)


class Replace(strings.Replace):
    """``Fn::Replace: [{placeholder: value}, template]``."""

    heat_class = _CFN + "Replace"

    def _parse_args(self) -> tuple[Any, Any]:
        usage = (
            f'Incorrect arguments to "{self.fn_name}" should be: '
            f'{{"{self.fn_name}": [ {{"$var1": "foo", "%var2%": "bar"}}, "$var1 is %var2%"]}}'
        )
        if isinstance(self.args, (str, collections.abc.Mapping)):
            raise TypeError(usage)
        try:
            mapping, text = self.args
        except ValueError:
            raise ValueError(usage) from None
        return mapping, text


class Base64(function.Function):
    """``Fn::Base64: string``: the string itself, unencoded (templates rely on that)."""

    heat_class = _CFN + "Base64"

    def result(self) -> Any:
        resolved = function.resolve(self.args)
        if not isinstance(resolved, str):
            raise TypeError(f'"{self.fn_name}" argument must be a string')
        return resolved


_MEMBER_KEY = re.compile(r"\.member\.([0-9]+)\.(.*)")


def _member_pairs(partials: dict[str, str], key_name: str, value_name: str) -> dict[str, str]:
    """AWS ``.member.N.<key_name>=k`` / ``.member.N.<value_name>=v`` pairs as a mapping."""
    entries = []
    for name, value in partials.items():
        match = _MEMBER_KEY.match(name)
        if match:
            entries.append((int(match.group(1)), (match.group(2), value)))
    entries.sort(key=lambda entry: entry[0])
    members = [
        dict(pair for _, pair in group)
        for _, group in itertools.groupby(entries, key=lambda entry: entry[0])
    ]
    return {
        member[key_name]: member[value_name]
        for member in members
        if key_name in member and value_name in member
    }


class MemberListToMap(function.Function):
    """``Fn::MemberListToMap: [key_name, value_name, ['.member.0.Name=k', ...]]``."""

    heat_class = _CFN + "MemberListToMap"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        try:
            self._keyname, self._valuename, self._list = self.args
        except ValueError:
            correct = """
            {'Fn::MemberListToMap': ['Name', 'Value',
                                     ['.member.0.Name=key',
                                      '.member.0.Value=door']]}
            """
            raise TypeError(f'Wrong Arguments try: "{correct}"') from None
        if not isinstance(self._keyname, str):
            raise TypeError(f"{self.fn_name} Key Name must be a string")
        if not isinstance(self._valuename, str):
            raise TypeError(f"{self.fn_name} Value Name must be a string")

    def result(self) -> Any:
        member_list = function.resolve(self._list)
        if not isinstance(member_list, collections.abc.Iterable):
            raise TypeError("Member list must be a list")

        def item(text: Any) -> list[str]:
            if not isinstance(text, str):
                raise TypeError("Member list items must be strings")
            return text.split("=", 1)

        partials = dict(item(text) for text in member_list)
        return _member_pairs(partials, self._keyname, self._valuename)


class ResourceFacade(references.ResourceFacade):
    """``Fn::ResourceFacade: Metadata|DeletionPolicy|UpdatePolicy``."""

    heat_class = _CFN + "ResourceFacade"
    _RESOURCE_ATTRIBUTES = (METADATA, DELETION_POLICY, UPDATE_POLICY) = (
        "Metadata",
        "DeletionPolicy",
        "UpdatePolicy",
    )


class If(conditional.If):
    """``Fn::If: [condition, value_if_true, value_if_false]``."""

    heat_class = _CFN + "If"


class Equals(conditional.Equals):
    """``Fn::Equals: [value_1, value_2]``."""

    heat_class = _CFN + "Equals"


class Not(conditional.Not):
    """``Fn::Not: [condition]``."""

    heat_class = _CFN + "Not"

    def _check_args(self) -> None:
        message = f'Arguments to "{self.fn_name}" must be of the form: [condition]'
        if (
            not self.args
            or not isinstance(self.args, collections.abc.Sequence)
            or isinstance(self.args, str)
        ):
            raise ValueError(message)
        if len(self.args) != 1:
            raise ValueError(message)
        self.condition = self.args[0]


class And(conditional.And):
    """``Fn::And: [condition, condition, ...]``."""

    heat_class = _CFN + "And"


class Or(conditional.Or):
    """``Fn::Or: [condition, condition, ...]``."""

    heat_class = _CFN + "Or"
