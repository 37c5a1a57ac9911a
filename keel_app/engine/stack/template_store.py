"""Storing and loading a stack's template: the ``raw_template`` row and its files.

Heat keeps the template document, the environment (``env_as_dict``) and a reference
to a ``raw_template_files`` row holding the files; an empty files map stores no row.
With ``encrypt_parameters_and_properties`` the hidden parameters' values are stored
encrypted, ``[method, data]``, and named in ``encrypted_param_names``; loading decrypts
whatever that list names, whatever the current setting.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from keel_app.common import crypt, exception
from keel_app.engine.environment import Environment
from keel_app.engine.template import DEFAULT_LIMITS, Template, TemplateLimits
from keel_app.models import RawTemplate
from keel_app.models.database import Database
from keel_app.models.template import RawTemplateFiles

LOG = logging.getLogger(__name__)
ENCRYPTED_PARAM_NAMES = "encrypted_param_names"


def _encrypted_environment(template: Any, encryption_key: str | None) -> dict[str, Any]:
    environment = copy.deepcopy(template.env.env_as_dict())
    parameters = environment.setdefault("parameters", {})
    names = environment.setdefault(ENCRYPTED_PARAM_NAMES, [])
    schemata = template.param_schemata()
    for name, value in parameters.items():
        if name not in schemata or not schemata[name].hidden:
            continue
        text = value if isinstance(value, str) else str(value)
        parameters[name] = list(crypt.encrypt(text, encryption_key))
        if name not in names:
            names.append(name)
    return environment


def _decrypted_environment(
    environment: dict[str, Any] | None, encryption_key: str | None
) -> dict[str, Any]:
    environment = copy.deepcopy(environment or {})
    parameters = environment.get("parameters", {})
    for name in environment.get(ENCRYPTED_PARAM_NAMES, []):
        value = parameters.get(name)
        if isinstance(value, list | tuple) and len(value) == 2:
            parameters[name] = crypt.decrypt(value[0], value[1], encryption_key)
        else:
            LOG.warning(
                "Encountered already-decrypted data while attempting to decrypt "
                "parameter %s. Please verify your configuration.",
                name,
            )
    return environment


def store_template(
    database: Database,
    template: Any,
    encrypt_hidden: bool = False,
    encryption_key: str | None = None,
) -> int:
    """Insert the template's row (and its files' row) unless it has one; return its id."""
    if template.id is not None:
        return int(template.id)
    with database.transaction() as session:
        files_id = None
        if template.files:
            files_row = RawTemplateFiles(files=dict(template.files))
            session.add(files_row)
            session.flush()
            files_id = files_row.id
        if encrypt_hidden:
            environment = _encrypted_environment(template, encryption_key)
        else:
            environment = template.env.env_as_dict()
        row = RawTemplate(template=template.t, environment=environment, files_id=files_id)
        session.add(row)
        session.flush()
        template.id = row.id
    return int(template.id)


def load_template(
    database: Database,
    template_id: int,
    limits: TemplateLimits = DEFAULT_LIMITS,
    global_environment: Any = None,
    encryption_key: str | None = None,
) -> Template:
    """The stored template with its environment and files."""
    with database.transaction() as session:
        row = session.get(RawTemplate, template_id)
        if row is None:
            raise exception.NotFound(f"raw template with id {template_id} not found")
        files: dict[str, Any] = dict(row.files or {})
        if row.files_id is not None:
            files_row = session.get(RawTemplateFiles, row.files_id)
            if files_row is not None:
                files.update(files_row.files or {})
        document, environment = row.template, row.environment
    return Template(
        document,
        template_id=template_id,
        files=files,
        env=Environment(
            _decrypted_environment(environment, encryption_key), global_env=global_environment
        ),
        limits=limits,
    )
