"""The function table of each HOT version, each built from the one before it.

A function a version dropped maps to ``Removed`` (validation then says it is not
supported in this version); a name a version never knew is not a function there at
all and stays plain data, as in Heat.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.template.functions import cfn, conditional, references, strings, structures
from keel_app.engine.template.functions.references import Removed
from keel_app.engine.template.functions.yaql_expression import Yaql

FunctionTable = dict[str, Any]

HOT_2013_05_23: FunctionTable = {
    "Fn::GetAZs": cfn.GetAZs,
    "get_param": references.GetParam,
    "get_resource": references.GetResource,
    "Ref": cfn.Ref,
    "get_attr": references.GetAttThenSelect,
    "Fn::Select": cfn.Select,
    "Fn::Join": cfn.Join,
    "list_join": strings.Join,
    "Fn::Split": cfn.Split,
    "str_replace": strings.Replace,
    "Fn::Replace": cfn.Replace,
    "Fn::Base64": cfn.Base64,
    "Fn::MemberListToMap": cfn.MemberListToMap,
    "resource_facade": references.ResourceFacade,
    "Fn::ResourceFacade": cfn.ResourceFacade,
    "get_file": references.GetFile,
}

_REMOVED_IN_2014_10_16 = (
    "Fn::GetAZs",
    "Fn::Join",
    "Fn::Split",
    "Fn::Replace",
    "Fn::Base64",
    "Fn::MemberListToMap",
    "Fn::ResourceFacade",
    "Ref",
)

HOT_2014_10_16: FunctionTable = {
    "get_attr": references.GetAtt,
    "get_file": references.GetFile,
    "get_param": references.GetParam,
    "get_resource": references.GetResource,
    "list_join": strings.Join,
    "resource_facade": references.ResourceFacade,
    "str_replace": strings.Replace,
    "Fn::Select": cfn.Select,
    **dict.fromkeys(_REMOVED_IN_2014_10_16, Removed),
}

HOT_2015_04_30: FunctionTable = {
    **HOT_2014_10_16,
    "repeat": structures.Repeat,
    "digest": strings.Digest,
}

HOT_2015_10_15: FunctionTable = {
    **HOT_2015_04_30,
    "get_attr": references.GetAttAllAttributes,
    "list_join": strings.JoinMultiple,
    "str_replace": strings.ReplaceJson,
    "str_split": strings.StrSplit,
    "Fn::Select": Removed,
}

HOT_2016_04_08: FunctionTable = {**HOT_2015_10_15, "map_merge": structures.MapMerge}

HOT_2016_10_14: FunctionTable = {
    **HOT_2016_04_08,
    "repeat": structures.RepeatWithMap,
    "yaql": Yaql,
    "map_replace": structures.MapReplace,
    "if": conditional.If,
}

HOT_2017_02_24: FunctionTable = {
    **HOT_2016_10_14,
    "filter": structures.Filter,
    "str_replace_strict": strings.ReplaceJsonStrict,
}

HOT_2017_09_01: FunctionTable = {
    **HOT_2017_02_24,
    "repeat": structures.RepeatWithNestedLoop,
    "make_url": strings.MakeURL,
    "list_concat": structures.ListConcat,
    "str_replace_vstrict": strings.ReplaceJsonVeryStrict,
    "list_concat_unique": structures.ListConcatUnique,
    "contains": structures.Contains,
}

HOT_2018_03_02: FunctionTable = dict(HOT_2017_09_01)

HOT_2018_08_31: FunctionTable = dict(HOT_2018_03_02)

HOT_2021_04_16: FunctionTable = {**HOT_2018_08_31, "if": conditional.IfNullable}

HOT_CONDITIONS_2016_10_14: FunctionTable = {
    "get_param": references.GetParam,
    "equals": conditional.Equals,
    "not": conditional.Not,
    "and": conditional.And,
    "or": conditional.Or,
}

HOT_CONDITIONS_2017_09_01: FunctionTable = {
    **HOT_CONDITIONS_2016_10_14,
    "yaql": Yaql,
    "contains": structures.Contains,
}
