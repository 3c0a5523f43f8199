"""Text utilities shared by releases (statistics) and evaluation (metrics).

- `words`, `sentences`, `paragraphs`, `detect_lang`: Chinese (jieba) and English segmentation;
- `rouge_l_f1` (plain LCS ROUGE-L, rouge-score compatible for English) and
  `rouge_l_cnnsum` (CNNSum's jieba + `rouge` package scorer);
- `lcs_length`: bit-parallel longest common subsequence.
"""

from lengthwise.text.lcs import lcs_length
from lengthwise.text.rouge import (
    RougeScore,
    rouge_l,
    rouge_l_cnnsum,
    rouge_l_f1,
    rouge_l_tokens,
    rouge_n,
    rouge_tokens,
)
from lengthwise.text.segment import (
    cut_zh,
    detect_lang,
    paragraphs,
    segmenter_name,
    sentences,
    words,
)

__all__ = [
    "RougeScore",
    "cut_zh",
    "detect_lang",
    "lcs_length",
    "paragraphs",
    "rouge_l",
    "rouge_l_cnnsum",
    "rouge_l_f1",
    "rouge_l_tokens",
    "rouge_n",
    "rouge_tokens",
    "segmenter_name",
    "sentences",
    "words",
]
