"""Words that sites, not authors, put into books: evidence that lets a recurring line go.

Learned boilerplate never removes a line that reads like prose (it ends a sentence, or
holds Chinese sentence stops): dialogue, poems and closing formulae such as
`且听下回分解。` recur too. Site pleas are punctuated like prose
(`喜欢红楼梦请大家收藏：书香小站 红楼梦最新章节更新速度全网最快。`) and often carry no web
address, so the statistics alone cannot tell them from a formula. These words can: a
line that recurs at the chapter edges of a book (or across books of the corpus) *and*
holds one of them is furniture even when it is punctuated. A word alone never removes
anything; the recurrence is the evidence, the word only lifts the prose guard. Words
are listed in both scripts (`最新章节` / `最新章節`).

The list is cleaning's own. The residual-noise audit keeps a separate, larger vocabulary
(builders/audit/vocabulary.py) so that it still catches what cleaning missed.
"""

from __future__ import annotations

import re

# fmt: off
_ZH = (
    "收藏", "最新章节", "章节目录", "全文阅读", "在线阅读", "免费阅读", "手机阅读", "更新最快",
    "更新速度", "全网最快", "首发", "本站", "书友", "推荐票", "月票", "订阅", "打赏", "请记住",
    "小说网", "书屋", "书城", "书库", "网址", "加入书签", "下载", "无弹窗", "电子书",
    # Page navigation of sites that show a chapter over several pages.
    "下一页", "上一页", "继续阅读", "点击",
    # The same in traditional script (OpenCC s2t; 線上閱讀 as Taiwan sites write it), so
    # that simplified books never need the folding table on this path.
    "最新章節", "章節目錄", "全文閱讀", "在線閱讀", "線上閱讀", "免費閱讀", "手機閱讀", "全網最快",
    "首發", "書友", "推薦票", "訂閱", "打賞", "請記住", "小說網", "書屋", "書城", "書庫", "網址",
    "加入書籤", "下載", "無彈窗", "電子書", "下一頁", "上一頁", "繼續閱讀", "點擊",
)
# Matched as whole words, case-insensitive.
_EN = (
    "download", "downloads", "ebook", "ebooks", "e-book", "website", "web site", "online",
    "subscribe", "patreon", "bookmark", "read more", "next chapter", "previous chapter",
    "next page", "previous page", "continue reading", "click here",
)
# fmt: on
_SITE_TERM = re.compile(
    "|".join([*map(re.escape, _ZH), *(rf"\b{re.escape(term)}\b" for term in _EN)]),
    re.IGNORECASE,
)


def may_hold_site_term(text: str) -> bool:
    """False when `text` certainly holds no site word: one C substring search per word,
    cheaper than the regex on a long text (then only true candidates are searched)."""
    if any(term in text for term in _ZH):
        return True
    lowered = text.lower()
    return any(term in lowered for term in _EN)


def first_site_term(text: str) -> int | None:
    """Offset of the first site word in `text` (traditional script too), or None."""
    found = _SITE_TERM.search(text)
    return None if found is None else found.start()


def has_site_term(text: str) -> bool:
    return _SITE_TERM.search(text) is not None


def site_term_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every site word in `text`."""
    return [match.span() for match in _SITE_TERM.finditer(text)]
