// riskevo's page, the story of the game: every log line's event (the server parses the
// transcript; the page only draws) as arrows and dice on the board, every turn since the
// person's last one in its seat's colour, the summary at the start of the person's turn, and a
// linear bot's explanation of a move.
"use strict";

// The turns drawn: every turn since the person's own (the round just played), each a seat and
// its events; `view` is the one turn shown alone (null: all of them).
const story = { turns: [], view: null };

function storyReset() { story.turns = []; story.view = null; drawEvents([]); }

function storyAdd(e, human) {
  const ev = e.ev;
  if (!ev || ev.seat < 0 || ev.kind === "card") return;
  const last = story.turns[story.turns.length - 1];
  if (!last || last.seat !== ev.seat) {
    // A bot starting after the person: the round drawn so far is over. With the person out
    // of the game (or watching), a seat's next turn ends the round it began: only the latest
    // round stays drawn, not every turn since the person's last.
    if (last && last.seat === human) story.turns = [];
    const again = story.turns.findIndex((t) => t.seat === ev.seat);
    if (again >= 0) story.turns = story.turns.slice(again + 1);
    story.turns.push({ seat: ev.seat, events: [] });
    story.view = null;
  }
  story.turns[story.turns.length - 1].events.push(ev);
}

function shownTurns() { return story.view === null ? story.turns : [story.turns[story.view]]; }

function seatName(seat) {
  if (app.replay) return app.replay.labels[seat] || `seat ${seat}`;
  const s = app.state;
  if (!s) return `seat ${seat}`;
  return seat === s.human ? "you" : s.players[seat].label;
}

function centre(t) { return xy(app.map.positions[t]); }

// An arrow from disc edge to disc edge, moved sideways by `side` units so that an attack and
// the move-in after it lie beside each other; a dark casing under it keeps it visible on land
// of its own colour (the territory it just took).
function arrow(src, dst, cls, seat, side, layer) {
  const [x1, y1] = centre(src), [x2, y2] = centre(dst);
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const head = `url(#head-${cls}-${seat % 6})`, colour = COLOURS[seat % 6];
  let at;
  if (Math.abs(dx) > W / 2) { // across the map's edge: a short stub out of the source
    const dir = dx > 0 ? -1 : 1;
    at = { x1, y1: y1 + side, x2: x1 + dir * 40, y2: y1 + side };
  } else {
    const cut = (ARMY_R + 3) / len, nx = -dy / len * side, ny = dx / len * side;
    at = { x1: x1 + dx * cut + nx, y1: y1 + dy * cut + ny, x2: x2 - dx * cut + nx, y2: y2 - dy * cut + ny };
  }
  el("line", { class: `arrow-casing ${cls}`, ...at }, layer);
  return el("line", { class: `arrow ${cls}`, stroke: colour, ...at, "marker-end": head, "data-seat": seat }, layer);
}

// The boxes of the names and continent labels on the board: nothing drawn may cover them.
function nameBoxes() {
  return [...document.querySelectorAll("#labels text")].map((t) => { const b = t.getBBox(); return box(b.x, b.y, b.width, b.height); });
}

// A count ("+8") beside the disc at (cx, cy), on the `side` first (1 right, -1 left), moved up
// or down to the first spot that overlaps no count drawn before it (`taken`, this drawing's
// boxes: two counts on one territory never read as one number) and no name (`names`). Where
// every spot clear of the counts covers a name, the count is faded so the name reads through.
function countAt(layer, taken, names, cx, cy, side, attrs, text) {
  const t = el("text", { class: "count", ...attrs, x: 0, y: 0, "text-anchor": "start" }, layer);
  t.textContent = text;
  // Measured once at the start of (0, 0), each spot's box follows from it: a getBBox a spot
  // laid the page out again at every try.
  const m = t.getBBox();
  const at = (s, dy) => {
    t.setAttribute("x", cx + s * (ARMY_R + 2)); t.setAttribute("y", cy - ARMY_R + dy);
    t.setAttribute("text-anchor", s > 0 ? "start" : "end");
  };
  const spots = [];
  for (const s of [side, -side]) for (const dy of [0, -15, 15, -30, 30, -45, 45]) spots.push([s, dy]);
  let fallback = null;
  for (const [s, dy] of spots) {
    const x = cx + s * (ARMY_R + 2) + m.x - (s > 0 ? 0 : m.width), y = cy - ARMY_R + dy + m.y;
    // A margin: text measures a little differently at each window size.
    const bb = box(x - 3, y - 1, m.width + 6, m.height + 2);
    if (taken.some((q) => overlap(q, bb))) continue;
    if (!names.some((q) => overlap(q, bb))) { at(s, dy); taken.push(bb); return t; }
    if (!fallback) fallback = [s, dy, bb];
  }
  const [s, dy, bb] = fallback || [side, 45, null];
  at(s, dy);
  t.classList.add("faded");
  if (bb) taken.push(bb);
  return t;
}

