"""`zh-web/author-notice`: web-serial pseudo-chapters that are not part of the story.

Serials interleave posts such as `第八十章 请假条`, `上架感言`, `单章 求月票` or a
trailing `作者有话要说：` note with the chapters. Such a block runs from its heading
line to the next chapter heading (or the end of the text) and is removed whole,
heading included, when

* its heading is a notice heading: a numbered heading (`第X章`) whose title starts
  with a notice word (请假, 感言, 公告, 通知, 单章, 求月票, …), or a line that is
  only a notice title (上架感言, 作者的话, 请假条, …, optionally bracketed);
* its body is short (at most `MAX_NOTICE_CHARS`) and speaks to readers (大家, 书友,
  月票, 更新, 感谢, …): a real chapter that happens to be called 感言 is long and
  is kept.

A `作者有话要说` note is removed from its line to the next heading on length alone,
the marker being unambiguous. A note opened by a shorter label (`PS：`, `P.S.`,
`作者注：`, `作者的话：`, `题外话：`, or wholly in brackets, `（作者注：…）`) is removed the
same way, but only where the book has the habit: at least `MIN_LABELLED_NOTES` such
short notes, each running to a chapter heading or the end. A letter in the story may
close with a `PS：`; the story does not go on to a heading within a few lines after it
in three chapters.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span, with_sentinel
from lengthwise.text.numerals import NUMERAL_CLASS

MAX_NOTICE_CHARS = 1500
MIN_LABELLED_NOTES = 3
_NOTE_LABEL = r"(?:PS|Ps|ps|P\.\s?S\.?|ＰＳ|作者注|作者的话|作者有话说|题外话)"

_NUMBER = f"第[{NUMERAL_CLASS}]+"
_NUMBERED_NOTICE = (
    rf"{_NUMBER}[章节回]{HSPACE}*[：:、.．]?{HSPACE}*[（(【\[]?"
    r"(?:请假|感言|上架感言|完本感言|完结感言|入[vV]感言|公告|通告|通知|单章|求月票|求推荐|"
    r"求收藏|求订阅|作者的话|新书发布|新书上传|新书已发|新书推荐|断更|停更|更新说明|致读者|致歉|道歉)[^\n]{0,16}"
)
_TITLE_ONLY_NOTICE = (
    # Compound notice titles, which do not start story lines, may carry a short tail.
    r"[（(【\[]?(?:请假条|上架感言|完本感言|完结感言|入[vV]感言|作者的话|作者有话说|新书发布|"
    r"新书已发|新书上传|断更说明|停更说明|更新说明|致读者)[）)】\]]?[！!。.～~…：:]*"
    r"[^\n。！？!?，,]{0,8}"
    # Bare words only as the whole line.
    r"|[（(【\[]?(?:请假|感言|公告|通知)[）)】\]]?[！!。.～~…：:]*"
    r"|单章[^\n]{0,12}"
)
_NOTICE_HEADING = re.compile(
    # One leading literal newline (fast scan), indentation without backtracking.
    rf"\n[ \t\u3000\xa0]*+(?:(?:{_NUMBERED_NOTICE}|{_TITLE_ONLY_NOTICE}){HSPACE}*(?=\n|\Z)"
    rf"|(?P<tail>作者有话要说)"
    rf"|(?P<note>[（(【\[]?{_NOTE_LABEL}{HSPACE}*[：:]))"
)
_NEXT_HEADING = re.compile(
    rf"\n{HSPACE}*(?:{_NUMBER}[章节回卷集部篇]|序章|序言|楔子|引子|尾声|番外|后记|终章|正文)"
)
_READER_WORDS = re.compile(
    r"大家|读者|书友|各位|月票|推荐票|收藏|订阅|更新|请假|上架|新书|本书|码字|谢谢|感谢|支持"
)


def _notice_blocks(text: str) -> list[Span]:
    work = with_sentinel(text)  # "\n" + text: the first line is a line too
    spans: list[Span] = []
    notes: list[Span] = []
    position = 0
    while (heading := _NOTICE_HEADING.search(work, position)) is not None:
        body_start = work.find("\n", heading.end())
        body_start = len(work) if body_start < 0 else body_start
        following = _NEXT_HEADING.search(work, body_start)
        end = len(work) if following is None else following.start() + 1
        body = work[body_start:end]
        position = max(heading.end(), end - 1)
        if len(body) > MAX_NOTICE_CHARS:
            continue
        # Work offsets are text offsets + 1; the block starts with its heading line.
        if heading.group("note") is not None:
            notes.append((heading.start(), end - 1))
            continue
        if heading.group("tail") is None and not _READER_WORDS.search(body):
            continue
        spans.append((heading.start(), end - 1))
    if len(notes) >= MIN_LABELLED_NOTES:
        spans = sorted(spans + notes)
    return spans


AUTHOR_NOTICE = BlockRule(
    name="zh-web/author-notice",
    description="Author notices posted as chapters (第X章 请假条, 上架感言, 作者的话, 单章 "
    f"求月票, 作者有话要说：…): heading and body removed when the body is short "
    f"(≤ {MAX_NOTICE_CHARS} chars) and addressed to readers; labelled chapter-end notes "
    f"(PS：…, 作者注：…) when the book has at least {MIN_LABELLED_NOTES}.",
    find_blocks=_notice_blocks,
    languages=("zh",),
)
