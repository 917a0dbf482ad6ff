"""The `aiayn serve` page in a real browser: headless Chromium (Playwright) against `aiayn serve` run
as a subprocess. Type a sentence, get its translation, switch layer, head and kind, see a heat map.

The browser is Debian's chromium (`apt-get install chromium`; .ci/run installs it). A missing
browser or Playwright is a FAILURE, not a skip (`browsing.py`, shared with test_browser_family.py).

Environment overrides:
  AIAYN_CHROMIUM      the browser executable (default /usr/bin/chromium)
  AIAYN_SERVE_MODEL   the model to serve (default: the micro model trained by conftest)
  AIAYN_SCREENSHOT    also save the final screenshot here, e.g. docs/serve.png
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest
from browsing import launched, opened, serving

TEXT = "In the beginning God created the heavens and the earth.\nLove your neighbor as yourself."


@pytest.fixture(scope="module")
def server(request):
    model = os.environ.get("AIAYN_SERVE_MODEL") or str(request.getfixturevalue("trained"))
    with serving(["--model", model]) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


@pytest.fixture
def page(browser, server):
    with opened(browser, server) as page:
        yield page


def canvas(page) -> dict:
    """The heat map's data attributes and how many of its pixels are painted."""
    return page.evaluate("""() => {
        const c = document.getElementById('heatmap');
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i] > 0) painted++;
        return {...c.dataset, painted, width: c.width, height: c.height};
    }""")


def wait_drawn(page, **attrs) -> dict:
    selector = "#heatmap[data-state=drawn]" + "".join(f"[data-{k}='{v}']" for k, v in attrs.items())
    page.wait_for_selector(selector, state="attached", timeout=60_000)
    return canvas(page)


def test_translate_and_explore_the_attention(page, server, tmp_path):
    from playwright.sync_api import expect

    info = httpx.get(f"{server}/api/info").json()
    expect(page.locator("#model-info")).to_contain_text(info["architecture"])
    page.fill("#source", TEXT)
    page.fill("#nbest", "3")
    page.click("#translate-button")

    lines = TEXT.splitlines()
    want = httpx.post(f"{server}/api/translate", json={"lines": lines, "beam": 4, "alpha": 0.6, "nbest": 3},
                      timeout=60).json()["translations"]
    results = page.locator("#results > li")
    expect(results).to_have_count(2, timeout=60_000)
    for i, t in enumerate(want):
        expect(results.nth(i).locator(".source")).to_have_text(t["source"])
        expect(results.nth(i).locator(".translation")).to_have_text(t["text"])
        rows = results.nth(i).locator("table.nbest tr")
        expect(rows).to_have_count(len(t["nbest"]) + 1)  # + the header
        expect(rows.nth(1)).to_contain_text(f"{t['nbest'][0]['score']:.3f}")
    expect(page.locator("#status")).to_contain_text("Translated in")

    attention = httpx.post(f"{server}/api/attention", json={"text": lines[0], "beam": 4}, timeout=60).json()
    cross = attention["kinds"]["cross"]
    drawn = wait_drawn(page, kind="cross", head="1")
    assert drawn["layer"] == "1"
    assert (int(drawn["rows"]), int(drawn["cols"])) == (len(cross["queries"]), len(cross["keys"]))
    assert drawn["painted"] > 0.25 * drawn["width"] * drawn["height"]  # cells, labels, colour bar
    expect(page.locator("#attention-sentence")).to_contain_text(attention["translation"])

    page.select_option("#head", "1")  # the second head
    drawn = wait_drawn(page, kind="cross", head="2")
    assert drawn["painted"] > 0
    expect(page.locator("#attention-caption")).to_contain_text(f"head 2 of {cross['heads']}")
    page.select_option("#head", str(cross["heads"]))  # the mean of the heads
    wait_drawn(page, head="mean")
    page.select_option("#layer", "0")
    wait_drawn(page, layer="1", head="mean")

    page.click("#kind-encoder")
    encoder = attention["kinds"]["encoder"]
    drawn = wait_drawn(page, kind="encoder")
    assert int(drawn["rows"]) == int(drawn["cols"]) == len(encoder["keys"])
    page.click("#kind-decoder_self")
    wait_drawn(page, kind="decoder_self")

    page.click("#kind-cross")
    page.select_option("#layer", str(cross["layers"] - 1))
    page.select_option("#head", "0")
    drawn = wait_drawn(page, kind="cross", layer=str(cross["layers"]), head="1")
    box = page.locator("#heatmap").bounding_box()  # point at the bottom-right cell: its weight is read out
    page.locator("#heatmap").hover(position={"x": box["width"] - 95, "y": box["height"] - 16})
    expect(page.locator("#cell-readout")).to_contain_text("→")

    shot = tmp_path / "serve.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("AIAYN_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["AIAYN_SCREENSHOT"])
    assert not page.problems, page.problems