// The dice of the last attack beside its arrow, where they cover the fewest names.
function diceAt(ev, layer, names) {
  const [x1, y1] = centre(ev.src), [x2, y2] = centre(ev.dst);
  const across = Math.abs(x2 - x1) > W / 2;
  const n = ev.att.length + ev.dfn.length + 1, w = n * 15;
  const mx = across ? x1 : (x1 + x2) / 2, my = across ? y1 : (y1 + y2) / 2;
  let best = null, bestHits = Infinity;
  const spots = [[0, -22], [0, 22], [w / 2 + 14, 0], [-w / 2 - 14, 0], [0, -40], [0, 40],
    [w / 2 + 14, -22], [-w / 2 - 14, -22], [w / 2 + 14, 22], [-w / 2 - 14, 22], [0, -58], [0, 58],
    [w + 20, 0], [-w - 20, 0], [w / 2 + 14, -44], [-w / 2 - 14, -44], [w / 2 + 14, 44], [-w / 2 - 14, 44]];
  for (const [ox, oy] of spots) {
    const b = box(mx + ox - w / 2 - 2, my + oy - 9, w + 4, 18);
    if (b.x < 0 || b.x + b.w > W || b.y < 0 || b.y + b.h > H) continue;
    const hits = names.filter((q) => overlap(q, b)).length;
    if (hits < bestHits) { best = [mx + ox, my + oy]; bestHits = hits; }
    if (!hits) break;
  }
  const [cx, cy] = best || [mx, my - 22];
  // Where every spot covers a name, the dice are faded so the name reads through.
  const g = el("g", { class: bestHits ? "roll faded" : "roll", "data-src": ev.src, "data-dst": ev.dst }, layer);
  el("rect", { class: "roll-bg", x: cx - w / 2 - 2, y: cy - 9, width: w + 4, height: 18, rx: 4 }, g);
  const all = [...ev.att.map((d) => ["a", d]), ["sep", "v"], ...ev.dfn.map((d) => ["d", d])];
  let x = cx - w / 2;
  for (const [k, d] of all) {
    if (k !== "sep") el("rect", { class: `die ${k}`, x, y: cy - 7, width: 14, height: 14, rx: 3 }, g);
    el("text", { class: `die-n ${k}`, x: x + 7, y: cy }, g).textContent = d;
    x += 15;
  }
  return g;
}

// Draw turns: each seat's attacks as solid arrows in its colour (the last attack with its dice,
// attacker red and defender blue), conquests ringed, move-ins and fortifies as dashed arrows
// beside them with their counts, placements summed per territory.
function drawEvents(turns) {
  const layer = $("overlay");
  if (!layer) return;
  layer.innerHTML = "";
  let lastAttack = null;
  const counts = [], names = nameBoxes();
  for (const turn of turns) {
    const seen = new Set(), placed = new Map(), moved = new Map();
    for (const ev of turn.events) {
      if (ev.kind === "attack") {
        const key = `${ev.src}-${ev.dst}`;
        if (!seen.has(key)) { arrow(ev.src, ev.dst, "attack", turn.seat, -4, layer).setAttribute("data-pair", key); seen.add(key); }
        if (ev.conquered) {
          const [x, y] = centre(ev.dst);
          el("circle", { class: "conquered", cx: x, cy: y, r: ARMY_R + 5, stroke: COLOURS[turn.seat % 6], "data-t": ev.dst }, layer);
        }
        lastAttack = ev;
      } else if (ev.kind === "move" || ev.kind === "fortify") {
        const key = `${ev.src}-${ev.dst}`;
        if (!moved.has(key)) arrow(ev.src, ev.dst, "move", turn.seat, 4, layer).setAttribute("data-pair", key);
        moved.set(key, (moved.get(key) || 0) + ev.count);
      } else if (ev.kind === "place") {
        placed.set(ev.dst, (placed.get(ev.dst) || 0) + ev.count);
      }
    }
    for (const [key, n] of moved) {
      const dst = +key.split("-")[1], [x, y] = centre(dst);
      countAt(layer, counts, names, x, y, 1, { fill: COLOURS[turn.seat % 6], "data-pair": key }, `+${n}`);
    }
    for (const [t, n] of placed) {
      const [x, y] = centre(t);
      countAt(layer, counts, names, x, y, -1, { class: "count place", fill: COLOURS[turn.seat % 6], "data-t": t, "data-seat": turn.seat }, `+${n}`);
    }
  }
  if (lastAttack) diceAt(lastAttack, layer, names);
  roundBar();
}

