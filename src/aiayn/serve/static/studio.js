// aiayn serve, the studio (issue 44): views over the real computation, drawn from the JSON API.
// This file: the language switch, the tabs, the drawing helpers (heat map, line chart), and two views:
//   Beam search  POST /api/beam         the search's own trace, one step at a time
//   Walk-through POST /api/walkthrough  one forward pass read by hooks, in the paper's order
// studio-views.js adds the others through studio.views. Labels come from locales/en.json and ko.json;
// user text only goes into textContent. Uses api(), colour() and fillSelect() from app.js, loaded first.
"use strict";

const studio = {lang: "en", words: {}, tab: "beam", info: null, beam: null, step: 0, walk: null, head: 0,
  views: {}};
const S = (id) => document.getElementById(id);

// Each view: its paper section (``paper``: a label key; ``href``: the paper, this one's by default) and docs
// anchor (on ``page``, docs/studio.md by default), whether the served model offers it, what "Show" does, and
// how it redraws (after a language switch).
const PAPER = document.getElementById("studio-paper").getAttribute("href");  // index.html's link (deferred: parsed)
studio.views.beam = {paper: "paper.beam", docs: "beam-search", offered: (i) => i.views.includes("beam"),
  run: runBeam, draw: () => studio.beam && showStep(studio.step)};
studio.views.walk = {paper: "paper.walk", docs: "walk-through", offered: (i) => i.views.includes("walkthrough"),
  run: runWalk, draw: () => studio.walk && drawWalk()};

document.addEventListener("DOMContentLoaded", () => {
  S("studio-lang").addEventListener("change", () => setLanguage(S("studio-lang").value));
  for (const name of Object.keys(studio.views)) {  // every script has registered its views by now (deferred)
    const button = Object.assign(document.createElement("button"), {type: "button", id: "studio-tab-" + name});
    Object.assign(button.dataset, {tab: name, i18n: "studio.tab." + name});
    button.addEventListener("click", () => chooseTab(name));
    S("studio-tabs").append(button);
  }
  S("studio-form").addEventListener("submit", (event) => { event.preventDefault(); runStudio(); });
  S("beam-prev").addEventListener("click", () => showStep(studio.step - 1));
  S("beam-next").addEventListener("click", () => showStep(studio.step + 1));
  S("walk-head").addEventListener("change", () => { studio.head = Number(S("walk-head").value); drawWalk(); });
  document.addEventListener("aiayn-model", (event) => modelChanged(event.detail));
  setLanguage(navigator.language && navigator.language.startsWith("ko") ? "ko" : "en");
});

async function setLanguage(lang) {
  studio.lang = lang;
  S("studio-lang").value = lang;
  studio.words = await api("/static/locales/" + lang + ".json");
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  S("studio-paper").textContent = t(studio.views[studio.tab].paper);
  for (const view of Object.values(studio.views)) view.draw();
}

function t(key) { return studio.words[key] || key; }

// A new model in the picker (null: none served yet): offer the views it can show, forget the old answers.
function modelChanged(info) {
  studio.info = info;
  studio.beam = studio.walk = null;
  for (const [name, view] of Object.entries(studio.views)) {
    S("studio-tab-" + name).hidden = !(info ? view.offered(info) : name === "training");
    if (view.reset) view.reset();
  }
  const current = S("studio-tab-" + studio.tab);
  const first = Object.keys(studio.views).find((name) => !S("studio-tab-" + name).hidden) || "training";
  chooseTab(current.hidden ? first : studio.tab);
}

function chooseTab(tab) {
  studio.tab = tab;
  const view = studio.views[tab];
  for (const name of Object.keys(studio.views)) {
    S("studio-tab-" + name).setAttribute("aria-pressed", String(name === tab));
    S("studio-" + name).hidden = name !== tab;
  }
  S("studio-paper").textContent = t(view.paper);
  S("studio-paper").href = view.href || PAPER;
  S("studio-docs").textContent = (view.page || "docs/studio.md") + "#" + view.docs;
  S("studio-form").hidden = Boolean(view.noForm);
  for (const el of document.querySelectorAll("[class*=only-]")) el.hidden = !el.classList.contains("only-" + tab);
  say("");
  if (view.onShow) view.onShow();
}

