"""Reading a template and its environments from disk the way python-heatclient does.

``openstack orchestration template validate`` reads the template, gathers every file
it names (``get_file`` values and ``type`` values ending in ``.yaml``/``.template``)
into the files map under absolute ``file://`` URLs, rewrites those references to the
URLs, and does the same, recursively, for the templates it found. Each environment
file has its ``resource_registry`` template names fetched and rewritten the same
way, and is itself put into the files map and listed in ``environment_files``.
Doing exactly that here makes ``keel template validate`` answer what the API answers
for the same files; an environment file that cannot be read gets the API's 400 for the
same text. Nothing is fetched from the network: only ``file:`` URLs are read.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib import parse, request

import yaml

from keel_app.engine.environment import format as environment_format
from keel_app.engine.template.format import VERSION_KEYS, TemplateLoader
from keel_app.engine.validate import environment_not_valid

TEMPLATE_SUFFIXES = (".yaml", ".template")
REGISTRY_KEYS_NOT_FILES = ("base_url", "hooks", "restricted_actions")


class CommandError(Exception):
    """A problem found before anything is validated (heatclient's CommandError)."""


def file_url(path: str) -> str:
    """A path as an absolute file URL; a URL is kept as it is."""
    if parse.urlparse(path).scheme:
        return path
    return Path(path).resolve().as_uri()


def base_url(url: str) -> str:
    """The URL of the directory holding ``url``."""
    directory = Path(parse.urlparse(url).path).parent
    return parse.urljoin(url, str(directory))


def read_url(url: str) -> bytes:
    if parse.urlparse(url).scheme != "file":
        raise CommandError(f"Could not fetch contents for {url}")
    try:
        with request.urlopen(url) as response:
            return bytes(response.read())
    except OSError:
        raise CommandError(f"Could not fetch contents for {url}") from None


def file_content(url: str) -> str:
    """A file's text; a binary file travels base64-encoded, as heatclient sends it."""
    content = read_url(url)
    try:
        return content.decode("utf-8")
    except ValueError:
        return base64.encodebytes(content).decode("ascii")


def parse_template(text: str) -> dict[str, Any]:
    """Template text as heatclient reads it: JSON when it starts with "{", else YAML."""
    text = text.strip()
    if text.startswith("{"):
        data = json.loads(text)
    else:
        try:
            data = yaml.load(text, Loader=TemplateLoader)
        except yaml.YAMLError:
            try:
                data = yaml.load(text, Loader=yaml.SafeLoader)
            except yaml.YAMLError as error:
                raise ValueError(error) from None
        if data is None:
            data = {}
    if not any(key in data for key in VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return data  # type: ignore[no-any-return]


def parse_environment(text: str | bytes) -> dict[str, Any]:
    """Environment text as heatclient reads it: only the section names are checked."""
    try:
        data = yaml.load(text, Loader=TemplateLoader)
    except yaml.YAMLError:
        try:
            data = yaml.load(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as error:
            raise ValueError(error) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("The environment is not a valid YAML mapping data type.")
    for section in data:
        if section not in environment_format.SECTIONS:
            raise ValueError(f'environment has wrong section "{section}"')
    return data


def _is_template(text: str) -> bool:
    try:
        parse_template(text)
    except (ValueError, TypeError):
        return False
    return True


SkipRule = Callable[[Any, Any], bool]


def _gather(
    data: Any, files: dict[str, str], base: str, skip: SkipRule, recurse: bool = True
) -> None:
    """Fetch the files ``data`` names into ``files`` and point ``data`` at their URLs."""
    if recurse and isinstance(data, (dict, list)):
        for value in list(data.values() if isinstance(data, dict) else data):
            _gather(value, files, base, skip, recurse)
    if not isinstance(data, dict):
        return
    for key, value in list(data.items()):
        if skip(key, value):
            continue
        if not base.endswith("/"):
            base += "/"
        url = parse.urljoin(base, value)
        if url not in files:
            content = file_content(url)
            if _is_template(content):
                nested = load_template(url, files)[1]
                content = json.dumps(nested)
            files[url] = content
        data[key] = url


def _not_a_template_reference(key: Any, value: Any) -> bool:
    if key not in ("get_file", "type") or not isinstance(value, str):
        return True
    return key == "type" and not value.endswith(TEMPLATE_SUFFIXES)


def load_template(
    template_path: str, files: dict[str, str] | None = None
) -> tuple[dict[str, str], dict[str, Any]]:
    """The files map and the template, its file references rewritten to URLs."""
    files = {} if files is None else files
    url = file_url(template_path)
    try:
        text = file_content(url)
    except CommandError:
        # heatclient then tries the path as an object name, and names it as given.
        raise CommandError(f"Could not fetch template from {template_path}") from None
    if not text:
        raise CommandError(f"Could not fetch template from {url}")
    try:
        template = parse_template(text)
    except ValueError as error:
        raise CommandError(f"Error parsing template {url} {error}") from None
    _gather(template, files, base_url(url), _not_a_template_reference)
    return files, template


def _not_a_registry_file(key: Any, value: Any) -> bool:
    if key in REGISTRY_KEYS_NOT_FILES or not isinstance(value, str):
        return True
    # Built-in types ("OS::Nova::Server") are not files.
    return "::" in value


def _environment_text(content: bytes) -> str | bytes:
    """The file as the API would receive it (text, so YAML errors quote a unicode string);
    bytes that are not UTF-8 are left for YAML to decode, as heatclient leaves them."""
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return content


def load_environments(environment_paths: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """The files map of the environments (themselves included) and their URLs, in order."""
    files: dict[str, str] = {}
    urls = []
    for path in environment_paths:
        url = file_url(path)
        with request.urlopen(url) as response:
            content = response.read()
        try:
            environment = parse_environment(_environment_text(content))
        except ValueError as error:
            # heatclient stops at its own ValueError; offline validation answers what the
            # API answers for the same text sent as the environment.
            raise environment_not_valid(error) from None
        registry = environment.get(environment_format.RESOURCE_REGISTRY)
        if registry is not None:
            registry_base = registry.get("base_url", base_url(url))
            _gather(registry, files, registry_base, _not_a_registry_file, recurse=False)
            for settings in registry.get("resources", {}).values():
                resource_base = settings.get("base_url", registry_base)
                _gather(settings, files, resource_base, _not_a_registry_file, recurse=False)
        files[url] = json.dumps(environment)
        urls.append(url)
    return files, urls


def format_parameters(values: Sequence[str] | None) -> dict[str, Any]:
    """``-P key=value`` options as heatclient sends them: one option may hold several
    pairs separated by ";", and a key given twice becomes a list."""
    if not values:
        return {}
    if len(values) == 1:
        values = values[0].split(";")
    parameters: dict[str, Any] = {}
    for pair in values:
        name, separator, value = pair.partition("=")
        if not separator:
            raise CommandError(f"Malformed parameter({pair}). Use the key=value format.")
        if name not in parameters:
            parameters[name] = value
        elif isinstance(parameters[name], list):
            parameters[name].append(value)
        else:
            parameters[name] = [parameters[name], value]
    return parameters
