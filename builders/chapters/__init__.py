"""Chapter detection: headings (zh 第X回/章/卷, en CHAPTER/BOOK/...) or an embedded ToC."""

from lengthwise.builders.chapters.detect import detect_chapters, normalise_language
from lengthwise.builders.chapters.model import ChapterDetection, DetectedChapter
from lengthwise.builders.chapters.zh_numerals import parse_chinese_number, to_chinese_number

__all__ = [
    "ChapterDetection",
    "DetectedChapter",
    "detect_chapters",
    "normalise_language",
    "parse_chinese_number",
    "to_chinese_number",
]
