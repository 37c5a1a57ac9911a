"""update_params: hidden parameters and properties data encrypted and decrypted in place."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common import crypt
from keel_app.models import RawTemplate, ResourcePropertiesData
from keel_app.models.database import Database
from keel_app.models.maintenance.parameter_encryption import (
    decrypt_parameters_and_properties,
    encrypt_parameters_and_properties,
)
from tests import oracle
from tests.models.maintenance import factories

KEY = "0123456789abcdef0123456789abcdef"
HOT = {
    "heat_template_version": "2021-04-16",
    "parameters": {
        "password": {"type": "string", "hidden": True},
        "port": {"type": "number", "hidden": True},
        "flavor": {"type": "string"},
    },
}
CFN = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "Parameters": {"DbPassword": {"Type": "String", "NoEcho": "True"}, "Size": {"Type": "String"}},
}
HOT_ENVIRONMENT = {"parameters": {"password": "s3cret", "port": 8080, "flavor": "m1.small"}}
CFN_ENVIRONMENT = {"parameters": {"DbPassword": "pw", "Size": "1"}, "parameter_defaults": {}}
PROPERTIES = {"name": "web", "networks": [{"port": "p1"}], "count": 2}


def _rows(database: Database) -> tuple[dict[int, Any], dict[int, tuple[Any, Any]]]:
    with database.transaction() as session:
        environments = {t.id: t.environment for t in session.scalars(sa.select(RawTemplate))}
        data = {
            d.id: (d.data, d.encrypted) for d in session.scalars(sa.select(ResourcePropertiesData))
        }
    return environments, data


@pytest.fixture
def rows(database: Database) -> dict[str, int]:
    with database.transaction() as session:
        return {
            "hot": factories.template(session, template=HOT, environment=HOT_ENVIRONMENT).id,
            "cfn": factories.template(session, template=CFN, environment=CFN_ENVIRONMENT).id,
            "no-parameters": factories.template(session, environment={"resource_registry": {}}).id,
            "properties": factories.properties_data(session, PROPERTIES),
            "empty-properties": factories.properties_data(session, {}),
        }


def test_encrypt_hides_hidden_parameters_and_properties(
    database: Database, rows: dict[str, int]
) -> None:
    errors = encrypt_parameters_and_properties(database, KEY)

    environments, data = _rows(database)
    hot = environments[rows["hot"]]
    assert errors == []
    assert hot["encrypted_param_names"] == ["password", "port"]
    assert hot["parameters"]["flavor"] == "m1.small"
    assert crypt.decrypt(*hot["parameters"]["password"], KEY) == "s3cret"
    # Heat encrypts the text of the value: a number comes back as a string.
    assert crypt.decrypt(*hot["parameters"]["port"], KEY) == "8080"
    cfn = environments[rows["cfn"]]
    assert cfn["encrypted_param_names"] == ["DbPassword"]
    assert cfn["parameters"]["Size"] == "1"
    assert environments[rows["no-parameters"]] == {"resource_registry": {}}
    encrypted, flag = data[rows["properties"]]
    assert flag is True
    assert crypt.decrypted_dict(encrypted, KEY) == PROPERTIES
    assert data[rows["empty-properties"]] == ({}, False)


def test_encrypting_twice_changes_nothing_more(database: Database, rows: dict[str, int]) -> None:
    encrypt_parameters_and_properties(database, KEY)
    once = _rows(database)

    encrypt_parameters_and_properties(database, KEY)

    assert _rows(database) == once


@pytest.mark.parametrize("batch_size", [1, 50])
def test_decrypt_restores_what_encrypt_changed(
    database: Database, rows: dict[str, int], batch_size: int
) -> None:
    encrypt_parameters_and_properties(database, KEY, batch_size=batch_size)

    errors = decrypt_parameters_and_properties(database, KEY, batch_size=batch_size)

    environments, data = _rows(database)
    assert errors == []
    assert environments[rows["hot"]] == {
        "parameters": {"password": "s3cret", "port": "8080", "flavor": "m1.small"},
        "encrypted_param_names": [],
    }
    assert environments[rows["cfn"]] == {**CFN_ENVIRONMENT, "encrypted_param_names": []}
    assert data[rows["properties"]] == (PROPERTIES, False)


def test_a_row_that_fails_is_left_alone_and_reported(
    database: Database, rows: dict[str, int]
) -> None:
    with database.transaction() as session:
        broken = factories.template(
            session, template={"resources": {}}, environment={"parameters": {"a": "b"}}
        ).id

    errors = encrypt_parameters_and_properties(database, KEY)

    environments, data = _rows(database)
    assert len(errors) == 1
    assert environments[broken] == {"parameters": {"a": "b"}}
    assert "encrypted_param_names" in environments[rows["hot"]]
    assert data[rows["properties"]][1] is True


def test_decrypting_with_a_wrong_key_leaves_the_rows_encrypted(
    database: Database, rows: dict[str, int]
) -> None:
    encrypt_parameters_and_properties(database, KEY)
    encrypted = _rows(database)

    errors = decrypt_parameters_and_properties(database, "another key of thirty-two chars!")

    assert len(errors) == 3
    assert _rows(database) == encrypted


def test_heats_crypt_reads_what_encrypt_wrote(database: Database, rows: dict[str, int]) -> None:
    encrypt_parameters_and_properties(database, KEY)
    environments, data = _rows(database)
    stored = {
        "parameters": environments[rows["hot"]]["parameters"],
        "properties": data[rows["properties"]][0],
    }

    decrypted = oracle.run_json(
        """
        import json, sys
        from heat.common import crypt
        stored, key = json.loads(sys.argv[1]), sys.argv[2]
        print(json.dumps({
            "password": crypt.decrypt(*stored["parameters"]["password"], key),
            "port": crypt.decrypt(*stored["parameters"]["port"], key),
            "properties": crypt.decrypted_dict(stored["properties"], key),
        }))
        """,
        json.dumps(stored),
        KEY,
    )

    assert decrypted == {"password": "s3cret", "port": "8080", "properties": PROPERTIES}
