// aiayn serve, the studio's other views (studio.js holds the tabs, the helpers, beam search, walk-through):
//   Every head          POST /api/attention    every layer x head of each attention kind at once
//   Learning to align   POST /api/checkpoints  one sentence's attention at every saved checkpoint, a slider
//   Positions           GET  /api/positions    the model's positional table and the similarity of positions
//   Schedule            GET  /api/schedule     the run's learning rate, its warm-up and the step it reached
//   Smoothing           GET  /api/smoothing    the label-smoothed target of one token
//   Curves              GET  /api/curves       loss, perplexity and BLEU from the run's log
//   Train               GET/POST /api/training the tiny preset trained from the page
"use strict";

const KIND_KEYS = {encoder: "kind.encoder", decoder_self: "kind.decoder_self", cross: "kind.cross"};
const runViews = ["positions", "schedule", "smoothing", "curves"];

Object.assign(studio.views, {
  heads: {paper: "paper.heads", docs: "every-head", offered: (i) => i.attention_kinds.length > 0,
    run: runHeads, draw: () => studio.heads && drawHeads(), reset: () => { studio.heads = null; }},
  checkpoints: {paper: "paper.checkpoints", docs: "learning-to-align",
    offered: (i) => i.views.includes("checkpoints"), run: runCheckpoints, draw: () => studio.ckpt && drawCheckpoint(),
    reset: () => { studio.ckpt = null; S("ckpt-follow").checked = false; },
    onShow: () => fillSelect(S("ckpt-kind"), (studio.info ? studio.info.attention_kinds : []).map((k) =>
      [t(KIND_KEYS[k]), k]), "cross")},
  positions: {paper: "paper.positions", docs: "positions", offered: () => true, noForm: true, onShow: showPositions,
    draw: () => studio.positions && drawPositions()},
  schedule: {paper: "paper.schedule", docs: "schedule", offered: () => true, noForm: true, onShow: showSchedule,
    draw: () => studio.schedule && drawSchedule()},
  smoothing: {paper: "paper.smoothing", docs: "smoothing", offered: () => true, noForm: true, onShow: showSmoothing,
    draw: () => studio.smoothing && drawSmoothing()},
  curves: {paper: "paper.curves", docs: "curves", offered: () => true, noForm: true, onShow: showCurves,
    draw: () => studio.curves && drawCurves()},
  training: {paper: "paper.training", docs: "train-from-the-page", offered: (i) => Boolean(i.training),
    noForm: true, onShow: pollTraining, draw: () => studio.training && drawTraining()},
});

document.addEventListener("DOMContentLoaded", () => {
  S("ckpt-slider").addEventListener("input", drawCheckpoint);
  S("ckpt-layer").addEventListener("change", drawCheckpoint);
  S("ckpt-head").addEventListener("change", drawCheckpoint);
  S("ckpt-follow").addEventListener("change", followCheckpoints);
  S("train-start").addEventListener("click", startTraining);
  S("train-stop").addEventListener("click", stopTraining);
  document.addEventListener("aiayn-model", () => { for (const v of runViews) studio[v] = null; });
});

// A GET view: fetched once per model, then drawn (again after a language switch).
async function fetchView(name, path, draw) {
  try {
    if (!studio[name]) studio[name] = await api(path);
    draw();
  } catch (err) {
    say(err.message, true);
  }
}

// Every head --------------------------------------------------------------------------------------
async function runHeads(text, beam) {
  studio.heads = await api("/api/attention", {text, beam});
  studio.headsMark = null;
  drawHeads();
}

// Which rows and columns a piece is, per kind: source pieces are the encoder's rows and columns and the
// cross maps' columns; target pieces the decoder's rows and columns and the cross maps' rows.
function marked(kind, mark) {
  if (!mark) return {row: -1, col: -1};
  if (kind === "cross") return mark.side === "tgt" ? {row: mark.i, col: -1} : {row: -1, col: mark.i};
  const mine = (kind === "encoder") === (mark.side === "src");
  return mine ? {row: mark.i, col: mark.i} : {row: -1, col: -1};
}