// The round just played, turn by turn: `<` and `>` show one turn alone, "all" every turn.
function roundBar() {
  const bar = $("round-bar");
  if (!bar) return;
  const n = story.turns.length;
  bar.hidden = app.replay || n < 2;
  if (bar.hidden) return;
  const k = story.view;
  $("round-text").textContent = k === null ? `showing all ${n} turns since yours`
    : `showing ${seatName(story.turns[k].seat)}'s turn (${k + 1} of ${n})`;
}

function roundStep(dir) {
  const n = story.turns.length;
  if (!n) return;
  if (dir === 0) story.view = null;
  else if (story.view === null) story.view = dir < 0 ? n - 1 : 0;
  else story.view = Math.max(0, Math.min(n - 1, story.view + dir));
  drawEvents(shownTurns());
}

// Announcements that do not fit an arrow: trades and eliminations, in the "news" line.
function announce(ev) {
  if (!ev) return;
  const box = $("news");
  if (ev.kind === "trade") box.textContent = `${seatName(ev.seat)} traded cards for ${ev.armies} armies`;
  else if (ev.kind === "eliminate") box.textContent = `${seatName(ev.seat)} eliminated ${seatName(ev.victim)}!`;
  else if (ev.kind === "attack" && ev.conquered) box.textContent = `${seatName(ev.seat)} conquered ${name(ev.dst)} from ${seatName(ev.defender)}`;
}

function showSummary(sum) {
  const box = $("summary-text");
  if (!sum) { $("summary").hidden = true; return; }
  $("summary").hidden = false;
  box.innerHTML = "<h2>Since your last turn</h2><ul>" + sum.lines.map((l) => `<li>${esc(l)}</li>`).join("") + "</ul>";
}

// ---- explanations --------------------------------------------------------------------------
// A seat's why? shows only when the server offers a bot of that seat's label that explains.
function explainable(seat) {
  const ex = (app.config && app.config.explainers) || [];
  if (seat < 0) return false;
  if (app.replay) return ex.includes(app.replay.labels[seat]);
  const s = app.state;
  return !!s && seat !== s.human && ex.includes(s.players[seat].label);
}

async function explainLine(line) {
  const path = app.replay && !app.replayGame ? `/api/replay/explain?line=${line}`
    : `/api/games/${app.replayGame || app.gameId}/explain?line=${line}`;
  await showExplanation(path, `line ${line}`);
}

// Where an explanation was asked: the live game's log length, or the replay's frame. When the
// position moves on (a bot's move, the person's, a step of the replay), the panel and its
// highlight go; the bots wait while one is open, so it can be read (Step moves on).
function position() { return app.replay ? `frame ${app.frame}` : `line ${app.logNext}`; }
function explaining() { return !$("explain").hidden; }
function clearExplanation() {
  app.explainSeq++; // a reply still on its way is dropped
  $("explain").hidden = true;
  markExplained([]);
}
function explanationStale() {
  if (!explaining()) return;
  if (app.explainAt === null) app.explainAt = position(); // asked while bots' moves were on their way
  else if (app.explainAt !== position()) clearExplanation();
}

async function showExplanation(path, what) {
  const box = $("explain"), seq = ++app.explainSeq;
  app.explainAt = app.advancing ? null : position();
  clearTimeout(app.timer);
  box.hidden = false;
  if (app.state && !app.replay) renderDecision(app.state);
  $("explain-title").textContent = `Explaining ${what}…`;
  $("explain-plain").textContent = "thinking… (a few seconds)";
  $("explain-text").textContent = "";
  markExplained([]);
  try {
    const r = await api("GET", path);
    if (seq !== app.explainSeq) return; // a later why? was asked meanwhile
    $("explain-title").textContent = r.line ? `${r.bot} on line ${r.line} (${r.played})` : `What ${r.bot} would do`;
    $("explain-plain").textContent = r.plain;
    $("explain-text").textContent = r.text;
    markExplained(r.highlight || []);
  } catch (e) {
    if (seq !== app.explainSeq) return;
    $("explain-title").textContent = "No explanation";
    $("explain-plain").textContent = e.message;
  }
}

function markExplained(ts) {
  document.querySelectorAll(".territory.explained").forEach((g) => g.classList.remove("explained"));
  for (const t of ts) $(`t-${t}`).classList.add("explained");
}
