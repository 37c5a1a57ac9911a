"""Random strings from character classes with minimum counts (Heat's ``password_gen``).

Characters come from ``random.SystemRandom``. Each class first contributes its minimum
number of characters; the rest of the length is drawn from the union of all classes;
the whole is shuffled so that the minimums are not all at the front.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterable
from typing import NamedTuple

_RANDOM = random.SystemRandom()

CHARACTER_CLASSES = (
    LETTERS_DIGITS,
    LETTERS,
    LOWERCASE,
    UPPERCASE,
    DIGITS,
    HEXDIGITS,
    OCTDIGITS,
) = ("lettersdigits", "letters", "lowercase", "uppercase", "digits", "hexdigits", "octdigits")

_MEMBERS = {
    LETTERS_DIGITS: string.ascii_letters + string.digits,
    LETTERS: string.ascii_letters,
    LOWERCASE: string.ascii_lowercase,
    UPPERCASE: string.ascii_uppercase,
    DIGITS: string.digits,
    # Heat's hexdigits are upper case only.
    HEXDIGITS: string.digits + "ABCDEF",
    OCTDIGITS: string.octdigits,
}


class CharacterClass(NamedTuple):
    allowed_characters: frozenset[str]
    minimum: int


def named_character_class(name: str, minimum: int = 0) -> CharacterClass:
    assert name in CHARACTER_CLASSES
    return CharacterClass(frozenset(_MEMBERS[name]), minimum)


def special_character_class(characters: Iterable[str], minimum: int = 0) -> CharacterClass:
    return CharacterClass(frozenset(characters), minimum)


def generate_password(length: int, classes: Iterable[CharacterClass]) -> str:
    chosen: list[str] = []
    every_allowed: set[str] = set()
    for character_class in classes:
        every_allowed |= character_class.allowed_characters
        # Sorted: the draw is random, the pool it is drawn from need not be.
        pool = sorted(character_class.allowed_characters)
        chosen.extend(_RANDOM.choice(pool) for _ in range(character_class.minimum))
    pool = sorted(every_allowed)
    chosen.extend(_RANDOM.choice(pool) for _ in range(max(0, length - len(chosen))))
    return "".join(_RANDOM.sample(chosen, length))