function drawHeads() {
  const data = studio.heads;
  S("heads-sentence").textContent = data.source + " → " + data.translation;
  const kinds = Object.keys(data.kinds);
  const src = (data.kinds.encoder || data.kinds.cross).keys;
  const tgt = (data.kinds.decoder_self || data.kinds.cross).queries;
  const bar = S("heads-pieces");
  bar.replaceChildren();
  for (const [side, pieces] of [["src", src], ["tgt", tgt]]) {
    const line = document.createElement("div");
    const label = document.createElement("span");
    label.className = "muted small";
    label.textContent = t(side === "src" ? "heads.source" : "heads.target") + " ";
    line.append(label);
    pieces.forEach((piece, i) => {
      const chip = document.createElement("span");
      chip.className = "piece";
      chip.textContent = piece;
      chip.dataset.side = side;
      chip.dataset.index = String(i);
      chip.addEventListener("mouseenter", () => { studio.headsMark = {side, i}; paintHeads(); });
      chip.addEventListener("mouseleave", () => { studio.headsMark = null; paintHeads(); });
      line.append(chip);
    });
    bar.append(line);
  }
  const grid = S("heads-grid");
  grid.replaceChildren();
  studio.headMaps = [];
  for (const kind of kinds) {
    const map = data.kinds[kind];
    const title = document.createElement("h3");
    title.className = "small";
    title.textContent = t(KIND_KEYS[kind]) + " · " + map.layers + " × " + map.heads;
    const table = document.createElement("div");
    table.className = "head-grid";
    table.style.gridTemplateColumns = "auto repeat(" + map.heads + ", max-content)";
    table.append(document.createElement("span"));
    for (let h = 0; h < map.heads; h++) table.append(cellLabel(t("walk.head") + " " + (h + 1)));
    for (let l = 0; l < map.layers; l++) {
      table.append(cellLabel(t("walk.layer") + " " + (l + 1)));
      for (let h = 0; h < map.heads; h++) {
        const canvas = document.createElement("canvas");
        canvas.className = "head-map";
        Object.assign(canvas.dataset, {kind, layer: String(l), head: String(h)});
        canvas.title = t(KIND_KEYS[kind]) + ", " + t("walk.layer") + " " + (l + 1) + ", " + t("walk.head") + " " +
          (h + 1) + " · " + t("heads.click");
        canvas.addEventListener("click", () => enlarge(kind, l, h));
        table.append(canvas);
        studio.headMaps.push({canvas, kind, matrix: map.weights[l][h]});
      }
    }
    grid.append(title, table);
  }
  paintHeads();
}

function cellLabel(text) {
  const span = document.createElement("span");
  span.className = "muted small";
  span.textContent = text;
  return span;
}

function paintHeads() {
  for (const chip of document.querySelectorAll("#heads-pieces .piece")) {
    const m = studio.headsMark;
    chip.classList.toggle("lit", Boolean(m) && chip.dataset.side === m.side && Number(chip.dataset.index) === m.i);
  }
  for (const {canvas, kind, matrix} of studio.headMaps) {
    const rows = matrix.length, cols = matrix[0].length;
    const cell = Math.max(2, Math.min(16, Math.floor(128 / Math.max(rows, cols))));
    canvas.width = cols * cell;
    canvas.height = rows * cell;
    const ctx = canvas.getContext("2d");
    matrix.forEach((row, r) => row.forEach((w, c) => {  // each row sums to 1: weights on 0..1
      ctx.fillStyle = colour(w);
      ctx.fillRect(c * cell, r * cell, cell, cell);
    }));
    const {row, col} = marked(kind, studio.headsMark);
    ctx.strokeStyle = "#ff3b30";
    ctx.lineWidth = 1.5;
    if (row >= 0) ctx.strokeRect(0.75, row * cell + 0.75, canvas.width - 1.5, cell - 1.5);
    if (col >= 0) ctx.strokeRect(col * cell + 0.75, 0.75, cell - 1.5, canvas.height - 1.5);
    canvas.dataset.marked = row >= 0 || col >= 0 ? "yes" : "no";
  }
}

