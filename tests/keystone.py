"""A real Keystone 30 on loopback, set up as a Heat deployment expects it.

Keystone is installed from PyPI into a virtual environment of its own, created on first
use and cached (``$KEEL_KEYSTONE_VENV``, default ``/var/tmp/openkeel-keystone``). Each
test session gets a fresh SQLite database, fernet and credential keys in a directory of
its own, and one gunicorn process serving ``keystone.wsgi.api`` on a free port of
127.0.0.1; ``running()`` bootstraps it and creates what Heat relies on:

- the service user ``heat`` (admin in project ``service``), which validates tokens;
- the roles ``heat_stack_owner`` and ``heat_stack_user`` beside Keystone's own
  ``admin``, ``member`` and ``reader``;
- the stack-user domain ``heat`` and its domain admin ``heat_domain_admin``;
- the ``orchestration`` and ``cloudformation`` services and their endpoints;
- two projects for isolation tests: ``project-a`` with ``alice`` (member,
  heat_stack_owner) and ``carol`` (reader only), ``project-b`` with ``bob`` (member,
  heat_stack_owner).
"""

from __future__ import annotations

import fcntl
import grp
import json
import os
import pwd
import re
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KEYSTONE_REQUIREMENTS = ["keystone==30.0.0", "gunicorn==27.0.1", "PyMySQL>=1.1"]
VENV = Path(os.environ.get("KEEL_KEYSTONE_VENV", "/var/tmp/openkeel-keystone"))
_READY_MARK = VENV / ".openkeel-keystone-ready"

HOST = "127.0.0.1"
REGION = "RegionOne"
WORKERS = 3
ADMIN_PASSWORD = "admin-secret"
HEAT_SERVICE_PASSWORD = "heat-service-secret"
HEAT_DOMAIN_ADMIN_PASSWORD = "heat-domain-secret"
USER_PASSWORD = "user-secret"
# Where the catalog says the APIs are; the tests' apps are served by Flask's test client.
ORCHESTRATION_URL = f"http://{HOST}:8004/v1/%(project_id)s"
CLOUDFORMATION_URL = f"http://{HOST}:8000/v1"
START_TIMEOUT = 120.0

# The gunicorn application module: Keystone parses the process's arguments as its own
# command line, so gunicorn's are taken away before Keystone is imported.
ENTRY_MODULE = "keel_keystone_entry"
ENTRY_SOURCE = """\
import sys

sys.argv = sys.argv[:1]
from keystone.wsgi.api import application  # noqa: E402,F401
"""

# Runs in Keystone's environment as the bootstrap admin; prints the ids it made as JSON.
SETUP = """
import json, sys
from keystoneauth1 import session
from keystoneauth1.identity import v3
from keystoneclient.v3 import client

(auth_url, region, admin_password, heat_password, domain_admin_password, user_password,
 orchestration_url, cloudformation_url) = sys.argv[1:9]
auth = v3.Password(auth_url=auth_url, username="admin", password=admin_password,
                   project_name="admin", user_domain_id="default", project_domain_id="default")
keystone = client.Client(session=session.Session(auth=auth), interface="public",
                         region_name=region)

def role(name):
    found = [item for item in keystone.roles.list(name=name) if item.domain_id is None]
    return found[0] if found else keystone.roles.create(name=name)

roles = {name: role(name) for name in
         ("admin", "member", "reader", "heat_stack_owner", "heat_stack_user")}
default = keystone.domains.get("default")
ids = {"projects": {}, "users": {}}

def project(name, domain=default):
    made = keystone.projects.create(name=name, domain=domain)
    ids["projects"][name] = made.id
    return made

def user(name, password, domain=default, project=None, roles_there=()):
    made = keystone.users.create(name=name, password=password, domain=domain,
                                 default_project=project)
    for role_name in roles_there:
        keystone.roles.grant(roles[role_name], user=made, project=project)
    ids["users"][name] = made.id
    return made

service_project = project("service")
user("heat", heat_password, project=service_project, roles_there=["admin"])
project_a = project("project-a")
user("alice", user_password, project=project_a, roles_there=["member", "heat_stack_owner"])
user("carol", user_password, project=project_a, roles_there=["reader"])
project_b = project("project-b")
user("bob", user_password, project=project_b, roles_there=["member", "heat_stack_owner"])
ids["projects"]["admin"] = keystone.projects.list(name="admin", domain=default)[0].id
ids["users"]["admin"] = keystone.users.list(name="admin", domain=default)[0].id

stack_domain = keystone.domains.create(name="heat",
                                       description="Users and projects created by Heat")
domain_admin = keystone.users.create(name="heat_domain_admin", password=domain_admin_password,
                                     domain=stack_domain)
keystone.roles.grant(roles["admin"], user=domain_admin, domain=stack_domain)
ids["stack_user_domain_id"] = stack_domain.id
ids["users"]["heat_domain_admin"] = domain_admin.id

for name, service_type, url in (("heat", "orchestration", orchestration_url),
                                ("heat-cfn", "cloudformation", cloudformation_url)):
    service = keystone.services.create(name=name, type=service_type)
    for interface in ("public", "internal", "admin"):
        keystone.endpoints.create(service=service, url=url, interface=interface,
                                  region=region)
print(json.dumps(ids))
"""


