"""HTML and Markdown to text: structure kept as lines, page furniture dropped."""

from __future__ import annotations

from lengthwise.builders.sources.formats import decode_markup, html_to_text, markdown_to_text

HTML_BOOK = """<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>山中小镇 - 某某小说网</title>
<style>p { color: red }</style><script>var ad = "广告脚本";</script></head>
<body>
<nav>首页 | 书库 | 排行榜</nav>
<h1>山中小镇</h1>
<div class="chapter"><h2>第一章　清晨</h2>
<p>清晨的雾气还没有
   散去，小镇东头的石桥上已经有了行人。</p>
<p>卖豆腐的老张<br>挑着担子<br><br>走过石桥。</p></div>
<div class="chapter"><h3>第二章 说书</h3><p>茶馆<span>门口</span>聚着一群人。</p></div>
<p>He said: <em>hello</em>,   world.</p>
<ul><li>第一条</li><li>第二条</li></ul>
<noscript>请开启脚本</noscript><!-- 注释 -->
</body></html>"""


def test_html_book_keeps_headings_on_their_own_lines() -> None:
    page = html_to_text(HTML_BOOK)
    lines = page.text.split("\n")

    assert "第一章　清晨" in lines
    assert "第二章 说书" in lines
    assert "山中小镇" in lines
    # paragraphs are separated by a blank line, like a plain-text book
    heading = lines.index("第一章　清晨")
    assert lines[heading + 1] == ""
    assert lines[heading + 2].startswith("清晨的雾气")


def test_html_drops_scripts_styles_navigation_and_comments() -> None:
    text = html_to_text(HTML_BOOK).text
    for unwanted in ("广告脚本", "color: red", "排行榜", "请开启脚本", "注释"):
        assert unwanted not in text


def test_html_whitespace_collapses_like_a_browser() -> None:
    text = html_to_text(HTML_BOOK).text
    assert "He said: hello, world." in text
    assert "茶馆门口聚着一群人。" in text  # inline tags do not break lines
    # a source line break between Chinese characters is not a space
    assert "还没有散去" in text


def test_html_br_ends_a_line_and_two_br_leave_a_blank_line() -> None:
    text = html_to_text(HTML_BOOK).text
    assert "卖豆腐的老张\n挑着担子\n\n走过石桥。" in text


def test_html_list_items_are_lines() -> None:
    assert "第一条\n第二条" in html_to_text(HTML_BOOK).text


def test_html_title_and_language() -> None:
    page = html_to_text(HTML_BOOK)
    assert page.title == "山中小镇"  # the <h1>, without the site name the <title> adds
    assert page.language == "zh"


def test_html_title_falls_back_to_title_element() -> None:
    page = html_to_text("<html><head><title>Moby Dick</title></head><body><p>Call me</p>")
    assert page.title == "Moby Dick"
    assert page.language is None


def test_html_pre_keeps_its_line_breaks() -> None:
    text = html_to_text("<body><pre>line one\nline two</pre><p>after</p></body>").text
    assert text == "line one\nline two\n\nafter"


def test_deeply_nested_html_does_not_overflow() -> None:
    markup = "<div>" * 3000 + "深处的文字" + "</div>" * 3000
    assert html_to_text(markup).text == "深处的文字"


def test_html_meta_charset_decides_decoding(zh_simplified: str) -> None:
    page = f'<html><head><meta charset="gbk"></head><body><p>{zh_simplified}</p></body></html>'
    decoded = decode_markup(page.encode("gbk"), "page.html")
    assert decoded.encoding == "gb18030"
    assert zh_simplified.split("\n")[2] in decoded.text


def test_html_without_declaration_is_detected(zh_simplified: str) -> None:
    page = f"<html><body><p>{zh_simplified}</p></body></html>"
    decoded = decode_markup(page.encode("big5", errors="ignore"), "page.html")
    assert decoded.undecodable_bytes == 0


def test_markdown_heading_markers_are_removed() -> None:
    source = (
        "# 山中小镇\n\n正文第一段。\n\n## 第一章 清晨 ##\n\n清晨。\n\n"
        "```\n# 代码里的注释\n```\n#话题标签\n"
    )
    text, title = markdown_to_text(source)
    lines = text.split("\n")
    assert title == "山中小镇"
    assert "第一章 清晨" in lines
    assert "山中小镇" in lines
    assert "# 代码里的注释" in lines  # inside a code fence: not a heading
    assert "#话题标签" in lines  # no space after '#': not a heading in Markdown
