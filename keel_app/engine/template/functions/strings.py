"""Functions that build strings: str_replace family, list_join, str_split, digest, make_url."""

from __future__ import annotations

import collections.abc
import hashlib
import json
from typing import Any
from urllib import parse as urlparse

from keel_app.engine.template import function

_HOT = "heat.engine.hot.functions."


def dump_json(value: Any) -> str:
    """JSON as Heat writes it when it puts a list or map into a string."""
    return json.dumps(value, default=None, sort_keys=True)


class Replace(function.Function):
    """``str_replace: {template: ..., params: {...}}``; longest placeholders win."""

    heat_class = _HOT + "Replace"
    _strict = False
    _allow_empty_value = True

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._mapping, self._string = self._parse_args()
        if not isinstance(self._mapping, (collections.abc.Mapping, function.Function)):
            raise TypeError(f'"{self.fn_name}" parameters must be a mapping')

    def _parse_args(self) -> tuple[Any, Any]:
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError(f'Arguments to "{self.fn_name}" must be a map')
        try:
            return self.args["params"], self.args["template"]
        except (KeyError, TypeError):
            example = (
                f"{self.fn_name}:\n"
                "              template: This is var1 template var2\n"
                "              params:\n"
                "                var1: a\n"
                "                var2: string"
            )
            raise KeyError(f'"{self.fn_name}" syntax should be {example}') from None

    def _validate_replacement(self, value: Any, param: Any) -> str:
        if value is None:
            return ""
        if not isinstance(value, (str, int, float, bool)):
            raise TypeError(
                f'"{self.fn_name}" params must be strings or numbers, param {param} is not valid'
            )
        return str(value)

    def result(self) -> Any:
        template = function.resolve(self._string)
        mapping = function.resolve(self._mapping)
        unreplaced: set[Any] = set(mapping) if self._strict else set()

        if not isinstance(template, str):
            raise TypeError(f'"{self.fn_name}" template must be a string')
        if not isinstance(mapping, collections.abc.Mapping):
            raise TypeError(f'"{self.fn_name}" params must be a map')

        def replace(strings: list[str], keys: list[Any]) -> list[str]:
            if not keys:
                return strings
            placeholder = keys[0]
            if not isinstance(placeholder, str):
                raise TypeError(f'"{self.fn_name}" param placeholders must be strings')
            value = self._validate_replacement(mapping[placeholder], placeholder)

            def split(text: str) -> list[str]:
                pieces = text.split(placeholder)
                if self._strict and len(pieces) > 1:
                    unreplaced.discard(placeholder)
                return pieces

            return [value.join(replace(split(text), keys[1:])) for text in strings]

        # Longest placeholders first; among equals, the alphabetically first.
        replaced = replace([template], sorted(sorted(mapping), key=len, reverse=True))[0]
        if self._strict and unreplaced:
            missing = ",".join(sorted(sorted(unreplaced), key=len, reverse=True))
            raise ValueError(f"The following params were not found in the template: {missing}")
        return replaced


class ReplaceJson(Replace):
    """``str_replace`` from 2015-10-15: lists and maps are substituted as JSON."""

    heat_class = _HOT + "ReplaceJson"

    def _empty_value_error(self, param: Any) -> ValueError:
        return ValueError(
            f"{self.fn_name} has an undefined or empty value for param {param}, "
            "must be a defined non-empty value"
        )

    def _validate_replacement(self, value: Any, param: Any) -> str:
        if value is None:
            if self._allow_empty_value:
                return ""
            raise self._empty_value_error(param)
        if not isinstance(value, (str, int, float, bool)):
            if isinstance(value, (collections.abc.Mapping, collections.abc.Sequence)):
                if not self._allow_empty_value and len(value) == 0:
                    raise self._empty_value_error(param)
                try:
                    return dump_json(value)
                except TypeError:
                    raise TypeError(
                        f'"{self.fn_name}" params must be strings, numbers, list or map. '
                        f"Failed to json serialize {value}"
                    ) from None
            raise TypeError(f'"{self.fn_name}" params must be strings, numbers, list or map.')
        text = str(value)
        if not self._allow_empty_value and not text:
            raise self._empty_value_error(param)
        return text


