from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from keel_app.common import crypt, exception
from tests import oracle

VECTORS = json.loads(
    (Path(__file__).parent / "fixtures" / "crypt_vectors.json").read_text(encoding="utf-8")
)
ERROR_TYPES = {"InvalidEncryptionKey": exception.InvalidEncryptionKey, "ValueError": ValueError}
FUNCTIONS = {
    "encrypt": crypt.encrypt,
    "decrypt": crypt.decrypt,
    "decrypted_dict": crypt.decrypted_dict,
}
KEYS = [None, "custom key ~~~ with ??? 32 chars", "sixteen-char-key", "a" * 20, "b" * 24, "c" * 40]
PLAINTEXTS = ["", "password", "pässwörd ☃ 密码", "sixteen bytes!!!", "0123456789abcdef-" * 60]
DICT_VALUES = {
    "text": "secret",
    "number": 42,
    "nothing": None,
    "nested": {"list": [1, "two", None, {"ü": "ß"}], "empty": {}},
    "ünïcode ☃": "密码",
}


def _vector_id(vector: dict[str, Any]) -> str:
    return f"{vector['method']}-{vector['key_name']}-{vector['plaintext_name']}"


def test_default_key_is_heats() -> None:
    assert crypt.DEFAULT_AUTH_ENCRYPTION_KEY == VECTORS["default_key"]


@pytest.mark.parametrize("vector", VECTORS["decrypt"], ids=_vector_id)
def test_decrypts_what_heat_wrote(vector: dict[str, Any]) -> None:
    assert crypt.decrypt(vector["method"], vector["data"], vector["key"]) == vector["plaintext"]


@pytest.mark.parametrize(
    "vector", VECTORS["oslo_count_byte_zero"], ids=lambda v: v["plaintext_name"]
)
def test_reads_oslo_padding_with_a_zero_count_byte_that_heat_rejects(
    vector: dict[str, Any],
) -> None:
    assert vector["heat"] == {"error_type": "ValueError", "error_message": "Invalid padding bytes."}
    assert crypt.decrypt(vector["method"], vector["data"], vector["key"]) == vector["plaintext"]


@pytest.mark.parametrize(
    "vector",
    VECTORS["errors"],
    ids=lambda v: f"{v['function']}-{v['error_type']}-{v['error_message'][:20]}",
)
def test_raises_what_heat_raises(vector: dict[str, Any]) -> None:
    with pytest.raises(ERROR_TYPES[vector["error_type"]]) as raised:
        FUNCTIONS[vector["function"]](*vector["arguments"])
    assert type(raised.value).__name__ == vector["error_type"]
    assert str(raised.value) == vector["error_message"]


def test_wrong_key_raises_invalid_encryption_key_with_heats_message() -> None:
    method, data = crypt.encrypt("secret", "the right key, thirty-two chars!")
    with pytest.raises(exception.InvalidEncryptionKey) as raised:
        crypt.decrypt(method, data, VECTORS["wrong_key"])
    assert str(raised.value) == "Can not decrypt data with the auth_encryption_key in heat config."


@pytest.mark.parametrize("method", ["nope", "encrypt", "decrypted_dict", "_heat_decrypt", ""])
def test_unknown_method_raises(method: str) -> None:
    with pytest.raises(ValueError, match="Unknown decryption method"):
        crypt.decrypt(method, "c2VjcmV0")


def test_none_values_match_heat() -> None:
    none = VECTORS["none"]
    assert list(crypt.encrypt(None)) == none["encrypt"] == [None, None]
    assert crypt.decrypt(None, "data") is none["decrypt_without_method"] is None
    assert crypt.decrypt("cryptography_decrypt_v1", None) is none["decrypt_without_data"] is None
    assert crypt.encrypted_dict(None) == crypt.encrypted_dict({}) == none["encrypted_dict_of_none"]
    assert crypt.decrypted_dict(None) == crypt.decrypted_dict({}) == none["decrypted_dict_of_none"]


@pytest.mark.parametrize("key", [None, "custom key ~~~ with ??? 32 chars", "sixteen-char-key"])
def test_encrypt_round_trip_names_the_fernet_method(key: str | None) -> None:
    method, data = crypt.encrypt("pässwörd", key)
    assert method == "cryptography_decrypt_v1"
    assert crypt.decrypt(method, data, key) == "pässwörd"


def test_short_keys_are_doubled_for_fernet() -> None:
    method, data = crypt.encrypt("secret", "sixteen-char-key")
    assert crypt.decrypt(method, data, "sixteen-char-keysixteen-char-key") == "secret"


