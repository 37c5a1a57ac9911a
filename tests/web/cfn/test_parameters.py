"""Request parameters read as webob reads them for heat-api-cfn: the same request's
parameters and AWS member lists beside Heat's own ``extract_param_pairs`` in the oracle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask
import pytest

from keel_app.web.cfn.parameters import (
    extract_param_list,
    extract_param_pairs,
    request_parameters,
)
from tests import oracle
from tests.web.cfn import wsgi_environ

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
NAMES = ("Action", "StackName", "Empty", "Missing")

SPECS: list[dict[str, Any]] = [
    {"method": "GET", "path": "/", "query": "Action=A&Action=B&StackName=s&Empty="},
    {
        "method": "POST",
        "path": "/",
        "query": "Action=FromQuery",
        "headers": FORM,
        "body": "Action=FromForm&StackName=form&StackName=form2",
    },
    {"method": "POST", "path": "/", "query": "", "body": "Action=NoContentType&Empty="},
    {"method": "PUT", "path": "/", "query": "", "body": "Action=NotAForm"},
    {"method": "PUT", "path": "/", "query": "", "headers": FORM, "body": "Action=PutForm"},
    {
        "method": "GET",
        "path": "/",
        "query": urlencode(
            [
                ("Parameters.member.10.ParameterKey", "ten"),
                ("Parameters.member.10.ParameterValue", "10"),
                ("Parameters.member.2.ParameterValue", "2"),
                ("Parameters.member.2.ParameterKey", "two"),
                ("Parameters.member.x.ParameterKey", "not a number"),
                ("Parameters.member.3.ParameterKey", "no value"),
                ("Parameters.member.4.ParameterKey", "two"),
                ("Parameters.member.4.ParameterValue", "again"),
                ("XParameters.member.5.ParameterKey", "other prefix"),
                ("XParameters.member.5.ParameterValue", "v"),
            ]
        ),
    },
]

HEAT_PARAMETERS = """
import json, sys
import webob
from heat.api.aws import utils
namespace = {"__name__": "wsgi_environ"}
exec(open(sys.argv[2]).read(), namespace)
answers = []
for spec in json.loads(sys.argv[1]):
    params = webob.Request(namespace["build_environ"](spec)).params
    answers.append({
        "get": {name: params.get(name) for name in json.loads(sys.argv[3])},
        "dict": dict(params),
        "pairs": utils.extract_param_pairs(params, prefix="Parameters",
                                           keyname="ParameterKey", valuename="ParameterValue"),
        "list": utils.extract_param_list(params, prefix="Parameters"),
    })
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def heat_answers() -> list[dict[str, Any]]:
    return oracle.run_json(
        HEAT_PARAMETERS, json.dumps(SPECS), str(Path(wsgi_environ.__file__)), json.dumps(NAMES)
    )


def our_answer(spec: dict[str, Any]) -> dict[str, Any]:
    request = flask.Request(wsgi_environ.build_environ(spec))
    params = request_parameters(request)
    return {
        "get": {name: params.get(name) for name in NAMES},
        "dict": params.as_dict(),
        "pairs": extract_param_pairs(params, "Parameters", "ParameterKey", "ParameterValue"),
        "list": extract_param_list(params, "Parameters"),
    }


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(SPECS)))
def test_parameters_are_read_as_heat_reads_them(
    heat_answers: list[dict[str, Any]], index: int
) -> None:
    assert our_answer(SPECS[index]) == heat_answers[index]
