"""What annotators see: the labeling configuration, task payloads and chapter pages.

Per task, the left column lists the chapter synopses (drafts) in reading order under
their chapter headings, each with a link that opens the original chapter in a new tab
(HTML pages under WORK/labelstudio/texts/<book>/<chapter>.html, served by Label Studio
as local files: long texts stay out of the task so the editor stays fast). The right
column holds the final-summary text area, prefilled with the merged drafts as a
prediction, with the limit in its header; three choices and a free comment follow.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
from lengthwise.annotation.labelstudio.payloads import ResultItemJson, TaskDataJson, TaskImportJson
from lengthwise.annotation.review.inputs import SampleChapterText, SampleDrafts
from lengthwise.annotation.review.measure import is_chinese, length_unit, limit_label
from lengthwise.html_safe import escape, paragraphs
from lengthwise.records import Sample
from lengthwise.storage import atomic_write_text

SUMMARY = "summary"  # TextArea: the final summary
FLAGS = "flags"  # Choices
COMMENT = "comment"  # TextArea: free comment
OBJECT = "drafts"  # HyperText the controls point at

CHOICE_CONFLICT = "synopsis conflict"
CHOICE_NEEDS_TEXT = "needs original text"
CHOICE_SKIP = "skip: unsuitable sample"
CHOICES = (CHOICE_CONFLICT, CHOICE_NEEDS_TEXT, CHOICE_SKIP)

TASK_FORMAT = 1  # bump when the task data layout changes (push then refreshes untouched tasks)

LABEL_CONFIG = f"""<View>
  <Style>
    .lw-columns {{ display: flex; gap: 24px; align-items: flex-start; }}
    .lw-left {{ flex: 3; min-width: 0; }}
    .lw-right {{ flex: 2; min-width: 320px; position: sticky; top: 8px; }}
    .lw-summary textarea {{ min-height: 26em !important; font-size: 15px; line-height: 1.7; }}
  </Style>
  <Header value="$heading" size="4"/>
  <View className="lw-columns">
    <View className="lw-left">
      <HyperText name="{OBJECT}" value="$drafts_html" inline="true" selectionEnabled="false"
                 clickableLinks="true"/>
    </View>
    <View className="lw-right">
      <Header value="$summary_header" size="5"/>
      <View className="lw-summary">
      <TextArea name="{SUMMARY}" toName="{OBJECT}" rows="18" maxSubmissions="1"
                editable="true" transcription="true"/>
      </View>
      <Header value="Flags" size="6"/>
      <Choices name="{FLAGS}" toName="{OBJECT}" choice="multiple" showInline="false">
        <Choice value="{CHOICE_CONFLICT}" hint="two synopses disagree (try annotate locate)"/>
        <Choice value="{CHOICE_NEEDS_TEXT}" hint="the synopses miss something: read the chapter"/>
        <Choice value="{CHOICE_SKIP}" hint="not a coherent story (index, notes, ...)"/>
      </Choices>
      <Header value="Comment (optional)" size="6"/>
      <TextArea name="{COMMENT}" toName="{OBJECT}" rows="3" maxSubmissions="1"
                editable="true" transcription="true"/>
    </View>
  </View>
</View>
"""

_HELP_ZH = (
    "请阅读以下各章梗概（按章节顺序），保留关键情节，合并为一篇摘要，并用自己的话改写；"
    "不要评论或议论（如“本文”“作者”“我认为”）。梗概之间有矛盾时，点开原文核对，"
    "或运行 lengthwise annotate locate。"
)
_HELP_EN = (
    "Read the chapter synopses below (in reading order), keep the key plot points, merge "
    "them into one summary and rewrite it in your own words; no commentary or opinion "
    '("the author", "I think"). Where synopses conflict, open the original chapter or run '
    "`lengthwise annotate locate`."
)


@dataclass(frozen=True)
class ChapterLink:
    chapter_index: int
    heading: str
    url: str  # relative URL served by Label Studio (needs the annotator's session)
    path: Path  # the file on disk


def chapter_page_path(paths: LabelStudioPaths, book_id: str, chapter_index: int) -> Path:
    return paths.texts / book_id / f"{chapter_index:04d}.html"


def local_files_url(paths: LabelStudioPaths, file: Path) -> str:
    """Label Studio's local-files URL of a file under the work dir (its document root)."""
    relative = file.resolve().relative_to(paths.work_root.resolve()).as_posix()
    return "/data/local-files/?d=" + urllib.parse.quote(relative, safe="/")