def test_keys_are_cut_to_32_characters() -> None:
    method, data = crypt.encrypt("secret", "k" * 32 + " and the rest")
    assert crypt.decrypt(method, data, "k" * 32) == "secret"


@pytest.mark.parametrize("vector", VECTORS["dicts"], ids=lambda v: str(v["json_texts"] is None))
def test_decrypted_dict_reads_heats_encrypted_dicts(vector: dict[str, Any]) -> None:
    assert crypt.decrypted_dict(vector["encrypted"], vector["key"]) == vector["decrypted"]


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS["dicts"] if v["json_texts"]], ids=lambda v: v["key_name"]
)
def test_encrypted_dict_stores_heats_json_text(vector: dict[str, Any]) -> None:
    encrypted = crypt.encrypted_dict(vector["decrypted"], vector["key"])
    texts = {name: crypt.decrypt(*pair, vector["key"]) for name, pair in encrypted.items()}
    assert texts == vector["json_texts"]
    assert {method for method, _ in encrypted.values()} == {"cryptography_decrypt_v1"}


def test_encrypted_dict_round_trip_through_a_json_column() -> None:
    stored = json.loads(json.dumps(crypt.encrypted_dict(DICT_VALUES, "sixteen-char-key")))
    assert crypt.decrypted_dict(stored, "sixteen-char-key") == DICT_VALUES


def test_decrypted_dict_with_wrong_key_raises_invalid_encryption_key() -> None:
    encrypted = crypt.encrypted_dict(DICT_VALUES)
    with pytest.raises(exception.InvalidEncryptionKey):
        crypt.decrypted_dict(encrypted, VECTORS["wrong_key"])


HEAT_DECRYPTS = """
import json, sys
from oslo_config import cfg
from heat.common import crypt
cfg.CONF([], project="heat", default_config_files=[])
cases = json.loads(sys.argv[1])
print(json.dumps({
    "values": [crypt.decrypt(c["method"], c["data"], c["key"]) for c in cases["values"]],
    "dicts": [crypt.decrypted_dict(c["encrypted"], c["key"]) for c in cases["dicts"]],
}))
"""


@pytest.mark.oracle
def test_heat_decrypts_what_we_encrypt() -> None:
    values = []
    for key in KEYS:
        for plaintext in PLAINTEXTS:
            method, data = crypt.encrypt(plaintext, key)
            values.append({"method": method, "data": data, "key": key})
    dicts = [{"encrypted": crypt.encrypted_dict(DICT_VALUES, key), "key": key} for key in KEYS]
    cases = json.dumps({"values": values, "dicts": dicts})

    heat = oracle.run_json(HEAT_DECRYPTS, cases)

    assert heat["values"] == [plaintext for _ in KEYS for plaintext in PLAINTEXTS]
    assert heat["dicts"] == [DICT_VALUES for _ in KEYS]


AES_BLOCK = 16
# Two-, three- and four-byte UTF-8 characters, taken in turn while they still fit.
MULTI_BYTE_CHARACTERS = ["é", "☃", "密", "😀"]


def _ascii_text(length: int) -> str:
    return "".join(chr(ord("!") + i % 94) for i in range(length))


def _multi_byte_text(length: int) -> str:
    text, size = "", 0
    for i in range(length):
        character = MULTI_BYTE_CHARACTERS[i % len(MULTI_BYTE_CHARACTERS)]
        if size + len(character.encode("utf-8")) > length:
            break
        text, size = text + character, size + len(character.encode("utf-8"))
    return text + "~" * (length - size)


OSLO_PLAINTEXTS = [_ascii_text(n) for n in range(71)] + [_multi_byte_text(n) for n in range(71)]


def _oslo_incubator_padding(message: bytes) -> bytes:
    # oslo-incubator's SymmetricCrypto.encrypt: zeros up to one byte short of a block, then
    # their count (0 to 15).
    zeros = AES_BLOCK - len(message) % AES_BLOCK - 1
    return message + bytes(zeros) + bytes([zeros])


def _whole_block_padding(message: bytes) -> bytes:
    # The layout Heat's reader inverts: one zero byte, then ANSI X9.23, so a message one byte
    # short of a block is followed by its zero byte and a whole block ending in 16.
    extended = message + b"\0"
    count = AES_BLOCK - len(extended) % AES_BLOCK
    return extended + bytes(count - 1) + bytes([count])


PADDINGS: dict[str, Callable[[bytes], bytes]] = {
    "oslo_incubator": _oslo_incubator_padding,
    "whole_block": _whole_block_padding,
}


