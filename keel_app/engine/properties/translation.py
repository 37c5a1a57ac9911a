"""Translation rules: how a plugin moves old or alternative property values to new ones.

A rule names a property path and an operation:

- ``Add``: extend a list property with given values or with another property's value;
- ``Replace``: take the value of another property (or a fixed value) instead; giving
  both the old and the new property is an error;
- ``Delete``: forget the property (it is then neither validated nor read);
- ``Resolve``: look a name up through a client plugin's finder to get an id.

``Properties`` consults its ``Translation`` whenever it reads a value. Rules of kind
``Resolve`` are skipped unless client look-ups are allowed (they never are while a
template is only being validated).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.template import function

LOG = logging.getLogger(__name__)


@functools.total_ordering
class TranslationRule:
    """One rule; rules on the same path apply in the order Add, Replace, Resolve, Delete."""

    RULE_KEYS = (ADD, REPLACE, DELETE, RESOLVE) = ("Add", "Replace", "Delete", "Resolve")
    _ORDER = (ADD, REPLACE, RESOLVE, DELETE)

    def __init__(
        self,
        properties: Any,
        rule: str,
        translation_path: list[str],
        value: Any = None,
        value_name: str | None = None,
        value_path: list[str] | None = None,
        client_plugin: Any = None,
        finder: str | None = None,
        entity: str | None = None,
        custom_value_path: list[str] | None = None,
    ) -> None:
        self.properties = properties
        self.rule = rule
        self.translation_path = translation_path
        self.value = value or None
        self.value_name = value_name
        self.value_path = value_path
        self.client_plugin = client_plugin
        self.finder = finder
        self.entity = entity
        self.custom_value_path = custom_value_path
        self.validate()

    def __lt__(self, other: TranslationRule) -> bool:
        return self._ORDER.index(self.rule) < self._ORDER.index(other.rule)

    def __eq__(self, other: object) -> bool:
        # Identity: a set of rules must keep two equal-looking rules apart.
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def validate(self) -> None:
        if self.rule not in self.RULE_KEYS:
            raise ValueError(
                f"There is no rule {self.rule}. List of allowed rules is: "
                f"{', '.join(self.RULE_KEYS)}."
            )
        if not isinstance(self.translation_path, list) or not self.translation_path:
            raise ValueError('"translation_path" should be non-empty list with path to translate.')
        given = [self.value_path is not None, self.value is not None, self.value_name is not None]
        if given.count(True) > 1:
            raise ValueError(
                '"value_path", "value" and "value_name" are mutually exclusive and cannot be '
                "specified at the same time."
            )
        if self.rule == self.ADD and self.value is not None and not isinstance(self.value, list):
            raise ValueError('"value" must be list type when rule is Add.')
        if self.rule == self.RESOLVE and not (self.client_plugin or self.finder):
            raise ValueError(
                f'"client_plugin" and "finder" should be specified for {self.RESOLVE} rule'
            )

    def get_value_absolute_path(self, full_value_name: bool = False) -> list[str]:
        """Where the rule's source value lives (a sibling name or a path from the top)."""
        path: list[str] = []
        if self.value_name:
            if full_value_name:
                path.extend(self.translation_path[:-1])
            path.append(self.value_name)
        elif self.value_path:
            path.extend(self.value_path)
        if self.custom_value_path:
            path.extend(self.custom_value_path)
        return path