@dataclass(frozen=True)
class Account:
    """A user of the test Keystone and the project its tokens are scoped to."""

    user_name: str
    project_name: str
    password: str = USER_PASSWORD


ALICE = Account("alice", "project-a")  # member of project A
CAROL = Account("carol", "project-a")  # reader of project A
BOB = Account("bob", "project-b")  # member of project B
ADMIN = Account("admin", "admin", ADMIN_PASSWORD)


@dataclass(frozen=True)
class Keystone:
    """A running Keystone: its endpoint and the ids of the objects made for Heat."""

    url: str  # unversioned, e.g. http://127.0.0.1:41234
    project_ids: dict[str, str] = field(default_factory=dict)
    user_ids: dict[str, str] = field(default_factory=dict)
    stack_user_domain_id: str = ""

    @property
    def auth_url(self) -> str:
        return self.url + "/v3"

    def project_id(self, account: Account) -> str:
        return self.project_ids[account.project_name]

    def token(self, account: Account) -> str:
        """A project-scoped token for ``account`` (POST /v3/auth/tokens)."""
        return self.issue(account)[0]

    def issue(self, account: Account) -> tuple[str, dict[str, Any]]:
        """A project-scoped token for ``account`` and Keystone's description of it."""
        body = {
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {
                            "name": account.user_name,
                            "domain": {"id": "default"},
                            "password": account.password,
                        }
                    },
                },
                "scope": {"project": {"name": account.project_name, "domain": {"id": "default"}}},
            }
        }
        request = urllib.request.Request(
            self.auth_url + "/auth/tokens",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.headers["X-Subject-Token"], json.loads(response.read())

    def request(
        self, method: str, path: str, token: str, body: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any] | None]:
        """A call to Keystone's v3 API with ``token``: the status and the decoded body."""
        request = urllib.request.Request(
            self.auth_url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-Auth-Token": token, "Content-Type": "application/json"},
            method=method,
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                content = response.read()
                return response.status, json.loads(content) if content else None
        except urllib.error.HTTPError as error:
            return error.code, None

    def heat_conf(self) -> str:
        """heat.conf's sections for this Keystone, as a deployment of Heat writes them."""
        return textwrap.dedent(
            f"""\
            [DEFAULT]
            deferred_auth_method = trusts
            stack_user_domain_id = {self.stack_user_domain_id}
            stack_domain_admin = heat_domain_admin
            stack_domain_admin_password = {HEAT_DOMAIN_ADMIN_PASSWORD}
            region_name_for_services = {REGION}

            [keystone_authtoken]
            www_authenticate_uri = {self.auth_url}
            auth_url = {self.url}
            auth_type = password
            project_domain_name = Default
            user_domain_name = Default
            project_name = service
            username = heat
            password = {HEAT_SERVICE_PASSWORD}
            interface = public
            region_name = {REGION}
            service_token_roles_required = true

            [trustee]
            auth_type = password
            auth_url = {self.url}
            username = heat
            password = {HEAT_SERVICE_PASSWORD}
            user_domain_name = Default

            [clients_keystone]
            auth_uri = {self.url}
            """
        )


def ensure() -> None:
    """Build Keystone's virtual environment unless a previous run built it as it is now."""
    wanted = "\n".join(KEYSTONE_REQUIREMENTS) + "\n"
    if _READY_MARK.exists() and _READY_MARK.read_text() == wanted:
        return
    VENV.parent.mkdir(parents=True, exist_ok=True)
    lock_path = VENV.parent / (VENV.name + ".lock")
    with open(lock_path, "w") as lock:
        # Several pytest processes may start at once; one builds, the others wait.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _READY_MARK.exists() and _READY_MARK.read_text() == wanted:
            return
        if not (VENV / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(VENV / "bin" / "pip"), "install", "-q", *KEYSTONE_REQUIREMENTS], check=True
        )
        _READY_MARK.write_text(wanted)


def keystone_conf(directory: Path, database_url: str | None = None) -> str:
    connection = database_url or f"sqlite:///{directory / 'keystone.sqlite'}"
    return textwrap.dedent(
        f"""\
        [DEFAULT]
        log_file = {directory / "keystone.log"}
        [database]
        connection = {connection}
        max_pool_size = 2
        max_overflow = 6
        [identity]
        # bcrypt's fewest rounds: every password sign-in verifies a hash, and at the
        # default 12 rounds (a quarter second of CPU each) the tests' Keystones spent
        # more CPU on hashing than on anything else.
        password_hash_rounds = 4
        [token]
        provider = fernet
        [fernet_tokens]
        key_repository = {directory / "fernet-keys"}
        [fernet_receipts]
        key_repository = {directory / "fernet-keys"}
        [credential]
        key_repository = {directory / "credential-keys"}
        """
    )


