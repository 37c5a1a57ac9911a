"""RandomString's generator: Heat's character classes, sequences and minimum counts."""

from __future__ import annotations

import string

from keel_app.resources.heat import password_generation as generation


def test_length_is_exact() -> None:
    classes = [generation.named_character_class(generation.LETTERS_DIGITS, 1)]
    assert {len(generation.generate_password(length, classes)) for length in (1, 32, 512)} == {
        1,
        32,
        512,
    }


def test_only_characters_of_the_classes_are_used() -> None:
    classes = [generation.named_character_class(generation.OCTDIGITS)]
    assert set(generation.generate_password(200, classes)) <= set(string.octdigits)


def test_hexdigits_are_upper_case_as_in_heat() -> None:
    classes = [generation.named_character_class(generation.HEXDIGITS)]
    assert set(generation.generate_password(400, classes)) <= set("0123456789ABCDEF")


def test_minimum_counts_of_each_class_are_met() -> None:
    classes = [
        generation.named_character_class(generation.LOWERCASE, 3),
        generation.special_character_class("!@#", 4),
        generation.named_character_class(generation.DIGITS, 2),
    ]
    for _ in range(50):
        value = generation.generate_password(9, classes)
        assert sum(character in "!@#" for character in value) == 4
        assert sum(character.isdigit() for character in value) == 2
        assert sum(character.islower() for character in value) == 3
