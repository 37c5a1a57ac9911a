from __future__ import annotations

import pytest

from keel_app.common import crypt, exception
from keel_app.models import Stack, UserCreds
from keel_app.models.api import user_creds
from keel_app.models.database import Database
from tests.models.api import factories

KEY = "0123456789abcdef0123456789abcdef"

TRUST_CONTEXT = {
    "project_id": "p-1",
    "project_name": "demo",
    "username": "bob",
    "password": None,
    "trust_id": "trust-1",
    "trustor_user_id": "user-1",
    "auth_url": "http://keystone/v3",
    "region_name": "RegionOne",
}

PASSWORD_CONTEXT = {**TRUST_CONTEXT, "trust_id": None, "trustor_user_id": None, "password": "pw"}


def test_trust_creds_store_the_trust_encrypted_and_no_user(database: Database) -> None:
    created = user_creds.create_user_creds(database, TRUST_CONTEXT, KEY)

    stored = factories.row(database, UserCreds, created["id"])
    assert created["trust_id"] == "trust-1"
    assert stored.decrypt_method == "cryptography_decrypt_v1"
    assert crypt.decrypt(stored.decrypt_method, stored.trust_id, KEY) == "trust-1"
    assert (stored.username, stored.password, stored.trustor_user_id) == (None, None, "user-1")
    assert (stored.tenant, stored.tenant_id) == ("demo", "p-1")
    assert (stored.auth_url, stored.region_name) == ("http://keystone/v3", "RegionOne")


def test_password_creds_store_the_password_encrypted(database: Database) -> None:
    created = user_creds.create_user_creds(database, PASSWORD_CONTEXT, KEY)

    stored = factories.row(database, UserCreds, created["id"])
    assert created["password"] == "pw"
    assert stored.password != "pw"
    assert crypt.decrypt(stored.decrypt_method, stored.password, KEY) == "pw"
    assert (stored.username, stored.trust_id, stored.tenant) == ("bob", None, "demo")


def test_password_too_long_once_encrypted_is_refused(database: Database) -> None:
    with pytest.raises(exception.Error) as raised:
        user_creds.create_user_creds(database, {**PASSWORD_CONTEXT, "password": "x" * 200}, KEY)

    assert str(raised.value) == (
        "Length of OS_PASSWORD after encryption exceeds Heat limit (255 chars)"
    )


def test_get_user_creds_decrypts_and_hides_the_method(database: Database) -> None:
    created = user_creds.create_user_creds(database, TRUST_CONTEXT, KEY)

    read = user_creds.get_user_creds(database, created["id"], KEY)

    assert read["trust_id"] == "trust-1"
    assert read["password"] is None
    assert "decrypt_method" not in read
    assert (read["trustor_user_id"], read["tenant_id"]) == ("user-1", "p-1")


def test_get_missing_user_creds_is_none(database: Database) -> None:
    assert user_creds.get_user_creds(database, 404, KEY) is None


def test_delete_user_creds_clears_the_stacks_reference(database: Database) -> None:
    created = user_creds.create_user_creds(database, TRUST_CONTEXT, KEY)
    stack = factories.stack(database, user_creds_id=created["id"])

    user_creds.delete_user_creds(database, created["id"])

    assert factories.row(database, UserCreds, created["id"]) is None
    assert factories.row(database, Stack, stack.id).user_creds_id is None


def test_delete_missing_user_creds_raises_heats_not_found(database: Database) -> None:
    with pytest.raises(exception.NotFound) as raised:
        user_creds.delete_user_creds(database, 404)

    assert str(raised.value) == "Attempt to delete user creds with id 404 that does not exist"