// The large map above (app.js) shows one head: the clicked one.
function enlarge(kind, layer, head) {
  state.attention = studio.heads;
  $("attention-panel").hidden = false;
  $("attention-sentence").textContent = "“" + studio.heads.source + "” → “" + studio.heads.translation + "”";
  renderKinds();
  state.layer = layer;
  state.head = head;
  chooseKind(kind);
  $("attention-panel").scrollIntoView({behavior: "smooth", block: "start"});
}

// Learning to align -------------------------------------------------------------------------------
async function runCheckpoints(text, beam) {
  const last = studio.ckpt && Number(S("ckpt-slider").value) === studio.ckpt.checkpoints.length - 1;
  studio.ckpt = await api("/api/checkpoints", {text, beam, kind: S("ckpt-kind").value || "cross"});
  const c = studio.ckpt, slider = S("ckpt-slider");
  slider.max = String(c.checkpoints.length - 1);
  if (last || !slider.dataset.seen) slider.value = slider.max;  // following: stay on the newest
  slider.dataset.seen = "yes";
  const layers = Array.from({length: c.layers}, (_, l) => [String(l + 1), l]);
  fillSelect(S("ckpt-layer"), layers, Math.min(Number(S("ckpt-layer").value) || c.layers - 1, c.layers - 1));
  const heads = Array.from({length: c.heads}, (_, h) => [String(h + 1), h]).concat([[t("ckpt.mean"), c.heads]]);
  fillSelect(S("ckpt-head"), heads, Math.min(Number(S("ckpt-head").value || c.heads), c.heads));
  drawCheckpoint();
}

function drawCheckpoint() {
  const c = studio.ckpt;
  if (!c) return;
  const k = c.checkpoints[Number(S("ckpt-slider").value)], layer = Number(S("ckpt-layer").value);
  const head = Number(S("ckpt-head").value), heads = k.weights[layer];
  const matrix = head < c.heads ? heads[head] :
    heads[0].map((row, i) => row.map((_, j) => heads.reduce((sum, h) => sum + h[i][j], 0) / heads.length));
  S("ckpt-step").textContent = t("ckpt.step") + " " + k.step + " (" + (Number(S("ckpt-slider").value) + 1) + " / " +
    c.checkpoints.length + ") · " + c.source + " → " + c.translation;
  const box = S("ckpt-map");
  box.replaceChildren(labelledHeatmap(matrix, c.queries, c.keys));
  box.dataset.step = String(k.step);
}

function followCheckpoints() {
  clearInterval(studio.follow);
  if (!S("ckpt-follow").checked) return;
  studio.follow = setInterval(() => {
    if (studio.tab === "checkpoints" && studio.ckpt) runStudio();
  }, 5000);
}

// Positions, schedule, smoothing, curves ----------------------------------------------------------
function showPositions() { fetchView("positions", "/api/positions?n=50", drawPositions); }

function drawPositions() {
  const p = studio.positions;
  S("pos-kind").textContent = t("pos.kind." + p.kind);
  const none = p.kind === "none";
  S("pos-table").replaceChildren(...(none ? [] : [heatmap(p.table, {cell: 4, width: 520})]));
  S("pos-similarity").replaceChildren(...(none ? [] : [heatmap(p.similarity, {cell: 8, width: 420})]));
}

function showSchedule() { fetchView("schedule", "/api/schedule", drawSchedule); }

function drawSchedule() {
  const s = studio.schedule;
  const peak = s.curve.find((p) => p[0] === s.warmup);
  const now = s.logged.length ? s.logged[s.logged.length - 1][1] : null;
  S("sched-numbers").textContent = "d_model " + s.d_model + " · warmup_steps " + s.warmup + " · " + t("sched.peak") +
    " " + (peak ? peak[1].toExponential(3) : "") + " · " + t("sched.reached") + " " + s.reached +
    (now === null ? "" : " (lr " + now.toExponential(3) + ")");
  lineChart(S("sched-chart"), [{name: t("sched.formula"), points: s.curve},
    {name: t("sched.logged"), points: s.logged, dots: true}],
  {xLabel: t("curves.step"), marks: [{x: s.warmup, label: "warmup"}, {x: s.reached, label: t("sched.reached")}]});
}

