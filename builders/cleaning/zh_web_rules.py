"""The `zh-web` rule set: what Chinese e-text and web-serial sites add to a book.

Line rules delete whole lines (site menus, notices, update stamps, vote pleas);
inline rules cut adverts and watermarks out of a sentence and rejoin it. Patterns
are deliberately specific (site words, domains, obfuscation marks) because these
rules run on every Chinese book: a false positive would cut the story. All are
`LineRule`s: they only look at lines holding one of their anchor words.
The author-notice block rule lives in `zh_notices`.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.line_rules import LineRule, LineStartGroup
from lengthwise.builders.cleaning.rules import HSPACE
from lengthwise.text.numerals import DIGIT_CLASS

_ZH = ("zh",)

# The line rules below that look at line starts share one scan of the text per text
# state. (The author-notice and notice-block openings stay apart: when a line rule
# fires, the group scans the new text again, and a bigger group costs more each time.)
_LINE_STARTS = LineStartGroup()
_line_start = _LINE_STARTS.locator


def _whole_line(content: str) -> re.Pattern[str]:
    """A pattern matching a line that holds `content` and nothing else (but spaces)."""
    return re.compile(rf"^{HSPACE}*(?:{content}){HSPACE}*$")


NAV_BAR = LineRule(
    name="zh-web/nav-bar",
    description="Site menu lines: four or more short items separated by | that include a "
    "menu word (首页|原创书库|言情|…|排行|论坛); a bar a fixed-width wrap cut ends with its "
    "separator (首页|原创书库|…|纪实|).",
    pattern=_whole_line(
        rf"(?=(?:[^\s|｜]{{1,8}}{HSPACE}*[|｜]{HSPACE}*){{3}})"  # cheap structure check first
        r"(?=[^\n]{0,200}?(?:首页|书库|排行|论坛|书架|分类|全本|完本|目录))"
        rf"(?:[^\s|｜]{{1,8}}{HSPACE}*[|｜]{HSPACE}*){{3,}}(?:[^\s|｜]{{1,8}})?"
    ),
    anchors=("|", "｜"),
    languages=_ZH,
)

_NAV_WORDS = (
    "上一页|下一页|前一页|后一页|上一章|下一章|回目录|返回目录|章节目录|目录页|回首页|"
    "返回首页|网站首页|加入书签|添加书签|返回书页|回书页|返回书目"
)
_NAV_ITEM = rf"[【\[]?(?:{_NAV_WORDS})[】\]]?"
NAV_LINK = LineRule(
    name="zh-web/nav-link",
    description="Lines made only of page-navigation links (上一页, 下一章, 回目录, 回首页, "
    "加入书签, …).",
    pattern=_whole_line(rf"{_NAV_ITEM}(?:{HSPACE}*[|｜/、·→←]?{HSPACE}*{_NAV_ITEM})*"),
    locator=_line_start(_NAV_ITEM),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

_SITE_NOTICE_START = (
    r"本站|本网站|本网|欢迎(?:光临|访问|来到)|请记住本|天才一秒记住|一秒记住|记住本站"
    r"|章节错误|如果您(?:喜欢|觉得)本站|友情提示|温馨提示[:：]本站"
)
SITE_NOTICE = LineRule(
    name="zh-web/site-notice",
    description="Short site announcement lines (本站…书友/点此…, 请记住本站…, 章节错误,点此举报…).",
    pattern=_whole_line(
        rf"(?:{_SITE_NOTICE_START})"
        r"(?=.{0,150}(?:书友|点此|点击|网址|域名|举报|本站|www|WWW|加入书签)).{0,150}"
    ),
    locator=_line_start(_SITE_NOTICE_START),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

_DISCLAIMER_START = (
    r"[（(【\[]?(?:本书来自|本书由|本书下载|本电子书|本作品来自|本作品由|本作品仅供|"
    r"更多精彩|更多免费|更多(?:txt|TXT)|手机阅读|手机访问|手机用户|手机看书|免费(?:txt|TXT)|"
    r"(?:txt|TXT)(?:小说|电子书)?下载|内容版权归作者所有|该作品来自|电子书下载|小说下载)"
)
DOWNLOAD_DISCLAIMER = LineRule(
    name="zh-web/download-disclaimer",
    description="Download-site disclaimer lines (本书来自…, 更多精彩…, 手机阅读…, "
    "本作品来自互联网…, TXT下载…).",
    pattern=_whole_line(
        rf"{_DISCLAIMER_START}"
        r"(?=.{0,200}(?:www|com|net|网|站|访问|下载|阅读|txt|TXT|整理|收集|版权|关注|搜索))"
        r".{0,200}"
    ),
    locator=_line_start(_DISCLAIMER_START),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

_STAMP = (
    r"(?:(?:更新时间|发布时间|发表时间|更新日期|上传时间)[:：]?"
    rf"{HSPACE}*\d{{2,4}}[-/年.]\d{{1,2}}[-/月.]\d{{1,2}}日?"
    rf"(?:{HSPACE}*\d{{1,2}}[:：]\d{{2}}(?:[:：]\d{{2}})?)?"
    rf"|(?:本章字数|章节字数|本章字节|全文字数|字数)[:：]?{HSPACE}*\d+{HSPACE}*字?)"
)
UPDATE_INFO = LineRule(
    name="zh-web/update-info",
    description="Per-chapter update stamps (更新时间：2012-3-4 12:00 本章字数：3456): the whole "
    "line when it holds nothing else, else only the stamps (a heading before them stays).",
    pattern=re.compile(rf"(?:{HSPACE}*{_STAMP})+{HSPACE}*"),
    # Stamps open their line or follow the chapter heading on it.
    locator=_line_start(rf"{_STAMP}|第[^\n]{{1,40}}?{_STAMP}"),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

_PLEA = (
    r"求(?:推荐票?|月票|收藏|订阅|打赏|票票?|粉红票?|点击|包养|鲜花|书评|评论|评价票?|红票|"
    r"[Pp][Kk]票|保底月票|全订|首订|支持|关注)"
)
VOTE_PLEA = LineRule(
    name="zh-web/vote-plea",
    description="Vote/bookmark pleas: lines made only of 求推荐/求月票/求收藏… items, short "
    "lines of a few clauses ending in one (新书上传，求收藏！), PS lines with such a plea, "
    "and bracketed pleas inside a line (（求推荐！）).",
    pattern=re.compile(
        # A whole line of plea items: 求推荐！求收藏～ / 各位，继续求月票！
        rf"^{HSPACE}*[（(【]?(?:{HSPACE}*(?:各位|大家|诸位)?[，,]?"
        rf"(?:再|继续|跪|拜|厚颜|顺便|诚|新书)?{_PLEA}{HSPACE}*[！!~～。，,、…]*)+[）)】]?{HSPACE}*$"
        # Up to two short clauses, then pleas: 新书上传，求收藏！ / 月底了，求月票支持！ (no
        # sentence end before the plea: 他走了。求推荐！ keeps its sentence).
        rf"|^{HSPACE}*(?:[^\n，,。！!？?（(【]{{1,12}}[，,！!～~…、]+{HSPACE}*){{1,2}}"
        rf"{_PLEA}[^\n。？?]{{0,20}}$"
        # A PS line that pleads: PS：新书上传，求收藏求推荐！
        rf"|^{HSPACE}*[（(【]?(?:PS|ps|Ps|ＰＳ|P\.S\.)[:：.．,，]?.{{0,60}}?{_PLEA}.{{0,100}}$"
        # A bracketed plea inside a line.
        rf"|[（(【][^（）()【】]{{0,30}}?{_PLEA}[^（）()【】]{{0,30}}[）)】]"
    ),
    locator=re.compile(_PLEA),  # starts with the literal 求
    languages=_ZH,
)

_READER_WORD = r"书友|打赏|月票|推荐票|盟主|舵主|堂主|捧场|订阅|催更|评论区|票票"
READER_THANKS = LineRule(
    name="zh-web/reader-thanks",
    description="An author's thanks to readers on a line of its own: a line opening with "
    "感谢/谢谢/多谢/鸣谢 (after PS or a bracket) that names the reader economy (书友, 打赏, "
    "月票, 盟主, 订阅…).",
    pattern=_whole_line(
        rf"[（(【]?(?:PS|ps|Ps|ＰＳ)?[:：]?{HSPACE}*(?:感谢|谢谢|多谢|鸣谢|拜谢)"
        rf"[^\n]{{0,60}}?(?:{_READER_WORD})[^\n]{{0,60}}"
    ),
    locator=_line_start(r"[（(【]?(?:PS|ps|Ps|ＰＳ)?[:：]?[ \t]*(?:感谢|谢谢|多谢|鸣谢|拜谢)"),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

CHAPTER_END_MARKER = LineRule(
    name="zh-web/chapter-end-marker",
    description="Serial chapter-end markers on their own line: （本章完）, （未完待续…投推荐票、"
    "月票…）, and the same without brackets (未完待续……).",
    pattern=_whole_line(r"[（(](?:本章完|未完待续).{0,160}?[）)]|(?:本章完|未完待续)[。.…!！~～]*"),
    locator=_line_start(r"[（(]?(?:本章完|未完待续)"),
    line_starts=_LINE_STARTS,
    languages=_ZH,
)

# Words of Chinese site adverts. Each may be spelt with obfuscation marks between its
# characters (小^说^网), so the pattern allows a separator after every character.
_AD_WORDS = (
    "小说网", "小说", "无广告的", "无广告", "顶点", "笔趣阁", "看书网", "看书", "最快更新",
    "更新最快", "首发", "全文字", "手机版", "手打", "无弹窗", "无错", "免费阅读", "全文阅读",
    "最新章节", "请访问", "请记住", "记住", "本站域名", "域名", "百度搜索", "文学网", "中文网",
    "书屋", "书城", "电子书", "天才", "一秒", "本站地址", "本站网址", "地址", "网址", "网",
)  # fmt: skip
_OBFUSCATION = r"[\^~*＊～＾·•∷◎☆★※♂:： \t\u3000]"
_AD_WORD = "|".join(f"{_OBFUSCATION}*".join(re.escape(char) for char in word) for word in _AD_WORDS)
_DOT = rf"{_OBFUSCATION}*(?:[.．。]|点){_OBFUSCATION}*"
_HOST = (
    rf"[A-Za-zａ-ｚＡ-Ｚ{DIGIT_CLASS}-]{{2,30}}(?:{_DOT}[A-Za-z0-9-]{{2,20}})?{_DOT}"
    r"(?:com|net|org|cc|cn|la|info|me|tw|co|so|xyz|vip|ｃｏｍ|ｎｅｔ)(?![A-Za-z])(?:/[A-Za-z0-9_./%?=&-]*)?"
)
# A bare "name.com" is an advert only after advert words; with www/http it always is.
_SCHEME = r"(?:https?|ｈｔｔｐ)[:：]//"
_SUBDOMAIN = rf"(?:www|ｗｗｗ|wap|m){_DOT}"
_WWW_DOMAIN = rf"(?:{_SCHEME}(?:{_SUBDOMAIN})?|{_SUBDOMAIN}){_HOST}"
_ANY_DOMAIN = rf"(?:{_SCHEME})?(?:{_SUBDOMAIN})?{_HOST}"
_AD_WORDS_RUN = rf"(?:(?:{_AD_WORD}){_OBFUSCATION}*)"
_AD_PHRASE = (
    # 全文字版小说阅读，更新更快，尽在XX文学
    r"全文字版?小说阅读[，,、\s]*更新(?:更|最)快[，,、\s]*尽在[^，。,！!]{1,8}?"
    r"(?:文学网?|小说网?|书屋|中文网|网)(?:支持)?[!！]?"
    r"|手机用户请浏览[^。]{0,30}阅读[^。]{0,20}[。.]?"
    r"|(?:天才)?一秒记住[【\[]?[^】\]]{0,20}[】\]]?[，,]?为您提供精彩小说阅读[。.]?"
)
# Every domain has www, a scheme or its top-level domain; the phrases their first words.
# ASCII anchors cost next to nothing in Chinese text (see rules.contains_any).
_ADVERT_ANCHORS = (
    "www", "WWW", "http", "com", "COM", "net", "org", ".cc", ".la", ".cn", ".info", ".me",
    ".tw", ".co", ".so", ".xyz", ".vip", "ｗｗｗ", "ｃｏｍ", "全文字", "手机用户", "一秒记住",
)  # fmt: skip
SITE_ADVERT = LineRule(
    name="zh-web/site-advert",
    description="Site adverts injected into the text, with a domain (plain or obfuscated: "
    "小^说^无广告的~顶点*小说~网www.shuyaya.com) or a known phrase (全文字版小说阅读，更新更快，"
    "尽在…); the sentence around them is rejoined.",
    pattern=re.compile(
        rf"[（(【\[《〖「]?(?:{_AD_WORDS_RUN}{{1,10}}{_ANY_DOMAIN}|{_AD_WORDS_RUN}{{0,10}}{_WWW_DOMAIN})"
        rf"(?:{_OBFUSCATION}*(?:首发|无弹窗|手打|更新最快|最快更新|免费阅读|全文阅读|最新章节))*"
        rf"[）)】\]》〗」]?"
        rf"|{_AD_PHRASE}",
        re.IGNORECASE,
    ),
    anchors=_ADVERT_ANCHORS,
    languages=_ZH,
)

_WATERMARKS = (
    "丫丫电子书", "顶点小说网", "顶点小说", "笔趣阁", "新笔趣阁", "八一中文网", "书包网",
    "乐文小说网", "乐文小说", "飘天文学网", "飘天文学", "千千小说", "全本小说网", "棉花糖小说网",
    "天籁小说", "燃文小说", "爱上中文网", "看书中文网", "UU看书", "uu看书",
)  # fmt: skip
_WATERMARK = re.compile(
    "|".join(re.escape(mark) for mark in sorted(_WATERMARKS, key=len, reverse=True))
)
WATERMARK = LineRule(
    name="zh-web/watermark",
    description="Site-name watermarks stamped into the text, sometimes over the original "
    "words (丫丫电子书, 顶点小说, 笔趣阁, …); the text around them is rejoined.",
    pattern=_WATERMARK,
    # The watermarks are literals: one scan for them all beats a search per site word.
    locator=_WATERMARK,
    languages=_ZH,
)

# Order matters: adverts before watermarks (an advert contains a site name),
# line rules before inline ones (an inline cut must not leave half a nav line).
LINE_RULES: tuple[LineRule, ...] = (
    NAV_BAR,
    NAV_LINK,
    SITE_NOTICE,
    DOWNLOAD_DISCLAIMER,
    UPDATE_INFO,
    VOTE_PLEA,
    READER_THANKS,
    CHAPTER_END_MARKER,
)
INLINE_RULES: tuple[LineRule, ...] = (SITE_ADVERT, WATERMARK)
