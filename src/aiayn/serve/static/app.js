// aiayn serve: the page's behaviour. Translates through POST /api/translate, then draws the
// attention of one line (POST /api/attention) as a heat map on a <canvas>: rows are queries,
// columns keys; a cell's colour is its weight (0 .. the map's largest weight, viridis).
// No libraries; user text only ever goes into textContent.
"use strict";

const KIND_NAMES = {
  encoder: "Encoder self",
  decoder_self: "Decoder self",
  cross: "Encoder–decoder",
};
const KIND_HELP = {
  encoder: "Encoder self-attention: each source piece (row) over all source pieces (columns).",
  decoder_self: "Decoder self-attention (masked): each target piece (row, labelled by the piece it predicts) " +
    "over the pieces before it.",
  cross: "Encoder–decoder attention: each target piece (row, labelled by the piece it predicts) over the " +
    "source pieces (columns).",
};
// Viridis, sampled at 9 points and interpolated linearly.
const VIRIDIS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141], [39, 173, 129],
  [92, 200, 99], [170, 220, 50], [253, 231, 37]];

const state = {
  model: "", models: [], info: null, results: [], selected: -1, attention: null, kind: "cross", layer: 0, head: 0, hover: null,
  lastRequest: 0,
};
const $ = (id) => document.getElementById(id);

document.addEventListener("DOMContentLoaded", () => {
  $("translate-form").addEventListener("submit", (event) => { event.preventDefault(); translate(); });
  $("source").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); translate(); }
  });
  $("layer").addEventListener("change", () => { state.layer = Number($("layer").value); drawHeatmap(); });
  $("head").addEventListener("change", () => { state.head = Number($("head").value); drawHeatmap(); });
  const canvas = $("heatmap");
  canvas.addEventListener("mousemove", (event) => hover(event));
  canvas.addEventListener("mouseleave", () => { state.hover = null; drawHeatmap(); });
  window.addEventListener("resize", () => drawHeatmap());
  $("model-picker").addEventListener("change", () => chooseModel($("model-picker").value));
  loadModels();
});

// The API ------------------------------------------------------------------------------------------
// Requests name the model the picker shows: a POST body's "model" field, a GET's ?model=.
async function api(path, body) {
  const perModel = path.startsWith("/api/") && !path.startsWith("/api/models") && !path.startsWith("/api/training");
  if (perModel && state.model) {
    if (body === undefined) path += (path.includes("?") ? "&" : "?") + "model=" + encodeURIComponent(state.model);
    else if (body.model === undefined) body = Object.assign({model: state.model}, body);
  }
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error("the server cannot be reached (" + err.message + ")");
  }
  let data = null;
  try { data = await response.json(); } catch (err) { /* not JSON: reported below */ }
  if (!response.ok) {
    throw new Error((data && data.error) || ("the server answered " + response.status));
  }
  return data;
}

// The models served: a picker when there are several; none yet (the page may train one).
async function loadModels() {
  try {
    state.models = (await api("/api/models")).models;
  } catch (err) {
    $("model-info").textContent = "Model list unavailable: " + err.message;
    return;
  }
  const names = state.models.map((m) => m.name);
  fillSelect($("model-picker"), names.map((n) => [n, n]), names.includes(state.model) ? state.model : names[0]);
  $("model-pick").hidden = names.length < 2;
  if (!names.length) {
    $("model-info").textContent = "No model is served yet: train one in the studio below (Train), or restart with " +
      "aiayn serve runs/NAME.";
    $("translate-panel").hidden = true;
    document.dispatchEvent(new CustomEvent("aiayn-model", {detail: null}));
    return;
  }
  if (!names.includes(state.model)) await chooseModel(names[0]);
}

async function chooseModel(name) {
  state.model = name;
  $("model-picker").value = name;
  state.attention = null;
  state.results = [];
  $("results-panel").hidden = true;
  $("attention-panel").hidden = true;
  await loadInfo();
}

