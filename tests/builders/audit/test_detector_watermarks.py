"""The `watermark` audit class: disguised site furniture left in a sample is reported as
such, with its skeleton (it was filed as `ascii_symbol` or nothing before)."""

from __future__ import annotations

from lengthwise.builders.audit import audit_sample
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig

STORY = "却说玄德闻言，便与关张二人商议。"


def _row(text: str) -> Sample:
    return Sample("b:0000-0001", "S", "b", "", "zh", 0, 1, [], [], text, 0, "chars",
                  {}, 0, 0, 0, None, "")  # fmt: skip


def test_each_disguised_form_is_site_furniture_with_its_skeleton() -> None:
    forms = {
        "（奇*书*网^.^整*理*提*供）": "书网整理提",
        "|奇-_-书^_^网|": "奇书网",
        "SJTXT小说下载网+sjtxt.Com": "sjtxt",
        "ｗωｗ奇Qisuu書com网": "www奇qisuu书com",
    }
    for form, shown in forms.items():
        text = STORY * 3 + "玄德" + form + "曰：" + STORY + "关公" + form + "曰：" + STORY
        audit = audit_sample(_row(text), AuditConfig())
        assert audit.counts["watermark"] >= 2, (form, audit.counts)
        assert shown in audit.snippets["watermark"][0], audit.snippets["watermark"]


def test_latin_words_dates_and_ranges_are_not_watermarks() -> None:
    text = "他穿着T-shirt来见CEO的助理，1998年3月到了上海，买了3-5本书。" * 3
    assert audit_sample(_row(text), AuditConfig()).counts["watermark"] == 0