function say(text, isError) {
  S("studio-status").textContent = text;
  S("studio-status").className = isError ? "error" : "";
}

async function runStudio() {
  const text = S("studio-text").value.trim();
  if (!text) { say(t("status.empty"), true); return; }
  say(t("status.working"));
  try {
    await studio.views[studio.tab].run(text, Number(S("studio-beam-size").value));
    say("");
  } catch (err) {
    say(err.message, true);
  }
}

// Beam search -------------------------------------------------------------------------------------
async function runBeam(text, beam) {
  studio.beam = await api("/api/beam", {text, beam: Math.max(2, beam)});
  showStep(0);
}

function showStep(index) {
  const trace = studio.beam;
  studio.step = Math.max(0, Math.min(index, trace.steps.length - 1));
  const step = trace.steps[studio.step];
  S("beam-position").textContent = t("beam.step") + " " + (studio.step + 1) + " " + t("beam.of") + " " +
    trace.steps.length + " · " + t("beam.penalty") + " " + step.length_penalty.toFixed(3);
  S("beam-prev").disabled = studio.step === 0;
  S("beam-next").disabled = studio.step === trace.steps.length - 1;
  S("beam-live").replaceChildren(...step.beams.map((b) =>
    item((b.pieces.join(" ") || "⟨BOS⟩") + "   log P " + fmt(b.log_prob))));
  const rows = S("beam-candidates");
  rows.replaceChildren();
  for (const c of step.candidates) {
    const tr = document.createElement("tr");
    tr.className = "fate-" + c.fate;
    tr.dataset.fate = c.fate;
    for (const cell of ["#" + c.parent, c.piece, fmt(c.log_prob), c.score === undefined ? "" : fmt(c.score),
      t("beam." + c.fate)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.appendChild(td);
    }
    rows.appendChild(tr);
  }
  S("beam-nbest").replaceChildren(...trace.nbest.map((h) => item(h.text + "   (" + fmt(h.score) + ")")));
}

function fmt(x) { return x === null || x === undefined ? "−∞" : x.toFixed(3); }

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

// Walk-through ------------------------------------------------------------------------------------
async function runWalk(text, beam) {
  studio.walk = await api("/api/walkthrough", {text, beam, layer: Number(S("walk-layer").value)});
  studio.head = 0;
  drawWalk();
}

function drawWalk() {
  const walk = studio.walk;
  const heads = Math.max(...walk.steps.map((s) => (s.shape.length === 3 ? s.shape[0] : 1)));
  const select = S("walk-head");
  if (select.options.length !== heads) {
    select.replaceChildren(...Array.from({length: heads}, (_, h) => new Option(String(h + 1), String(h))));
  }
  const list = S("walk-steps");
  list.replaceChildren();
  for (const step of walk.steps) {
    const li = document.createElement("li");
    li.dataset.key = step.key;
    const head = document.createElement("div");
    head.className = "walk-head";
    head.textContent = step.label + "   " + t("walk.section") + step.section + "   " + t("walk.shape") + " " +
      step.shape.join(" × ") + "   (" + step.key + ")";
    li.appendChild(head);
    const matrix = step.shape.length === 3 ? step.values[Math.min(studio.head, step.shape[0] - 1)] : step.values;
    li.appendChild(heatmap(matrix));
    list.appendChild(li);
  }
  S("walk-next").replaceChildren(...walk.next.map((n) => item(n.piece + "   p = " + n.p.toFixed(4))));
  S("walk-sentence").textContent = walk.source + " → " + walk.translation;
  drawDecoding(walk.decoding || []);
}

// The decoder as search runs it: one piece fed per step, the cache one position longer each time.
function drawDecoding(steps) {
  let box = S("walk-decoding");
  if (!box) {
    const title = document.createElement("h3");
    title.className = "small";
    title.id = "walk-decoding-title";
    box = document.createElement("table");
    box.id = "walk-decoding";
    box.className = "nbest";
    S("studio-walk").append(title, box);
  }
  S("walk-decoding-title").textContent = t("walk.decoding");
  box.replaceChildren();
  const header = box.insertRow();
  for (const key of ["walk.fed", "walk.cache", "walk.cross", "walk.top"]) {
    const th = document.createElement("th");
    th.textContent = t(key);
    header.append(th);
  }
  steps.forEach((step, i) => {
    const row = box.insertRow();
    row.dataset.step = String(i);
    row.insertCell().textContent = (i + 1) + ". " + step.fed;
    row.insertCell().textContent = step.cache.join(" × ");
    row.insertCell().textContent = step.cross.join(" × ");
    row.insertCell().textContent = step.next.slice(0, 3).map((n) => n.piece + " " + n.p.toFixed(3)).join(" · ");
  });
}

// Drawing helpers ---------------------------------------------------------------------------------
// A heat map of a matrix (rows x columns), each cell its value on the matrix's own range (or 0..peak
// with options.zero); pointing at a cell writes its row, column and value beside the map.
// options: {cell: largest cell in px, width: most px, zero: bool, rowLabels, colLabels}
function heatmap(matrix, options) {
  const o = Object.assign({cell: 12, width: 560}, options || {});
  const rows = matrix.length, cols = matrix[0].length;
  const cell = Math.max(1, Math.min(o.cell, Math.floor(o.width / cols)));
  const canvas = document.createElement("canvas");
  canvas.width = cols * cell;
  canvas.height = rows * Math.max(cell, 3);
  const rowH = canvas.height / rows;
  const ctx = canvas.getContext("2d");
  let lo = o.zero ? 0 : Infinity, hi = -Infinity;
  for (const row of matrix) for (const v of row) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const span = hi - lo || 1;
  matrix.forEach((row, r) => row.forEach((v, c) => {
    ctx.fillStyle = colour((v - lo) / span);
    ctx.fillRect(c * cell, r * rowH, cell, rowH);
  }));
  const readout = document.createElement("span");
  readout.className = "muted small readout";
  canvas.addEventListener("mousemove", (event) => {
    const box = canvas.getBoundingClientRect();
    const c = Math.floor((event.clientX - box.left) / cell), r = Math.floor((event.clientY - box.top) / rowH);
    if (r < 0 || r >= rows || c < 0 || c >= cols) return;
    const name = (labels, i) => (labels ? "“" + labels[i] + "”" : String(i));
    readout.textContent = "[" + name(o.rowLabels, r) + ", " + name(o.colLabels, c) + "] = " + matrix[r][c];
  });
  const wrap = document.createElement("div");
  wrap.className = "walk-map";
  wrap.append(canvas, readout);
  return wrap;
}

// A line chart on ``canvas``: series [{name, points: [[x, y]], colour, dots}], options {xLabel, yLabel,
// logY, marks: [{x, label}]}. Axes from the data's range; the series' names as a legend.
function lineChart(canvas, series, options) {
  const o = options || {};
  const ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height, L = 64, R = 12, T = 12 + 15 * series.length, B = 40;
  ctx.clearRect(0, 0, W, H);
  ctx.font = "12px system-ui, 'DejaVu Sans', 'NanumGothic', sans-serif";
  const all = series.flatMap((s) => s.points).filter((p) => p[1] !== null && isFinite(p[1]));
  if (!all.length) return;
  const fy = (y) => (o.logY ? Math.log10(y) : y);
  const xs = all.map((p) => p[0]), ys = all.map((p) => fy(p[1]));
  const x0 = Math.min(...xs), x1 = Math.max(...xs) || 1, y0 = Math.min(...ys), y1 = Math.max(...ys);
  const px = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (y) => T + (1 - (fy(y) - y0) / (y1 - y0 || 1)) * (H - T - B);
  ctx.strokeStyle = "#9aa3b5";
  ctx.fillStyle = "#1d2330";
  ctx.beginPath();
  ctx.moveTo(L, T);
  ctx.lineTo(L, H - B);
  ctx.lineTo(W - R, H - B);
  ctx.stroke();
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (let i = 0; i <= 4; i++) {
    const y = y0 + ((y1 - y0) * i) / 4, v = o.logY ? 10 ** y : y;
    ctx.fillText(Math.abs(v) < 0.01 && v !== 0 ? v.toExponential(2) : v.toPrecision(3), L - 6,
      T + (1 - i / 4) * (H - T - B));
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (let i = 0; i <= 4; i++) {
    ctx.fillText(String(Math.round(x0 + ((x1 - x0) * i) / 4)), L + (i / 4) * (W - L - R), H - B + 4);
  }
  ctx.fillText(o.xLabel || "", (L + W - R) / 2, H - 16);
  for (const mark of o.marks || []) {
    ctx.strokeStyle = "#c0392b";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(px(mark.x), T);
    ctx.lineTo(px(mark.x), H - B);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = "#c0392b";
    const right = px(mark.x) > W - 120;  // near the right edge: the label goes to the line's left
    ctx.textAlign = right ? "right" : "left";
    ctx.fillText(mark.label, px(mark.x) + (right ? -4 : 4), T);
  }
  series.forEach((s, k) => {
    const points = s.points.filter((p) => p[1] !== null && isFinite(p[1]));
    ctx.strokeStyle = ctx.fillStyle = s.colour || ["#2f5bd3", "#e67e22", "#27ae60", "#8e44ad"][k % 4];
    ctx.lineWidth = 1.6;
    ctx.beginPath();
    points.forEach((p, i) => (i ? ctx.lineTo(px(p[0]), py(p[1])) : ctx.moveTo(px(p[0]), py(p[1]))));
    if (!s.dots) ctx.stroke();
    if (s.dots) for (const p of points) ctx.fillRect(px(p[0]) - 1.5, py(p[1]) - 1.5, 3, 3);
    ctx.textAlign = "right";
    ctx.fillText((s.dots ? "▪ " : "— ") + s.name, W - R - 4, 4 + 15 * k);
  });
  ctx.lineWidth = 1;
  canvas.dataset.state = "drawn";
  canvas.dataset.points = String(all.length);
}

// A heat map with its row and column labels (pieces), weights on 0..1; pointing at a cell reads it.
function labelledHeatmap(matrix, rowLabels, colLabels, largest) {
  const canvas = document.createElement("canvas"), ctx = canvas.getContext("2d");
  ctx.font = "12px system-ui, 'DejaVu Sans', 'NanumGothic', sans-serif";
  const widest = (labels) => Math.max(10, ...labels.map((p) => ctx.measureText(p).width));
  const left = Math.ceil(widest(rowLabels)) + 10, top = Math.ceil(widest(colLabels)) + 10;
  const cell = Math.max(10, Math.min(largest || 30, Math.floor(640 / colLabels.length)));
  canvas.width = left + colLabels.length * cell + 4;
  canvas.height = top + rowLabels.length * cell + 4;
  ctx.font = "12px system-ui, 'DejaVu Sans', 'NanumGothic', sans-serif";
  matrix.forEach((row, r) => row.forEach((w, c) => {
    ctx.fillStyle = colour(w);
    ctx.fillRect(left + c * cell, top + r * cell, cell, cell);
  }));
  ctx.fillStyle = "#1d2330";
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  rowLabels.forEach((p, r) => ctx.fillText(p, left - 5, top + (r + 0.5) * cell));
  ctx.textAlign = "left";
  colLabels.forEach((p, c) => {
    ctx.save();
    ctx.translate(left + (c + 0.5) * cell, top - 5);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(p, 0, 0);
    ctx.restore();
  });
  const readout = document.createElement("span");
  readout.className = "muted small readout";
  canvas.addEventListener("mousemove", (event) => {
    const box = canvas.getBoundingClientRect();
    const c = Math.floor((event.clientX - box.left - left) / cell), r = Math.floor((event.clientY - box.top - top) / cell);
    if (r >= 0 && r < rowLabels.length && c >= 0 && c < colLabels.length) {
      readout.textContent = "“" + rowLabels[r] + "” → “" + colLabels[c] + "”: " + matrix[r][c].toFixed(4);
    }
  });
  const wrap = document.createElement("div");
  wrap.className = "walk-map";
  wrap.append(canvas, readout);
  return wrap;
}
