"""Engines of a deployment with Keystone refuse to start without the stack-user domain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from keel_app.clients.stack_domain import StackDomainNotConfigured, require_stack_domain
from keel_app.common import config

DOMAIN = (
    "stack_user_domain_name = heat\n"
    "stack_domain_admin = heat_domain_admin\n"
    "stack_domain_admin_password = secret\n"
)


def load(tmp_path: Path, text: str) -> object:
    path = tmp_path / "heat.conf"
    path.write_text(text)
    return config.load(["--config-file", str(path)])


def test_noauth_needs_no_domain(tmp_path: Path) -> None:
    require_stack_domain(load(tmp_path, "[paste_deploy]\nflavor = noauth\n"))


def test_keystone_with_the_domain_and_its_admin_starts(tmp_path: Path) -> None:
    require_stack_domain(load(tmp_path, f"[DEFAULT]\n{DOMAIN}"))


def test_keystone_without_the_domain_names_every_missing_option(tmp_path: Path) -> None:
    with pytest.raises(StackDomainNotConfigured) as refused:
        require_stack_domain(load(tmp_path, "[DEFAULT]\n"))

    assert str(refused.value) == (
        "heat.conf uses Keystone ([paste_deploy] flavor 'keystone') but does not configure "
        "the stack-user domain: set stack_user_domain_id (or stack_user_domain_name), "
        "stack_domain_admin, stack_domain_admin_password in [DEFAULT]. OpenKeel does not "
        "fall back to creating stack users in the caller's own project; use flavor = "
        "noauth for a deployment without Keystone."
    )


def test_a_domain_without_its_admin_password_is_refused(tmp_path: Path) -> None:
    text = "[DEFAULT]\nstack_user_domain_id = 1234\nstack_domain_admin = heat_domain_admin\n"

    with pytest.raises(StackDomainNotConfigured, match="set stack_domain_admin_password in"):
        require_stack_domain(load(tmp_path, text))


@pytest.mark.parametrize(
    "command",
    [
        ["keel_app.cli.worker"],
        ["keel_app.cli.bridge"],
        ["keel_app.cli.keel", "all-in-one", "--port", "0", "--cfn-port", "0"],
    ],
)
def test_the_engine_commands_stop_at_start_with_the_error(
    tmp_path: Path, command: list[str]
) -> None:
    conf = tmp_path / "heat.conf"
    conf.write_text(
        f"[database]\nconnection = sqlite:///{tmp_path / 'db.sqlite'}\n"
        "[paste_deploy]\nflavor = keystone\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", *command, "--config-file", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 1
    assert "ERROR: heat.conf uses Keystone ([paste_deploy] flavor 'keystone')" in done.stderr
