"""The user data a server boots with, in the three formats of ``user_data_format``.

RAW is the template's user data as it is. HEAT_CFNTOOLS and SOFTWARE_CONFIG wrap it in a
cloud-init multi-part message, as Heat does: a cloud-config part, a boot hook, a part
handler that writes the ``x-cfninitdata`` parts to /var/lib/heat-cfntools, then the
user data (HEAT_CFNTOOLS: as ``cfn-userdata`` run by a logging wrapper; SOFTWARE_CONFIG:
its own parts when it is a multi-part message), the resource metadata as
``cfn-init-data``, and for HEAT_CFNTOOLS the CFN metadata server's URL and the boto
configuration heat-cfntools reads. A SOFTWARE_CONFIG user data in CoreOS Ignition form
gets the metadata written into its files instead.

The in-instance helpers below are OpenKeel's own; they do what Heat's do (the part
names, paths and the provision-finished marker are what images and tools rely on).
"""

from __future__ import annotations

import email
import json
from email.mime import multipart, text
from typing import Any
from urllib import parse

CLOUD_CONFIG = """\
{custom_user}
# Everything cloud-init runs also goes to a log of its own.
output: {{all: '| tee -a /var/log/cloud-init-output.log'}}
"""

BOOT_HOOK = """\
#!/bin/bash
{custom_user}
# Images with heat-cfntools from a package may lack the /opt/aws/bin links.
cfn-create-aws-symlinks

# A failing boot hook would stop the boot: always succeed.
exit 0
"""

PART_HANDLER = """\
#part-handler
import datetime
import errno
import os

TOOLS_DIRECTORY = '/var/lib/heat-cfntools'
CLOUD_DATA_DIRECTORY = '/var/lib/cloud/data'


def list_types():
    return ['text/x-cfninitdata']


def handle_part(data, ctype, filename, payload):
    if ctype == '__begin__':
        try:
            os.makedirs(TOOLS_DIRECTORY, 0o700)
        except OSError as error:
            if error.errno != errno.EEXIST:
                raise
        return
    if ctype == '__end__':
        return
    with open('/var/log/part-handler.log', 'a') as log:
        log.write('%s filename:%s, ctype:%s\\n' % (datetime.datetime.now(), filename, ctype))
    if ctype == 'text/x-cfninitdata':
        for directory in (TOOLS_DIRECTORY, CLOUD_DATA_DIRECTORY):
            with open(os.path.join(directory, filename), 'w') as part:
                part.write(payload)
"""

LOG_USER_DATA = """\
#!/usr/bin/env python3
import datetime
import errno
import logging
import os
import subprocess
import sys

TOOLS_DIRECTORY = '/var/lib/heat-cfntools'
LOG = logging.getLogger('heat-provision')


def start_logging():
    LOG.setLevel(logging.INFO)
    LOG.addHandler(logging.StreamHandler())
    handler = logging.FileHandler('/var/log/heat-provision.log')
    os.chmod(handler.baseFilename, 0o600)
    LOG.addHandler(handler)


def run(path):
    LOG.info('%s\\n', path)
    try:
        finished = subprocess.run([path], capture_output=True)
    except OSError as error:
        if error.errno == errno.ENOEXEC:
            LOG.error('Userdata empty or not executable: %s', error)
            return os.EX_OK
        LOG.error('OS error running userdata: %s', error)
        return os.EX_OSERR
    except Exception as error:
        LOG.error('Unknown error running userdata: %s', error)
        return os.EX_SOFTWARE
    for output in (finished.stdout, finished.stderr):
        LOG.info(output)
    return finished.returncode


def main():
    user_data = os.path.join(TOOLS_DIRECTORY, 'cfn-userdata')
    os.chmod(user_data, 0o700)
    LOG.info('Provision began: %s', datetime.datetime.now())
    code = run(user_data)
    LOG.info('Provision done: %s', datetime.datetime.now())
    return code


if __name__ == '__main__':
    start_logging()
    code = main()
    if code:
        LOG.error('Provision failed with exit code %s', code)
        sys.exit(code)
    finished = os.path.join(TOOLS_DIRECTORY, 'provision-finished')
    with open(finished, 'a'):
        os.utime(finished, None)
"""

IGNITION_METADATA_PATHS = (
    "/var/lib/heat-cfntools/cfn-init-data",
    "/var/lib/cloud/data/cfn-init-data",
)


