"""The template language: HOT and CFN, every version's sections and functions.

``Template(data, files=None, env=None)`` picks the class of the version that ``data``
declares (registered under the entry point group ``openkeel.templates``);
``format.parse`` turns template text into that data.
"""

from keel_app.engine.template.base import Template, get_template_class, get_version
from keel_app.engine.template.limits import DEFAULT_LIMITS, TemplateLimits

__all__ = ["DEFAULT_LIMITS", "Template", "TemplateLimits", "get_template_class", "get_version"]
