"""zh-web rules on hand-written strings: each fires, counts right, and rejoins the text."""

from __future__ import annotations

import pytest

from lengthwise.builders.cleaning import RULES_BY_NAME, clean_text
from lengthwise.spec import CleaningConfig

STORY = "他走进屋里，看见了她。"


def apply(name: str, text: str) -> tuple[str, int]:
    outcome = RULES_BY_NAME[name].apply(text)
    return outcome.text, outcome.count


@pytest.mark.parametrize(
    "advert",
    [
        "小^说^无广告的~顶点*小说~网www.shuyaya.com",
        "（笔趣阁 www.biquge.info）",
        "ｗｗｗ．ｂｉｑｕｇｅ．ｃｏｍ",
        "请访问笔趣阁biquge.la最快更新",
        "天才一秒记住本站地址：www.xxbiquge.com",
        "http://www.abc.net/book/1.html",
    ],
)
def test_site_advert_mid_sentence_leaves_the_sentence_intact(advert: str) -> None:
    text = f"第一章 开始\n\n他走进屋里，{advert}看见了她。\n"
    assert apply("zh-web/site-advert", text) == (f"第一章 开始\n\n{STORY}\n", 1)


def test_site_advert_known_phrase_without_domain() -> None:
    text = "遂相别降云下界。\n\n全文字版小说阅读更新更快尽在支持文学支持!那郡侯同三藏\n"
    assert apply("zh-web/site-advert", text) == ("遂相别降云下界。\n\n那郡侯同三藏\n", 1)


def test_site_advert_counts_every_advert() -> None:
    ad = "顶点小说www.x23us.com"
    cleaned, count = apply("zh-web/site-advert", f"甲{ad}乙\n丙{ad}丁{ad}戊\n")
    assert (cleaned, count) == ("甲乙\n丙丁戊\n", 3)


def test_a_bare_domain_in_the_story_is_not_an_advert() -> None:
    text = "他打开了google.com网站。\n"
    assert apply("zh-web/site-advert", text) == (text, 0)


def test_watermark_replacing_words_is_cut_and_sentence_rejoined() -> None:
    text = "皓首穷经；丫丫电子书虽有千言，胸中实无一策。世代继簪缨。丫丫电子书龙蛇走。\n"
    assert apply("zh-web/watermark", text) == (
        "皓首穷经；虽有千言，胸中实无一策。世代继簪缨。龙蛇走。\n",
        2,
    )


def test_watermark_rule_keeps_story_words_that_only_look_alike() -> None:
    text = "见半空中丫丫叉叉无边无岸的猴精。\n"  # 丫丫叉叉 is 西游记's own wording
    assert apply("zh-web/watermark", text) == (text, 0)


def test_nav_bar_line_is_removed_with_the_blank_line_above() -> None:
    text = "第三十八回 菊花诗\n\n首页|原创书库|现代|言情|武侠|科幻|排行|论坛\n\n话说宝钗。\n"
    assert apply("zh-web/nav-bar", text) == ("第三十八回 菊花诗\n\n话说宝钗。\n", 1)


def test_pipes_inside_a_story_line_are_not_a_nav_bar() -> None:
    text = "只说z琐|智深双手把山门尽力一推，扑地颠将入来。\n甲|乙|丙|丁\n"
    assert apply("zh-web/nav-bar", text) == (text, 0)


def test_nav_links_each_count() -> None:
    text = (
        "正文。\n\n后一页\n\n前一页\n\n回目录\n\n回首页\n\n"
        "上一章 | 下一章 | 加入书签\n\n第二回 下文\n"
    )
    assert apply("zh-web/nav-link", text) == ("正文。\n\n第二回 下文\n", 5)


def test_a_story_line_starting_with_a_nav_word_is_kept() -> None:
    text = "下一章的故事更精彩，他想。\n"
    assert apply("zh-web/nav-link", text) == (text, 0)


def test_site_notice_lines() -> None:
    text = (
        "正文。\n本站长期招收作品更新管理员，欢迎有时间及兴趣的书友报名加入，点此察看详情！\n"
        "章节错误,点此举报(免注册)\n欢迎来到新世界，他说。\n"
    )
    assert apply("zh-web/site-notice", text) == ("正文。\n欢迎来到新世界，他说。\n", 2)


