"""Imports every family module so that each registers its builder (base.register_family)."""

import lengthwise.builders.tasks.incremental
import lengthwise.builders.tasks.needles  # noqa: F401
