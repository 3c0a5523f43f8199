"""The `watermark` class: site furniture disguised by separators or look-alikes left in
a sample (`（奇*书*网^.^整*理*提*供）`, `ｗωｗ奇Qisuu書com网`), shown with its skeleton.

A disguised cluster (`cleaning/watermark_skeletons.py`) is reported when its skeleton
names a site (`www`, `com`, `小说网`, `下载`) or comes twice or more in the sample, and is
not a plain web address (the `url` class's). Before
this class such a watermark was filed as `ascii_symbol` (its `*` between ideographs) or
not at all; it still counts there too, as those symbols are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.watermark_skeletons import clusters
from lengthwise.builders.cleaning.watermarks import learnable
from lengthwise.builders.cleaning.web_addresses import needs_translation, url_spans

_CJK_LANGUAGES = ("zh", "ja")


def find_watermarks(context: AuditContext) -> Iterator[Finding]:
    """One finding per printing of a disguised watermark, its skeleton beside it."""
    if context.language not in _CJK_LANGUAGES:
        return
    text = context.text
    # A web address printed plainly is the `url` class's.
    addresses = url_spans(text, needs_translation(text))
    found = [
        c
        for c in clusters(text)
        if learnable(c) and not any(s < c.end and c.start < e for s, e in addresses)
    ]
    counts = Counter(c.skeleton for c in found)
    for cluster in found:
        if cluster.names_a_site or counts[cluster.skeleton] >= 2:
            shown = f"{cluster.text} → {cluster.skeleton}"
            yield Finding("watermark", snippet(text, cluster.start, cluster.end, shown=shown))
