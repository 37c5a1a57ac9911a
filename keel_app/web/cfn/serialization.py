"""CFN answers as bytes, as Heat's XML and JSON response serializers write them.

XML: the document's single top key is the root element; a dict becomes one child
element a key (in the dict's order), a list one ``<member>`` a item, anything else its
``str()`` as text. ``TemplateBody`` and ``Metadata`` hold their value as JSON text
(an empty one is an empty element). The output is what lxml writes: no declaration,
ASCII with character references, ``<a/>`` for an element with no text and no children,
``<a></a>`` for an empty text, ``\\r`` and ``>`` escaped.

JSON (``ContentType=JSON``): ``json.dumps``'s default form, unknown values as text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from werkzeug.wrappers import Response

from keel_app.web.json_provider import heat_default

XML_CONTENT_TYPE = "application/xml; charset=UTF-8"
JSON_CONTENT_TYPE = "application/json"
JSON_TEXT_KEYS = ("TemplateBody", "Metadata")

# XML 1.0's Name production (without ":", which lxml keeps for namespaces).
_NAME_START = (
    "A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff"
    "\u200c-\u200d\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd"
    "\U00010000-\U000effff"
)
XML_NAME = re.compile(f"[{_NAME_START}][{_NAME_START}\\-.0-9\u00b7\u0300-\u036f\u203f-\u2040]*")
# Characters XML 1.0 cannot carry at all, even as references.
NOT_XML_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape_text(text: str) -> str:
    text = NOT_XML_CHARACTERS.sub("\ufffd", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return ascii_references(text.replace("\r", "&#13;"))


def ascii_references(text: str) -> str:
    return "".join(
        character if ord(character) < 128 else f"&#{ord(character)};" for character in text
    )


def is_element_name(key: Any) -> bool:
    return isinstance(key, str) and XML_NAME.fullmatch(key) is not None


def element(tag: str, value: Any) -> str:
    name = ascii_references(tag)
    if isinstance(value, list):
        inner = "".join(element("member", item) for item in value)
    elif isinstance(value, dict):
        if not all(is_element_name(key) for key in value):
            # lxml cannot name an element after such a key and Heat's serializer fails
            # there; the mapping is written as its JSON text instead.
            inner = escape_text(json.dumps(value, default=heat_default))
        else:
            inner = "".join(dict_item(key, item) for key, item in value.items())
    else:
        inner = escape_text(str(value))
        if inner == "":
            return f"<{name}></{name}>"
    if inner == "":
        return f"<{name}/>"
    return f"<{name}>{inner}</{name}>"


def dict_item(key: str, value: Any) -> str:
    if key in JSON_TEXT_KEYS:
        if not value:
            return f"<{ascii_references(key)}/>"
        try:
            text = json.dumps(value)
        except TypeError:
            text = str(value)
        return element(key, text)
    return element(key, value)


def to_xml(document: dict[str, Any]) -> bytes:
    root = next(iter(document))
    return element(root, document[root]).encode("ascii")


def to_json(document: Any) -> bytes:
    return json.dumps(document, default=heat_default).encode("latin-1")


def xml_response(document: dict[str, Any], status: int = 200) -> Response:
    return Response(to_xml(document), status=status, headers={"Content-Type": XML_CONTENT_TYPE})


def json_response(document: Any, status: int = 200) -> Response:
    return Response(to_json(document), status=status, headers={"Content-Type": JSON_CONTENT_TYPE})
