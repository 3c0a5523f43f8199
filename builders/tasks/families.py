"""Imports every family module so that each registers its builder (base.register_family)."""

import lengthwise.builders.tasks.ordering
import lengthwise.builders.tasks.sections
import lengthwise.builders.tasks.synopsis_ordering
