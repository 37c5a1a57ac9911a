from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

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
