"""Heat's caches of look-ups in other services, on oslo.cache's region from [cache].

Three caches, each with its own expiry and switch, as Heat configures them:
``[constraint_validation_cache]`` keeps the custom constraints' successful checks (a
value found once is valid for a minute; a failed check is always asked again),
``[resource_finder_cache]`` the ids that names resolve to, and
``[service_extension_cache]`` the extensions a service lists. None of them caches
anything unless ``[cache] enabled`` is true; the backend (memcached, Redis, ...) is
``[cache] backend`` with its arguments, as for any oslo.cache user.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LookupCache:
    """One cache: values by key for ``expiration_time`` seconds, when switched on."""

    region: Any = field(default=None, repr=False, compare=False)
    expiration_time: int = 600

    @property
    def enabled(self) -> bool:
        return self.region is not None

    def get_or_create(
        self,
        key: str,
        create: Callable[[], Any],
        should_cache: Callable[[Any], bool] | None = None,
    ) -> Any:
        """The value cached under ``key``, else ``create()``'s (kept when
        ``should_cache`` of it is true, or always without one)."""
        if self.region is None:
            return create()
        return self.region.get_or_create(
            key,
            create,
            expiration_time=self.expiration_time,
            should_cache_fn=should_cache,
        )


@dataclass(frozen=True)
class LookupCaches:
    constraint_validation: LookupCache = field(default_factory=LookupCache)
    resource_finder: LookupCache = field(default_factory=LookupCache)
    service_extension: LookupCache = field(default_factory=LookupCache)


def from_conf(conf: Any) -> LookupCaches:
    """The caches heat.conf asks for; one oslo.cache region serves all three."""
    if not conf.cache.enabled:
        return LookupCaches()
    from oslo_cache import core

    region = core.configure_cache_region(conf, core.create_region())

    def cache(group: str) -> LookupCache:
        options = conf[group]
        return LookupCache(
            region=region if options.caching else None,
            expiration_time=options.expiration_time,
        )

    return LookupCaches(
        constraint_validation=cache("constraint_validation_cache"),
        resource_finder=cache("resource_finder_cache"),
        service_extension=cache("service_extension_cache"),
    )
