"""Chinese chapter headings on small synthetic books, one case each."""

from __future__ import annotations

import pytest

from lengthwise.builders.chapters import detect_chapters

BODY = "这一日天气晴好，众人出门游玩，说说笑笑，直到天黑方回。" * 12


def book(*headings: str, body: str = BODY) -> str:
    """A book with a title line and one paragraph under each heading."""
    return "《某书》\n\n" + "".join(f"{h}\n\n    {body}\n\n" for h in headings)


def test_plain_headings_with_titles() -> None:
    result = detect_chapters(book("第一回 宴桃园豪杰三结义", "第二回 张翼德怒鞭督邮"), "zh")
    assert [c.number for c in result.chapters] == [1, 2]
    assert [c.title for c in result.chapters] == ["宴桃园豪杰三结义", "张翼德怒鞭督邮"]
    assert result.chapters[0].heading == "第一回 宴桃园豪杰三结义"
    assert result.chapters[0].text == "    " + BODY  # body without the heading or blank lines
    assert result.front_matter_chars == len("《某书》\n\n")
    assert (result.gaps, result.duplicates, result.excluded) == ([], [], None)


@pytest.mark.parametrize(
    ("headings", "numbers"),
    [
        (["第01回", "第02回", "第03回"], [1, 2, 3]),  # zero-padded arabic
        (["第１回", "第２回", "第１０回"], [1, 2, 10]),  # full-width digits
        (["第十九回", "第廿回", "第廿一回", "第卅回"], [19, 20, 21, 30]),
        (["第一佰回", "第一〇一回", "第一百零二回", "第壹佰零叁回"], [100, 101, 102, 103]),
        (["第一回", "第两回", "第三回"], [1, 2, 3]),
        (["第一一八回", "第一一九回", "第一二零回"], [118, 119, 120]),  # 红楼梦's digit-by-digit
        (["第〇章 序", "第一章 始"], [0, 1]),
    ],
)
def test_every_numeral_form(headings: list[str], numbers: list[int]) -> None:
    result = detect_chapters(book(*headings), "zh")
    assert [c.number for c in result.chapters] == numbers


def test_di_typo_for_di_at_line_start() -> None:
    result = detect_chapters(book("第一章 出发", "地二章 途中", "第三章 到达"), "zh")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert result.chapters[1].heading == "地二章 途中"


def test_di_typo_inside_prose_is_not_a_heading() -> None:
    text = book("第一章 出发", "第二章 途中") + "    他慢慢地三章两节地读完了，" + BODY
    assert [c.number for c in detect_chapters(text, "zh").chapters] == [1, 2]


def test_heading_glued_after_the_last_sentence() -> None:
    text = (
        "《某书》\n\n第四回 薄命女偏逢薄命郎\n\n    "
        + BODY
        + "他便去了。第五回 游幻境指迷十二钗　饮仙醪曲演红楼梦\n\n    "
        + BODY
    )
    result = detect_chapters(text, "zh")
    assert [c.number for c in result.chapters] == [4, 5]
    assert result.chapters[0].text.endswith("他便去了。")
    assert result.chapters[1].title == "游幻境指迷十二钗　饮仙醪曲演红楼梦"
    assert result.chapters[1].text == "    " + BODY


def test_book_without_any_line_break() -> None:
    text = "《某书》曹某第一回 开端　" + BODY + "第二回 中途　　" + BODY + "——第三回 结局　" + BODY
    assert "\n" not in text
    result = detect_chapters(text, "zh")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert [c.title for c in result.chapters] == ["开端", "中途", "结局"]
    assert [c.text for c in result.chapters] == [BODY, BODY + "——", BODY]


def test_two_part_title_on_one_line_book_ends_before_the_body() -> None:
    text = "前言。第一回 灵根育孕源流出 心性修持大道生 诗曰：混沌未分天地乱。" + BODY
    text += "第二回 悟彻菩提真妙理 断魔归本合元神 话说美猴王得了姓名。" + BODY
    result = detect_chapters(text, "zh")
    assert [c.title for c in result.chapters] == [
        "灵根育孕源流出 心性修持大道生",
        "悟彻菩提真妙理 断魔归本合元神",
    ]
    assert result.chapters[0].text.startswith("诗曰：")


def test_heading_phrase_inside_a_sentence_is_body() -> None:
    text = book("第四回 薄命女偏逢薄命郎", "第五回 游幻境指迷十二钗")
    text += "    第四回中既将薛家母子在荣府内寄居等事略已表明，此回则暂不能写矣．\n\n"
    text += "    第一回书中所说的事，众人都记得。" + BODY + "\n\n"
    result = detect_chapters(text, "zh")
    assert [c.number for c in result.chapters] == [4, 5]
    assert "第四回中既将" in result.chapters[1].text
    assert result.duplicates == []