class ReplaceJsonStrict(ReplaceJson):
    """``str_replace_strict``: every param must occur in the template."""

    heat_class = _HOT + "ReplaceJsonStrict"
    _strict = True


class ReplaceJsonVeryStrict(ReplaceJsonStrict):
    """``str_replace_vstrict``: and no param may be empty."""

    heat_class = _HOT + "ReplaceJsonVeryStrict"
    _allow_empty_value = False


class Join(function.Function):
    """``list_join: [delimiter, [strings...]]`` (before 2015-10-15: exactly one list)."""

    heat_class = _HOT + "Join"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        usage = (
            f'Incorrect arguments to "{self.fn_name}" should be: '
            f'"{self.fn_name}" : [ " ", [ "str1", "str2"]]'
        )
        if not isinstance(self.args, list):
            raise TypeError(usage)
        try:
            self._delim, self._strings = self.args
        except ValueError:
            raise ValueError(usage) from None

    def result(self) -> Any:
        strings = function.resolve(self._strings)
        if strings is None:
            strings = []
        if isinstance(strings, str) or not isinstance(strings, collections.abc.Sequence):
            raise TypeError(f'"{self.fn_name}" must operate on a list')
        delimiter = function.resolve(self._delim)
        if not isinstance(delimiter, str):
            raise TypeError(f'"{self.fn_name}" delimiter must be a string')

        def ensure_string(item: Any) -> str:
            if item is None:
                return ""
            if not isinstance(item, str):
                raise TypeError(f"Items to join must be strings not {repr(item)[:200]}")
            return item

        return delimiter.join(ensure_string(item) for item in strings)


class JoinMultiple(function.Function):
    """``list_join: [delimiter, [..], [..], ...]``; lists and maps join as JSON."""

    heat_class = _HOT + "JoinMultiple"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        usage = (
            f'Incorrect arguments to "{fn_name}" should be: '
            f'"{fn_name}" : [ " ", [ "str1", "str2"] ...]'
        )
        if not isinstance(args, list):
            raise TypeError(usage)
        if len(args) < 2:
            raise ValueError(usage)
        self._delim = args[0]
        self._joinlists = args[1:]

    def result(self) -> Any:
        lists = function.resolve(self._joinlists)
        strings: list[Any] = []
        for items in lists:
            if items:
                if isinstance(items, str) or not isinstance(items, collections.abc.Sequence):
                    raise TypeError(f'"{self.fn_name}" must operate on a list')
                strings += items
        delimiter = function.resolve(self._delim)
        if not isinstance(delimiter, str):
            raise TypeError(f'"{self.fn_name}" delimiter must be a string')

        def ensure_string(item: Any) -> str:
            message = f"Items to join must be string, map or list not {repr(item)[:200]}"
            if item is None:
                return ""
            if isinstance(item, str):
                return item
            if isinstance(item, (collections.abc.Mapping, collections.abc.Sequence)):
                try:
                    return dump_json(item)
                except TypeError:
                    message = (
                        "Items to join must be string, map or list. "
                        f"{repr(item)[:200]} failed json serialization"
                    )
            raise TypeError(message)

        return delimiter.join(ensure_string(item) for item in strings)


class StrSplit(function.Function):
    """``str_split: [delimiter, string, (index)]``."""

    heat_class = _HOT + "StrSplit"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._example = f'"{fn_name}" : [ ",", "apples,pears", <index>]'
        if isinstance(args, (str, collections.abc.Mapping)):
            raise TypeError(f'Incorrect arguments to "{fn_name}" should be: {self._example}')

    def result(self) -> Any:
        args = function.resolve(self.args)
        try:
            delimiter = args.pop(0)
            text = args.pop(0)
        except (AttributeError, IndexError):
            raise ValueError(
                f'Incorrect arguments to "{self.fn_name}" should be: {self._example}'
            ) from None
        if text is None:
            return None
        pieces = text.split(delimiter)
        if not args:
            return pieces
        try:
            index = int(args.pop(0))
        except ValueError:
            raise ValueError(
                f'Incorrect index to "{self.fn_name}" should be: {self._example}'
            ) from None
        try:
            return pieces[index]
        except IndexError:
            raise ValueError(
                f'Incorrect index to "{self.fn_name}" should be between 0 and {len(pieces) - 1}'
            ) from None


