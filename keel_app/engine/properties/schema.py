"""The schema of one resource property: its type, default, constraints and update rules.

A plugin declares ``properties_schema = {"name": Schema(Schema.STRING, "...")}``;
``dict(schema)`` is the form the ``resource_schema`` RPC answers with. Two older ways
of writing a schema are still read: the legacy CFN-like mapping (``from_legacy``) and a
provider template's parameter (``from_parameter``), which is how a template resource's
facade gets its properties.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidSchemaError
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus

LEGACY_KEYS = (
    REQUIRED,
    IMPLEMENTED,
    DEFAULT,
    TYPE,
    SCHEMA,
    ALLOWED_PATTERN,
    MIN_VALUE,
    MAX_VALUE,
    ALLOWED_VALUES,
    MIN_LENGTH,
    MAX_LENGTH,
    DESCRIPTION,
    UPDATE_ALLOWED,
    IMMUTABLE,
) = (
    "Required",
    "Implemented",
    "Default",
    "Type",
    "Schema",
    "AllowedPattern",
    "MinValue",
    "MaxValue",
    "AllowedValues",
    "MinLength",
    "MaxLength",
    "Description",
    "UpdateAllowed",
    "Immutable",
)

# One shared "supported" status, as Heat's default argument is.
DEFAULT_SUPPORT_STATUS = SupportStatus()


class Schema(constraints.Schema):
    """A property's schema; checks its own consistency when built."""

    KEYS = (
        constraints.Schema.TYPE,
        constraints.Schema.DESCRIPTION,
        constraints.Schema.DEFAULT,
        constraints.Schema.SCHEMA,
        constraints.Schema.REQUIRED,
        constraints.Schema.CONSTRAINTS,
        "update_allowed",
        "immutable",
    )
    UPDATE_ALLOWED = "update_allowed"

    def __init__(
        self,
        data_type: Any,
        description: str | None = None,
        default: Any = None,
        schema: Any = None,
        required: bool = False,
        constraints: list[Any] | None = None,
        implemented: bool = True,
        update_allowed: bool = False,
        immutable: bool = False,
        support_status: SupportStatus = DEFAULT_SUPPORT_STATUS,
        allow_conversion: bool = False,
    ) -> None:
        super().__init__(
            data_type,
            description,
            default,
            schema,
            required,
            constraints,
            immutable=immutable,
        )
        self.implemented = implemented
        self.update_allowed = update_allowed
        self.support_status = support_status
        # Lets a provider template's Json parameter take a list or text through a
        # Map property (see from_parameter).
        self.allow_conversion = allow_conversion
        self.validate()

    def validate(self, context: Any = None) -> None:
        super().validate()
        if self.update_allowed and self.immutable:
            raise InvalidSchemaError(
                message="Options UpdateAllowed and Immutable cannot both be True"
            )

    @classmethod
    def from_legacy(cls, schema_dict: Any) -> Schema:
        """A schema from the old mapping form; a Schema is returned as it is."""
        if isinstance(schema_dict, cls):
            return schema_dict
        unknown = [key for key in schema_dict if key not in LEGACY_KEYS]
        if unknown:
            raise InvalidSchemaError(message=f"Unknown key(s) {unknown}")
        try:
            data_type = schema_dict[TYPE]
        except KeyError:
            raise InvalidSchemaError(message=f"No {TYPE} specified") from None

        nested: Any = None
        if SCHEMA in schema_dict:
            if data_type == cls.LIST:
                nested = cls.from_legacy(schema_dict[SCHEMA])
            elif data_type == cls.MAP:
                nested = {name: cls.from_legacy(item) for name, item in schema_dict[SCHEMA].items()}
            else:
                raise InvalidSchemaError(message=f"{SCHEMA} supplied for {TYPE} {data_type}")

        return cls(
            data_type,
            description=schema_dict.get(DESCRIPTION),
            default=schema_dict.get(DEFAULT),
            schema=nested,
            required=schema_dict.get(REQUIRED, False),
            constraints=list(_legacy_constraints(schema_dict)),
            implemented=schema_dict.get(IMPLEMENTED, True),
            update_allowed=schema_dict.get(UPDATE_ALLOWED, False),
            immutable=schema_dict.get(IMMUTABLE, False),
        )

    @classmethod
    def from_parameter(cls, param: Any) -> Schema:
        """The facade property of a provider template's parameter schema."""
        type_map = {
            param.STRING: cls.STRING,
            param.NUMBER: cls.NUMBER,
            param.LIST: cls.LIST,
            param.MAP: cls.MAP,
            param.BOOLEAN: cls.BOOLEAN,
        }
        # The template itself decides what an update means, so every facade
        # property may change in place.
        return cls(
            data_type=type_map.get(param.type, cls.MAP),
            description=param.description,
            required=param.required,
            constraints=param.constraints,
            update_allowed=True,
            immutable=False,
            allow_conversion=param.type in (param.MAP, param.LIST),
        )

    def allowed_param_prop_type(self) -> str:
        """The property type a provider template parameter must have to serve this one."""
        if self.type == self.INTEGER:
            return self.NUMBER
        return str(self.type)

    def __getitem__(self, key: str) -> Any:
        if key == self.UPDATE_ALLOWED:
            return self.update_allowed
        if key == self.IMMUTABLE:
            return self.immutable
        return super().__getitem__(key)


def _legacy_constraints(schema_dict: Any) -> Any:
    def number(key: str) -> Any:
        value = schema_dict.get(key)
        return Schema.str_to_num(value) if value is not None else None

    if MIN_VALUE in schema_dict or MAX_VALUE in schema_dict:
        yield constraints.Range(number(MIN_VALUE), number(MAX_VALUE))
    if MIN_LENGTH in schema_dict or MAX_LENGTH in schema_dict:
        yield constraints.Length(number(MIN_LENGTH), number(MAX_LENGTH))
    if ALLOWED_VALUES in schema_dict:
        yield constraints.AllowedValues(schema_dict[ALLOWED_VALUES])
    if ALLOWED_PATTERN in schema_dict:
        yield constraints.AllowedPattern(schema_dict[ALLOWED_PATTERN])


def schemata(schema_dicts: Any) -> dict[str, Schema]:
    """Every entry of a properties schema as a Schema object."""
    return {name: Schema.from_legacy(item) for name, item in schema_dicts.items()}
