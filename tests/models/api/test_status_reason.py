from __future__ import annotations

from collections.abc import Iterator

import pytest

from keel_app.models.api.status_reason import MYSQL_TEXT_BYTE_LIMIT, truncate_status_reason
from keel_app.models.database import Database

# Nothing here connects: the URL only decides whether the server is MySQL.
MYSQL_URL = "mysql+pymysql://nobody@127.0.0.1:1/none"
POSTGRESQL_URL = "postgresql+psycopg2://nobody@127.0.0.1:1/none"


@pytest.fixture
def mysql() -> Iterator[Database]:
    database = Database(MYSQL_URL)
    yield database
    database.dispose()


def test_a_split_four_byte_character_is_dropped(mysql: Database) -> None:
    # 16384 four-byte characters are 65536 bytes: the last one does not fit whole.
    reason = "\N{GRINNING FACE}" * 16384

    cut = truncate_status_reason(mysql, {"status_reason": reason})["status_reason"]

    assert cut == "\N{GRINNING FACE}" * 16383
    assert len(cut.encode("utf-8")) == MYSQL_TEXT_BYTE_LIMIT - 3


def test_a_reason_of_exactly_the_limit_is_kept(mysql: Database) -> None:
    reason = "a" * MYSQL_TEXT_BYTE_LIMIT

    assert truncate_status_reason(mysql, {"status_reason": reason})["status_reason"] == reason


def test_the_callers_values_are_not_changed(mysql: Database) -> None:
    values = {"status_reason": "b" * 70000, "status": "FAILED"}

    cut = truncate_status_reason(mysql, values)

    assert len(values["status_reason"]) == 70000
    assert cut == {"status_reason": "b" * MYSQL_TEXT_BYTE_LIMIT, "status": "FAILED"}


def test_other_servers_keep_the_whole_reason() -> None:
    database = Database(POSTGRESQL_URL)
    reason = "é" * 70000

    assert truncate_status_reason(database, {"status_reason": reason})["status_reason"] == reason
    database.dispose()
