// aiayn serve, the attention family in the studio (issue 45): the Music Transformer (Huang et al. 2018).
//   Chorale  POST /api/primers, /api/chorale   generate or continue a held-out chorale; its piano roll by voice
//                                              with the grade's marks, the grade beside Bach's; hear it (WebAudio)
//            POST /api/note_attention          a note's attention over every earlier token, drawn on the roll
//                                              (and another music model's, on the same notes, beside it)
//            POST /api/midi                    the MIDI file of what is on screen
//   Skewing  POST /api/skewing                 Q Eᵀ, padded, reshaped, sliced = S_rel, beside the naive S_rel
// family-images.js adds the Image Transformer, Bahdanau's alignment and the parse tree. Each view's paper is
// the <a class="family-paper"> of its section in index.html; its docs are docs/studio-family.md.
// Uses studio, S, t, say (studio.js) and api, state, fillSelect, colour (app.js).
"use strict";

const family = {};

(() => {
  const VOICE_COLOURS = ["#d1495b", "#e09f3e", "#00798c", "#30638e"];
  const music = {primers: null, piece: null, note: null, other: null, audio: null, cursor: null, skew: null};
  family.music = music;

  // The family's views come right after the translation views (beam, walk-through), so that a model of
  // another task opens on its own view; their paper link and docs page are their own.
  family.register = (views) => {
    for (const [name, view] of Object.entries(views)) {
      const link = document.querySelector("#studio-" + name + " a.family-paper");
      Object.assign(view, {family: true, page: "docs/studio-family.md", href: link ? link.href : undefined});
    }
    const entries = Object.entries(studio.views);
    let at = entries.findIndex(([name]) => name === "walk") + 1;
    while (at < entries.length && entries[at][1].family) at++;
    entries.splice(at, 0, ...Object.entries(views));
    for (const name of Object.keys(studio.views)) delete studio.views[name];
    for (const [name, view] of entries) studio.views[name] = view;
  };

  family.num = (x, digits) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits === undefined ? 2 : digits));
  family.range = (n) => Array.from({length: n}, (_, i) => [String(i + 1), i]);

  family.register({
    chorale: {paper: "paper.chorale", docs: "chorale", offered: (i) => i.views.includes("chorale"), noForm: true,
      onShow: showChorale, draw: drawChorale, reset: resetMusic},
    skewing: {paper: "paper.skewing", docs: "skewing", offered: (i) => i.views.includes("skewing"), noForm: true,
      onShow: showSkewing, draw: drawSkewing, reset: () => { music.skew = null; }},
  });

  document.addEventListener("DOMContentLoaded", () => {
    S("music-generate").addEventListener("click", generate);
    S("music-play").addEventListener("click", play);
    S("music-stop").addEventListener("click", stop);
    S("music-download").addEventListener("click", download);
    S("music-marks").addEventListener("change", drawChorale);
    S("music-roll").addEventListener("click", (event) => pickNote(event, S("music-roll")));
    for (const id of ["music-roll-a", "music-roll-b"]) S(id).addEventListener("click", (event) => pickNote(event, S(id)));
    S("music-position").addEventListener("change", () => noteAttention(Number(S("music-position").value)));
    for (const id of ["music-layer", "music-head", "music-compare"]) {
      S(id).addEventListener("change", () => music.note && noteAttention(music.note.position));
    }
    for (const id of ["skew-layer", "skew-head", "skew-window", "skew-end"]) S(id).addEventListener("change", runSkewing);
  });

  function resetMusic() {
    stop();
    Object.assign(music, {primers: null, piece: null, note: null, other: null, skew: null});
    for (const id of ["music-roll", "music-roll-a", "music-roll-b"]) S(id).dataset.state = "";
    S("music-a").hidden = S("music-b").hidden = true;
  }

  function notes(tokens) {  // the piece's pitch and rest tokens: cut at the first PAD, BOS or EOS
    const end = tokens.findIndex((x) => x < 3);
    return end < 0 ? tokens : tokens.slice(0, end);
  }

  // Chorale -----------------------------------------------------------------------------------------
  async function showChorale() {
    const info = studio.info, c = info.config || {};
    fillSelect(S("music-layer"), family.range(c.n_layers || 1), Math.min(Number(S("music-layer").value) || 0, (c.n_layers || 1) - 1));
    fillSelect(S("music-head"), family.range(c.n_heads || 1), Math.min(Number(S("music-head").value) || 0, (c.n_heads || 1) - 1));
    const others = state.models.filter((m) => m.task === "music" && m.name !== state.model);
    fillSelect(S("music-compare"), [[t("music.compare.none"), ""], ...others.map((m) => [m.name, m.name])], "");
    S("music-compare-wrap").hidden = !others.length;
    if (!music.primers) {
      try {
        music.primers = await api("/api/primers", {});
      } catch (err) {
        say(err.message, true);
        return;
      }
      const list = music.primers.primers.map((p) => [p.name, p.index]);
      fillSelect(S("music-primer"), [[t("music.primer.none"), ""], ...list], list.length ? 0 : "");
      S("music-missing").textContent = music.primers.missing ? t("music.missing") : "";
    }
    drawChorale();
  }

  async function generate() {
    stop();
    const primer = S("music-primer").value;
    say(t("status.working"));
    try {
      music.piece = await api("/api/chorale", {primer: primer === "" ? null : Number(primer),
        length: Number(S("music-length").value), temperature: Number(S("music-temperature").value),
        top_p: Number(S("music-top-p").value), seed: Number(S("music-seed").value)});
      music.note = music.other = music.skew = null;
      say("");
    } catch (err) {
      say(err.message, true);
      return;
    }
    drawChorale();
  }

  function drawChorale() {
    const piece = music.piece;
    S("music-after").hidden = !piece;
    if (!piece) return;
    const roll = piece.roll, g = piece.grade;
    S("music-summary").textContent = notes(piece.tokens).length + " " + t("music.tokens") + " · " + roll.steps + " " +
      t("music.sixteenths") + " · " + (piece.primer ? t("music.primer") + " " + piece.primer.name + " (" +
      piece.primer_length + ")" : t("music.primer.none")) + (piece.ended ? " · " + t("music.ended") : "");
    drawRoll(S("music-roll"), piece, {marks: S("music-marks").checked, cursor: music.cursor});
    S("music-position").max = String(notes(piece.tokens).length - 1);
    const counts = [g.parallels.length, g.crossings.length, g.out_of_range.length];
    S("music-marks-count").textContent = t("music.mark.parallel") + " " + counts[0] + " · " + t("music.mark.crossing") +
      " " + counts[1] + " · " + t("music.mark.range") + " " + counts[2];
    drawGrade(g);
    S("music-a").hidden = !music.note;
    S("music-b").hidden = !music.other;
    if (music.note) drawRoll(S("music-roll-a"), piece, {attention: music.note});
    if (music.other) drawRoll(S("music-roll-b"), piece, {attention: music.other});
    const describe = (a) => a.attention + " · " + a.positional + " · " + t("walk.layer") + " " + (a.layer + 1) + ", " +
      t("walk.head") + " " + (a.head + 1);
    S("music-note").textContent = music.note ? t("music.note.of") + " " + music.note.position + " (" + roll.voices[
      music.note.voice] + ", " + t("music.step") + " " + music.note.step + ") · " + describe(music.note) + " · BOS " +
      family.num(music.note.bos, 3) : t("music.note.pick");
    S("music-title-a").textContent = state.model + (music.note ? " · " + describe(music.note) : "");
    if (music.other) S("music-title-b").textContent = S("music-compare").value + " · " + describe(music.other);
  }

  // The roll's geometry: a column per sixteenth, a row per semitone (low pitches at the bottom).
  function geometry(roll) {
    const pitches = roll.notes.map((n) => n.pitch);
    const lo = Math.min(...pitches, 60) - 2, hi = Math.max(...pitches, 72) + 2;
    const step = Math.max(2, Math.min(12, Math.floor(1000 / Math.max(roll.steps, 1))));
    const row = hi - lo > 44 ? 4 : 6, left = 34, top = 16;
    return {lo, hi, step, row, left, top, width: left + roll.steps * step + 8, height: top + (hi - lo + 1) * row + 6,
      x: (s) => left + s * step, y: (p) => top + (hi - p) * row};
  }

  function voiceGrid(roll) {  // [voice][step] -> pitch, −1 for a rest
    const grid = [0, 1, 2, 3].map(() => new Array(roll.steps).fill(-1));
    for (const n of roll.notes) for (let s = n.start; s < n.end; s++) grid[n.voice][s] = n.pitch;
    return grid;
  }

  function drawRoll(canvas, piece, o) {
    const roll = piece.roll, g = geometry(roll);
    canvas.width = g.width;
    canvas.height = g.height;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, g.width, g.height);
    if (piece.primer_length) {
      ctx.fillStyle = "#e9edf5";
      ctx.fillRect(g.left, g.top, Math.ceil(piece.primer_length / 4) * g.step, g.height - g.top - 6);
    }
    ctx.font = "10px system-ui, 'DejaVu Sans', sans-serif";
    ctx.textBaseline = "middle";
    ctx.textAlign = "right";
    for (let p = g.lo; p <= g.hi; p++) {
      if (p % 12) continue;
      ctx.fillStyle = "#dde1ea";
      ctx.fillRect(g.left, g.y(p) + g.row - 1, roll.steps * g.step, 1);
      ctx.fillStyle = "#5c6577";
      ctx.fillText("C" + (p / 12 - 1), g.left - 4, g.y(p) + g.row / 2);
    }
    ctx.textAlign = "left";
    for (let s = 0; s < roll.steps; s += 16) {  // a 4/4 bar: 16 sixteenths
      ctx.fillStyle = "#c9ceda";
      ctx.fillRect(g.x(s), g.top, 1, g.height - g.top - 6);
      ctx.fillStyle = "#5c6577";
      ctx.fillText(String(s / 16 + 1), g.x(s) + 2, 7);
    }
    ctx.globalAlpha = o.attention ? 0.35 : 1;
    for (const n of roll.notes) {
      ctx.fillStyle = VOICE_COLOURS[n.voice];
      ctx.fillRect(g.x(n.start) + 0.5, g.y(n.pitch) + 0.5, (n.end - n.start) * g.step - 1, g.row - 1);
    }
    ctx.globalAlpha = 1;
    if (o.marks) drawMarks(ctx, g, piece);
    if (o.attention) drawNoteAttention(ctx, g, piece, o.attention);
    else for (const key of ["position", "heaviest"]) delete canvas.dataset[key];
    if (o.cursor !== null && o.cursor !== undefined) {
      ctx.fillStyle = "#d62728";
      ctx.fillRect(g.x(o.cursor), g.top - 4, 2, g.height - g.top);
    }
    Object.assign(canvas.dataset, {state: "drawn", notes: String(roll.notes.length), steps: String(roll.steps),
      left: String(g.left), top: String(g.top), step: String(g.step), row: String(g.row), hi: String(g.hi)});
  }

  // The grade's findings: a parallel 5th / 8ve joins the two voices' moves (t -> t + 1), a crossing shades the
  // sixteenths where a voice sounds above the one above it, a note out of its voice's range is outlined.
  function drawMarks(ctx, g, piece) {
    const marks = piece.grade, grid = voiceGrid(piece.roll), mid = (s, p) => [g.x(s) + g.step / 2, g.y(p) + g.row / 2];
    for (const c of marks.crossings) {
      const span = [];
      for (let s = c.start; s < c.end; s++) span.push(grid[c.voices[0]][s], grid[c.voices[1]][s]);
      const top = g.y(Math.max(...span)), bottom = g.y(Math.min(...span)) + g.row;
      ctx.fillStyle = "rgba(190, 0, 160, 0.18)";
      ctx.fillRect(g.x(c.start), top - 2, (c.end - c.start) * g.step, bottom - top + 4);
      ctx.strokeStyle = "rgba(190, 0, 160, 0.8)";
      ctx.strokeRect(g.x(c.start) + 0.5, top - 1.5, (c.end - c.start) * g.step - 1, bottom - top + 3);
    }
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = ctx.fillStyle = "#5a189a";
    ctx.textAlign = "center";
    for (const m of marks.parallels) {
      for (const v of m.voices) {
        const [x0, y0] = mid(m.step, grid[v][m.step]), [x1, y1] = mid(m.step + 1, grid[v][m.step + 1]);
        ctx.beginPath();
        ctx.moveTo(x0, y0);
        ctx.lineTo(x1, y1);
        ctx.stroke();
      }
      ctx.fillText(m.kind === "5ths" ? "5" : "8", g.x(m.step + 1), g.top - 8);
    }
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#111111";
    ctx.setLineDash([3, 2]);
    for (const n of marks.out_of_range) {
      ctx.strokeRect(g.x(n.start) - 0.5, g.y(n.pitch) - 1.5, (n.end - n.start) * g.step + 1, g.row + 3);
    }
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }

  // A note's attention: a dot on every earlier token's note, its area the weight (the peak fills a cell),
  // arcs to the eight heaviest; the query's note outlined in red.
  function drawNoteAttention(ctx, g, piece, att) {
    const roll = piece.roll, w = att.weights, peak = Math.max(...w, 1e-12);
    const centre = (k) => {
      const n = roll.token_note[k];
      const pitch = n === null ? g.hi : roll.notes[n].pitch;
      return [g.x(roll.token_step[k]) + g.step / 2, g.y(pitch) + g.row / 2];
    };
    const size = Math.max(g.step, g.row) * 1.4;
    w.forEach((x, k) => {
      if (x <= 0 || roll.token_note[k] === null) return;
      const [cx, cy] = centre(k);
      ctx.fillStyle = VOICE_COLOURS[roll.token_voice[k]];
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(1, (size / 2) * Math.sqrt(x / peak)), 0, 2 * Math.PI);
      ctx.fill();
    });
    const [qx, qy] = centre(att.position);
    const heaviest = w.map((x, k) => [x, k]).filter(([x]) => x > 0).sort((a, b) => b[0] - a[0]).slice(0, 8);
    ctx.strokeStyle = "rgba(214, 39, 40, 0.75)";
    for (const [x, k] of heaviest) {
      const [cx, cy] = centre(k);
      ctx.lineWidth = 0.6 + 3 * (x / peak);
      ctx.beginPath();
      ctx.moveTo(qx, qy);
      ctx.quadraticCurveTo((qx + cx) / 2, Math.max(2, Math.min(qy, cy) - 20 - Math.abs(qx - cx) / 6), cx, cy);
      ctx.stroke();
    }
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#d62728";
    ctx.strokeRect(qx - g.step / 2 - 2, qy - g.row / 2 - 2, g.step + 4, g.row + 4);
    ctx.lineWidth = 1;
    Object.assign(ctx.canvas.dataset, {position: String(att.position), heaviest: heaviest.map(([, k]) => k).join(",")});
  }

  function drawGrade(g) {
    const table = S("music-grade");
    table.replaceChildren();
    const head = document.createElement("tr");
    for (const text of ["", t("music.grade.piece"), t("music.grade.bach")]) {
      const th = document.createElement("th");
      th.textContent = text;
      head.append(th);
    }
    table.append(head);
    const keys = Object.keys(g.labels).filter((k) => !k.startsWith("w_") && k !== "sixteenths");
    if (!keys.length) keys.push("sixteenths");
    for (const key of keys) {
      const tr = document.createElement("tr");
      tr.dataset.key = key;
      const label = t("grade." + key);
      for (const text of [label === "grade." + key ? g.labels[key] : label, family.num(g.grade[key]),
        g.bach && g.bach[key] !== undefined ? family.num(g.bach[key]) : "–"]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      table.append(tr);
    }
    S("music-grade-note").textContent = g.bach ? t("music.grade.bachnote") : t("music.grade.nobach");
  }

  // A click on the roll picks the note under it (the token of that voice at that sixteenth).
  function pickNote(event, canvas) {
    const piece = music.piece;
    if (!piece) return;
    const box = canvas.getBoundingClientRect(), d = canvas.dataset, g = geometry(piece.roll);
    const x = event.clientX - box.left, y = event.clientY - box.top;
    const step = Math.floor((x - Number(d.left)) / g.step), pitch = g.hi - Math.floor((y - g.top) / g.row);
    const hit = piece.roll.notes.find((n) => n.start <= step && step < n.end && Math.abs(n.pitch - pitch) <= 1);
    if (!hit) return;
    const position = 4 * step + hit.voice;
    if (position < notes(piece.tokens).length) noteAttention(position);
  }

  async function noteAttention(position) {
    const piece = music.piece;
    if (!piece || !(position >= 0)) return;
    S("music-position").value = String(position);
    const body = {tokens: notes(piece.tokens), position, layer: Number(S("music-layer").value),
      head: Number(S("music-head").value)};
    const other = S("music-compare").value;
    try {
      music.note = await api("/api/note_attention", body);
      const size = ((state.models.find((m) => m.name === other) || {}).config) || {};  // the other's own layers, heads
      music.other = other ? await api("/api/note_attention", Object.assign({model: other}, body, {
        layer: Math.min(body.layer, (size.n_layers || 1) - 1), head: Math.min(body.head, (size.n_heads || 1) - 1)}))
        : null;
    } catch (err) {
      say(err.message, true);
      return;
    }
    drawChorale();
  }

  // Play: a small WebAudio synthesiser, one oscillator per note with an envelope; a cursor moves on the roll.
  function play() {
    stop();
    const piece = music.piece;
    if (!piece) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    const ctx = new Context(), sps = piece.roll.seconds_per_step, t0 = ctx.currentTime + 0.15;
    const master = ctx.createGain();
    master.gain.value = 0.16;
    master.connect(ctx.destination);
    const waves = ["triangle", "triangle", "sine", "triangle"];
    for (const n of piece.roll.notes) {
      const start = t0 + n.start * sps, end = t0 + n.end * sps;
      const osc = ctx.createOscillator(), env = ctx.createGain();
      osc.type = waves[n.voice];
      osc.frequency.value = 440 * 2 ** ((n.pitch - 69) / 12);
      env.gain.setValueAtTime(0, start);
      env.gain.linearRampToValueAtTime(1, start + 0.01);
      env.gain.linearRampToValueAtTime(0.6, start + Math.min(0.1, (end - start) / 2));
      env.gain.setValueAtTime(0.6, end - 0.02);
      env.gain.linearRampToValueAtTime(0, end);
      osc.connect(env).connect(master);
      osc.start(start);
      osc.stop(end + 0.02);
    }
    if (ctx.state === "suspended") ctx.resume();
    music.audio = {ctx, t0, sps, steps: piece.roll.steps};
    S("music-roll").dataset.playing = "yes";
    requestAnimationFrame(tick);
  }

  function tick() {
    const a = music.audio;
    if (!a) return;
    const step = (a.ctx.currentTime - a.t0) / a.sps;
    if (step > a.steps) { stop(); return; }
    music.cursor = Math.max(0, step);
    drawRoll(S("music-roll"), music.piece, {marks: S("music-marks").checked, cursor: music.cursor});
    S("music-roll").dataset.cursor = String(Math.floor(music.cursor));
    requestAnimationFrame(tick);
  }

  function stop() {
    if (music.audio) music.audio.ctx.close();
    music.audio = null;
    music.cursor = null;
    S("music-roll").dataset.playing = "no";
    if (music.piece) drawRoll(S("music-roll"), music.piece, {marks: S("music-marks").checked});
  }

  async function download() {
    const piece = music.piece;
    if (!piece) return;
    const response = await fetch("/api/midi", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({model: state.model, tokens: notes(piece.tokens)})});
    if (!response.ok) {
      say(((await response.json().catch(() => null)) || {}).error || "the server answered " + response.status, true);
      return;
    }
    const url = URL.createObjectURL(await response.blob()), a = document.createElement("a");
    a.href = url;
    a.download = (piece.primer ? piece.primer.name + "-" : "") + "chorale-seed" + piece.seed + ".mid";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000);
  }

  // Skewing ------------------------------------------------------------------------------------------
  async function showSkewing() {
    const c = studio.info.config || {};
    fillSelect(S("skew-layer"), family.range(c.n_layers || 1), Math.min(Number(S("skew-layer").value) || 0, (c.n_layers || 1) - 1));
    fillSelect(S("skew-head"), family.range(c.n_heads || 1), Math.min(Number(S("skew-head").value) || 0, (c.n_heads || 1) - 1));
    if (!music.piece) {  // no piece yet: Bach's first held-out chorale, continued a little
      try {
        if (!music.primers) music.primers = await api("/api/primers", {});
        music.piece = await api("/api/chorale", {primer: music.primers.primers.length ? 0 : null, length: 16});
      } catch (err) {
        say(err.message, true);
        return;
      }
    }
    const n = notes(music.piece.tokens).length;
    S("skew-end").max = String(n - 1);
    if (!S("skew-end").value || Number(S("skew-end").value) > n - 1) S("skew-end").value = String(Math.min(n - 1, 23));
    runSkewing();
  }

  async function runSkewing() {
    if (!music.piece || studio.tab !== "skewing") return;
    try {
      music.skew = await api("/api/skewing", {tokens: notes(music.piece.tokens), layer: Number(S("skew-layer").value),
        head: Number(S("skew-head").value), window: Number(S("skew-window").value), end: Number(S("skew-end").value)});
    } catch (err) {
      say(err.message, true);
      return;
    }
    say("");
    drawSkewing();
  }

  function drawSkewing() {
    const s = music.skew;
    if (!s) return;
    const w = s.window, keys = s.tokens.map((k) => (k < 0 ? "BOS" : String(k)));
    const dist = s.distances.map((d) => (d === 0 ? "0" : "−" + -d));
    let worst = 0;
    s.mask.forEach((row, i) => row.forEach((ok, j) => {
      if (ok) worst = Math.max(worst, Math.abs(s.s_rel[i][j] - s.naive[i][j]));
    }));
    S("skew-numbers").textContent = t("skew.window") + " " + w + " · D " + s.q[0].length + " · k " + s.k + " · " +
      t("skew.rows") + " " + keys[0] + "…" + keys[w - 1] + " · max |S_rel − " + t("skew.naive") + "| = " +
      worst.toExponential(1) + (worst < 1e-9 ? " ✓" : " ✗");
    S("skew-numbers").dataset.worst = String(worst);
    const blank = (n) => new Array(n).fill("");
    const steps = [
      ["skew.qe", s.qe, keys, dist, null],
      ["skew.padded", s.padded, keys, ["0", ...dist], null],
      ["skew.reshaped", s.reshaped, blank(w + 1), blank(w), null],
      ["skew.sliced", s.sliced, keys, keys, s.mask],
      ["skew.srel", s.s_rel, keys, keys, s.mask],
      ["skew.naive.title", s.naive, keys, keys, s.mask],
    ];
    const box = S("skew-steps");
    box.replaceChildren();
    for (const [key, matrix, rows, cols, mask] of steps) {
      const figure = document.createElement("figure");
      figure.className = "skew-step";
      figure.dataset.key = key;
      const caption = document.createElement("figcaption");
      caption.className = "small";
      caption.textContent = t(key) + " (" + matrix.length + " × " + matrix[0].length + ")";
      figure.append(caption, matrixTable(matrix, rows, cols, mask));
      box.append(figure);
    }
  }

  // A small matrix as a table of its numbers on a blue–white–red scale; masked cells (above the diagonal)
  // greyed: the garbage the slice leaves there, or nothing (null) where it is masked.
  function matrixTable(matrix, rows, cols, mask) {
    const table = document.createElement("table");
    table.className = "matrix";
    let peak = 1e-12;
    matrix.forEach((row, i) => row.forEach((v, j) => {
      if (v !== null && (!mask || mask[i][j])) peak = Math.max(peak, Math.abs(v));
    }));
    const head = document.createElement("tr");
    for (const c of ["", ...cols]) {
      const th = document.createElement("th");
      th.textContent = c;
      head.append(th);
    }
    table.append(head);
    matrix.forEach((row, i) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = rows[i];
      tr.append(th);
      row.forEach((v, j) => {
        const td = document.createElement("td");
        const hidden = mask && !mask[i][j];
        td.textContent = v === null ? "·" : v.toFixed(2);
        td.title = v === null ? "" : String(v);
        if (hidden) td.className = "masked";
        else if (v !== null) {
          const a = Math.min(1, Math.abs(v) / peak);
          td.style.background = v >= 0 ? "rgba(214, 39, 40, " + (0.75 * a) + ")" : "rgba(47, 91, 211, " + (0.75 * a) + ")";
        }
        tr.append(td);
      });
      table.append(tr);
    });
    return table;
  }
})();
