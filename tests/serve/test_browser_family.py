"""The attention family's studio views (issue 45) in a real browser: headless Chromium (Playwright) against
`aiayn serve` run as a subprocess over tiny random-weight run folders (``family_models``), one of each kind.
Each view renders, its numbers are the API's for the same request, the Korean labels appear after the
language switch, no request leaves the server and the console stays clean.

The browser is Debian's chromium, as in test_browser.py (a missing one is a failure, not a skip).
Environment overrides:
  AIAYN_CHROMIUM              the browser executable (default /usr/bin/chromium)
  AIAYN_FAMILY_RUNS           a folder of runs to serve instead, named as family_models names them
                              (music-relative, music-absolute, digits, superres, rnnsearch, rnnencdec, parsing)
  AIAYN_FAMILY_CACHE          the AIAYN_CACHE they are served with (its chorales/: the primers, Bach's grade;
                              default: conftest's made-up chorales)
  AIAYN_FAMILY_LENGTH         tokens the Chorale view samples (default 48)
  AIAYN_FAMILY_ALIGN          "source|target" the Alignment view aligns (default: Genesis 1:1, en|es)
  AIAYN_FAMILY_PARSE          the sentence the Parse tree view parses (default "the dog saw a cat .")
  AIAYN_FAMILY_SCREENSHOTS    save each view's screenshot there as family-*.png (docs/studio: see
                              docs/studio-family.md)
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest
from browsing import launched, opened, serving
from family_models import family_runs

SENTENCE, TARGET = os.environ.get("AIAYN_FAMILY_ALIGN", "In the beginning God created the heaven and the earth.|"
                                   "En el principio creó Dios los cielos y la tierra.").split("|")
PARSE = os.environ.get("AIAYN_FAMILY_PARSE", "the dog saw a cat .")


@pytest.fixture(scope="module")
def server(tmp_path_factory, chorale_cache):
    given = os.environ.get("AIAYN_FAMILY_RUNS")
    root = Path(given) if given else tmp_path_factory.mktemp("family")
    if not given:
        family_runs(root)
    cache = os.environ.get("AIAYN_FAMILY_CACHE") or str(chorale_cache)  # the held-out primers
    with serving([str(root), "--no-training"], {"AIAYN_CACHE": cache}) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with launched("--autoplay-policy=no-user-gesture-required") as chromium:
        yield chromium


@pytest.fixture
def page(browser, server):
    with opened(browser, server, ("blob:" + server,), accept_downloads=True) as page:
        yield page


def api(server, path, **body):
    r = httpx.post(f"{server}/api/{path}", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return r.json() if r.headers["content-type"].startswith("application/json") else r.content


def choose(page, model, tab):
    page.wait_for_selector("#model-picker option", state="attached")
    if page.input_value("#model-picker") != model:
        page.select_option("#model-picker", model)
    page.wait_for_selector(f"#studio-tab-{tab}:not([hidden])", timeout=30_000)
    page.click(f"#studio-tab-{tab}")


def shot(page, name):
    folder = os.environ.get("AIAYN_FAMILY_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"family-{name}.png"), full_page=True)


def test_a_chorale_is_generated_heard_graded_and_its_notes_attention_shown(page, server):
    from playwright.sync_api import expect

    choose(page, "music-relative", "chorale")
    expect(page.locator("#studio-tab-chorale")).to_have_attribute("aria-pressed", "true")  # its own view first
    primers = api(server, "primers", model="music-relative")["primers"]
    expect(page.locator("#music-primer option")).to_have_count(len(primers) + 1)  # + none
    length = int(os.environ.get("AIAYN_FAMILY_LENGTH", "48"))
    page.fill("#music-length", str(length))
    page.click("#music-generate")
    page.wait_for_selector("#music-roll[data-state=drawn]", state="attached", timeout=60_000)
    want = api(server, "chorale", model="music-relative", primer=0, length=length, temperature=0.6, top_p=0.9, seed=1)
    roll = page.eval_on_selector("#music-roll", "c => ({...c.dataset})")
    assert (int(roll["notes"]), int(roll["steps"])) == (len(want["roll"]["notes"]), want["roll"]["steps"])
    rows = page.eval_on_selector_all("#music-grade tr[data-key]", "rs => rs.map(r => [r.dataset.key, r.cells[1].textContent])")
    assert rows and all(text == f"{want['grade']['grade'][key]:.2f}" for key, text in rows)
    counts = f"{len(want['grade']['parallels'])} · "
    expect(page.locator("#music-marks-count")).to_contain_text(counts)

    page.select_option("#music-compare", "music-absolute")
    position = len(want["tokens"]) - len(want["tokens"]) % 4 - 4  # the last soprano note
    page.fill("#music-position", str(position))
    page.dispatch_event("#music-position", "change")
    page.wait_for_selector(f"#music-roll-b[data-position='{position}']", state="attached", timeout=60_000)
    for canvas, model in (("#music-roll-a", "music-relative"), ("#music-roll-b", "music-absolute")):
        att = api(server, "note_attention", model=model, tokens=want["tokens"], position=position, layer=0, head=0)
        heaviest = sorted(((w, k) for k, w in enumerate(att["weights"]) if w > 0), key=lambda x: -x[0])[:8]
        assert page.eval_on_selector(canvas, "c => c.dataset.heaviest") == ",".join(str(k) for _, k in heaviest)
    expect(page.locator("#music-note")).to_contain_text(f"token {position}")
    shot(page, "chorale")

    with page.expect_download() as download:
        page.click("#music-download")
    path = download.value.path()
    assert Path(path).read_bytes() == api(server, "midi", model="music-relative", tokens=want["tokens"])
    page.click("#music-play")
    deadline = time.monotonic() + 20  # the cursor moves with the audio clock (wait_for_function would eval: CSP)
    while int(page.eval_on_selector("#music-roll", "c => c.dataset.cursor || '0'")) < 2:
        assert time.monotonic() < deadline, "the cursor did not move"
        page.wait_for_timeout(100)
    page.click("#music-stop")
    expect(page.locator("#music-roll")).to_have_attribute("data-playing", "no")

    page.select_option("#studio-lang", "ko")
    expect(page.locator("#studio-tab-chorale")).to_have_text("코랄")
    expect(page.locator("#music-grade tr").first).to_contain_text("이 곡")
    page.select_option("#studio-lang", "en")
    expect(page.locator("#studio-tab-chorale")).to_have_text("Chorale")
    assert not page.problems, page.problems


def test_the_skew_step_by_step(page, server):
    from playwright.sync_api import expect

    choose(page, "music-relative", "skewing")
    expect(page.locator("#skew-steps figure")).to_have_count(6, timeout=60_000)
    assert float(page.eval_on_selector("#skew-numbers", "p => p.dataset.worst")) < 1e-9  # S_rel == the naive one
    primer = api(server, "primers", model="music-relative")["primers"][0]["tokens"]
    piece = api(server, "chorale", model="music-relative", primer=0, length=16)["tokens"]
    assert piece[:64] == primer
    end = int(page.input_value("#skew-end"))
    want = api(server, "skewing", model="music-relative", tokens=piece, layer=0, head=0, window=6, end=end)
    cells = page.eval_on_selector_all("#skew-steps figure[data-key='skew.qe'] tr:nth-child(2) td", "ts => ts.map(t => t.title)")
    assert [float(x) for x in cells] == want["qe"][0]
    page.select_option("#studio-lang", "ko")
    expect(page.locator("#skew-steps figcaption").first).to_contain_text("열: 거리")
    shot(page, "skewing")
    assert not page.problems, page.problems


def test_a_digit_appears_and_a_pixel_shows_its_blocks(page, server):
    from playwright.sync_api import expect

    choose(page, "digits", "digit")
    page.select_option("#digit-label", "7")
    page.fill("#digit-seed", "4")
    page.click("#digit-generate")
    page.wait_for_selector("#digit-canvas[data-state=drawing]", state="attached", timeout=60_000)
    page.wait_for_selector("#digit-canvas[data-state=drawn]", state="attached", timeout=30_000)
    want = api(server, "digit", model="digits", label=7, seed=4, temperature=1.0)
    assert page.eval_on_selector("#digit-canvas", "c => c.dataset.pixels") == ",".join(map(str, want["pixels"]))
    page.fill("#digit-pixel", "21")
    page.dispatch_event("#digit-pixel", "change")
    page.wait_for_selector("#digit-canvas[data-state=attention]", state="attached", timeout=60_000)
    att = api(server, "pixel_attention", model="digits", pixels=want["pixels"], index=21, layer=0, head=0, label=7)
    assert int(page.eval_on_selector("#digit-canvas", "c => c.dataset.visible")) == len(att["visible"]["pixels"])
    expect(page.locator("#digit-attention")).to_contain_text(f"l_q {att['block']}, l_m {att['memory']}")
    shot(page, "digit")

    choose(page, "superres", "superres")
    page.wait_for_selector("#sr-output[data-state=drawn]", state="attached", timeout=60_000)
    sr = api(server, "superres", model="superres", index=0)
    assert float(page.eval_on_selector("#sr-output", "c => c.dataset.mae")) == sr["mae_model"]
    box = page.locator("#sr-output").bounding_box()  # a click on the pixel at row 5, column 2: pixel 42
    page.locator("#sr-output").click(position={"x": box["width"] * 2.5 / 8, "y": box["height"] * 5.5 / 8})
    page.wait_for_selector("#sr-output[data-state=attention][data-index='42']", state="attached", timeout=60_000)
    att = api(server, "pixel_attention", model="superres", pixels=sr["output"], low=sr["low"], index=42, layer=0, head=0)
    assert int(page.eval_on_selector("#sr-output", "c => c.dataset.visible")) == len(att["visible"]["pixels"])
    page.select_option("#studio-lang", "ko")
    expect(page.locator("#studio-tab-superres")).to_have_text("초해상도")
    shot(page, "superres")
    assert not page.problems, page.problems


def test_alignment_and_the_parse_tree(page, server):
    from playwright.sync_api import expect

    choose(page, "rnnsearch", "alignment")
    page.fill("#studio-text", SENTENCE)
    page.fill("#align-target", TARGET)
    page.click("#studio-run")
    page.wait_for_selector("#align-map[data-state=drawn]", state="attached", timeout=60_000)
    want = api(server, "alignment", model="rnnsearch", text=SENTENCE, beam=4,
               target=TARGET, layer=-1, head=None)
    canvas = page.locator("#align-map canvas")
    d = canvas.evaluate("c => ({...c.dataset})")
    assert (int(d["rows"]), int(d["cols"])) == (len(want["target"]), len(want["source"]))
    x, y = int(d["left"]) + 2.5 * int(d["cell"]), int(d["top"]) + 1.5 * int(d["cell"])
    canvas.hover(position={"x": x, "y": y})
    expect(page.locator("#align-map .readout")).to_contain_text(f"= {want['alpha'][1][2]:.4f}")
    shot(page, "alignment")

    choose(page, "rnnencdec", "alignment")
    page.fill("#align-target", "")
    page.click("#studio-run")
    page.wait_for_selector("#align-map[data-state=none]", state="attached", timeout=60_000)
    expect(page.locator("#align-none")).to_contain_text("one fixed vector")
    expect(page.locator("#align-none")).to_contain_text("docs/reproductions.md#")

    choose(page, "parsing", "parse")
    page.fill("#studio-text", PARSE)
    page.fill("#studio-beam-size", "3")
    page.click("#studio-run")
    page.wait_for_selector("#parse-tree[data-state=drawn]", state="attached", timeout=60_000)
    parse = api(server, "parse", model="parsing", text=PARSE, beam=3)
    expect(page.locator("#parse-brackets")).to_have_text(parse["brackets"])
    expect(page.locator("#parse-linearised .piece")).to_have_count(len(parse["linearised"]))
    assert page.eval_on_selector("#parse-tree", "c => c.dataset.words") == str(len(PARSE.split()))
    page.select_option("#studio-lang", "ko")
    expect(page.locator("#studio-tab-parse")).to_have_text("구문 트리")
    expect(page.locator("#studio-paper")).to_have_attribute("href", "https://arxiv.org/abs/1412.7449")
    shot(page, "parse")
    assert not page.problems, page.problems