def write_chapter_pages(
    paths: LabelStudioPaths, book_id: str, book_title: str, chapters: list[SampleChapterText]
) -> list[ChapterLink]:
    """One HTML page per original chapter (rewritten only when its content changed)."""
    links = []
    for chapter in chapters:
        path = chapter_page_path(paths, book_id, chapter.index)
        page = _chapter_page(book_title, chapter)
        if not path.is_file() or path.read_text(encoding="utf-8") != page:
            atomic_write_text(path, page)
        links.append(
            ChapterLink(chapter.index, chapter.heading, local_files_url(paths, path), path)
        )
    return links


def _chapter_page(book_title: str, chapter: SampleChapterText) -> str:
    lines = chapter.text.splitlines()
    body = (
        lines[1:]
        if chapter.heading and lines and lines[0].strip() == chapter.heading.strip()
        else lines
    )
    text = paragraphs("\n".join(body))
    title = escape(f"{chapter.heading} — {book_title}")
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        f"<title>{title}</title><style>body{{max-width:44em;margin:2em auto;padding:0 1em;"
        "font-size:18px;line-height:1.8;font-family:serif}</style></head><body>\n"
        f"<p><small>{escape(book_title)} · chapter {chapter.index}</small></p>\n"
        f"<h1>{escape(chapter.heading)}</h1>\n{text}\n</body></html>\n"
    )


def drafts_html(drafts: SampleDrafts, links: dict[int, ChapterLink], language: str) -> str:
    """The left column: help text, then each chapter's heading, link and synopsis."""
    zh = is_chinese(language)
    parts = [
        '<div style="font-size:15px;line-height:1.7">',
        f'<p style="color:#555">{escape(_HELP_ZH if zh else _HELP_EN)}</p>',
    ]
    for number, chapter in enumerate(drafts.chapters, start=1):
        link = links.get(chapter.chapter_index)
        anchor = (
            f' <a href="{escape(link.url)}" target="_blank" rel="noopener">'
            f"{'原文' if zh else 'original text'} ↗</a>"
            if link
            else ""
        )
        note = f"{chapter.drafter}:{chapter.model}" if chapter.model else chapter.drafter
        if chapter.fallback_reason:
            note += f" ({chapter.fallback_reason})"
        synopsis = paragraphs(chapter.text, separator="")
        parts.append(
            f'<h4 style="margin:1.2em 0 .3em">{number}. {escape(chapter.heading)}{anchor}</h4>'
            f"{synopsis or '<p><em>(empty draft)</em></p>'}"
            f'<p style="color:#999;font-size:12px">{escape(note)}</p>'
        )
    parts.append("</div>")
    return "\n".join(parts)


def summary_result(text: str) -> list[ResultItemJson]:
    """A Label Studio result that fills the summary text area with `text`."""
    return [
        {
            "from_name": SUMMARY,
            "to_name": OBJECT,
            "type": "textarea",
            "value": {"text": [text]},
        }
    ]


def task_data(
    sample: Sample,
    drafts: SampleDrafts,
    links: list[ChapterLink],
    limit: int,
    drafter: str,
) -> TaskDataJson:
    """A task's data: what the interface shows plus the ids push and pull match on."""
    language = sample.language
    zh = is_chinese(language)
    label = limit_label(limit, language)
    by_index = {link.chapter_index: link for link in links}
    title = sample.book_title or sample.book_id
    headings = [c.heading for c in drafts.chapters]
    span = f"{headings[0]} – {headings[-1]}" if len(headings) > 1 else "".join(headings)
    return {
        "sample_id": sample.id,
        "subset": sample.subset,
        "book_id": sample.book_id,
        "book_title": title,
        "language": language,
        "limit": limit,
        "limit_unit": length_unit(language),
        "limit_label": label,
        "heading": f"{title} · {span} · {sample.subset} · {sample.id}",
        "summary_header": f"最终摘要（{label}）" if zh else f"Final summary ({label})",
        "drafts": [
            {
                "chapter_index": c.chapter_index,
                "heading": c.heading,
                "text": c.text,
                "drafter": c.drafter,
                "url": by_index[c.chapter_index].url if c.chapter_index in by_index else None,
            }
            for c in drafts.chapters
        ],
        "drafts_html": drafts_html(drafts, by_index, language),
        "drafts_sha256": drafts.sha256,
        "drafter": drafter,
        "task_format": TASK_FORMAT,
    }


def task_payload(data: TaskDataJson, drafts: SampleDrafts, drafter: str) -> TaskImportJson:
    """An import row: the data plus the merged drafts as the prediction."""
    return {
        "data": data,
        "predictions": [
            {"model_version": drafter, "score": 0.0, "result": summary_result(drafts.merged)}
        ],
    }
