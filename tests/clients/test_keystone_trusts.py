"""Trusts with a real Keystone: created from the owner's token, used by the trustee,
kept encrypted in ``user_creds``, deleted again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from keel_app.clients import keystone as keystone_client
from keel_app.clients import keystone_credentials, keystone_trusts
from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.common.exception import AuthorizationFailure
from keel_app.models.api import user_creds
from keel_app.models.database import Database
from keel_app.models.stack import UserCreds
from tests import databases
from tests.keystone import ADMIN, ALICE, Account, Keystone
from tests.models.api.factories import migrated_database

ENCRYPTION_KEY = "0123456789abcdef0123456789abcdef"


def settings_of(
    keystone: Keystone, directory: Path, extra: str = ""
) -> keystone_client.KeystoneSettings:
    path = directory / "heat.conf"
    path.write_text(keystone.heat_conf() + extra)
    found = keystone_client.from_conf(config.load(["--config-file", str(path)]))
    assert found is not None
    return found


def caller(keystone: Keystone, account: Account) -> RequestContext:
    """The context the keystone flavor builds for ``account``'s token."""
    token, body = keystone.issue(account)
    return RequestContext(
        auth_token=token,
        auth_token_info=body,
        user_id=body["token"]["user"]["id"],
        project_id=body["token"]["project"]["id"],
        roles=[role["name"] for role in body["token"]["roles"]],
        auth_url=keystone.auth_url,
    )


@pytest.fixture
def settings(keystone_service: Keystone, tmp_path: Path) -> keystone_client.KeystoneSettings:
    return settings_of(keystone_service, tmp_path)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    with databases.fresh_database("sqlite", tmp_path) as url:
        database = migrated_database(url)
        yield database
        database.dispose()


def trust_document(keystone: Keystone, context: RequestContext, trust_id: str) -> dict:
    status, body = keystone.request("GET", f"/OS-TRUST/trusts/{trust_id}", context.auth_token or "")
    assert status == 200 and body is not None
    return body["trust"]


def test_a_trust_delegates_the_owners_roles_to_the_trustee(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings
) -> None:
    owner = caller(keystone_service, ALICE)

    trusted = keystone_trusts.trust_context(settings, owner)

    trust = trust_document(keystone_service, owner, trusted.trust_id or "")
    assert (trusted.trustor_user_id, trusted.user_id) == (owner.user_id, owner.user_id)
    assert {
        "trustor": trust["trustor_user_id"],
        "trustee": trust["trustee_user_id"],
        "project": trust["project_id"],
        "impersonation": trust["impersonation"],
        "redelegation": trust.get("allow_redelegation", False),
        "roles": sorted(role["name"] for role in trust["roles"]),
    } == {
        "trustor": keystone_service.user_ids["alice"],
        "trustee": keystone_service.user_ids["heat"],
        "project": keystone_service.project_id(ALICE),
        "impersonation": True,
        "redelegation": False,
        "roles": ["heat_stack_owner", "member", "reader"],
    }


def test_delegated_roles_can_be_limited_by_configuration(
    keystone_service: Keystone, tmp_path: Path
) -> None:
    settings = settings_of(
        keystone_service, tmp_path, "[DEFAULT]\ntrusts_delegated_roles = member\n"
    )
    owner = caller(keystone_service, ALICE)

    trusted = keystone_trusts.trust_context(settings, owner)

    trust = trust_document(keystone_service, owner, trusted.trust_id or "")
    assert [role["name"] for role in trust["roles"]] == ["member"]


def test_the_trustee_acts_as_the_owner_within_the_trust(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings
) -> None:
    trusted = keystone_trusts.trust_context(settings, caller(keystone_service, ALICE))

    trustee = keystone_client.trustee_session(settings, trusted.trust_id)

    assert (trustee.get_user_id(), trustee.get_project_id()) == (
        keystone_service.user_ids["alice"],
        keystone_service.project_id(ALICE),
    )


def test_a_context_with_a_trust_is_kept_as_it_is(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings
) -> None:
    trusted = keystone_trusts.trust_context(settings, caller(keystone_service, ALICE))

    assert keystone_trusts.trust_context(settings, trusted) is trusted


