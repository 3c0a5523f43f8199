"""Imports every family module so that each registers its builder (base.register_family).

One line per family module.
"""

import lengthwise.builders.tasks.incremental as incremental_family  # noqa: F401
import lengthwise.builders.tasks.needles as needles_family  # noqa: F401
import lengthwise.builders.tasks.ordering as ordering_family  # noqa: F401
import lengthwise.builders.tasks.qa as qa_family  # noqa: F401
import lengthwise.builders.tasks.recall as recall_family  # noqa: F401
import lengthwise.builders.tasks.sections as sections_family  # noqa: F401
import lengthwise.builders.tasks.synopsis_ordering as synopsis_ordering_family  # noqa: F401
