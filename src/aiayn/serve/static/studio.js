// aiayn serve, the studio (issue 44): views over the real computation, drawn from the JSON API.
//   Beam search  POST /api/beam         the search's own trace, one step at a time
//   Walk-through POST /api/walkthrough  one forward pass read by hooks, in the paper's order
// Labels come from locales/en.json and locales/ko.json (the language switch); user text only goes into
// textContent. Uses api() and colour() from app.js, loaded first.
"use strict";

const studio = {lang: "en", words: {}, tab: "beam", beam: null, step: 0, walk: null, head: 0};
const S = (id) => document.getElementById(id);

document.addEventListener("DOMContentLoaded", () => {
  S("studio-lang").addEventListener("change", () => setLanguage(S("studio-lang").value));
  for (const tab of ["beam", "walk"]) {
    S("studio-tab-" + tab).addEventListener("click", () => chooseTab(tab));
  }
  S("studio-form").addEventListener("submit", (event) => { event.preventDefault(); runStudio(); });
  S("beam-prev").addEventListener("click", () => showStep(studio.step - 1));
  S("beam-next").addEventListener("click", () => showStep(studio.step + 1));
  S("walk-head").addEventListener("change", () => { studio.head = Number(S("walk-head").value); drawWalk(); });
  setLanguage(navigator.language && navigator.language.startsWith("ko") ? "ko" : "en");
});

async function setLanguage(lang) {
  studio.lang = lang;
  S("studio-lang").value = lang;
  studio.words = await api("/static/locales/" + lang + ".json");
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  if (studio.beam) showStep(studio.step);
  if (studio.walk) drawWalk();
}

function t(key) { return studio.words[key] || key; }

function chooseTab(tab) {
  studio.tab = tab;
  for (const name of ["beam", "walk"]) {
    S("studio-tab-" + name).setAttribute("aria-pressed", String(name === tab));
    S("studio-" + name).hidden = name !== tab || !(name === "beam" ? studio.beam : studio.walk);
  }
}

function say(text, isError) {
  S("studio-status").textContent = text;
  S("studio-status").className = isError ? "error" : "";
}

async function runStudio() {
  const text = S("studio-text").value.trim();
  if (!text) { say(t("status.empty"), true); return; }
  say(t("status.working"));
  const beam = Number(S("studio-beam-size").value);
  try {
    if (studio.tab === "beam") {
      studio.beam = await api("/api/beam", {text, beam: Math.max(2, beam)});
      showStep(0);
    } else {
      studio.walk = await api("/api/walkthrough", {text, beam, layer: Number(S("walk-layer").value)});
      studio.head = 0;
      drawWalk();
    }
    say("");
    chooseTab(studio.tab);
  } catch (err) {
    say(err.message, true);
  }
}

// Beam search -------------------------------------------------------------------------------------
function showStep(index) {
  const trace = studio.beam;
  studio.step = Math.max(0, Math.min(index, trace.steps.length - 1));
  const step = trace.steps[studio.step];
  S("beam-position").textContent = t("beam.step") + " " + (studio.step + 1) + " " + t("beam.of") + " " +
    trace.steps.length + " · " + t("beam.penalty") + " " + step.length_penalty.toFixed(3);
  S("beam-prev").disabled = studio.step === 0;
  S("beam-next").disabled = studio.step === trace.steps.length - 1;
  const live = S("beam-live");
  live.replaceChildren();
  step.beams.forEach((b) => {
    const li = document.createElement("li");
    li.textContent = (b.pieces.join(" ") || "⟨BOS⟩") + "   log P " + fmt(b.log_prob);
    live.appendChild(li);
  });
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
  const best = S("beam-nbest");
  best.replaceChildren();
  for (const h of trace.nbest) {
    const li = document.createElement("li");
    li.textContent = h.text + "   (" + fmt(h.score) + ")";
    best.appendChild(li);
  }
}

function fmt(x) { return x === null || x === undefined ? "−∞" : x.toFixed(3); }

// Walk-through ------------------------------------------------------------------------------------
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
  const next = S("walk-next");
  next.replaceChildren();
  for (const n of walk.next) {
    const li = document.createElement("li");
    li.textContent = n.piece + "   p = " + n.p.toFixed(4);
    next.appendChild(li);
  }
  S("walk-sentence").textContent = walk.source + " → " + walk.translation;
}

// A small heat map of a matrix (rows x columns), each cell its value on the matrix's own range;
// pointing at a cell writes its row, column and value beside the map.
function heatmap(matrix) {
  const rows = matrix.length, cols = matrix[0].length;
  const cell = Math.max(1, Math.min(12, Math.floor(560 / cols)));
  const canvas = document.createElement("canvas");
  canvas.width = cols * cell;
  canvas.height = rows * Math.max(cell, 3);
  const rowH = canvas.height / rows;
  const ctx = canvas.getContext("2d");
  let lo = Infinity, hi = -Infinity;
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
    if (r >= 0 && r < rows && c >= 0 && c < cols) readout.textContent = "[" + r + ", " + c + "] = " + matrix[r][c];
  });
  const wrap = document.createElement("div");
  wrap.className = "walk-map";
  wrap.append(canvas, readout);
  return wrap;
}
