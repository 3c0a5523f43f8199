"""Imports every family module so that each registers its builder (base.register_family).

One line per family module (`import ... as ...` keeps them on separate lines).
"""

from lengthwise.builders.tasks import ordering as ordering
from lengthwise.builders.tasks import sections as sections
from lengthwise.builders.tasks import synopsis_ordering as synopsis_ordering
