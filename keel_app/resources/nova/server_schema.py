"""OS::Nova::Server's properties and attributes, as Heat 27 declares them (names, types,
defaults, constraints, descriptions and support statuses are API-visible facts)."""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema

PROPERTIES_SCHEMA = {
    "name": Schema(Schema.STRING, "Server name.", update_allowed=True),
    "image": Schema(
        Schema.STRING,
        "The ID or name of the image to boot with.",
        constraints=[constraints.CustomConstraint("glance.image")],
        update_allowed=True,
    ),
    "block_device_mapping": Schema(
        Schema.LIST,
        "Block device mappings for this server.",
        schema=Schema(
            Schema.MAP,
            schema={
                "device_name": Schema(
                    Schema.STRING,
                    (
                        "A device name where the volume will be attached in the system at"
                        " /dev/device_name. This value is typically vda."
                    ),
                    required=True,
                ),
                "volume_id": Schema(
                    Schema.STRING,
                    (
                        "The ID of the volume to boot from. Only one of volume_id or "
                        "snapshot_id should be provided."
                    ),
                    constraints=[constraints.CustomConstraint("cinder.volume")],
                ),
                "snapshot_id": Schema(
                    Schema.STRING,
                    "The ID of the snapshot to create a volume from.",
                    constraints=[constraints.CustomConstraint("cinder.snapshot")],
                ),
                "volume_size": Schema(
                    Schema.INTEGER,
                    (
                        "The size of the volume, in GB. It is safe to leave this blank "
                        "and have the Compute service infer the size."
                    ),
                ),
                "delete_on_termination": Schema(
                    Schema.BOOLEAN,
                    (
                        "Indicate whether the volume should be deleted when the server is"
                        " terminated."
                    ),
                ),
            },
        ),
    ),
    "block_device_mapping_v2": Schema(
        Schema.LIST,
        "Block device mappings v2 for this server.",
        schema=Schema(
            Schema.MAP,
            schema={
                "device_name": Schema(
                    Schema.STRING,
                    (
                        "A device name where the volume will be attached in the system at"
                        " /dev/device_name. This value is typically vda."
                    ),
                ),
                "volume_id": Schema(
                    Schema.STRING,
                    "The volume_id can be boot or non-boot device to the server.",
                    constraints=[constraints.CustomConstraint("cinder.volume")],
                ),
                "image_id": Schema(
                    Schema.STRING,
                    "The ID of the image to create a volume from.",
                    constraints=[constraints.CustomConstraint("glance.image")],
                    support_status=SupportStatus(
                        status="HIDDEN",
                        version="9.0.0",
                        message="Use property image.",
                        previous_status=SupportStatus(
                            status="DEPRECATED",
                            version="7.0.0",
                            previous_status=SupportStatus(version="5.0.0"),
                        ),
                    ),
                ),
                "image": Schema(
                    Schema.STRING,
                    "The ID or name of the image to create a volume from.",
                    constraints=[constraints.CustomConstraint("glance.image")],
                    support_status=SupportStatus(version="7.0.0"),
                ),
                "snapshot_id": Schema(
                    Schema.STRING,
                    "The ID of the snapshot to create a volume from.",
                    constraints=[constraints.CustomConstraint("cinder.snapshot")],
                ),
                "swap_size": Schema(Schema.INTEGER, "The size of the swap, in MB."),
                "ephemeral_size": Schema(
                    Schema.INTEGER,
                    "The size of the local ephemeral block device, in GB.",
                    constraints=[constraints.Range(min=1)],
                    support_status=SupportStatus(version="8.0.0"),
                ),
                "ephemeral_format": Schema(
                    Schema.STRING,
                    (
                        "The format of the local ephemeral block device. If no format is "
                        "specified, uses default value, defined in nova configuration "
                        "file."
                    ),
                    constraints=[
                        constraints.AllowedValues(["ext2", "ext3", "ext4", "xfs", "ntfs"])
                    ],
                    support_status=SupportStatus(version="8.0.0"),
                ),
                "device_type": Schema(
                    Schema.STRING,
                    (
                        "Device type: at the moment we can make distinction only between "
                        "disk and cdrom."
                    ),
                    constraints=[constraints.AllowedValues(["cdrom", "disk"])],
                ),
                "disk_bus": Schema(
                    Schema.STRING,
                    ("Bus of the device: hypervisor driver chooses a suitable default if omitted."),
                    constraints=[
                        constraints.AllowedValues(
                            ["ide", "lame_bus", "sata", "scsi", "usb", "virtio"]
                        )
                    ],
                ),
                "boot_index": Schema(
                    Schema.INTEGER,
                    (
                        "Integer used for ordering the boot disks. If it is not "
                        'specified, value "0" will be set for bootable sources (volume, '
                        'snapshot, image); value "-1" will be set for non-bootable '
                        "sources."
                    ),
                ),
                "volume_size": Schema(
                    Schema.INTEGER,
                    (
                        "Size of the block device in GB. If it is omitted, hypervisor "
                        "driver calculates size."
                    ),
                ),
                "delete_on_termination": Schema(
                    Schema.BOOLEAN,
                    (
                        "Indicate whether the volume should be deleted when the server is"
                        ' terminated. Defaults to "False" in case of a volume, snapshot '
                        'or image and to "True" in case of swap or ephemeral.'
                    ),
                ),
                "volume_type": Schema(
                    Schema.STRING,
                    (
                        "The type of volume to use when creating a volume from image, "
                        "snapshot, or blank source. Maps to a specific Cinder backend. "
                        "Requires Nova API microversion 2.67 or later."
                    ),
                    constraints=[constraints.CustomConstraint("cinder.vtype")],
                    support_status=SupportStatus(version="26.0.0"),
                ),
            },
        ),
        support_status=SupportStatus(version="2015.1"),
    ),
    "flavor": Schema(
        Schema.STRING,
        "The ID or name of the flavor to boot onto.",
        required=True,
        constraints=[constraints.CustomConstraint("nova.flavor")],
        update_allowed=True,
    ),
    "flavor_update_policy": Schema(
        Schema.STRING,
        (
            "Policy on how to apply a flavor update; either by requesting a "
            "server resize or by replacing the entire server."
        ),
        default="RESIZE",
        constraints=[constraints.AllowedValues(["RESIZE", "REPLACE"])],
        update_allowed=True,
    ),
    "image_update_policy": Schema(
        Schema.STRING,
        (
            "Policy on how to apply an image-id update; either by requesting "
            "a server rebuild or by replacing the entire server."
        ),
        default="REBUILD",
        constraints=[
            constraints.AllowedValues(["REBUILD", "REPLACE", "REBUILD_PRESERVE_EPHEMERAL"])
        ],
        update_allowed=True,
    ),
    "key_name": Schema(
        Schema.STRING,
        "Name of keypair to inject into the server.",
        constraints=[constraints.CustomConstraint("nova.keypair")],
    ),
    "admin_user": Schema(
        Schema.STRING,
        "Name of the administrative user to use on the server.",
        support_status=SupportStatus(
            status="HIDDEN",
            version="5.0.0",
            message=(
                'The default cloud-init user set up for each image (e.g. "ubuntu"'
                ' for Ubuntu 12.04+, "fedora" for Fedora 19+ and "cloud-user" for'
                " CentOS/RHEL 6.5)."
            ),
            previous_status=SupportStatus(
                status="DEPRECATED",
                version="2014.1",
                previous_status=SupportStatus(version="2013.2"),
            ),
        ),
    ),
    "availability_zone": Schema(
        Schema.STRING, "Name of the availability zone for server placement."
    ),
    "security_groups": Schema(
        Schema.LIST,
        (
            "List of security group names or IDs. Cannot be used if neutron "
            "ports are associated with this server; assign security groups to"
            " the ports instead."
        ),
        default=[],
    ),
    "networks": Schema(
        Schema.LIST,
        (
            "An ordered list of nics to be added to this server, with "
            "information about connected networks, fixed ips, port etc."
        ),
        update_allowed=True,
        schema=Schema(
            Schema.MAP,
            schema={
                "uuid": Schema(
                    Schema.STRING,
                    "ID of network to create a port on.",
                    constraints=[constraints.CustomConstraint("neutron.network")],
                    support_status=SupportStatus(
                        status="HIDDEN",
                        version="5.0.0",
                        previous_status=SupportStatus(
                            status="DEPRECATED", version="2014.1", message="Use property network."
                        ),
                    ),
                ),
                "network": Schema(
                    Schema.STRING,
                    "Name or ID of network to create a port on.",
                    constraints=[constraints.CustomConstraint("neutron.network")],
                ),
                "allocate_network": Schema(
                    Schema.STRING,
                    (
                        "The special string values of network, auto: means either a "
                        "network that is already available to the project will be used, "
                        "or if one does not exist, will be automatically created for the "
                        "project; none: means no networking will be allocated for the "
                        'created server. Supported by Nova API since version "2.37". This'
                        " property can not be used with other network keys."
                    ),
                    constraints=[constraints.AllowedValues(["none", "auto"])],
                    update_allowed=True,
                    support_status=SupportStatus(version="9.0.0"),
                ),
                "fixed_ip": Schema(
                    Schema.STRING,
                    ("Fixed IP address to specify for the port created on the requested network."),
                    constraints=[constraints.CustomConstraint("ip_addr")],
                ),
                "port": Schema(
                    Schema.STRING,
                    "ID of an existing port to associate with this server.",
                    constraints=[constraints.CustomConstraint("neutron.port")],
                ),
                "port_extra_properties": Schema(
                    Schema.MAP,
                    (
                        "Dict, which has expand properties for port. Used only if port "
                        "property is not specified for creating port."
                    ),
                    update_allowed=True,
                    schema={
                        "value_specs": Schema(
                            Schema.MAP,
                            "Extra parameters to include in the request.",
                            default={},
                            update_allowed=True,
                        ),
                        "admin_state_up": Schema(
                            Schema.BOOLEAN,
                            "The administrative state of this port.",
                            default=True,
                            update_allowed=True,
                        ),
                        "mac_address": Schema(
                            Schema.STRING,
                            (
                                "MAC address to give to this port. The default update policy of "
                                "this property in neutron is that allow admin role only."
                            ),
                            constraints=[constraints.CustomConstraint("mac_addr")],
                        ),
                        "allowed_address_pairs": Schema(
                            Schema.LIST,
                            ("Additional MAC/IP address pairs allowed to pass through the port."),
                            update_allowed=True,
                            schema=Schema(
                                Schema.MAP,
                                schema={
                                    "mac_address": Schema(
                                        Schema.STRING,
                                        "MAC address to allow through this port.",
                                        constraints=[constraints.CustomConstraint("mac_addr")],
                                    ),
                                    "ip_address": Schema(
                                        Schema.STRING,
                                        "IP address to allow through this port.",
                                        required=True,
                                        constraints=[constraints.CustomConstraint("ip_or_cidr")],
                                    ),
                                },
                            ),
                        ),
                        "binding:vnic_type": Schema(
                            Schema.STRING,
                            (
                                "The vnic type to be bound on the neutron port. To support SR-IOV"
                                " PCI passthrough networking, you can request that the neutron "
                                "port to be realized as normal (virtual nic), direct (pci "
                                "passthrough), or macvtap (virtual interface with a tap-like "
                                "software interface). Note that this only works for Neutron "
                                "deployments that support the bindings extension."
                            ),
                            default="normal",
                            constraints=[
                                constraints.AllowedValues(
                                    [
                                        "normal",
                                        "direct",
                                        "macvtap",
                                        "direct-physical",
                                        "baremetal",
                                        "virtio-forwarder",
                                        "smart-nic",
                                    ]
                                )
                            ],
                            update_allowed=True,
                            support_status=SupportStatus(version="2015.1"),
                        ),
                        "port_security_enabled": Schema(
                            Schema.BOOLEAN,
                            (
                                "Flag to enable/disable port security on the port. When disable "
                                "this feature(set it to False), there will be no packages "
                                "filtering, like security-group and address-pairs."
                            ),
                            update_allowed=True,
                            support_status=SupportStatus(version="5.0.0"),
                        ),
                        "qos_policy": Schema(
                            Schema.STRING,
                            "The name or ID of QoS policy to attach to this port.",
                            constraints=[constraints.CustomConstraint("neutron.qos_policy")],
                            update_allowed=True,
                            support_status=SupportStatus(version="6.0.0"),
                        ),
                        "propagate_uplink_status": Schema(
                            Schema.BOOLEAN,
                            "Flag to enable/disable propagate uplink status on the port.",
                            update_allowed=True,
                            support_status=SupportStatus(version="15.0.0"),
                        ),
                        "no_fixed_ips": Schema(
                            Schema.BOOLEAN,
                            "Flag to disable all fixed ips on the port.",
                            default=False,
                            update_allowed=True,
                            support_status=SupportStatus(version="16.0.0"),
                        ),
                    },
                    support_status=SupportStatus(version="6.0.0"),
                ),
                "subnet": Schema(
                    Schema.STRING,
                    (
                        "Subnet in which to allocate the IP address for port. Used for "
                        "creating port, based on derived properties. If subnet is "
                        "specified, network property becomes optional."
                    ),
                    support_status=SupportStatus(version="5.0.0"),
                ),
                "floating_ip": Schema(
                    Schema.STRING,
                    "ID of the floating IP to associate.",
                    support_status=SupportStatus(version="6.0.0"),
                ),
                "tag": Schema(
                    Schema.STRING,
                    (
                        "Port tag. Heat ignores any update on this property as nova does "
                        "not support it."
                    ),
                    support_status=SupportStatus(version="9.0.0"),
                ),
            },
        ),
    ),
    "scheduler_hints": Schema(
        Schema.MAP, ("Arbitrary key-value pairs specified by the client to help boot a server.")
    ),
    "metadata": Schema(
        Schema.MAP,
        (
            "Arbitrary key/value metadata to store for this server. Both keys"
            " and values must be 255 characters or less. Non-string values "
            "will be serialized to JSON (and the serialized string must be "
            "255 characters or less)."
        ),
        default={},
        update_allowed=True,
    ),
    "user_data_format": Schema(
        Schema.STRING,
        (
            "How the user_data should be formatted for the server. For "
            "HEAT_CFNTOOLS, the user_data is bundled as part of the "
            "heat-cfntools cloud-init boot configuration data. For RAW the "
            "user_data is passed to Nova unmodified. For SOFTWARE_CONFIG "
            "user_data is bundled as part of the software config data, and "
            "metadata is derived from any associated SoftwareDeployment "
            "resources. And if the user_data is in CoreOS ignition(json) "
            "format, the metadata will be injected into the user_data "
            "automatically by Heat."
        ),
        default="HEAT_CFNTOOLS",
        constraints=[constraints.AllowedValues(["HEAT_CFNTOOLS", "RAW", "SOFTWARE_CONFIG"])],
    ),
    "software_config_transport": Schema(
        Schema.STRING,
        (
            "How the server should receive the metadata required for software"
            " configuration. POLL_SERVER_CFN will allow calls to the cfn API "
            "action DescribeStackResource authenticated with the provided "
            "keypair. POLL_SERVER_HEAT will allow calls to the Heat API "
            "resource-show using the provided keystone credentials. "
            "POLL_TEMP_URL will create and populate a Swift TempURL with "
            "metadata for polling. ZAQAR_MESSAGE will create a dedicated "
            "zaqar queue and post the metadata for polling."
        ),
        default="POLL_SERVER_CFN",
        constraints=[
            constraints.AllowedValues(
                ["POLL_SERVER_CFN", "POLL_SERVER_HEAT", "POLL_TEMP_URL", "ZAQAR_MESSAGE"]
            )
        ],
        update_allowed=True,
    ),
    "user_data_update_policy": Schema(
        Schema.STRING,
        (
            "Policy on how to apply a user_data update; by ignoring it, by "
            "replacing the entire server, or rebuild the server."
        ),
        default="REPLACE",
        constraints=[constraints.AllowedValues(["REPLACE", "IGNORE", "REBUILD"])],
        update_allowed=True,
        support_status=SupportStatus(version="6.0.0"),
    ),
    "user_data": Schema(
        Schema.STRING,
        (
            "User data script to be executed by cloud-init or CoreOS "
            "ignition. Changes cause replacement of the resource by default, "
            "but can be ignored altogether by setting the "
            "`user_data_update_policy` property."
        ),
        default="",
        update_allowed=True,
    ),
    "reservation_id": Schema(Schema.STRING, "A UUID for the set of servers being requested."),
    "config_drive": Schema(Schema.BOOLEAN, "If True, enable config drive on the server."),
    "diskConfig": Schema(
        Schema.STRING,
        ("Control how the disk is partitioned when the server is created."),
        constraints=[constraints.AllowedValues(["AUTO", "MANUAL"])],
    ),
    "personality": Schema(
        Schema.MAP,
        (
            "A map of files to create/overwrite on the server upon boot. Keys"
            " are file names and values are the file contents."
        ),
        default={},
        support_status=SupportStatus(
            status="DEPRECATED",
            version="12.0.0",
            message=(
                "This is not supported with nova api microversion 2.57 and above."
                " OS::Nova::Server resource will not support it in the future. "
                "Please use user_data or metadata instead. However, you can set "
                "heat config option max_nova_api_microversion < 2.57 to use this "
                "property in the meantime."
            ),
        ),
    ),
    "admin_pass": Schema(
        Schema.STRING, "The administrator password for the server.", update_allowed=True
    ),
    "tags": Schema(
        Schema.LIST,
        "Server tags. Supported since client version 2.26.",
        update_allowed=True,
        schema=Schema(Schema.STRING),
        support_status=SupportStatus(version="8.0.0"),
    ),
    "deployment_swift_data": Schema(
        Schema.MAP,
        (
            "Swift container and object to use for storing deployment data "
            "for the server resource. The parameter is a map value with the "
            'keys "container" and "object", and the values are the '
            "corresponding container and object names. The "
            "software_config_transport parameter must be set to POLL_TEMP_URL"
            " for swift to be used. If not specified, and "
            "software_config_transport is set to POLL_TEMP_URL, a container "
            "will be automatically created from the resource name, and the "
            "object name will be a generated uuid."
        ),
        default={},
        update_allowed=True,
        schema={
            "container": Schema(
                Schema.STRING, "Name of the container.", constraints=[constraints.Length(min=1)]
            ),
            "object": Schema(
                Schema.STRING, "Name of the object.", constraints=[constraints.Length(min=1)]
            ),
        },
        support_status=SupportStatus(version="9.0.0"),
    ),
}
ATTRIBUTES_SCHEMA = {
    "name": AttributeSchema("Name of the server.", type=AttributeSchema.STRING),
    "addresses": AttributeSchema(
        (
            "A dict of all network addresses with corresponding port_id and "
            "subnets. Each network will have two keys in dict, they are "
            "network name and network id. The port ID may be obtained through"
            " the following expression: ``{get_attr: [<server>, addresses, "
            "<network name_or_id>, 0, port]}``. The subnets may be obtained "
            "trough the following expression: ``{get_attr: [<server>, "
            "addresses, <network name_or_id>, 0, subnets]}``. The network may"
            " be obtained through the following expression: ``{get_attr: "
            "[<server>, addresses, <network name_or_id>, 0, network]}``."
        ),
        type=AttributeSchema.MAP,
        support_status=SupportStatus(
            version="11.0.0",
            message=(
                "The attribute was extended to include subnets and network with version 11.0.0."
            ),
            previous_status=None,
        ),
    ),
    "networks": AttributeSchema(
        (
            'A dict of assigned network addresses of the form: {"public": '
            '[ip1, ip2...], "private": [ip3, ip4], "public_uuid": [ip1, '
            'ip2...], "private_uuid": [ip3, ip4]}. Each network will have two'
            " keys in dict, they are network name and network id."
        ),
        type=AttributeSchema.MAP,
    ),
    "first_address": AttributeSchema(
        (
            "Convenience attribute to fetch the first assigned network "
            "address, or an empty string if nothing has been assigned at this"
            " time. Result may not be predictable if the server has addresses"
            " from more than one network."
        ),
        support_status=SupportStatus(
            status="HIDDEN",
            version="5.0.0",
            message=(
                "Use the networks attribute instead of first_address. For "
                'example: "{get_attr: [<server name>, networks, <network name>, '
                '0]}"'
            ),
            previous_status=SupportStatus(
                status="DEPRECATED",
                version="2014.2",
                previous_status=SupportStatus(version="2013.2"),
            ),
        ),
    ),
    "instance_name": AttributeSchema("AWS compatible instance name.", type=AttributeSchema.STRING),
    "accessIPv4": AttributeSchema(
        ("The manually assigned alternative public IPv4 address of the server."),
        type=AttributeSchema.STRING,
        support_status=SupportStatus(
            status="DEPRECATED", version="14.0.0", previous_status=SupportStatus(version="2015.1")
        ),
    ),
    "accessIPv6": AttributeSchema(
        ("The manually assigned alternative public IPv6 address of the server."),
        type=AttributeSchema.STRING,
        support_status=SupportStatus(
            status="DEPRECATED", version="14.0.0", previous_status=SupportStatus(version="2015.1")
        ),
    ),
    "console_urls": AttributeSchema(
        (
            "URLs of server's consoles. To get a specific console type, the "
            "requested type can be specified as parameter to the get_attr "
            "function, e.g. get_attr: [ <server>, console_urls, novnc ]. "
            "Currently supported types are novnc, xvpvnc, spice-html5, "
            "rdp-html5, serial and webmks."
        ),
        type=AttributeSchema.MAP,
        support_status=SupportStatus(version="2015.1"),
    ),
    "tags": AttributeSchema(
        "Tags from the server. Supported since client version 2.26.",
        type=AttributeSchema.LIST,
        support_status=SupportStatus(version="8.0.0"),
    ),
    "os_collect_config": AttributeSchema(
        (
            "The os-collect-config configuration for the server's local agent"
            " to be configured to connect to Heat to retrieve deployment "
            "data."
        ),
        type=AttributeSchema.MAP,
        cache_mode=AttributeSchema.CACHE_NONE,
        support_status=SupportStatus(version="9.0.0"),
    ),
}