function showSmoothing() { fetchView("smoothing", "/api/smoothing", drawSmoothing); }

function drawSmoothing() {
  const s = studio.smoothing;
  S("smooth-numbers").textContent = "ε_ls " + s.epsilon + " · V " + s.vocab + " · q'(y) = 1 − ε + ε/V = " +
    s.true_token.toPrecision(6) + " · q'(k ≠ y) = ε/V = " + s.every_other.toExponential(3);
  const canvas = S("smooth-chart"), ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height, n = 16, y = 5, floor = Math.log10(Math.min(s.every_other, 1e-3)) - 1;
  ctx.clearRect(0, 0, W, H);
  ctx.font = "12px system-ui, 'DejaVu Sans', 'NanumGothic', sans-serif";
  const bar = (W - 100) / n, scale = (v) => ((Math.log10(v) - floor) / -floor) * (H - 50);
  for (let k = 0; k < n; k++) {
    const v = k === y ? s.true_token : s.every_other, h = scale(v);
    ctx.fillStyle = k === y ? "#2f5bd3" : "#9aa3b5";
    ctx.fillRect(60 + k * bar + 2, H - 30 - h, bar - 4, h);
  }
  ctx.fillStyle = "#1d2330";
  ctx.textAlign = "center";
  ctx.fillText("y", 60 + (y + 0.5) * bar, H - 14);
  ctx.textAlign = "right";
  ctx.fillText("… " + (s.vocab - n) + " " + t("smooth.more"), W - 4, H - 14);
  ctx.textAlign = "right";
  for (let e = 0; e >= Math.ceil(floor); e--) ctx.fillText("1e" + e, 54, H - 30 - scale(10 ** e));
  canvas.dataset.state = "drawn";
}

function showCurves() { fetchView("curves", "/api/curves", drawCurves); }

function drawCurves() {
  const c = studio.curves;
  const pts = (events, key) => events.filter((e) => e[key] !== null && e[key] !== undefined).map((e) => [e.step, e[key]]);
  lineChart(S("curves-loss"), [{name: t("curves.train"), points: pts(c.train, "loss")},
    {name: t("curves.valid"), points: pts(c.valid, "valid_loss"), dots: true}], {xLabel: t("curves.step")});
  lineChart(S("curves-bleu"), [{name: "BLEU", points: pts(c.valid, "valid_bleu"), dots: true}],
    {xLabel: t("curves.step")});
}

// Train ---------------------------------------------------------------------------------------------
async function pollTraining() {
  clearTimeout(studio.trainPoll);
  try {
    studio.training = await api("/api/training");
  } catch (err) {
    say(err.message, true);
    return;
  }
  drawTraining();
  const s = studio.training;
  if (s.served && !state.models.some((m) => m.name === s.run)) {
    await loadModels();
    await chooseModel(s.run);
    chooseTab("training");
  }
  if (s.state === "running" && studio.tab === "training") studio.trainPoll = setTimeout(pollTraining, 2000);
}

function drawTraining() {
  const s = studio.training;
  const parts = [t("train.state." + s.state)];
  if (s.run) {
    parts.push(s.run, t("curves.step") + " " + s.step, Math.round(s.elapsed) + " s / " + s.minutes * 60 + " s",
      t("train.checkpoints") + " " + s.checkpoints);
  }
  if (s.error) parts.push(s.error);
  S("train-state").textContent = parts.join(" · ");
  S("train-state").dataset.state = s.state;
  S("train-start").disabled = s.state === "running";
  S("train-stop").disabled = s.state !== "running";
}

async function startTraining() {
  try {
    studio.training = await api("/api/training/start", {preset: "tiny", minutes: Number(S("train-minutes").value)});
    drawTraining();
    pollTraining();
  } catch (err) {
    say(err.message, true);
  }
}

async function stopTraining() {
  try {
    studio.training = await api("/api/training/stop", {});
    pollTraining();
  } catch (err) {
    say(err.message, true);
  }
}
