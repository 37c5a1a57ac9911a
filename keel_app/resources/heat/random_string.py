"""OS::Heat::RandomString: a random string (a password, a secret) made when created.

The string is drawn from character classes and/or explicit character sequences, each
with a minimum count; ``validate`` checks that the minimums fit in the length. The
deprecated ``sequence`` property is translated into a character class. The string is
made on create and kept in resource_data as ``value``, redacted (stored encrypted).
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.environment.support import DEPRECATED, HIDDEN, SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.heat import password_generation

CHARACTER_CLASS_NAMES = (
    LETTERS_DIGITS,
    LETTERS,
    LOWERCASE,
    UPPERCASE,
    DIGITS,
    HEXDIGITS,
    OCTDIGITS,
) = ("lettersdigits", "letters", "lowercase", "uppercase", "digits", "hexdigits", "octdigits")


class RandomString(Resource):
    """A random string of a given length from chosen characters."""

    acts_locally = True

    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource which generates a random string.

This is useful for configuring passwords and secrets on services. Random
string can be generated from specified character sequences, which means
that all characters will be randomly chosen from specified sequences, or
with some classes, e.g. letterdigits, which means that all character will
be randomly chosen from union of ascii letters and digits. Output string
will be randomly generated string with specified length (or with length of
32, if length property doesn't specified).
"""

    PROPERTIES = (LENGTH, SEQUENCE, CHARACTER_CLASSES, CHARACTER_SEQUENCES, SALT) = (
        "length",
        "sequence",
        "character_classes",
        "character_sequences",
        "salt",
    )
    CHARACTER_CLASSES_KEYS = (CHARACTER_CLASSES_CLASS, CHARACTER_CLASSES_MIN) = ("class", "min")
    CHARACTER_SEQUENCES_KEYS = (CHARACTER_SEQUENCES_SEQUENCE, CHARACTER_SEQUENCES_MIN) = (
        "sequence",
        "min",
    )
    ATTRIBUTES = (VALUE,) = ("value",)

    properties_schema = {
        LENGTH: Schema(
            Schema.INTEGER,
            "Length of the string to generate.",
            default=32,
            constraints=[constraints.Range(1, 512)],
        ),
        SEQUENCE: Schema(
            Schema.STRING,
            "Sequence of characters to build the random string from.",
            constraints=[constraints.AllowedValues(CHARACTER_CLASS_NAMES)],
            support_status=SupportStatus(
                status=HIDDEN,
                version="5.0.0",
                previous_status=SupportStatus(
                    status=DEPRECATED,
                    message="Use property character_classes.",
                    version="2014.2",
                ),
            ),
        ),
        CHARACTER_CLASSES: Schema(
            Schema.LIST,
            "A list of character class and their constraints to generate the random string from.",
            schema=Schema(
                Schema.MAP,
                schema={
                    CHARACTER_CLASSES_CLASS: Schema(
                        Schema.STRING,
                        "A character class and its corresponding min constraint to generate "
                        "the random string from.",
                        constraints=[constraints.AllowedValues(CHARACTER_CLASS_NAMES)],
                        default=LETTERS_DIGITS,
                    ),
                    CHARACTER_CLASSES_MIN: Schema(
                        Schema.INTEGER,
                        "The minimum number of characters from this character class that "
                        "will be in the generated string.",
                        default=1,
                        constraints=[constraints.Range(1, 512)],
                    ),
                },
            ),
            # The default every string had before character classes could be chosen.
            default=[{CHARACTER_CLASSES_CLASS: LETTERS_DIGITS, CHARACTER_CLASSES_MIN: 1}],
        ),
        CHARACTER_SEQUENCES: Schema(
            Schema.LIST,
            "A list of character sequences and their constraints to generate the random "
            "string from.",
            schema=Schema(
                Schema.MAP,
                schema={
                    CHARACTER_SEQUENCES_SEQUENCE: Schema(
                        Schema.STRING,
                        "A character sequence and its corresponding min constraint to "
                        "generate the random string from.",
                        required=True,
                    ),
                    CHARACTER_SEQUENCES_MIN: Schema(
                        Schema.INTEGER,
                        "The minimum number of characters from this sequence that will be "
                        "in the generated string.",
                        default=1,
                        constraints=[constraints.Range(1, 512)],
                    ),
                },
            ),
        ),
        SALT: Schema(
            Schema.STRING,
            "Value which can be set or changed on stack update to trigger the resource for "
            "replacement with a new random string. The salt value itself is ignored by the "
            "random generator.",
        ),
    }

    attributes_schema = {
        VALUE: AttributeSchema(
            "The random string generated by this resource. This value is also available by "
            "referencing the resource.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        sequence = properties.get(self.SEQUENCE)
        if not sequence:
            return []
        # The old single sequence becomes one more character class.
        return [
            TranslationRule(
                properties,
                TranslationRule.ADD,
                [self.CHARACTER_CLASSES],
                [{self.CHARACTER_CLASSES_CLASS: sequence, self.CHARACTER_CLASSES_MIN: 1}],
            ),
            TranslationRule(properties, TranslationRule.DELETE, [self.SEQUENCE]),
        ]

    def validate(self) -> None:
        super().validate()
        sequences = self.properties[self.CHARACTER_SEQUENCES]
        classes = self.properties[self.CHARACTER_CLASSES]

        def minimum(items: Any, key: str) -> int:
            return sum(item[key] for item in items) if items else 0

        shortest = minimum(sequences, self.CHARACTER_SEQUENCES_MIN) + minimum(
            classes, self.CHARACTER_CLASSES_MIN
        )
        if shortest > self.properties[self.LENGTH]:
            raise StackValidationFailed(
                message="Length property cannot be smaller than combined character class and "
                "character sequence minimums"
            )

    def _generate_random_string(
        self, sequences: list[dict[str, Any]], classes: list[dict[str, Any]], length: int
    ) -> str:
        character_classes = [
            password_generation.special_character_class(
                item[self.CHARACTER_SEQUENCES_SEQUENCE], item[self.CHARACTER_SEQUENCES_MIN]
            )
            for item in sequences
        ] + [
            password_generation.named_character_class(
                item[self.CHARACTER_CLASSES_CLASS], item[self.CHARACTER_CLASSES_MIN]
            )
            for item in classes
        ]
        return password_generation.generate_password(length, character_classes)

    def handle_create(self) -> None:
        value = self._generate_random_string(
            self.properties[self.CHARACTER_SEQUENCES] or [],
            self.properties[self.CHARACTER_CLASSES] or [],
            self.properties[self.LENGTH],
        )
        self.data_set(self.VALUE, value, redact=True)
        self.resource_id_set(self.physical_resource_name())

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.VALUE:
            return self.data().get(self.VALUE)
        return None

    def get_reference_id(self) -> str:
        if self.resource_id is not None:
            return self.data().get("value")  # type: ignore[no-any-return]
        return str(self.name)
