// riskevo's page, the story of the game: every log line's event (the server parses the
// transcript; the page only draws) as arrows and dice on the board, the summary at the start of
// the person's turn, and a linear bot's explanation of a move.
"use strict";

// The events of the turn being shown: a new acting seat starts a new list.
const story = { seat: -2, events: [] };

function storyReset() { story.seat = -2; story.events = []; drawEvents([]); }

function storyAdd(e) {
  const ev = e.ev;
  if (!ev || ev.seat < 0 || ev.kind === "card") return;
  if (ev.seat !== story.seat) { story.seat = ev.seat; story.events = []; }
  story.events.push(ev);
}

function seatName(seat) {
  if (app.replay) return app.replay.labels[seat] || `seat ${seat}`;
  const s = app.state;
  if (!s) return `seat ${seat}`;
  return seat === s.human ? "you" : s.players[seat].label;
}

function centre(t) { return xy(app.map.positions[t]); }

function arrow(src, dst, cls, layer) {
  const [x1, y1] = centre(src), [x2, y2] = centre(dst);
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  if (Math.abs(dx) > W / 2) { // across the map's edge: a short stub out of the source
    const dir = dx > 0 ? -1 : 1;
    return el("line", { class: `arrow ${cls}`, x1, y1, x2: x1 + dir * 40, y2: y1, "marker-end": `url(#head-${cls})` }, layer);
  }
  const cut = 19 / len; // from disc edge to disc edge
  return el("line", {
    class: `arrow ${cls}`, x1: x1 + dx * cut, y1: y1 + dy * cut, x2: x2 - dx * cut, y2: y2 - dy * cut,
    "marker-end": `url(#head-${cls})`,
  }, layer);
}

function diceAt(ev, layer) {
  const [x1, y1] = centre(ev.src), [x2, y2] = centre(ev.dst);
  const mx = Math.abs(x2 - x1) > W / 2 ? x1 : (x1 + x2) / 2, my = (Math.abs(x2 - x1) > W / 2 ? y1 : (y1 + y2) / 2) - 14;
  const g = el("g", { class: "roll", "data-src": ev.src, "data-dst": ev.dst }, layer);
  const all = [...ev.att.map((d) => ["a", d]), ["sep", "v"], ...ev.dfn.map((d) => ["d", d])];
  let x = mx - (all.length * 15) / 2;
  for (const [k, d] of all) {
    if (k !== "sep") {
      el("rect", { class: `die ${k}`, x, y: my - 7, width: 14, height: 14, rx: 3 }, g);
    }
    const t = el("text", { class: `die-n ${k}`, x: x + 7, y: my }, g);
    t.textContent = d;
    x += 15;
  }
  return g;
}

// Draw a turn's events: attacks as red arrows (the last one with its dice, attacker red and
// defender blue), conquests ringed, move-ins and fortifies as green arrows with their counts.
function drawEvents(events) {
  const layer = $("overlay");
  if (!layer) return;
  layer.innerHTML = "";
  let lastAttack = null;
  const seen = new Set();
  for (const ev of events) {
    if (ev.kind === "attack") {
      const key = `${ev.src}-${ev.dst}`;
      if (!seen.has(key)) { arrow(ev.src, ev.dst, "attack", layer).setAttribute("data-pair", key); seen.add(key); }
      if (ev.conquered) {
        const [x, y] = centre(ev.dst);
        el("circle", { class: "conquered", cx: x, cy: y, r: 23, "data-t": ev.dst }, layer);
      }
      lastAttack = ev;
    } else if (ev.kind === "move" || ev.kind === "fortify") {
      arrow(ev.src, ev.dst, "move", layer);
      const [x, y] = centre(ev.dst);
      el("text", { class: "count", x: x + 20, y: y - 16 }, layer).textContent = `+${ev.count}`;
    } else if (ev.kind === "place") {
      const [x, y] = centre(ev.dst);
      el("text", { class: "count place", x: x - 20, y: y - 16 }, layer).textContent = `+${ev.count}`;
    }
  }
  if (lastAttack) diceAt(lastAttack, layer);
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
  const box = $("summary");
  if (!sum) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = "<h2>Since your last turn</h2><ul>" + sum.lines.map((l) => `<li>${esc(l)}</li>`).join("") + "</ul>";
}

// ---- explanations --------------------------------------------------------------------------
function explainable(seat) {
  const ex = (app.config && app.config.explainers) || [];
  if (app.replay) return seat >= 0 && ex.length > 0 && (app.replayGame ? ex.includes(app.replay.labels[seat]) : true);
  const s = app.state;
  return s && seat >= 0 && seat !== s.human && ex.includes(s.players[seat].label);
}

async function explainLine(line) {
  const path = app.replay && !app.replayGame ? `/api/replay/explain?line=${line}`
    : `/api/games/${app.replayGame || app.gameId}/explain?line=${line}`;
  await showExplanation(path);
}

async function showExplanation(path) {
  const box = $("explain");
  box.hidden = false;
  $("explain-text").textContent = "thinking… (the first explanation compiles, about a minute)";
  try {
    const r = await api("GET", path);
    $("explain-title").textContent = r.line ? `${r.bot} on line ${r.line} (${r.played})` : `What ${r.bot} would do`;
    $("explain-text").textContent = r.text;
  } catch (e) {
    $("explain-title").textContent = "No explanation";
    $("explain-text").textContent = e.message;
  }
}