class Digest(function.Function):
    """``digest: [algorithm, value]``: the hex digest of the value's latin-1 bytes."""

    heat_class = _HOT + "Digest"

    def validate_usage(self, args: Any) -> None:
        if not (isinstance(args, list) and all(isinstance(arg, str) for arg in args)):
            raise TypeError(f'Argument to function "{self.fn_name}" must be a list of strings')
        if len(args) != 2:
            raise ValueError(f'Function "{self.fn_name}" usage: ["<algorithm>", "<value>"]')
        algorithms = hashlib.algorithms_available
        if args[0].lower() not in algorithms:
            raise ValueError(f"Algorithm must be one of {algorithms}")

    def digest(self, algorithm: str, value: str) -> str:
        hashed = hashlib.new(algorithm)
        hashed.update(value.encode("latin-1"))
        return hashed.hexdigest()

    def result(self) -> Any:
        args = function.resolve(self.args)
        self.validate_usage(args)
        return self.digest(*args)


class MakeURL(function.Function):
    """``make_url: {scheme, username, password, host, port, path, query, fragment}``."""

    heat_class = _HOT + "MakeURL"
    _ARG_KEYS = (SCHEME, USERNAME, PASSWORD, HOST, PORT, PATH, QUERY, FRAGMENT) = (
        "scheme",
        "username",
        "password",
        "host",
        "port",
        "path",
        "query",
        "fragment",
    )

    def _check_args(self, args: Any) -> None:
        for key in self._ARG_KEYS:
            if key not in args:
                continue
            value = args[key]
            if key == self.QUERY:
                if not isinstance(value, (function.Function, collections.abc.Mapping)):
                    raise TypeError(f'The "{key}" argument to "{self.fn_name}" must be a map')
                # Heat stops checking at the query: it comes after scheme..path.
                return
            if key == self.PORT:
                if isinstance(value, function.Function):
                    continue
                port = value
                if not isinstance(port, int):
                    try:
                        port = int(port)
                    except ValueError:
                        raise ValueError(
                            f'Invalid URL port "{port}" for {self.fn_name} called with '
                            f"{function.message_value(args)}"
                        ) from None
                if not 0 < port <= 65535:
                    raise ValueError(f"Invalid URL port {port:d}, must be in range 1-65535")
            elif not isinstance(value, (function.Function, str)):
                raise TypeError(f'The "{key}" argument to "{self.fn_name}" must be a string')

    def validate(self) -> None:
        super().validate()
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError(f'The arguments to "{self.fn_name}" must be a map')
        invalid = set(self.args) - set(self._ARG_KEYS)
        if invalid:
            raise ValueError(f'Invalid arguments to "{self.fn_name}": {", ".join(invalid)}')
        self._check_args(self.args)

    def result(self) -> Any:
        args = function.resolve(self.args)
        self._check_args(args)
        scheme = args.get(self.SCHEME, "")
        if ":" in scheme:
            raise ValueError(f"URL \"{self.SCHEME}\" should not contain ':'")

        def netloc() -> str:
            parts = []
            username = urlparse.quote(args.get(self.USERNAME, ""), safe="")
            password = urlparse.quote(args.get(self.PASSWORD, ""), safe="")
            if username or password:
                parts.append(username)
                if password:
                    parts += [":", password]
                parts.append("@")
            host = args.get(self.HOST, "")
            if host.startswith("[") and host.endswith("]"):
                host = host[1:-1]
            host = urlparse.quote(host, safe=":")
            if ":" in host:
                host = f"[{host}]"
            parts.append(host)
            port = args.get(self.PORT, "")
            if port:
                parts += [":", str(port)]
            return "".join(parts)

        path = urlparse.quote(args.get(self.PATH, ""))
        query = urlparse.urlencode(args.get(self.QUERY, {})).replace("%2F", "/")
        fragment = urlparse.quote(args.get(self.FRAGMENT, ""))
        return urlparse.urlunsplit((scheme, netloc(), path, query, fragment))
