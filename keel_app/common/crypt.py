"""Encryption of stored secrets, readable and writable by Heat 27.0.1 with the same key.

Each encrypted row names the method that reads it back, so the two methods older Heat
releases wrote (``oslo_decrypt_v1``, ``heat_decrypt``) stay readable although nothing
writes them any more. The key is always passed in: ``None`` means Heat's default
``[DEFAULT]/auth_encryption_key``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cryptography import fernet
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from keel_app.common.exception import InvalidEncryptionKey

try:
    from cryptography.hazmat.decrepit.ciphers.modes import CFB
except ImportError:  # cryptography < 47, before CFB moved to the decrepit modes
    CFB = modes.CFB  # type: ignore[misc]

DEFAULT_AUTH_ENCRYPTION_KEY = "notgood but just long enough i t"
ENCRYPT_METHOD = "cryptography_decrypt_v1"
_AES_BLOCK_BYTES = algorithms.AES.block_size // 8


def _valid_key(encryption_key: str | None, fix_length: bool = False) -> str:
    key = DEFAULT_AUTH_ENCRYPTION_KEY if encryption_key is None else encryption_key
    if fix_length and len(key) < 32:
        # Heat's Fernet methods still accept the 16- and 24-character keys it once allowed.
        key = key * 2
    return key[:32]


def _fernet(encryption_key: str | None) -> fernet.Fernet:
    key_bytes = _valid_key(encryption_key, fix_length=True).encode("utf-8")
    return fernet.Fernet(base64.urlsafe_b64encode(key_bytes))


def _fernet_decrypt(data: str, encryption_key: str | None) -> bytes:
    try:
        return _fernet(encryption_key).decrypt(data.encode("utf-8"))
    except fernet.InvalidToken:
        raise InvalidEncryptionKey() from None


def _aes_decrypt(mode: Callable[[bytes], modes.Mode], data: str, key: str | None) -> bytes:
    key_bytes = _valid_key(key).encode("utf-8")
    raw = base64.b64decode(data)
    initial_vector, body = raw[:_AES_BLOCK_BYTES], raw[_AES_BLOCK_BYTES:]
    decryptor = Cipher(algorithms.AES(key_bytes), mode(initial_vector)).decryptor()
    return decryptor.update(body) + decryptor.finalize()


def _oslo_decrypt_v1(data: str, encryption_key: str | None) -> bytes:
    padded = _aes_decrypt(modes.CBC, data, encryption_key)
    # The last byte N counts the padding: Heat strips N bytes as ANSI X9.23 (1 to 16, the N - 1
    # before it zero) and then one more, unchecked. oslo-incubator's own writer also left N = 0
    # (a plaintext one byte short of a block): Heat 27 rejects that row; it is read here.
    count = padded[-1] if padded else None
    if count == 0:
        return padded[:-1]
    if count is None or count > _AES_BLOCK_BYTES or any(padded[-count:-1]):
        raise ValueError("Invalid padding bytes.")
    return padded[: -count - 1]


def _heat_decrypt(data: str, encryption_key: str | None) -> bytes:
    return _aes_decrypt(CFB, data, encryption_key)


# Method names come from database rows: only these may ever be called.
_DECRYPTERS: dict[str, Callable[[str, str | None], bytes]] = {
    "cryptography_decrypt_v1": _fernet_decrypt,
    "oslo_decrypt_v1": _oslo_decrypt_v1,
    "heat_decrypt": _heat_decrypt,
}


def _encrypt_text(value: str, encryption_key: str | None) -> tuple[str, str]:
    token = _fernet(encryption_key).encrypt(value.encode("utf-8"))
    return ENCRYPT_METHOD, token.decode("ascii")


def encrypt(
    value: str | None, encryption_key: str | None = None
) -> tuple[str, str] | tuple[None, None]:
    """Encrypt ``value`` as ``(decrypt_method, data)``; ``None`` stays ``(None, None)``."""
    if value is None:
        return None, None
    return _encrypt_text(value, encryption_key)


def decrypt(method: str | None, data: str | None, encryption_key: str | None = None) -> str | None:
    """Read back a value stored with any method Heat 27 can read; ``None`` stays ``None``."""
    if method is None or data is None:
        return None
    decrypter = _DECRYPTERS.get(method)
    if decrypter is None:
        raise ValueError(f"Unknown decryption method: {method!r}")
    return decrypter(data, encryption_key).decode("utf-8")


def encrypted_dict(
    data: Mapping[str, Any] | None, encryption_key: str | None = None
) -> dict[str, tuple[str, str]]:
    """Encrypt each value of ``data`` as its JSON text."""
    if not data:
        return {}
    return {name: _encrypt_text(json.dumps(value), encryption_key) for name, value in data.items()}


def decrypted_dict(
    data: Mapping[str, Sequence[str | None]] | None, encryption_key: str | None = None
) -> dict[str, Any]:
    """Reverse ``encrypted_dict``; the pairs may come back from a JSON column as lists."""
    if not data:
        return {}
    result = {}
    for name, (method, value) in data.items():
        try:
            text = decrypt(method, value, encryption_key)
        except UnicodeDecodeError as error:
            # What went in was JSON text, so bytes that are not even UTF-8 mean a wrong key.
            raise InvalidEncryptionKey() from error
        result[name] = json.loads(text)  # type: ignore[arg-type]
    return result