def test_heading_repeated_after_site_navigation_is_not_a_duplicate() -> None:
    # 红楼梦 as scraped: heading, a nav bar, then the heading again with a dash.
    text = book("第三十七回 秋爽斋偶结海棠社")
    text += "第三十八回  林潇湘魁夺菊花诗　薛蘅芜讽和螃蟹咏\n\n    首页|原创书库|现代|言情\n\n"
    text += "    第三十八回  林潇湘魁夺菊花诗　薛蘅芜讽和螃蟹咏\n\n    " + BODY
    result = detect_chapters(text, "zh")
    assert [c.number for c in result.chapters] == [37, 38]
    assert result.duplicates == []


def test_a_real_duplicate_with_its_own_text_is_reported() -> None:
    result = detect_chapters(book("第一回", "第二回", "第二回", "第三回"), "zh")
    assert [c.number for c in result.chapters] == [1, 2, 2, 3]
    assert result.duplicates == [2]


def test_gap_is_reported_not_filled() -> None:
    result = detect_chapters(book("第一回", "第十二回"), "zh")
    assert [c.number for c in result.chapters] == [1, 12]
    assert result.gaps == [(2, 11)]


def test_juan_is_a_part_with_restarting_chapters() -> None:
    text = book("第一卷 春", "第一章 甲", "第二章 乙", "第二卷 秋", "第一章 丙", "第三章 丁")
    result = detect_chapters(text, "zh")
    assert [(c.part, c.number) for c in result.chapters] == [
        ("第一卷 春", 1),
        ("第一卷 春", 2),
        ("第二卷 秋", 1),
        ("第二卷 秋", 3),
    ]
    assert result.gaps == [(2, 2)]  # within 第二卷
    assert result.duplicates == []


def test_juan_with_continuous_numbering_is_one_run() -> None:
    text = book("第一卷 春", "第一章 甲", "第二章 乙", "第二卷 秋", "第三章 丙", "第五章 丁")
    result = detect_chapters(text, "zh")
    assert result.gaps == [(4, 4)]


def test_juan_alone_are_the_chapters() -> None:
    result = detect_chapters(book("第一卷 春", "第二卷 夏"), "zh")
    assert [(c.number, c.part) for c in result.chapters] == [(1, None), (2, None)]


def test_jie_under_zhang_are_sections_not_chapters() -> None:
    result = detect_chapters(book("第一章 甲", "第一节 子", "第二节 丑", "第二章 乙"), "zh")
    assert [c.number for c in result.chapters] == [1, 2]


def test_prologue_and_epilogue_keywords() -> None:
    result = detect_chapters(
        book("楔子 张天师祈禳瘟疫", "第一回 王教头", "第二回 史大郎", "尾声"), "zh"
    )
    assert [(c.kind, c.number) for c in result.chapters] == [
        ("prologue", None),
        ("chapter", 1),
        ("chapter", 2),
        ("epilogue", None),
    ]
    assert result.chapters[0].title == "张天师祈禳瘟疫"


def test_contents_list_at_the_start_is_dropped() -> None:
    contents = "目录\n第一章 出发\n第二章 途中\n第三章 到达\n\n"
    result = detect_chapters(contents + book("第一章 出发", "第二章 途中", "第三章 到达"), "zh")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert all(len(c.text) > 100 for c in result.chapters)
    assert result.toc_headings_dropped == 3
    assert result.duplicates == []


def test_leftover_site_noise_does_not_break_detection() -> None:
    noise = "首页|原创书库|现代|言情|武侠\n本站长期招收作品更新管理员，点此察看详情！\n"
    noise += "后一页\n前一页\n回目录\n"
    text = noise + book("第一回 甲") + noise + book("第二回 乙") + "小^说^无广告的~顶点*小说~网\n"
    assert [c.number for c in detect_chapters(text, "zh").chapters] == [1, 2]


def test_crlf_is_tolerated() -> None:
    text = book("第一回 甲", "第二回 乙").replace("\n", "\r\n")
    result = detect_chapters(text, "zh")
    assert [c.title for c in result.chapters] == ["甲", "乙"]


def test_english_style_headings_in_a_chinese_book_are_a_fallback() -> None:
    result = detect_chapters(book("Chapter 1", "Chapter 2"), "zh")
    assert [c.number for c in result.chapters] == [1, 2]