async function loadInfo() {
  try {
    const info = await api("/api/info");
    state.info = info;
    $("translate-panel").hidden = (info.task || "translation") !== "translation";  // music, digits, parsing: the studio
    const c = info.config || {};
    const parts = [info.architecture];
    if (info.src && info.tgt) parts.push(info.src + " → " + info.tgt);
    if (c.d_model) parts.push("d_model " + c.d_model);
    if (c.n_heads) parts.push(c.n_heads + " heads");
    if (c.n_encoder_layers) parts.push(c.n_encoder_layers + "+" + c.n_decoder_layers + " layers");
    if (c.hidden) parts.push("hidden " + c.hidden);
    parts.push(formatCount(info.parameters) + " parameters", info.device + " " + info.dtype);
    $("model-info").textContent = info.name + " · " + parts.join(" · ");
    const d = info.defaults, lim = info.limits;
    $("beam").value = d.beam;
    $("beam").max = lim.max_beam;
    $("alpha").value = d.alpha;
    $("nbest").max = lim.max_beam;
    $("nbest").value = Math.min(3, d.beam);
    document.dispatchEvent(new CustomEvent("aiayn-model", {detail: info}));
  } catch (err) {
    $("model-info").textContent = "Model description unavailable: " + err.message;
  }
}

function formatCount(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
  return String(n);
}

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", Boolean(isError));
}

// Translation ----------------------------------------------------------------------------------------
async function translate() {
  const lines = $("source").value.split(/\r?\n/);
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  if (!lines.some((line) => line.trim())) {
    setStatus("Type or paste a sentence first.", true);
    return;
  }
  const beam = Number($("beam").value), nbest = Math.min(Number($("nbest").value), beam);
  const body = {lines: lines, beam: beam, alpha: Number($("alpha").value), nbest: nbest};
  const request = ++state.lastRequest;
  $("translate-button").disabled = true;
  setStatus("Translating " + lines.length + (lines.length === 1 ? " line…" : " lines…"));
  try {
    const data = await api("/api/translate", body);
    if (request !== state.lastRequest) return;  // a newer request is under way
    state.results = data.translations;
    const keep = state.selected >= 0 && state.selected < lines.length && lines[state.selected].trim();
    const first = data.translations.findIndex((t) => t.source.trim());
    renderResults(data);
    setStatus("Translated in " + Math.round(data.ms) + " ms (beam " + data.beam + ", α " + data.alpha + ").");
    await showAttention(keep ? state.selected : first);
  } catch (err) {
    if (request === state.lastRequest) setStatus(err.message, true);
  } finally {
    if (request === state.lastRequest) $("translate-button").disabled = false;
  }
}

function renderResults(data) {
  const list = $("results");
  list.replaceChildren();
  data.translations.forEach((t, i) => {
    const item = document.createElement("li");
    item.dataset.index = String(i);
    const head = document.createElement("div");
    head.className = "result-head";
    const source = document.createElement("div");
    source.className = "source";
    source.textContent = t.source;
    head.append(source);
    if (t.source.trim()) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary show-attention";
      button.textContent = "attention";
      button.title = "Show this line's attention";
      button.addEventListener("click", () => showAttention(i));
      head.append(button);
    }
    const text = document.createElement("div");
    text.className = "translation";
    text.textContent = t.text;
    item.append(head, text);
    if (t.nbest.length > 1) item.append(nbestTable(t.nbest));
    list.append(item);
  });
  $("results-panel").hidden = false;
}

function nbestTable(hyps) {
  const table = document.createElement("table");
  table.className = "nbest";
  const header = table.insertRow();
  for (const name of ["#", "score", "hypothesis"]) {
    const th = document.createElement("th");
    th.textContent = name;
    header.append(th);
  }
  hyps.forEach((h, rank) => {
    const row = table.insertRow();
    row.insertCell().textContent = String(rank + 1);
    const score = row.insertCell();
    score.className = "score";
    score.textContent = h.score.toFixed(3);
    row.insertCell().textContent = h.text;
  });
  return table;
}