def _environment(conf_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "OS_KEYSTONE_CONFIG_FILES": str(conf_path),
        "PYTHONWARNINGS": "ignore",
    }


def _manage(conf_path: Path, log_path: Path, *args: str) -> None:
    with open(log_path, "a") as log:
        completed = subprocess.run(
            [str(VENV / "bin" / "keystone-manage"), "--config-file", str(conf_path), *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=_environment(conf_path),
            timeout=300,
        )
    if completed.returncode != 0:
        raise RuntimeError(f"keystone-manage {args[0]} failed:\n{log_path.read_text()[-4000:]}")


def _listening_port(server: subprocess.Popen[bytes], log_path: Path) -> int:
    # Bound to port 0, gunicorn names the port it got in its log.
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}")
        text = log_path.read_text() if log_path.exists() else ""
        found = re.search(r"Listening at: http://[\d.]+:(\d+)", text)
        if found:
            return int(found.group(1))
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not listen within {START_TIMEOUT} s")


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"Keystone exited:\n{log_path.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url + "/v3", timeout=10) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise RuntimeError(f"Keystone did not answer within {START_TIMEOUT} s")


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


@contextmanager
def running(directory: Path, database_url: str | None = None) -> Iterator[Keystone]:
    """A fresh Keystone in ``directory``, bootstrapped and set up for Heat; stopped after.
    Its database is SQLite in ``directory`` unless ``database_url`` names another (a
    Keystone many services write to at once wants a server: SQLite's writers lock out)."""
    ensure()
    directory.mkdir(parents=True, exist_ok=True)
    conf_path = directory / "keystone.conf"
    conf_path.write_text(keystone_conf(directory, database_url))
    (directory / f"{ENTRY_MODULE}.py").write_text(ENTRY_SOURCE)
    manage_log = directory / "keystone-manage.log"
    _manage(conf_path, manage_log, "db_sync")
    # The key repositories belong to whoever runs the tests (root in CI).
    owner = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    for setup in ("fernet_setup", "credential_setup"):
        _manage(conf_path, manage_log, setup, "--keystone-user", owner, "--keystone-group", group)

    server_log = directory / "gunicorn.log"
    server = subprocess.Popen(
        [
            str(VENV / "bin" / "gunicorn"),
            "--chdir",
            str(directory),
            "--bind",
            f"{HOST}:0",
            # Processes of one thread each: Keystone's auth context middleware keeps the
            # token it validated on itself, shared by a process's threads, so that a
            # request could take another's token (a project-scoped request was refused
            # for a domain-scoped one's domain, a 403).
            "--workers",
            str(WORKERS),
            "--threads",
            "1",
            "--timeout",
            "120",
            "--no-control-socket",
            "--error-logfile",
            str(server_log),
            f"{ENTRY_MODULE}:application",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_environment(conf_path),
    )
    try:
        url = f"http://{HOST}:{_listening_port(server, server_log)}"
        # The catalog's identity endpoint must name the port gunicorn got.
        _manage(
            conf_path,
            manage_log,
            "bootstrap",
            "--bootstrap-password",
            ADMIN_PASSWORD,
            "--bootstrap-username",
            "admin",
            "--bootstrap-project-name",
            "admin",
            "--bootstrap-role-name",
            "admin",
            "--bootstrap-service-name",
            "keystone",
            "--bootstrap-region-id",
            REGION,
            "--bootstrap-public-url",
            url + "/v3/",
            "--bootstrap-internal-url",
            url + "/v3/",
            "--bootstrap-admin-url",
            url + "/v3/",
        )
        _wait_until_serving(url, server, server_log)
        completed = subprocess.run(
            [
                str(VENV / "bin" / "python"),
                "-c",
                SETUP,
                url + "/v3",
                REGION,
                ADMIN_PASSWORD,
                HEAT_SERVICE_PASSWORD,
                HEAT_DOMAIN_ADMIN_PASSWORD,
                USER_PASSWORD,
                ORCHESTRATION_URL,
                CLOUDFORMATION_URL,
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=_environment(conf_path),
        )
        if completed.returncode != 0:
            raise RuntimeError(f"Keystone setup failed:\n{completed.stderr}")
        ids = json.loads(completed.stdout)
        yield Keystone(
            url=url,
            project_ids=ids["projects"],
            user_ids=ids["users"],
            stack_user_domain_id=ids["stack_user_domain_id"],
        )
    finally:
        _stop(server)