def test_the_page_shows_refusals(page, server):
    from playwright.sync_api import expect

    page.click("#translate-button")  # nothing typed
    expect(page.locator("#status.error")).to_contain_text("Type or paste a sentence")
    limit = httpx.get(f"{server}/api/info").json()["limits"]["max_chars"]
    page.fill("#source", "word " * (limit // 5 + 1))
    page.click("#translate-button")
    expect(page.locator("#status.error")).to_contain_text(f"at most {limit} per sentence")
    assert not [p for p in page.problems if not p.startswith("console")], page.problems


def test_the_studio_steps_through_beam_search_and_walks_through_the_model(page, server, tmp_path):
    """Beam search: the page's n-best and first step are the API's; the language switch relabels it;
    the walk-through draws one map per step the API sends, ending in the API's next pieces."""
    from playwright.sync_api import expect

    sentence = "God is love."
    want = httpx.post(f"{server}/api/beam", json={"text": sentence, "beam": 4}, timeout=60).json()
    page.fill("#studio-text", sentence)
    page.click("#studio-run")
    nbest = page.locator("#beam-nbest > li")
    expect(nbest).to_have_count(len(want["nbest"]), timeout=60_000)
    for i, h in enumerate(want["nbest"]):
        expect(nbest.nth(i)).to_contain_text(h["text"])
    rows = page.locator("#beam-candidates > tr")
    expect(rows).to_have_count(len(want["steps"][0]["candidates"]))
    fates = [row["fate"] for row in want["steps"][0]["candidates"]]
    assert page.eval_on_selector_all("#beam-candidates > tr", "rs => rs.map(r => r.dataset.fate)") == fates
    expect(page.locator("#beam-position")).to_contain_text(f"step 1 of {len(want['steps'])}")
    page.click("#beam-next")
    expect(page.locator("#beam-position")).to_contain_text(f"step 2 of {len(want['steps'])}")
    expect(page.locator("#beam-live > li")).to_have_count(len(want["steps"][1]["beams"]))

    page.select_option("#studio-lang", "ko")
    expect(page.locator("#studio-tab-beam")).to_have_text("빔 서치")
    expect(page.locator("#beam-position")).to_contain_text("단계 2 / ")
    page.screenshot(path=str(tmp_path / "studio-beam-ko.png"), full_page=True)
    page.select_option("#studio-lang", "en")
    expect(page.locator("#studio-tab-beam")).to_have_text("Beam search")

    walk = httpx.post(f"{server}/api/walkthrough", json={"text": sentence, "beam": 4, "layer": 0}, timeout=60).json()
    page.click("#studio-tab-walk")
    page.click("#studio-run")
    steps = page.locator("#walk-steps > li")
    expect(steps).to_have_count(len(walk["steps"]), timeout=60_000)
    assert page.eval_on_selector_all("#walk-steps > li", "ls => ls.map(l => l.dataset.key)") == \
        [s["key"] for s in walk["steps"]]
    expect(page.locator("#walk-next > li").first).to_contain_text(walk["next"][0]["piece"])
    decoding = page.locator("#walk-decoding tr[data-step]")  # the decoder one piece at a time, with its cache
    expect(decoding).to_have_count(len(walk["decoding"]))
    expect(decoding.last).to_contain_text(" × ".join(map(str, walk["decoding"][-1]["cache"])))
    first = page.locator("#walk-steps > li canvas").first
    first.hover(position={"x": 1, "y": 1})
    expect(page.locator("#walk-steps > li .readout").first).to_contain_text(str(walk["steps"][0]["values"][0][0]))
    if os.environ.get("AIAYN_STUDIO_SCREENSHOTS"):
        folder = Path(os.environ["AIAYN_STUDIO_SCREENSHOTS"])
        page.screenshot(path=str(folder / "studio-walkthrough.png"), full_page=False)
        shutil.copyfile(tmp_path / "studio-beam-ko.png", folder / "studio-beam-ko.png")
    assert not page.problems, page.problems


def test_the_studio_shows_every_head_the_checkpoints_and_the_run(page, server, tmp_path):
    """Every head: one small map per layer x head of each kind, a piece marked in all of them, a click enlarges;
    Learning to align: the slider walks the run's checkpoints; Positions, Schedule, Smoothing, Curves draw the
    API's numbers; the Korean labels switch in."""
    from playwright.sync_api import expect

    sentence = "God is love."
    attention = httpx.post(f"{server}/api/attention", json={"text": sentence, "beam": 4}, timeout=60).json()
    page.fill("#studio-text", sentence)
    page.click("#studio-tab-heads")
    expect(page.locator("#studio-paper")).to_contain_text("§3.2.2")
    page.click("#studio-run")
    maps = page.locator("#heads-grid canvas.head-map")
    expect(maps).to_have_count(sum(k["layers"] * k["heads"] for k in attention["kinds"].values()), timeout=60_000)
    expect(page.locator("#heads-sentence")).to_contain_text(attention["translation"])
    page.hover("#heads-pieces .piece[data-side=src] >> nth=0")  # a source piece: encoder rows/columns, cross columns
    marked = page.eval_on_selector_all("canvas.head-map", "ms => ms.filter(m => m.dataset.marked === 'yes')"
                                                          ".map(m => m.dataset.kind)")
    n = attention["kinds"]["cross"]
    assert sorted(set(marked)) == ["cross", "encoder"] and len(marked) == 2 * n["layers"] * n["heads"]
    page.click("#heads-grid canvas.head-map[data-kind=cross][data-layer='0'][data-head='1']")
    wait_drawn(page, kind="cross", layer="1", head="2")

    page.click("#studio-tab-checkpoints")
    page.click("#studio-run")
    steps = httpx.post(f"{server}/api/checkpoints", json={"text": sentence, "beam": 4}, timeout=60).json()
    steps = [c["step"] for c in steps["checkpoints"]]
    expect(page.locator("#ckpt-map")).to_have_attribute("data-step", str(steps[-1]), timeout=60_000)
    page.locator("#ckpt-slider").fill("0")
    expect(page.locator("#ckpt-map")).to_have_attribute("data-step", str(steps[0]))
    expect(page.locator("#ckpt-step")).to_contain_text(f"(1 / {len(steps)})")

    page.click("#studio-tab-positions")
    expect(page.locator("#pos-table canvas")).to_have_count(1, timeout=30_000)
    expect(page.locator("#pos-kind")).to_contain_text("sinusoidal")
    schedule = httpx.get(f"{server}/api/schedule").json()
    page.click("#studio-tab-schedule")
    expect(page.locator("#sched-chart")).to_have_attribute("data-state", "drawn", timeout=30_000)
    expect(page.locator("#sched-numbers")).to_contain_text(f"warmup_steps {schedule['warmup']}")
    expect(page.locator("#sched-numbers")).to_contain_text(f"reached {schedule['reached']}")
    smoothing = httpx.get(f"{server}/api/smoothing").json()
    page.click("#studio-tab-smoothing")
    expect(page.locator("#smooth-numbers")).to_contain_text(f"{smoothing['true_token']:.6g}"[:6], timeout=30_000)
    curves = httpx.get(f"{server}/api/curves").json()
    page.click("#studio-tab-curves")
    expect(page.locator("#curves-loss")).to_have_attribute("data-points", str(len(curves["train"]) + len(
        [e for e in curves["valid"] if e["valid_loss"] is not None])), timeout=30_000)
    page.click("#studio-tab-training")
    expect(page.locator("#train-state")).to_have_attribute("data-state", "idle", timeout=30_000)

    page.select_option("#studio-lang", "ko")
    expect(page.locator("#studio-tab-training")).to_have_text("학습하기")
    expect(page.locator("#studio-paper")).to_contain_text("논문 §5")
    page.select_option("#studio-lang", "en")
    if os.environ.get("AIAYN_STUDIO_SCREENSHOTS"):
        page.click("#studio-tab-heads")
        page.locator("#studio").screenshot(path=str(Path(os.environ["AIAYN_STUDIO_SCREENSHOTS"]) / "studio-heads.png"))
    assert not page.problems, page.problems
