"""The audit's per-language tables: vocabularies and line shapes, as data.

Each table is what a reader of that language would call noise in a novel. Terms are
*strong* (noise wherever they occur: nobody downloads anything in a 19th-century novel)
or *weak* (ordinary words that are noise only near a strong term of the same class:
"licence" alone is Mr. Collins's special licence, "licence" next to "Project Gutenberg"
is the PG licence). Latin-script terms match whole words, case-insensitively, with an
optional inflection (s, d, ed, es, ing); Chinese terms match anywhere. A spec extends
the tables with `[audit.languages.<code>]`; a language without a table of its own uses
the English one (web vocabulary is mostly English). Japanese has its own (web-novel and
e-text sites' words; terms match anywhere, as Chinese ones do).
"""

from __future__ import annotations

from dataclasses import dataclass

from lengthwise.spec import AuditConfig
from lengthwise.text.number_words import CARDINAL_WORDS
from lengthwise.text.numerals import NUMERAL_CLASS, ROMAN_CLASS


@dataclass(frozen=True)
class TermTable:
    strong: tuple[str, ...]
    weak: tuple[str, ...] = ()


@dataclass(frozen=True)
class LanguageProfile:
    language: str
    site: TermTable
    copyright: TermTable
    page_lines: tuple[str, ...]  # regexes matching a whole (stripped) page-marker line
    heading_lines: tuple[str, ...]  # regexes matching the start of a heading-like line
    max_heading_chars: int


# Shapes every language shares.
COMMON_PAGE_LINES = (
    r"\d{1,4}",  # a bare page number
    r"[-–—]\s*\d{1,4}\s*[-–—]",  # - 12 -
    r"[\[{(]\s*(?:page|pg\.?|p\.)?\s*\d{1,4}\s*[\]})]",  # [Page 12] [12] {12}
)
COMMON_HEADING_LINES = (
    f"(?:[{ROMAN_CLASS}]{{1,7}}|\\d{{1,3}})[.)]\\s+\\S",
)  # "IV. The Pool", "12) ..."

# fmt: off
ZH = LanguageProfile(
    language="zh",
    site=TermTable(
        strong=(
            "小说网", "免费阅读", "下载", "最新章节", "全文阅读", "在线阅读", "手机阅读",
            "手机版", "电子书", "无弹窗", "无广告", "更新最快", "笔趣阁", "顶点小说",
            "月票", "推荐票", "加入书签", "上一章", "下一章", "返回目录", "章节目录",
            "网址", "网站", "百度搜索", "请记住", "txt", "原创书库", "回首页", "回目录",
            "前一页", "后一页",
            # Serial chatter: pleas, markers, extra-chapter notes.
            "求推荐", "求收藏", "求月票", "求订阅", "求打赏", "求票", "票票", "未完待续",
            "本章完", "加更", "上架感言",
        ),
        weak=(
            "本站", "首发", "书友", "收藏", "推荐", "更新", "章节", "书库", "书城", "阅读",
            "打赏",  # 打赏他几两银子: tipping a servant, in an old novel
            "首页",  # 这首页上画着一幅画: the first page of an album
            "点此",  # 自未曾检点此宝 (封神演義): "looked over this treasure"
        ),
    ),
    copyright=TermTable(
        strong=(
            "版权", "免责声明", "侵权", "转载请", "请勿转载", "仅供交流", "仅供学习",
            "仅供参考", "支持正版", "购买正版", "著作权",
        ),
        weak=("声明", "正版", "所有", "删除", "作者"),
    ),
    page_lines=(rf"第\s*[{NUMERAL_CLASS}]+\s*页",),
    heading_lines=(rf"第\s*[{NUMERAL_CLASS}]+\s*[回章节節卷集部篇话話]",),
    max_heading_chars=40,
)

EN = LanguageProfile(
    language="en",
    site=TermTable(
        strong=(
            "download", "ebook", "e-book", "www", "website", "web site", "click here",
            "patreon", "epub", "read online", "free online",
        ),
        # "kindle" is a verb and "the previous chapter" is how narrators speak: weak.
        weak=(
            "online", "internet", "html", "pdf", "subscribe", "mobile", "table of contents",
            "kindle", "next chapter", "previous chapter",
        ),
    ),
    copyright=TermTable(
        strong=(
            "copyright", "project gutenberg", "gutenberg", "all rights reserved",
            "public domain", "terms of use", "trademark", "etext", "transcriber's note",
        ),
        weak=(
            "license", "licence", "royalty", "royalties", "rights", "donation", "distribute",
            "distribution", "produced by", "warranty", "liability", "terms",
        ),
    ),
    page_lines=(r"page\s+\d{1,4}",),
    heading_lines=(
        r"(?:chapter|chap\.|book|part|volume|vol\.|letter|stave|adventure|section)\s+"
        rf"(?:[{ROMAN_CLASS.lower()}]+|\d+|{'|'.join(CARDINAL_WORDS[1:11])})\b",
    ),
    max_heading_chars=100,
)

# Japanese e-texts: web-novel sites' furniture and the e-text sites' notes (Aozora Bunko's
# key and colophon go in cleaning: a word of them left in a sample is noise).
JA = LanguageProfile(
    language="ja",
    site=TermTable(
        strong=(
            "ダウンロード", "電子書籍", "無料で読", "小説家になろう", "カクヨム", "次の話",
            "前の話", "目次へ", "ブックマーク", "感想を書く", "レビューを書く", "青空文庫",
            "テキスト中に現れる記号", "入力者注",
        ),
        weak=("更新", "公開", "作品", "サイト"),
    ),
    copyright=TermTable(
        strong=("著作権", "無断転載", "転載禁止", "底本：", "入力：", "校正：", "底本の親本"),
        weak=("作者", "初出", "発行"),
    ),
    page_lines=(rf"[{NUMERAL_CLASS}]+\s*(?:ページ|頁)",),
    heading_lines=(rf"第\s*[{NUMERAL_CLASS}]+\s*[章回話部編節巻]",),
    max_heading_chars=40,
)

# fmt: on

BUILT_IN: dict[str, LanguageProfile] = {"zh": ZH, "en": EN, "ja": JA}


def profile_for(language: str, config: AuditConfig) -> LanguageProfile:
    """The built-in table for `language` (English when none) plus the spec's additions."""
    code = language.split("-")[0].lower()
    base = BUILT_IN.get(code, EN)
    extra = config.languages.get(code)
    if extra is None:
        return base if code == base.language else _renamed(base, code)
    return LanguageProfile(
        language=code,
        site=TermTable(base.site.strong + tuple(extra.site_terms), base.site.weak),
        copyright=TermTable(
            base.copyright.strong + tuple(extra.copyright_terms), base.copyright.weak
        ),
        page_lines=base.page_lines,
        heading_lines=base.heading_lines,
        max_heading_chars=extra.max_heading_chars or base.max_heading_chars,
    )


def _renamed(base: LanguageProfile, code: str) -> LanguageProfile:
    return LanguageProfile(
        code,
        base.site,
        base.copyright,
        base.page_lines,
        base.heading_lines,
        base.max_heading_chars,
    )