def is_ignition(user_data: Any) -> bool:
    try:
        ignition = json.loads(user_data).get("ignition")
    except Exception:
        return False
    return bool(ignition and ignition.get("version"))


def ignition_with_metadata(metadata: Any, user_data: str) -> str:
    """The Ignition document with the metadata written to the heat-cfntools paths."""
    if not metadata:
        return user_data
    document = json.loads(user_data)
    contents = "data:," + parse.quote(json.dumps(metadata))
    for path in IGNITION_METADATA_PATHS:
        storage = document.setdefault("storage", {})
        try:
            files = storage.setdefault("files", [])
        except AttributeError:
            raise ValueError('Ignition "storage" section must be a map') from None
        try:
            files.append(
                {
                    "filesystem": "root",
                    "group": {"name": "root"},
                    "path": path,
                    "user": {"name": "root"},
                    "contents": {"source": contents, "verification": {}},
                    "mode": 0o640,
                }
            )
        except AttributeError:
            raise ValueError('Ignition "files" section must be a list') from None
    return json.dumps(document)


def _part(content: str | None, filename: str, subtype: str | None = None) -> text.MIMEText:
    if subtype is None:
        subtype = filename.rsplit(".", 1)[0] if "." in filename else filename
    content = content or ""
    charset = "us-ascii" if content.isascii() else "utf-8"
    part = (
        text.MIMEText(content, _subtype=subtype, _charset=charset)
        if subtype
        else text.MIMEText(content, _charset=charset)
    )
    part.add_header("Content-Disposition", "attachment", filename=filename)
    return part


def boto_config(metadata_url: str, is_secure: str, validate_certificates: str) -> str:
    return "\n".join(
        [
            "[Boto]",
            "debug = 0",
            f"is_secure = {is_secure}",
            f"https_validate_certificates = {validate_certificates}",
            "cfn_region_name = heat",
            f"cfn_region_endpoint = {parse.urlparse(metadata_url).hostname}",
        ]
    )


def build_user_data(
    metadata: Any,
    user_data: str | None,
    user_data_format: str,
    cfn_metadata_url: str | None = None,
    instance_user: str | None = None,
    is_secure: str = "0",
    validate_certificates: str = "1",
) -> str | None:
    """The user data Nova gets for this format (``cfn_metadata_url`` for HEAT_CFNTOOLS)."""
    if user_data_format == "RAW":
        return user_data
    cfntools = user_data_format == "HEAT_CFNTOOLS"
    if user_data_format == "SOFTWARE_CONFIG" and is_ignition(user_data):
        return ignition_with_metadata(metadata, user_data or "")

    config_user = boot_user = ""
    if instance_user:
        config_user = f"user: {instance_user}"
        boot_user = (
            f"useradd -m {instance_user}\n"
            f"echo -e '{instance_user}\\tALL=(ALL)\\tNOPASSWD: ALL' >> /etc/sudoers\n"
        )
    parts = [
        _part(CLOUD_CONFIG.format(custom_user=config_user), "cloud-config"),
        _part(BOOT_HOOK.format(custom_user=boot_user), "boothook.sh", "cloud-boothook"),
        _part(PART_HANDLER, "part-handler.py"),
    ]
    if cfntools:
        parts.append(_part(user_data, "cfn-userdata", "x-cfninitdata"))
    else:
        parts.extend(_software_config_parts(user_data))
    if cfntools:
        parts.append(_part(LOG_USER_DATA, "loguserdata.py", "x-shellscript"))
    if metadata:
        parts.append(_part(json.dumps(metadata), "cfn-init-data", "x-cfninitdata"))
    if cfntools:
        assert cfn_metadata_url is not None
        parts.append(_part(cfn_metadata_url, "cfn-metadata-server", "x-cfninitdata"))
        parts.append(
            _part(
                boto_config(cfn_metadata_url, is_secure, validate_certificates),
                "cfn-boto-cfg",
                "x-cfninitdata",
            )
        )
    return multipart.MIMEMultipart(_subparts=parts).as_string()


def _software_config_parts(user_data: str | None) -> list[text.MIMEText]:
    """A multi-part user data's own parts, else the user data as one unnamed part."""
    try:
        message = email.message_from_string(user_data or "")
    except Exception:
        message = None
    if message is not None and message.is_multipart():
        return [
            _part(part.get_payload(), part.get_filename() or "", part.get_content_subtype())
            for part in message.get_payload()
        ]
    return [_part(user_data, "")]
