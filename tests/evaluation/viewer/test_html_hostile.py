"""The HTML viewer shows hostile text as text: nothing in it runs, and the page still works.

A model answer ``<!--<script>`` once made the page's data block swallow the viewer's own
script (filters and panels died without a word). Here book titles, reference summaries,
answers, the model (run) name and the report title carry markup, script, comment openers,
entities and U+2028/U+2029; the page is opened in headless Chromium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import DEMO_SPEC, write_demo_corpus
from lengthwise.cli import main
from lengthwise.jsonl import read_jsonl
from lengthwise.releases.release.build import build_release
from lengthwise.spec import load_spec
from lengthwise.storage import atomic_write_text
from tests.evaluation.conftest import SMALL_SUBSETS, fixture_summary
from tests.evaluation.viewer.browser import chromium
from tests.fixtures.scripted_openai import Reply, ScriptedOpenAIServer, ok_body

pytestmark = pytest.mark.slow

HOSTILE = (
    "<!--<script> </script><script>window.__pwned = 1; alert(1)</script> "
    '"><img src=x onerror="window.__pwned = 2"> &lt;b&gt;not bold&lt;/b&gt; '
    "\u2028line\u2029para ]]>"
)
MODEL = "<!--<script>&lt;\u2028\"'<img src=x onerror=window.__pwned=3>"  # no "/": a label
TITLE = "Report </title><script>window.__pwned = 4</script><!--"


def _answer(_number: int, body: dict[str, Any]) -> Reply:
    return Reply(body=ok_body(f"An answer: {HOSTILE} (end)"))


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(report.html, run folder) of a release whose titles and references are hostile."""
    root = tmp_path_factory.mktemp("hostile")
    write_demo_corpus(root / "corpus")
    spec_text = DEMO_SPEC[: DEMO_SPEC.index("[[subsets]]")] + SMALL_SUBSETS
    atomic_write_text(root / "demo.toml", spec_text)
    spec = load_spec(root / "demo.toml")
    work = root / "work"
    run_build(spec, work, progress=False, workers=1)
    for subset in ("S", "M"):
        path = work / "samples" / f"{subset}.parquet"
        rows = pq.read_table(path).to_pylist()
        for row in rows:
            row["book_title"] = f"{HOSTILE} {row['book_title']}"
            row["summary"] = f"{HOSTILE} {fixture_summary(row)}"
        pq.write_table(pa.Table.from_pylist(rows), path)
    release = build_release(spec, work, "1.0.0").folder
    run = root / "run"
    with ScriptedOpenAIServer(_answer) as server:
        args = ["eval", "--release", str(release), "--model", MODEL, "--backend", "openai"]
        args += ["--base-url", server.base_url, "--tokenizer", "qwen2.5", "--out", str(run)]
        assert main(args) == 0
    out = root / "report"
    assert main(["report", "--html", str(run), "--out", str(out), "--title", TITLE]) == 0
    return out / "report.html", run


def test_hostile_text_shows_as_text_and_the_page_works(
    hostile_page: tuple[Path, Path], tmp_path: Path
) -> None:
    page, run = hostile_page
    html = page.read_text(encoding="utf-8")
    assert "<!--<script>" not in html and "\u2028" not in html.split("<style>")[0]
    with chromium(tmp_path / "profile") as driver:
        driver.get(page.as_uri())
        # Nothing ran: no flag set, no alert open (an open alert fails every command).
        assert driver.execute_script("return window.__pwned === undefined")
        assert driver.title == TITLE
        assert driver.find_element("css selector", "h1").text == TITLE
        assert driver.find_elements("css selector", 'img[src="x"]') == []

        rows = driver.find_elements("css selector", "#score-table tr.score-row")
        assert rows and {r.get_attribute("data-model") for r in rows} == {MODEL}
        from selenium.webdriver.support.ui import Select

        select = Select(driver.find_element("id", "filter-model"))
        assert [o.get_attribute("value") for o in select.options] == ["", MODEL]
        select.select_by_index(1)  # select_by_value builds a CSS selector from the value
        shown = driver.find_element("id", "shown-count").text
        assert shown == f"{len(rows)} score rows shown"  # the viewer's script ran

        samples = driver.find_elements("css selector", "#sample-table tr.sample-row")
        assert samples
        samples[0].click()
        panel = driver.find_element("id", "sample-panel")
        assert panel.is_displayed()
        output = driver.execute_script(
            "return document.querySelector('#sample-panel .panel-output').textContent"
        )
        reference = driver.execute_script(
            "return document.querySelector('#sample-panel .panel-reference').textContent"
        )
        stored = {line["prediction"] for line in read_jsonl(run / "generations.jsonl")}
        assert HOSTILE in output and output.strip() in {p.strip() for p in stored}
        assert reference.startswith(HOSTILE)
        assert driver.execute_script("return window.__pwned === undefined")
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == [], severe