// Attention ----------------------------------------------------------------------------------------
async function showAttention(index) {
  if (index < 0 || !state.results[index]) return;
  state.selected = index;
  for (const item of $("results").children) {
    item.classList.toggle("selected", Number(item.dataset.index) === index);
  }
  const panel = $("attention-panel");
  const canvas = $("heatmap");
  canvas.dataset.state = "loading";
  $("attention-sentence").textContent = "";
  try {
    const data = await api("/api/attention", {text: state.results[index].source, beam: Number($("beam").value)});
    if (state.selected !== index) return;
    state.attention = data;
    panel.hidden = false;
    $("attention-sentence").textContent = "“" + data.source + "” → “" + data.translation + "”";
    renderKinds();
    chooseKind(data.kinds[state.kind] ? state.kind : Object.keys(data.kinds).pop());
  } catch (err) {
    panel.hidden = false;
    canvas.dataset.state = "error";
    $("attention-caption").textContent = "No attention to show: " + err.message;
    clearCanvas();
  }
}

function renderKinds() {
  const group = $("kinds");
  group.replaceChildren();
  for (const kind of Object.keys(state.attention.kinds)) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "kind-" + kind;
    button.dataset.kind = kind;
    button.textContent = KIND_NAMES[kind] || kind;
    button.addEventListener("click", () => chooseKind(kind));
    group.append(button);
  }
}

function chooseKind(kind) {
  const map = state.attention.kinds[kind];
  state.kind = kind;
  for (const button of $("kinds").children) {
    button.setAttribute("aria-pressed", String(button.dataset.kind === kind));
  }
  state.layer = Math.min(state.layer, map.layers - 1);
  if (!(state.head < map.heads || (state.head === map.heads && map.heads > 1))) state.head = 0;
  fillSelect($("layer"), Array.from({length: map.layers}, (_, l) => ["Layer " + (l + 1), l]), state.layer);
  const heads = Array.from({length: map.heads}, (_, h) => ["Head " + (h + 1), h]);
  if (map.heads > 1) heads.push(["Mean of heads", map.heads]);
  fillSelect($("head"), heads, state.head);
  drawHeatmap();
}

function fillSelect(select, options, value) {
  select.replaceChildren(...options.map(([label, v]) => {
    const option = document.createElement("option");
    option.value = String(v);
    option.textContent = label;
    return option;
  }));
  select.value = String(value);
}

function currentMatrix() {
  const map = state.attention.kinds[state.kind];
  const heads = map.weights[state.layer];  // (H, T, S)
  if (state.head < map.heads) return heads[state.head];
  return heads[0].map((row, t) => row.map((_, s) => heads.reduce((sum, h) => sum + h[t][s], 0) / heads.length));
}

function colour(value) {
  const x = Math.max(0, Math.min(1, value)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2), f = x - i;
  const [a, b] = [VIRIDIS[i], VIRIDIS[i + 1]];
  return "rgb(" + a.map((c, k) => Math.round(c + f * (b[k] - c))).join(",") + ")";
}

function clearCanvas() {
  const canvas = $("heatmap");
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
}

// Geometry of the drawing, shared by drawHeatmap and hover.
function layout(ctx, map, matrix) {
  ctx.font = "12px system-ui, 'DejaVu Sans', sans-serif";
  const widest = (labels) => Math.max(...labels.map((p) => ctx.measureText(p).width), 10);
  const rows = matrix.length, cols = matrix[0].length;
  const left = Math.ceil(widest(map.queries)) + 14, top = Math.ceil(widest(map.keys)) + 14;
  const room = Math.max(240, $("attention-panel").clientWidth - 40 - left - 90);
  const cell = Math.max(12, Math.min(34, Math.floor(room / cols), Math.floor(560 / rows)));
  return {rows, cols, left, top, cell, width: left + cols * cell + 90, height: top + rows * cell + 12};
}

