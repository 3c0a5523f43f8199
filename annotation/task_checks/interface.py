"""What a person sees when checking model-written task items in Label Studio.

One project per task. A QA task shows the chapter the question was written from (left)
and the question and answer, prefilled from the model and editable (right), with one
required choice: accept, edit (the edited texts replace the model's) or reject. A recall
task shows one sampled chunk and the names the model found in it, one per line,
editable, with confirm or correct. Task data carry `item_id` (what push and pull match
on) and `shown_sha256` (what the person saw, so a rebuilt item is not taken as checked).
"""

from __future__ import annotations

from lengthwise.annotation.labelstudio.payloads import (
    CheckDataJson,
    CheckImportJson,
    PredictionJson,
    ResultItemJson,
)
from lengthwise.html_safe import escape
from lengthwise.storage import canonical_hash
from lengthwise.task_checks import ChunkLabels, shown_sha256
from lengthwise.task_records import TaskInstance

OBJECT = "text"  # HyperText the controls point at
QUESTION = "question"  # TextArea
ANSWER = "answer"  # TextArea
NAMES = "names"  # TextArea, one name per line
DECISION = "decision"  # Choices
COMMENT = "comment"  # TextArea
MODEL_VERSION = "lengthwise-task-model"  # the predictions that prefill the editable texts
TASK_FORMAT = 1  # bump when the data layout changes (push refreshes untouched tasks)

_STYLE = """  <Style>
    .lw-columns { display: flex; gap: 24px; align-items: flex-start; }
    .lw-left { flex: 3; min-width: 0; max-height: 80vh; overflow-y: auto; }
    .lw-right { flex: 2; min-width: 320px; position: sticky; top: 8px; }
  </Style>"""


def _config(controls: str) -> str:
    return f"""<View>
{_STYLE}
  <Header value="$heading" size="4"/>
  <View className="lw-columns">
    <View className="lw-left">
      <HyperText name="{OBJECT}" value="$text_html" inline="true" selectionEnabled="false"/>
    </View>
    <View className="lw-right">
{controls}
      <Header value="Comment (optional)" size="6"/>
      <TextArea name="{COMMENT}" toName="{OBJECT}" rows="2" maxSubmissions="1"
                editable="true" transcription="true"/>
    </View>
  </View>
</View>
"""


QA_CONFIG = _config(f"""      <Header value="$guide" size="6"/>
      <Header value="Question" size="5"/>
      <TextArea name="{QUESTION}" toName="{OBJECT}" rows="3" maxSubmissions="1"
                editable="true" transcription="true"/>
      <Header value="$answer_header" size="5"/>
      <TextArea name="{ANSWER}" toName="{OBJECT}" rows="4" maxSubmissions="1"
                editable="true" transcription="true"/>
      <Choices name="{DECISION}" toName="{OBJECT}" choice="single" required="true"
               showInline="true">
        <Choice value="accept" hint="the question and answer are right as written"/>
        <Choice value="edit" hint="right after my edits above"/>
        <Choice value="reject" hint="wrong, unclear, or not answerable as the kind says"/>
      </Choices>""")

RECALL_CONFIG = _config(f"""      <Header value="$guide" size="6"/>
      <Header value="Character names, one per line" size="5"/>
      <TextArea name="{NAMES}" toName="{OBJECT}" rows="14" maxSubmissions="1"
                editable="true" transcription="true"/>
      <Choices name="{DECISION}" toName="{OBJECT}" choice="single" required="true"
               showInline="true">
        <Choice value="confirm" hint="every character named in the text, and nothing else"/>
        <Choice value="correct" hint="I added or removed names above"/>
      </Choices>""")

_GUIDE = {
    ("en", "abstractive"): "Answerable from this chapter, in other words than the text's?",
    ("en", "extractive"): "Is the answer the exact words of the chapter, and correct?",
    ("en", "yes-no"): "Is the yes/no answer right, and does the reason hold?",
    ("en", "unanswerable"): "Accept only if the text never answers this question.",
    ("zh", "abstractive"): "能否依据本章回答？答案是否正确、用自己的话表述？",
    ("zh", "extractive"): "答案是否为本章原文片段，且正确？",
    ("zh", "yes-no"): "“是/否”的判断是否正确，理由是否成立？",
    ("zh", "unanswerable"): "只有在原文确实没有给出答案时才接受。",
}
_RECALL_GUIDE = {
    "en": "List every character named in this passage (people, by name or title).",
    "zh": "列出这段文字中出现的所有人物名字（人名、称号、外号）。",
}


def _lang(language: str) -> str:
    return "zh" if language == "zh" else "en"


def paragraphs_html(text: str) -> str:
    return "\n".join(f"<p>{escape(line.strip())}</p>" for line in text.splitlines() if line)


def textarea(name: str, text: str) -> ResultItemJson:
    return {"from_name": name, "to_name": OBJECT, "type": "textarea", "value": {"text": [text]}}


def qa_payload(instance: TaskInstance) -> CheckImportJson:
    """An import row for one QA instance: data plus the model's texts as a prediction."""
    details = instance.details
    kind = str(details.get("kind") or "")
    start, end = int(str(details.get("chapter_start") or 0)), int(str(details.get("chapter_end")))
    chapter = instance.context[start:end]
    guide = _GUIDE.get((_lang(instance.language), kind), "")
    if kind == "unanswerable":
        facts = details.get("key_facts")
        listed = ", ".join(str(f) for f in facts) if isinstance(facts, list) else "-"
        guess = details.get("proposed_answer") or "-"
        guide += f" (the model's wrong guess: {guess}; facts the text lacks: {listed})"
    data: CheckDataJson = {
        "item_id": instance.id,
        "task": instance.task,
        "kind": "qa",
        "question_kind": kind,
        "length": instance.length,
        "language": instance.language,
        "heading": f"{instance.book_id} · {details.get('chapter_heading')} · {kind} · "
        f"{details.get('third')} · {instance.id}",
        "guide": guide,
        "answer_header": "Answer (leave empty: unanswerable)"
        if kind == "unanswerable"
        else "Answer",
        "text_html": paragraphs_html(chapter),
        "shown_question": instance.question,
        "shown_answers": list(instance.answers),
        "shown_sha256": shown_sha256(instance.context, instance.question, instance.answers),
        "task_format": TASK_FORMAT,
    }
    result = [textarea(QUESTION, instance.question)]
    result += [textarea(ANSWER, "\n".join(instance.answers))] if instance.answers else []
    return _payload(data, result)


def chunk_payload(chunk: ChunkLabels) -> CheckImportJson:
    """An import row for one sampled recall chunk: its text and the model's names."""
    data: CheckDataJson = {
        "item_id": chunk.id,
        "task": chunk.task,
        "kind": "recall-chunk",
        "length": chunk.length,
        "language": chunk.language,
        "heading": f"{chunk.instance_id} · chunk {chunk.chunk + 1}",
        "guide": _RECALL_GUIDE[_lang(chunk.language)],
        "text_html": paragraphs_html(chunk.text),
        "shown_question": "",
        "shown_answers": list(chunk.names),
        "shown_sha256": chunk.shown_sha256,
        "task_format": TASK_FORMAT,
    }
    return _payload(data, [textarea(NAMES, "\n".join(chunk.names))] if chunk.names else [])


def _payload(data: CheckDataJson, result: list[ResultItemJson]) -> CheckImportJson:
    data["payload_sha256"] = canonical_hash({"data": data, "prediction": result})
    predictions: list[PredictionJson] = [
        {"model_version": MODEL_VERSION, "score": 0.0, "result": result}
    ]
    return {"data": data, "predictions": predictions if result else []}
