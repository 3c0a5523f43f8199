"""`lengthwise report --html`, opened in headless Chromium: what a person sees."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.storage import read_json, read_jsonl
from tests.evaluation.scripted_answers import Rows, always_reference, answer_for
from tests.evaluation.viewer.browser import chromium
from tests.fixtures.scripted_openai import ScriptedOpenAIServer

pytestmark = pytest.mark.slow


def _eval(release: Path, out: Path, script: Any, model: str) -> None:
    with ScriptedOpenAIServer(script) as server:
        args = ["eval", "--release", str(release), "--model", model, "--backend", "openai"]
        args += ["--base-url", server.base_url, "--tokenizer", "qwen2.5", "--out", str(out)]
        assert main(args) == 0


@pytest.fixture(scope="module")
def html_report(
    tiny_release: Path, release_rows: Rows, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("html")
    mixed, perfect = root / "mixed", root / "perfect"
    _eval(tiny_release, mixed, answer_for(release_rows), "mixed-model")
    _eval(tiny_release, perfect, always_reference(release_rows), "perfect-model")
    assert main(["analyse", "traceability", str(perfect), "--methods", "tfidf"]) == 0
    out = root / "report"
    assert main(["report", "--html", str(mixed), str(perfect), "--out", str(out)]) == 0
    return out / "report.html", [mixed, perfect]


def _visible_rows(driver: Any, selector: str) -> list[Any]:
    return [r for r in driver.find_elements("css selector", selector) if r.is_displayed()]


def test_the_page_shows_results_json_and_filters_work(
    html_report: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    page, runs = html_report
    html = page.read_text(encoding="utf-8")
    # Self-contained: nothing is fetched from anywhere.
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    with chromium(tmp_path / "profile") as driver:
        driver.get(page.as_uri())
        rows = _visible_rows(driver, "#score-table tr.score-row")
        expected = {}
        for folder in runs:
            results = read_json(folder / "results.json")
            for subset, by_prompt in results["results"].items():
                for prompt, entry in by_prompt.items():
                    expected[(results["model"]["name"], subset, prompt)] = entry
        assert len(rows) == len(expected) == 8
        for row in rows:
            entry = expected[
                (
                    row.get_attribute("data-model"),
                    *(row.get_attribute(f"data-{k}") for k in ("subset", "prompt")),
                )
            ]
            assert row.find_element("css selector", ".c-mean").text == f"{entry['mean']:.2f}"
            assert row.find_element("css selector", ".c-n").text == str(entry["n"])
            low, high = entry["ci"]
            assert row.find_element("css selector", ".c-ci").text == f"{low:.2f} – {high:.2f}"

        # Filters change what is shown.
        from selenium.webdriver.support.ui import Select

        Select(driver.find_element("id", "filter-model")).select_by_value("perfect-model")
        rows = _visible_rows(driver, "#score-table tr.score-row")
        assert len(rows) == 4 and {r.get_attribute("data-model") for r in rows} == {"perfect-model"}
        assert all(r.find_element("css selector", ".c-mean").text == "100.00" for r in rows)
        assert "4 score rows shown" in driver.find_element("id", "shown-count").text
        Select(driver.find_element("id", "filter-subset")).select_by_value("S")
        assert len(_visible_rows(driver, "#score-table tr.score-row")) == 2
        samples = _visible_rows(driver, "#sample-table tr.sample-row")
        assert len(samples) == 8  # 4 samples x 2 prompts of the perfect run in S
        # The perfect run's traceability notes show; the mixed run had none.
        analyses = _visible_rows(driver, ".analysis")
        assert analyses and "traceability" in analyses[0].text

        # A sample's panel: its output and reference, and the position map.
        samples[0].click()
        panel = driver.find_element("id", "sample-panel")
        assert panel.is_displayed()
        lines = {
            (x["subset"], x["sample_id"], x["prompt_id"]): x
            for x in read_jsonl(runs[1] / "generations.jsonl")
        }
        index = int(samples[0].get_attribute("data-index"))
        sample = driver.execute_script(
            "return JSON.parse(document.getElementById('sample-data').textContent)[arguments[0]]",
            index,
        )
        line = lines[(sample["subset"], sample["sample"], sample["prompt"])]
        shown = panel.find_element("css selector", ".panel-output").text
        assert shown == line["prediction"].strip()
        assert panel.find_element("css selector", ".panel-reference").text == shown  # perfect
        cells = driver.find_elements("css selector", "#position-map rect.decile")
        assert len(cells) == 20
        shares = [float(c.get_attribute("data-share")) for c in cells[:10]]
        assert sum(shares) == pytest.approx(1.0, abs=0.01)
        driver.execute_script("document.getElementById('samples').scrollIntoView()")
        driver.save_screenshot(str(tmp_path / "viewer.png"))
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == [], severe
    from tests.evaluation.analyses.handmade import plot_has_content

    plot_has_content(tmp_path / "viewer.png")