function drawHeatmap() {
  if (!state.attention) return;
  const map = state.attention.kinds[state.kind];
  const matrix = currentMatrix();
  const canvas = $("heatmap");
  const ctx = canvas.getContext("2d");
  const g = layout(ctx, map, matrix);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * ratio);
  canvas.height = Math.round(g.height * ratio);
  canvas.style.width = g.width + "px";
  canvas.style.height = g.height + "px";
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.font = "12px system-ui, 'DejaVu Sans', sans-serif";
  ctx.clearRect(0, 0, g.width, g.height);
  const peak = Math.max(...matrix.map((row) => Math.max(...row)), 1e-9);
  matrix.forEach((row, t) => row.forEach((w, s) => {
    ctx.fillStyle = colour(w / peak);
    ctx.fillRect(g.left + s * g.cell, g.top + t * g.cell, g.cell, g.cell);
  }));
  drawLabels(ctx, g, map);
  drawColourBar(ctx, g, peak);
  if (state.hover) {
    const [t, s] = state.hover;
    ctx.strokeStyle = "#ff3b30";
    ctx.lineWidth = 2;
    ctx.strokeRect(g.left + s * g.cell + 1, g.top + t * g.cell + 1, g.cell - 2, g.cell - 2);
  }
  const headText = state.head < map.heads ? "head " + (state.head + 1) + " of " + map.heads : "mean of " +
    map.heads + " heads";
  $("attention-caption").textContent = KIND_HELP[state.kind] + " Layer " + (state.layer + 1) + " of " +
    map.layers + ", " + headText + "; each row sums to 1.";
  Object.assign(canvas.dataset, {state: "drawn", kind: state.kind, layer: String(state.layer + 1),
    head: state.head < map.heads ? String(state.head + 1) : "mean", rows: String(g.rows), cols: String(g.cols)});
}

function drawLabels(ctx, g, map) {
  ctx.fillStyle = "#1d2330";
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  map.queries.forEach((piece, t) => ctx.fillText(piece, g.left - 6, g.top + (t + 0.5) * g.cell));
  ctx.save();
  ctx.textAlign = "left";
  map.keys.forEach((piece, s) => {
    ctx.save();
    ctx.translate(g.left + (s + 0.5) * g.cell, g.top - 6);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(piece, 0, 0);
    ctx.restore();
  });
  ctx.restore();
}

function drawColourBar(ctx, g, peak) {
  const x = g.left + g.cols * g.cell + 18, height = Math.min(g.rows * g.cell, 240), steps = 60;
  for (let i = 0; i < steps; i++) {
    ctx.fillStyle = colour(1 - i / (steps - 1));
    ctx.fillRect(x, g.top + (i * height) / steps, 14, height / steps + 1);
  }
  ctx.fillStyle = "#1d2330";
  ctx.textAlign = "left";
  ctx.fillText(peak.toFixed(2), x + 18, g.top + 5);
  ctx.fillText("0", x + 18, g.top + height - 5);
}

function hover(event) {
  if (!state.attention) return;
  const map = state.attention.kinds[state.kind];
  const matrix = currentMatrix();
  const canvas = $("heatmap");
  const g = layout(canvas.getContext("2d"), map, matrix);
  const box = canvas.getBoundingClientRect();
  const s = Math.floor((event.clientX - box.left - g.left) / g.cell);
  const t = Math.floor((event.clientY - box.top - g.top) / g.cell);
  const inside = t >= 0 && t < g.rows && s >= 0 && s < g.cols;
  const before = JSON.stringify(state.hover);
  state.hover = inside ? [t, s] : null;
  $("cell-readout").textContent = inside ?
    "row “" + map.queries[t] + "” → column “" + map.keys[s] + "”: " + matrix[t][s].toFixed(4) :
    "Point at a cell to read its weight.";
  if (JSON.stringify(state.hover) !== before) drawHeatmap();
}