def _cbc_row(padded: bytes, key: str | None = None) -> str:
    key_bytes = (crypt.DEFAULT_AUTH_ENCRYPTION_KEY if key is None else key)[:32].encode("utf-8")
    initial_vector = os.urandom(AES_BLOCK)
    encryptor = Cipher(algorithms.AES(key_bytes), modes.CBC(initial_vector)).encryptor()
    body = encryptor.update(padded) + encryptor.finalize()
    return base64.b64encode(initial_vector + body).decode("ascii")


def _oslo_row(plaintext: str, padding: str, key: str | None = None) -> str:
    return _cbc_row(PADDINGS[padding](plaintext.encode("utf-8")), key)


def _utf8_length(text: str) -> str:
    return f"{len(text.encode('utf-8'))}-bytes-{'ascii' if text.isascii() else 'utf8'}"


@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("plaintext", OSLO_PLAINTEXTS, ids=_utf8_length)
def test_reads_oslo_decrypt_v1_rows_of_every_length(plaintext: str, padding: str) -> None:
    key = "custom key ~~~ with ??? 32 chars"
    assert crypt.decrypt("oslo_decrypt_v1", _oslo_row(plaintext, padding, key), key) == plaintext


HEAT_OSLO_DECRYPTS = """
import base64, json, sys
from heat.common import crypt
results = []
for row in json.loads(sys.argv[1]):
    try:
        plain = crypt.oslo_decrypt_v1(row, None)
    except Exception as error:
        results.append({"error": [type(error).__name__, str(error)]})
    else:
        results.append({"plaintext": base64.b64encode(plain).decode("ascii")})
print(json.dumps(results))
"""


def _outcomes_of_ours(rows: list[str]) -> list[dict[str, Any]]:
    outcomes: list[dict[str, Any]] = []
    for row in rows:
        try:
            plain = crypt._oslo_decrypt_v1(row, None)
        except ValueError as error:
            outcomes.append({"error": [type(error).__name__, str(error)]})
        else:
            outcomes.append({"plaintext": base64.b64encode(plain).decode("ascii")})
    return outcomes


@pytest.mark.oracle
def test_oslo_decrypt_v1_rows_of_every_length_read_as_heat_reads_them() -> None:
    cases = [(p, padding) for padding in PADDINGS for p in OSLO_PLAINTEXTS]
    rows = [_oslo_row(plaintext, padding) for plaintext, padding in cases]

    heat = oracle.run_json(HEAT_OSLO_DECRYPTS, json.dumps(rows))

    ours = _outcomes_of_ours(rows)
    for (plaintext, padding), heats, mine in zip(cases, heat, ours, strict=True):
        expected = base64.b64encode(plaintext.encode("utf-8")).decode("ascii")
        assert mine == {"plaintext": expected}, (padding, plaintext)
        count_byte_zero = padding == "oslo_incubator" and len(plaintext.encode()) % 16 == 15
        if count_byte_zero:
            assert heats == {"error": ["ValueError", "Invalid padding bytes."]}
        else:
            assert heats == mine, (padding, plaintext)


def _last_blocks() -> list[bytes]:
    # Every count byte, after a block of text, with the bytes before it zero except the one
    # Heat drops unchecked (0xAB), and with one stray byte inside the padding.
    blocks = []
    text = b"plain text block"
    for count in range(256):
        zeros = max(min(count, AES_BLOCK) - 1, 0)
        head = bytes([0xAB]) * (AES_BLOCK - 1 - zeros)
        blocks.append(text + head + bytes(zeros) + bytes([count]))
        if zeros:
            blocks.append(text + head + b"\x07" + bytes(zeros - 1) + bytes([count]))
    return blocks


@pytest.mark.oracle
def test_oslo_decrypt_v1_accepts_and_rejects_each_last_block_as_heat_does() -> None:
    rows = [_cbc_row(block) for block in _last_blocks()]

    heat = oracle.run_json(HEAT_OSLO_DECRYPTS, json.dumps(rows))

    ours = _outcomes_of_ours(rows)
    differing = [
        (block[-1], mine, heats)
        for block, mine, heats in zip(_last_blocks(), ours, heat, strict=True)
        if mine != heats
    ]
    # Only a count byte of zero, oslo-incubator's padding that Heat 27 rejects, reads here.
    assert differing == [
        (0, {"plaintext": base64.b64encode(b"plain text block" + b"\xab" * 15).decode()}, heat[0])
    ]
    assert heat[0] == {"error": ["ValueError", "Invalid padding bytes."]}
    assert sum("plaintext" in outcome for outcome in heat) == 16