class Translation:
    """The rules of one Properties object and the values they produced so far."""

    def __init__(self, properties: Any = None) -> None:
        self.properties = properties
        self._rules: dict[str, set[TranslationRule]] = {}
        self.resolved_translations: dict[str, Any] = {}
        # Off while a rule reads its source property, so that reading cannot recurse.
        self.is_active = True
        # Off while validating: values that depend on client look-ups are not kept.
        self.store_translated_values = True
        self._ignore_resolve_error = False
        self._deleted_props: list[str] = []
        self._replaced_props: list[str] = []

    def set_rules(
        self, rules: Any, client_resolve: bool = True, ignore_resolve_error: bool = False
    ) -> None:
        if not rules:
            return
        self._rules = {}
        self.store_translated_values = client_resolve
        self._ignore_resolve_error = ignore_resolve_error
        for rule in rules:
            if not client_resolve and rule.rule == TranslationRule.RESOLVE:
                continue
            key = ".".join(rule.translation_path)
            self._rules.setdefault(key, set()).add(rule)
            if rule.rule == TranslationRule.DELETE:
                self._deleted_props.append(key)
            if rule.rule == TranslationRule.REPLACE:
                self._replaced_props.append(".".join(rule.get_value_absolute_path(True)))

    @staticmethod
    def cast_key_to_rule(key: str) -> str:
        """A property path without its list indexes (rules name paths without them)."""
        return ".".join(item for item in key.split(".") if not item.isdigit())

    def is_deleted(self, key: str) -> bool:
        return self.is_active and self.cast_key_to_rule(key) in self._deleted_props

    def is_replaced(self, key: str) -> bool:
        return self.is_active and self.cast_key_to_rule(key) in self._replaced_props

    def has_translation(self, key: str) -> bool:
        key = self.cast_key_to_rule(key)
        return self.is_active and (key in self._rules or key in self.resolved_translations)

    def translate(
        self, key: str, prop_value: Any = None, prop_data: Any = None, validate: bool = False
    ) -> Any:
        if key in self.resolved_translations:
            return self.resolved_translations[key]
        rules = self._rules.get(self.cast_key_to_rule(key))
        result = prop_value
        if rules is None:
            return result
        for rule in sorted(rules):
            if rule.rule == TranslationRule.DELETE:
                if self.store_translated_values:
                    self.resolved_translations[key] = None
                result = None
            elif rule.rule == TranslationRule.REPLACE:
                result = self.replace(key, rule, result, prop_data, validate)
            elif rule.rule == TranslationRule.ADD:
                result = self.add(key, rule, result, prop_data, validate)
            elif rule.rule == TranslationRule.RESOLVE:
                result = resolve_and_find(
                    result, rule.client_plugin, rule.finder, rule.entity, self._ignore_resolve_error
                )
                if self.store_translated_values:
                    self.resolved_translations[key] = result
        return result

    def add(
        self,
        key: str,
        add_rule: TranslationRule,
        prop_value: Any = None,
        prop_data: Any = None,
        validate: bool = False,
    ) -> Any:
        value_path = add_rule.get_value_absolute_path()
        if prop_value is None:
            prop_value = []
        if not isinstance(prop_value, list):
            raise ValueError(
                "Incorrect translation rule using - cannot resolve Add rule for non-list "
                f'translation value "{key}".'
            )
        translated = prop_value
        if add_rule.value:
            translated.extend(add_rule.value)
        elif value_path:
            joined = ".".join(value_path)
            if self.has_translation(joined):
                self.translate(joined, prop_data=prop_data)
            self.is_active = False
            source = prop_data if add_rule.value_name else self.properties
            value = get_value(value_path, source, validate)
            self.is_active = True
            if value is not None:
                translated.extend(value if isinstance(value, list) else [value])
        if self.store_translated_values:
            self.resolved_translations[key] = translated
        return translated

    def replace(
        self,
        key: str,
        replace_rule: TranslationRule,
        prop_value: Any = None,
        prop_data: Any = None,
        validate: bool = False,
    ) -> Any:
        value = None
        value_path = replace_rule.get_value_absolute_path(full_value_name=True)
        short_path = replace_rule.get_value_absolute_path()
        if value_path:
            if replace_rule.value_name is not None:
                source_key = ".".join(key.split(".")[:-1] + short_path)
                subpath = short_path
            else:
                source_key = ".".join(value_path)
                subpath = value_path
            source = prop_data if replace_rule.value_name else self.properties
            self.is_active = False
            value = get_value(subpath, source, validate)
            self.is_active = True
            if self.has_translation(source_key):
                self.translate(source_key, value, prop_data=prop_data)
            if value and prop_value:
                both = ", ".join([self.cast_key_to_rule(key), ".".join(value_path)])
                raise StackValidationFailed(
                    message=f"Cannot define the following properties at the same time: {both}"
                )
        elif replace_rule.value is not None:
            value = replace_rule.value

        result = value if value is not None else prop_value
        if self.store_translated_values:
            self.resolved_translations[key] = result
            if value_path:
                if replace_rule.value_name:
                    value_path = key.split(".")[:-1] + short_path
                self.resolved_translations[".".join(value_path)] = None
        return result


def get_value(path: list[str], props: Any, validate: bool = False) -> Any:
    """The value at ``path`` in a Properties object or in plain data; lists fan out."""
    if not props:
        return None
    key = path[0]
    if isinstance(props, dict):
        prop = props.get(key)
    else:
        prop = props._get_property_value(key, validate)
    if not path[1:]:
        return prop
    if prop is None:
        return None
    if isinstance(prop, list):
        return [get_value(path[1:], item) for item in prop]
    if isinstance(prop, dict):
        return get_value(path[1:], prop)
    return None


def resolve_and_find(
    value: Any,
    client_plugin: Any,
    finder: Any,
    entity: str | None = None,
    ignore_resolve_error: bool = False,
) -> Any:
    """The id a client plugin's finder gives for ``value`` (each item of a list)."""
    if isinstance(value, function.Function):
        value = function.resolve(value)
    if not value:
        return value
    if isinstance(value, list):
        return [
            resolve_and_find(item, client_plugin, finder, entity, ignore_resolve_error)
            for item in value
        ]
    find = getattr(client_plugin, finder)
    try:
        if entity:
            return find(entity, value)
        return find(value)
    except Exception as error:
        if ignore_resolve_error:
            LOG.info("Ignoring error in RESOLVE translation: %s", error)
            return value
        raise
