"""``update_params``: encrypt or decrypt, in place, the stored values Heat may keep secret.

Two kinds of rows hold them: the environment of a ``raw_template`` (the values of the
template's hidden parameters, listed in ``encrypted_param_names``) and
``resource_properties_data`` (every value, flagged by ``encrypted``). Rows are read in
batches, one transaction a batch; a row that cannot be processed is logged, left as it
was and its error returned, and the others go on.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterator
from typing import Any, TypeVar

import sqlalchemy as sa

from keel_app.common import crypt
from keel_app.models import RawTemplate, ResourcePropertiesData
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 50
HOT_VERSION_KEY = "heat_template_version"
CFN_VERSION_KEYS = ("AWSTemplateFormatVersion", "HeatTemplateFormatVersion")

Row = TypeVar("Row", RawTemplate, ResourcePropertiesData)


def encrypt_parameters_and_properties(
    database: Database,
    encryption_key: str | None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    verbose: bool = False,
) -> list[Exception]:
    """Encrypt hidden parameters and properties data not encrypted yet; return the errors."""
    return _crypt_everything(database, encryption_key, True, batch_size, verbose)


def decrypt_parameters_and_properties(
    database: Database,
    encryption_key: str | None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    verbose: bool = False,
) -> list[Exception]:
    """Decrypt every encrypted parameter and properties data row; return the errors."""
    return _crypt_everything(database, encryption_key, False, batch_size, verbose)


def _crypt_everything(
    database: Database, key: str | None, encrypt: bool, batch_size: int, verbose: bool
) -> list[Exception]:
    action = "encrypt" if encrypt else "decrypt"
    errors: list[Exception] = []
    for template in _batches(database, sa.select(RawTemplate), RawTemplate, batch_size):
        if verbose:
            LOG.info("Processing raw_template %s...", template.id)
        try:
            _crypt_template(template, key, encrypt)
        except Exception as error:
            LOG.exception("Failed to %s parameters of raw template %d", action, template.id)
            errors.append(error)
        if verbose:
            LOG.info("Finished %s processing of raw_template %d.", action, template.id)

    not_done = sa.select(ResourcePropertiesData).where(
        ResourcePropertiesData.encrypted.is_not(encrypt)
    )
    for data in _batches(database, not_done, ResourcePropertiesData, batch_size):
        if not data.data:
            continue
        if verbose:
            LOG.info("Processing resource_properties_data %s...", data.id)
        try:
            if encrypt:
                data.data = crypt.encrypted_dict(data.data, key)
            else:
                data.data = crypt.decrypted_dict(data.data, key)
            data.encrypted = encrypt
        except Exception as error:
            LOG.exception("Failed to %s data of resource_properties_data %d", action, data.id)
            errors.append(error)
        if verbose:
            LOG.info("Finished processing resource_properties_data %s.", data.id)
    return errors


def _batches(
    database: Database, query: sa.Select[tuple[Row]], model: type[Row], batch_size: int
) -> Iterator[Row]:
    """Yield the rows of ``query`` by id, each batch in a transaction committing changes."""
    last_id = None
    while True:
        with database.transaction() as session:
            page = query.order_by(model.id).limit(batch_size)
            if last_id is not None:
                page = page.where(model.id > last_id)
            rows = session.scalars(page).all()
            if not rows:
                return
            yield from rows
            last_id = rows[-1].id


def _crypt_template(template: RawTemplate, key: str | None, encrypt: bool) -> None:
    environment = template.environment
    # Asking the keys of the environment makes a malformed one an error of this row.
    if environment is None or "parameters" not in environment.keys():
        return
    names = list(environment.get("encrypted_param_names", []))
    new_environment = copy.deepcopy(environment)
    parameters = new_environment["parameters"]
    if encrypt:
        hidden = hidden_parameter_names(template.template)
        to_encrypt = [
            name for name in environment["parameters"] if name in hidden and name not in names
        ]
        for name in to_encrypt:
            parameters[name] = list(crypt.encrypt(str(parameters[name]), key))
        if not to_encrypt:
            return
        new_environment["encrypted_param_names"] = names + to_encrypt
    else:
        if not names:
            return
        for name in names:
            method, value = environment["parameters"][name]
            parameters[name] = crypt.decrypt(method, value, key)
        new_environment["encrypted_param_names"] = []
    template.environment = new_environment


def hidden_parameter_names(template: Any) -> set[str]:
    """Parameters that a HOT (``hidden``) or CFN (``NoEcho``) template declares hidden."""
    if not isinstance(template, dict):
        raise ValueError("The template is not a map")
    versions = [key for key in (HOT_VERSION_KEY, *CFN_VERSION_KEYS) if key in template]
    if len(versions) != 1:
        raise ValueError(f"The template names {len(versions)} versions: {versions}")
    if versions[0] == HOT_VERSION_KEY:
        section, type_key = template.get("parameters") or {}, "type"
    else:
        section, type_key = template.get("Parameters") or {}, "Type"
    hidden = set()
    for name, schema in section.items():
        if not isinstance(schema, dict) or type_key not in schema:
            raise ValueError(f"Parameter {name} has no {type_key}")
        if type_key == "type":
            is_hidden = bool(schema.get("hidden", False))
        else:
            is_hidden = str(schema.get("NoEcho", "false")).lower() == "true"
        if is_hidden:
            hidden.add(name)
    return hidden
