"""`zh-web/notice-block`: Chinese copyright and disclaimer blocks, removed whole.

Download sites put a notice of several lines at the top or bottom of a book:

    免责声明：
    本书来自互联网，版权归原作者所有。
    本站仅提供存储空间，所有作品仅供学习交流，请勿用于商业用途。
    如有侵权，请联系本站删除，我们将在24小时内处理。

The line rule `zh-web/download-disclaimer` recognises only lines starting with a
download-site phrase, so such a block used to lose its first line only. Here the
block opens at a cue line (免责声明, 版权声明, 版权归…, 本书来自…, 本作品仅供…) and runs
line by line while each line is still notice vocabulary (版权, 作者, 仅供, 学习, 交流,
商业, 删除, 侵权, 下载, 本站, 网站, 联系, 责任, 购买, 支持正版 …), blank lines between them
allowed, never past a chapter heading. One block counts one removal. It runs before
the zh-web line rules, so they see only what is left.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.blocks import BlockCue, CuedBlockRule, find_blocks

_VOCABULARY = re.compile(
    r"版权|著作权|作者|所有|仅供|学习|交流|研究|参考|商业|用途|删除|侵权|下载|转载|上传|"
    r"本站|网站|网友|联系|责任|法律|免责|声明|购买|正版|支持|电子书|小说|txt|TXT|"
    r"作品|收集|整理|存储|提供|24小时|请勿|如有|本书|阅读"
)
_CUE = BlockCue(
    opening=re.compile(
        r"\n[ \t\u3000]*+[（(【\[]?(?:免责声明|版权声明|声明[：:]|版权归|版权所有|本书版权|"
        r"本书来自|本书由|本电子书|本作品来自|本作品由|本作品仅供|本站所有|内容版权归)"
    ),
    end="vocabulary",
    vocabulary=_VOCABULARY,
    by_line=True,
    # Notice lines are mostly vocabulary: at least one hit per 10 characters (story
    # lines that mention 本书 or 作者 have far fewer).
    density=1.0,
    min_density=1.0,
    max_chars=2000,
)

NOTICE_BLOCK = CuedBlockRule(
    name="zh-web/notice-block",
    description="Copyright/disclaimer blocks (免责声明, 版权归原作者所有, 本书来自…, 仅供学习"
    "交流…) from the cue line over every following line still made of notice vocabulary.",
    finder=lambda text: find_blocks(text, _CUE),
    languages=("zh",),
    # No triggers: the cue starts with a literal newline, and one scan of the line
    # starts costs less than searching the book for each cue word.
)