def test_a_deleted_trust_is_gone_and_deleting_it_again_is_quiet(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings
) -> None:
    owner = caller(keystone_service, ALICE)
    trust_id = keystone_trusts.trust_context(settings, owner).trust_id or ""

    keystone_trusts.delete_trust(settings, owner, trust_id)
    keystone_trusts.delete_trust(settings, owner, trust_id)

    status, _ = keystone_service.request(
        "GET", f"/OS-TRUST/trusts/{trust_id}", owner.auth_token or ""
    )
    assert status == 404


def test_the_trust_is_stored_encrypted_in_user_creds(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings, database: Database
) -> None:
    trusted = keystone_trusts.trust_context(settings, caller(keystone_service, ALICE))

    stored = user_creds.create_user_creds(database, trusted.to_dict(), ENCRYPTION_KEY)

    with database.transaction() as session:
        row = session.get(UserCreds, stored["id"])
        assert row is not None
        columns = (row.trust_id, row.trustor_user_id, row.password, row.decrypt_method)
    assert columns[0] != trusted.trust_id
    assert columns[1:] == (keystone_service.user_ids["alice"], None, "cryptography_decrypt_v1")
    read = user_creds.get_user_creds(database, stored["id"], ENCRYPTION_KEY)
    assert read is not None and read["trust_id"] == trusted.trust_id


def test_without_a_trustee_plugin_there_are_no_keystone_settings(tmp_path: Path) -> None:
    path = tmp_path / "heat.conf"
    path.write_text("[DEFAULT]\ndeferred_auth_method = trusts\n")

    assert keystone_client.from_conf(config.load(["--config-file", str(path)])) is None


def test_the_stored_trust_gives_a_context_acting_for_the_owner(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings, database: Database
) -> None:
    trusted = keystone_trusts.trust_context(settings, caller(keystone_service, ALICE))
    stored = user_creds.create_user_creds(database, trusted.to_dict(), ENCRYPTION_KEY)

    context = keystone_credentials.stored_context(database, settings, stored["id"], ENCRYPTION_KEY)

    assert {
        "user": context.user_id,
        "project": context.project_id,
        "trust": context.trust_id,
        "trustor": context.trustor_user_id,
        "roles": sorted(context.roles),
        "has token": bool(context.auth_token) and context.auth_token != trusted.auth_token,
    } == {
        "user": keystone_service.user_ids["alice"],
        "project": keystone_service.project_id(ALICE),
        "trust": trusted.trust_id,
        "trustor": keystone_service.user_ids["alice"],
        "roles": ["heat_stack_owner", "member", "reader"],
        "has token": True,
    }


def test_a_deleted_trust_no_longer_authorizes(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings, database: Database
) -> None:
    owner = caller(keystone_service, ALICE)
    trusted = keystone_trusts.trust_context(settings, owner)
    stored = user_creds.create_user_creds(database, trusted.to_dict(), ENCRYPTION_KEY)
    keystone_trusts.delete_trust(settings, owner, trusted.trust_id or "")

    with pytest.raises(AuthorizationFailure):
        keystone_credentials.stored_context(database, settings, stored["id"], ENCRYPTION_KEY)


def test_deleting_the_stored_credentials_deletes_the_trust(
    keystone_service: Keystone, settings: keystone_client.KeystoneSettings, database: Database
) -> None:
    owner = caller(keystone_service, ALICE)
    trusted = keystone_trusts.trust_context(settings, owner)
    stored = user_creds.create_user_creds(database, trusted.to_dict(), ENCRYPTION_KEY)
    admin = caller(keystone_service, ADMIN)

    # An admin deleting the stack is not the trustor: the trustee deletes the trust.
    keystone_credentials.delete_stored(database, settings, admin, stored["id"], ENCRYPTION_KEY)

    status, _ = keystone_service.request(
        "GET", f"/OS-TRUST/trusts/{trusted.trust_id}", owner.auth_token or ""
    )
    assert status == 404
    assert user_creds.get_user_creds(database, stored["id"], ENCRYPTION_KEY) is None
