"""Heat's exceptions: the same class names, messages and error codes, importable from here.

Class tree (families live in the ``exception_*`` modules next to this one)::

    Exception
    ├── HeatException                  msg_fmt % kwargs; "HEAT-E<code> " prefix
    │   ├── Error, NotFound, Invalid, NotSupported                      (base)
    │   ├── HeatExceptionWithPath      "<error>: <path>: <message>"     (base)
    │   │   ├── StackValidationFailed                                   (template)
    │   │   └── ResourceFailure                                         (resource)
    │   ├── Forbidden ── NotAuthorized                                  (request)
    │   ├── MissingCredentialError, AuthorizationFailure, NotAuthenticated,
    │   │   InvalidTenant, KeystoneServiceNameConflict, InvalidEncryptionKey,
    │   │   InvalidContentType, RequestLimitExceeded, DownloadLimitExceeded
    │   ├── UserParameterMissing, UnknownUserParameter, InvalidTemplate*, ... (template)
    │   ├── EntityNotFound ── ResourceNotFound, SnapshotNotFound        (stack)
    │   ├── StackExists, ActionInProgress, StopActionFailed, ...,
    │   │   UnsupportedObjectError, ObjectActionError, ...              (stack)
    │   └── ResourceTypeUnavailable (error code 99001), ResourceInError, ... (resource)
    ├── UpdateReplace, UpdateInProgress                                 (resource)
    └── HTTPExceptionDisguise                                           (request)

Every class answers for the class of the same name in Heat's ``heat.common.exception``
(``HEAT_MODULE``); ``BY_NAME`` finds ours from a name that came over the wire.
"""

from __future__ import annotations

from keel_app.common.exception_base import (
    ERROR_CODE_MAP,
    HEAT_MODULE,
    Error,
    HeatException,
    HeatExceptionWithPath,
    Invalid,
    NotFound,
    NotSupported,
)
from keel_app.common.exception_request import (
    AuthorizationFailure,
    DownloadLimitExceeded,
    Forbidden,
    HTTPExceptionDisguise,
    InvalidContentType,
    InvalidEncryptionKey,
    InvalidTenant,
    KeystoneServiceNameConflict,
    MissingCredentialError,
    NotAuthenticated,
    NotAuthorized,
    RequestLimitExceeded,
)
from keel_app.common.exception_resource import (
    ClientNotAvailable,
    EgressRuleNotAllowed,
    InterfaceAttachFailed,
    InterfaceDetachFailed,
    PropertyUnspecifiedError,
    ResourceActionNotSupported,
    ResourceActionRestricted,
    ResourceFailure,
    ResourceInError,
    ResourceNotAvailable,
    ResourcePropertyConflict,
    ResourcePropertyDependency,
    ResourcePropertyValueDependency,
    ResourceTypeUnavailable,
    ResourceUnknownStatus,
    UnableToAutoAllocateNetwork,
    UpdateInProgress,
    UpdateReplace,
)
from keel_app.common.exception_stack import (
    ActionInProgress,
    ActionNotComplete,
    ConcurrentTransaction,
    EntityNotFound,
    EventSendFailed,
    IncompatibleObjectVersion,
    InvalidServiceVersion,
    ObjectActionError,
    ObjectFieldInvalid,
    OrphanedObjectError,
    PhysicalResourceExists,
    PhysicalResourceIDAmbiguity,
    PhysicalResourceNameAmbiguity,
    ReadOnlyFieldError,
    ResourceNotFound,
    SIGHUPInterrupt,
    SnapshotNotFound,
    StackExists,
    StackResourceLimitExceeded,
    StopActionFailed,
    UnsupportedObjectError,
)
from keel_app.common.exception_template import (
    CircularDependencyException,
    ConflictingMergeStrategyForParam,
    ImmutableParameterModified,
    InvalidBreakPointHook,
    InvalidExternalResourceDependency,
    InvalidGlobalResource,
    InvalidMergeStrategyForParam,
    InvalidRestrictedAction,
    InvalidSchemaError,
    InvalidTemplateAttribute,
    InvalidTemplateReference,
    InvalidTemplateSection,
    InvalidTemplateVersion,
    InvalidTemplateVersions,
    StackValidationFailed,
    TemplateOutputError,
    UnknownUserParameter,
    UserParameterMissing,
)

CLASSES: tuple[type[Exception], ...] = (
    HeatException,
    HeatExceptionWithPath,
    Error,
    NotFound,
    Invalid,
    NotSupported,
    MissingCredentialError,
    AuthorizationFailure,
    NotAuthenticated,
    Forbidden,
    NotAuthorized,
    InvalidTenant,
    KeystoneServiceNameConflict,
    InvalidEncryptionKey,
    InvalidContentType,
    RequestLimitExceeded,
    DownloadLimitExceeded,
    HTTPExceptionDisguise,
    UserParameterMissing,
    UnknownUserParameter,
    InvalidTemplateVersion,
    InvalidTemplateVersions,
    InvalidTemplateSection,
    ImmutableParameterModified,
    InvalidMergeStrategyForParam,
    ConflictingMergeStrategyForParam,
    InvalidTemplateAttribute,
    InvalidTemplateReference,
    TemplateOutputError,
    InvalidExternalResourceDependency,
    InvalidSchemaError,
    InvalidGlobalResource,
    InvalidBreakPointHook,
    InvalidRestrictedAction,
    CircularDependencyException,
    StackValidationFailed,
    EntityNotFound,
    ResourceNotFound,
    SnapshotNotFound,
    PhysicalResourceExists,
    PhysicalResourceNameAmbiguity,
    PhysicalResourceIDAmbiguity,
    StackExists,
    StackResourceLimitExceeded,
    ActionInProgress,
    ActionNotComplete,
    StopActionFailed,
    EventSendFailed,
    ConcurrentTransaction,
    SIGHUPInterrupt,
    InvalidServiceVersion,
    UnsupportedObjectError,
    OrphanedObjectError,
    IncompatibleObjectVersion,
    ObjectActionError,
    ReadOnlyFieldError,
    ObjectFieldInvalid,
    ResourceTypeUnavailable,
    ResourceNotAvailable,
    ClientNotAvailable,
    ResourceActionNotSupported,
    ResourceActionRestricted,
    ResourcePropertyConflict,
    ResourcePropertyDependency,
    ResourcePropertyValueDependency,
    PropertyUnspecifiedError,
    ResourceUnknownStatus,
    ResourceInError,
    EgressRuleNotAllowed,
    InterfaceAttachFailed,
    InterfaceDetachFailed,
    UnableToAutoAllocateNetwork,
    UpdateReplace,
    UpdateInProgress,
    ResourceFailure,
)

BY_NAME: dict[str, type[Exception]] = {cls.__name__: cls for cls in CLASSES}

__all__ = ["BY_NAME", "CLASSES", "ERROR_CODE_MAP", "HEAT_MODULE", *BY_NAME]
