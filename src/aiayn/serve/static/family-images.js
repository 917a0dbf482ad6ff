// aiayn serve, the attention family in the studio (issue 45), after family.js:
//   Digit             POST /api/digit, /api/pixel_attention  a digit drawn pixel by pixel (the raster appears), and
//                                                            a pixel's query block, memory block and attention
//   Super-resolution  POST /api/superres                     a test digit's 4 × 4 input | the model's 8 × 8 | truth
//   Alignment         POST /api/alignment                    α of a sentence (Bahdanau et al.'s Figure 3)
//   Parse tree        POST /api/parse                        the predicted tree beside the symbols emitted
"use strict";

(() => {
  const SIDE = 8, CELL = 32;
  const images = {digit: null, shown: 0, timer: null, sr: null, att: {digit: null, sr: null}, align: null, parse: null};
  family.images = images;

  family.register({
    digit: {paper: "paper.digit", docs: "digit", offered: (i) => i.views.includes("digit"), noForm: true,
      onShow: showDigit, draw: drawDigit, reset: () => { clearInterval(images.timer); images.digit = images.att.digit = null; }},
    superres: {paper: "paper.superres", docs: "super-resolution", offered: (i) => i.views.includes("superres"),
      noForm: true, onShow: showSuperres, draw: drawSuperres, reset: () => { images.sr = images.att.sr = null; }},
    alignment: {paper: "paper.alignment", docs: "alignment", offered: (i) => i.views.includes("alignment"),
      run: runAlignment, draw: drawAlignment, reset: () => {
        images.align = null;
        S("align-layer").replaceChildren();
        S("align-head").replaceChildren();
      }},
    parse: {paper: "paper.parse", docs: "parse-tree", offered: (i) => i.views.includes("parse"), run: runParse,
      draw: drawParse, reset: () => { images.parse = null; }},
  });

  document.addEventListener("DOMContentLoaded", () => {
    S("digit-generate").addEventListener("click", generateDigit);
    S("digit-canvas").addEventListener("click", (event) => clickPixel(event, "digit"));
    S("sr-output").addEventListener("click", (event) => clickPixel(event, "sr"));
    S("sr-run").addEventListener("click", runSuperres);
    for (const which of ["digit", "sr"]) {
      S(which + "-pixel").addEventListener("change", () => pixelAttention(which, Number(S(which + "-pixel").value)));
      for (const what of ["-layer", "-head"]) {
        S(which + what).addEventListener("change", () => images.att[which] && pixelAttention(which, images.att[which].index));
      }
    }
    S("align-layer").addEventListener("change", () => images.align && runStudio());
    S("align-head").addEventListener("change", () => images.align && runStudio());
  });

  function layersAndHeads(prefix) {
    const c = studio.info.config || {}, layers = c.n_layers || c.n_decoder_layers || 1, heads = c.n_heads || 1;
    fillSelect(S(prefix + "-layer"), family.range(layers), Math.min(Number(S(prefix + "-layer").value) || 0, layers - 1));
    fillSelect(S(prefix + "-head"), family.range(heads), Math.min(Number(S(prefix + "-head").value) || 0, heads - 1));
  }

  // A grid of intensities 0..16 (white .. black), ``cell`` px a pixel; ``shown`` the pixels drawn so far.
  function drawPixels(canvas, image, cell, shown, faded) {
    const side = image.length;
    canvas.width = canvas.height = side * cell;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#f4f5f8";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    image.forEach((row, r) => row.forEach((v, c) => {
      if (r * side + c >= (shown === undefined ? side * side : shown)) return;
      const g = Math.round(255 - (v / 16) * (faded ? 150 : 255));
      ctx.fillStyle = "rgb(" + g + "," + g + "," + g + ")";
      ctx.fillRect(c * cell, r * cell, cell, cell);
    }));
    return ctx;
  }

  // The outline of a set of pixels: each side of a pixel whose neighbour is outside the set.
  function outline(ctx, pixels, cell, colour, width) {
    const set = new Set(pixels);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    for (const p of pixels) {
      const r = Math.floor(p / SIDE), c = p % SIDE, x = c * cell, y = r * cell;
      if (r === 0 || !set.has(p - SIDE)) { ctx.moveTo(x, y); ctx.lineTo(x + cell, y); }
      if (r === SIDE - 1 || !set.has(p + SIDE)) { ctx.moveTo(x, y + cell); ctx.lineTo(x + cell, y + cell); }
      if (c === 0 || !set.has(p - 1)) { ctx.moveTo(x, y); ctx.lineTo(x, y + cell); }
      if (c === SIDE - 1 || !set.has(p + 1)) { ctx.moveTo(x + cell, y); ctx.lineTo(x + cell, y + cell); }
    }
    ctx.stroke();
    ctx.lineWidth = 1;
  }

  // A pixel's attention on the raster: the digit faded, the weight on each pixel it may see in colour (with its
  // value), nothing on those it may not; its query block and memory block outlined, the pixel drawn in red.
  function drawPixelAttention(canvas, image, att, cell) {
    const ctx = drawPixels(canvas, image, cell, undefined, true);
    const peak = Math.max(...att.weights, 1e-12);
    ctx.font = "9px system-ui, 'DejaVu Sans', sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const p of att.visible.pixels) {
      const w = att.weights[p], x = (p % SIDE) * cell, y = Math.floor(p / SIDE) * cell;
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = colour(w / peak);
      ctx.fillRect(x + 2, y + 2, cell - 4, cell - 4);
      ctx.globalAlpha = 1;
      ctx.fillStyle = w / peak > 0.6 ? "#1d2330" : "#ffffff";
      if (cell >= 28) ctx.fillText(w.toFixed(2), x + cell / 2, y + cell / 2);
    }
    outline(ctx, att.memory_block.pixels, cell, "#e67e22", 3);
    outline(ctx, att.query_block.pixels, cell, "#2f5bd3", 3);
    outline(ctx, [att.index], cell, "#d62728", 3);
    Object.assign(canvas.dataset, {state: "attention", index: String(att.index), visible: String(att.visible.pixels.length)});
  }

  function describeAttention(att) {
    const shape = att.attention === "local" ? "l_q " + att.block + ", l_m " + att.memory : att.attention;
    return t("pixel.index") + " " + att.index + " (" + t("pixel.row") + " " + Math.floor(att.index / SIDE) + ", " +
      t("pixel.col") + " " + (att.index % SIDE) + ") · " + shape + " · " + t("pixel.sees") + " " +
      att.visible.pixels.length + (att.visible.bos ? " + BOS" : "") + " · BOS " + family.num(att.bos, 3);
  }

  function clickPixel(event, which) {
    const canvas = event.currentTarget, box = canvas.getBoundingClientRect();
    const cell = box.width / SIDE;
    const p = Math.floor((event.clientY - box.top) / cell) * SIDE + Math.floor((event.clientX - box.left) / cell);
    if (p >= 0 && p < SIDE * SIDE) pixelAttention(which, p);
  }

  async function pixelAttention(which, index) {
    const source = which === "digit" ? images.digit : images.sr;
    if (!source || !(index >= 0 && index < SIDE * SIDE) || (which === "digit" && images.shown < SIDE * SIDE)) return;
    S(which + "-pixel").value = String(index);
    const body = {pixels: which === "digit" ? source.image : source.output, index,
      layer: Number(S(which + "-layer").value), head: Number(S(which + "-head").value)};
    if (which === "digit" && source.conditional) body.label = source.label;
    if (which === "sr") body.low = source.low;
    try {
      images.att[which] = await api("/api/pixel_attention", body);
    } catch (err) {
      say(err.message, true);
      return;
    }
    say("");
    if (which === "digit") drawDigit(); else drawSuperres();
  }

  // Digit ---------------------------------------------------------------------------------------------
  function showDigit() {
    const c = studio.info.config || {}, conditional = (c.n_classes || 0) > 0;
    S("digit-label-wrap").hidden = !conditional;
    if (conditional && !S("digit-label").options.length) {
      fillSelect(S("digit-label"), Array.from({length: 10}, (_, i) => [String(i), i]), 3);
    }
    layersAndHeads("digit");
    drawDigit();
  }

  async function generateDigit() {
    clearInterval(images.timer);
    const conditional = !S("digit-label-wrap").hidden;
    say(t("status.working"));
    try {
      images.digit = await api("/api/digit", {label: conditional ? Number(S("digit-label").value) : null,
        seed: Number(S("digit-seed").value), temperature: Number(S("digit-temperature").value)});
    } catch (err) {
      say(err.message, true);
      return;
    }
    say("");
    images.att.digit = null;
    images.shown = 0;
    S("digit-canvas").dataset.state = "drawing";
    images.timer = setInterval(() => {  // the raster appears in the order the model drew it
      images.shown = Math.min(SIDE * SIDE, images.shown + 1);
      drawDigit();
      if (images.shown === SIDE * SIDE) clearInterval(images.timer);
    }, 30);
  }

  function drawDigit() {
    const d = images.digit, canvas = S("digit-canvas");
    if (!d) return;
    if (images.att.digit && images.shown === SIDE * SIDE) {
      drawPixelAttention(canvas, d.image, images.att.digit, CELL);
      S("digit-attention").textContent = describeAttention(images.att.digit);
      return;
    }
    drawPixels(canvas, d.image, CELL, images.shown);
    const last = images.shown - 1;
    S("digit-readout").textContent = (d.conditional ? t("digit.label") + " " + d.label + " · " : "") +
      t("pixel.index") + " " + Math.max(last, 0) + " / 63 · " + t("digit.intensity") + " " + d.pixels[Math.max(last, 0)] +
      " · p = " + family.num(d.probabilities[Math.max(last, 0)], 3);
    S("digit-attention").textContent = images.shown === SIDE * SIDE ? t("pixel.pick") : "";
    if (images.shown === SIDE * SIDE) Object.assign(canvas.dataset, {state: "drawn", pixels: d.pixels.join(",")});
  }

  // Super-resolution ------------------------------------------------------------------------------------
  function showSuperres() {
    layersAndHeads("sr");
    if (!images.sr) runSuperres(); else drawSuperres();
  }

  async function runSuperres() {
    say(t("status.working"));
    try {
      images.sr = await api("/api/superres", {index: Number(S("sr-index").value)});
    } catch (err) {
      say(err.message, true);
      return;
    }
    say("");
    images.att.sr = null;
    drawSuperres();
  }

  function drawSuperres() {
    const s = images.sr;
    if (!s) return;
    drawPixels(S("sr-low"), s.low, 56);
    if (images.att.sr) drawPixelAttention(S("sr-output"), s.output, images.att.sr, 28);
    else {
      drawPixels(S("sr-output"), s.output, 28);
      S("sr-output").dataset.state = "drawn";
    }
    drawPixels(S("sr-truth"), s.truth, 28);
    drawPixels(S("sr-bicubic"), s.bicubic, 28);
    S("sr-mae-model").textContent = "MAE " + family.num(s.mae_model);
    S("sr-mae-bicubic").textContent = "MAE " + family.num(s.mae_bicubic);
    S("sr-output").dataset.mae = String(s.mae_model);
    S("sr-attention").textContent = (t("sr.digit") + " " + s.index + " (" + s.label + ") · ") +
      (images.att.sr ? describeAttention(images.att.sr) : t("pixel.pick"));
  }

  // Alignment -------------------------------------------------------------------------------------------
  async function runAlignment(text, beam) {
    const target = S("align-target").value.trim(), head = S("align-head").value;
    images.align = await api("/api/alignment", {text, beam, target: target || null,
      layer: S("align-layer").options.length ? Number(S("align-layer").value) : -1,
      head: head === "" || head === "mean" ? null : Number(head)});
    const a = images.align;
    if (a.alignment) {
      fillSelect(S("align-layer"), family.range(a.layers), a.layer);
      fillSelect(S("align-head"), [[t("ckpt.mean"), "mean"], ...family.range(a.heads)], a.head === null ? "mean" : a.head);
    }
    drawAlignment();
  }

  function drawAlignment() {
    const a = images.align;
    if (!a) return;
    S("align-controls").hidden = !a.alignment || (a.layers === 1 && a.heads === 1);
    S("align-none").hidden = a.alignment;
    S("align-sentence").textContent = a.architecture + " · " + S("studio-text").value.trim() + " → " + a.translation;
    const box = S("align-map");
    box.replaceChildren();
    if (!a.alignment) {
      S("align-none").textContent = t("align.none") + " " + a.reason + ". " + t("align.see") + " " + a.see;
      box.dataset.state = "none";
      return;
    }
    box.append(alignmentMap(a.alpha, a.target, a.source));
    box.dataset.state = "drawn";
  }

  // Bahdanau et al.'s Figure 3: source words along the top, the translation down the side, each cell α_ij
  // in grey (white 1, black 0).
  function alignmentMap(alpha, rows, cols) {
    const canvas = document.createElement("canvas"), ctx = canvas.getContext("2d");
    const font = "13px system-ui, 'DejaVu Sans', 'NanumGothic', sans-serif";
    ctx.font = font;
    const widest = (labels) => Math.max(10, ...labels.map((p) => ctx.measureText(p).width));
    const left = Math.ceil(widest(rows)) + 10, top = Math.ceil(widest(cols)) + 10;
    const cell = Math.max(12, Math.min(30, Math.floor(700 / cols.length)));
    canvas.width = left + cols.length * cell + 4;
    canvas.height = top + rows.length * cell + 4;
    ctx.font = font;
    alpha.forEach((row, r) => row.forEach((w, c) => {
      const g = Math.round(255 * w);
      ctx.fillStyle = "rgb(" + g + "," + g + "," + g + ")";
      ctx.fillRect(left + c * cell, top + r * cell, cell, cell);
    }));
    ctx.fillStyle = "#1d2330";
    ctx.textBaseline = "middle";
    ctx.textAlign = "right";
    rows.forEach((p, r) => ctx.fillText(p, left - 5, top + (r + 0.5) * cell));
    ctx.textAlign = "left";
    cols.forEach((p, c) => {
      ctx.save();
      ctx.translate(left + (c + 0.5) * cell, top - 5);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(p, 0, 0);
      ctx.restore();
    });
    Object.assign(canvas.dataset, {rows: String(rows.length), cols: String(cols.length), left: String(left),
      top: String(top), cell: String(cell)});
    const readout = document.createElement("span");
    readout.className = "muted small readout";
    canvas.addEventListener("mousemove", (event) => {
      const box = canvas.getBoundingClientRect();
      const c = Math.floor((event.clientX - box.left - left) / cell), r = Math.floor((event.clientY - box.top - top) / cell);
      if (r >= 0 && r < rows.length && c >= 0 && c < cols.length) {
        readout.textContent = "α(“" + rows[r] + "”, “" + cols[c] + "”) = " + alpha[r][c].toFixed(4);
      }
    });
    const wrap = document.createElement("div");
    wrap.className = "walk-map";
    wrap.append(canvas, readout);
    return wrap;
  }

  // Parse tree ------------------------------------------------------------------------------------------
  async function runParse(text, beam) {
    images.parse = await api("/api/parse", {text, beam});
    drawParse();
  }

  function drawParse() {
    const p = images.parse;
    if (!p) return;
    S("parse-linearised").replaceChildren(...p.linearised.map((symbol) => {
      const chip = document.createElement("span");
      chip.className = "piece";
      chip.textContent = symbol;
      return chip;
    }));
    S("parse-brackets").textContent = p.brackets;
    S("parse-repairs").textContent = t("parse.repairs") + " " + p.repairs + (p.repairs ? "" : " · " + t("parse.wellformed")) +
      " · " + t("studio.beam") + " " + p.beam;
    drawTree(S("parse-tree"), p.tree);
  }

  // The tree: words along the bottom, each constituent above the middle of its children.
  function drawTree(canvas, tree) {
    const ctx = canvas.getContext("2d"), font = "13px system-ui, 'DejaVu Sans', sans-serif", LEVEL = 44;
    ctx.font = font;
    const nodes = [];
    let x = 10, depth = 0;
    const place = (node, level) => {
      depth = Math.max(depth, level);
      const item = {label: node.label, level, children: []};
      nodes.push(item);
      if (node.word !== undefined) {
        const w = Math.max(ctx.measureText(node.word).width, ctx.measureText(node.label).width) + 14;
        item.x = x + w / 2;
        item.word = node.word;
        x += w;
      } else {
        item.children = node.children.map((child) => place(child, level + 1));
        item.x = item.children.length ? (item.children[0].x + item.children[item.children.length - 1].x) / 2 : x;
      }
      return item;
    };
    place(tree, 0);
    canvas.width = Math.max(200, x + 10);
    canvas.height = (depth + 2) * LEVEL + 10;
    ctx.font = font;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const y = (level) => 16 + level * LEVEL, bottom = y(depth + 1);
    ctx.strokeStyle = "#9aa3b5";
    for (const n of nodes) {
      for (const c of n.children) {
        ctx.beginPath();
        ctx.moveTo(n.x, y(n.level) + 9);
        ctx.lineTo(c.x, y(c.level) - 9);
        ctx.stroke();
      }
      if (n.word !== undefined) {
        ctx.setLineDash([2, 3]);
        ctx.beginPath();
        ctx.moveTo(n.x, y(n.level) + 9);
        ctx.lineTo(n.x, bottom - 9);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = "#1d2330";
        ctx.fillText(n.word, n.x, bottom);
      }
      ctx.fillStyle = n.word !== undefined ? "#5c6577" : "#2f5bd3";
      ctx.fillText(n.label, n.x, y(n.level));
    }
    Object.assign(canvas.dataset, {state: "drawn", nodes: String(nodes.length),
      words: String(nodes.filter((n) => n.word !== undefined).length)});
  }
})();