def test_download_disclaimers() -> None:
    text = (
        "本书来自www.xxx.com免费txt小说下载站\n更多精彩，请访问www.xxx.com\n"
        "手机阅读请访问m.xxx.com\n本作品来自互联网，内容版权归作者所有！\n\n第一章 开始\n正文\n"
    )
    cleaned, count = apply("zh-web/download-disclaimer", text)
    assert count == 4
    assert cleaned.strip() == "第一章 开始\n正文"


def test_update_stamp_line_and_stamp_after_heading() -> None:
    own_line = "第五章 大战\n更新时间：2012-03-04 12:00 本章字数：3456\n\n正文开始。\n"
    assert apply("zh-web/update-info", own_line) == ("第五章 大战\n\n正文开始。\n", 1)
    on_heading = "第五章 大战 更新时间：2012-3-4 12:00:01 本章字数：3456\n正文开始。\n"
    assert apply("zh-web/update-info", on_heading) == ("第五章 大战\n正文开始。\n", 1)


def test_vote_pleas_line_ps_and_bracketed() -> None:
    text = (
        "正文结尾。（求推荐，求收藏！）\n\n求推荐！求月票！\n\nPS：新书上传，求收藏求推荐！\n\n"
        "第六章 下一章\n他去求见收藏家。\n"
    )
    assert apply("zh-web/vote-plea", text) == (
        "正文结尾。\n\n第六章 下一章\n他去求见收藏家。\n",
        3,
    )


def test_chapter_end_markers() -> None:
    text = (
        "正文。\n\n（本章完）\n\n第二章\n正文。\n（未完待续。如果您喜欢这部作品，欢迎您来起点"
        "（qidian.com）投推荐票、月票，您的支持，就是我最大的动力。）\n第三章\n"
    )
    assert apply("zh-web/chapter-end-marker", text) == ("正文。\n\n第二章\n正文。\n第三章\n", 2)


NOTICE_BOOK = (
    "第一章 开始\n\n正文一。\n\n"
    "第二章 请假条\n\n各位书友，今天有事请假一天，明天补更。\n\n"
    "第三章 继续\n\n正文三。\n\n"
    "上架感言\n\n感谢大家的支持，今天上架了，求订阅！\n\n"
    "第四章 真正的故事\n故事。\n作者有话要说：谢谢大家的地雷。\n"
)


def test_author_notice_pseudo_chapters_are_removed_heading_included() -> None:
    cleaned, count = apply("zh-web/author-notice", NOTICE_BOOK)
    assert count == 3
    assert cleaned == (
        "第一章 开始\n\n正文一。\n\n第三章 继续\n\n正文三。\n\n第四章 真正的故事\n故事。\n"
    )


def test_a_long_chapter_titled_like_a_notice_is_kept() -> None:
    text = "第九章 感言\n\n" + "大家围着篝火讲故事。" * 200 + "\n\n第十章 后来\n正文。\n"
    assert apply("zh-web/author-notice", text) == (text, 0)


def test_a_short_notice_like_chapter_not_addressed_to_readers_is_kept() -> None:
    text = "第九章 公告\n\n城门上贴出了一张告示，百姓围观。\n\n第十章 后来\n正文。\n"
    assert apply("zh-web/author-notice", text) == (text, 0)


def test_all_zh_web_noise_in_one_book_is_reported_per_rule() -> None:
    text = (
        "首页|原创书库|现代|言情|武侠|科幻\n\n第一章 开始\n更新时间：2012-03-04 本章字数：3000\n\n"
        "他走进屋里，顶点小说www.x23us.com看见了她。\n\n求推荐！\n"
    )
    result = clean_text(text, "zh", CleaningConfig())
    assert result.text == f"第一章 开始\n\n{STORY}\n"
    assert {
        name: result.removed[name]
        for name in (
            "zh-web/nav-bar",
            "zh-web/update-info",
            "zh-web/site-advert",
            "zh-web/vote-plea",
        )
    } == {
        "zh-web/nav-bar": 1,
        "zh-web/update-info": 1,
        "zh-web/site-advert": 1,
        "zh-web/vote-plea": 1,
    }
    assert "www.x23us.com" in result.examples["zh-web/site-advert"][0]
