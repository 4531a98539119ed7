// riskevo's page, the live game: the one door to the server (`api`), a game's state drawn as
// it arrives (board, players, log, banner), the bots' pace, a game joined by its address. The
// server referees every action with the rule kernel; the page never decides what is legal.
// The other scripts: board.js (the board), story.js (turns drawn, explanations), people.js
// (seats for people), controls.js (the person's decision), setup.js (the new-game form),
// replay.js (replays). Plain scripts sharing one scope, loaded in that order, this one last.
"use strict";

const $ = (id) => document.getElementById(id);

const app = {
  config: null, map: null, gameId: null, state: null, logNext: 0,
  selected: null, target: null, busy: false, timer: null,
  replay: null, frame: 0, playing: null, paused: false, summary: null, replayGame: null,
  oddsSeq: 0, explainSeq: 0, explainAt: null, advancing: 0, drawn: null,
};
window.riskevo = app; // for the browser test and the curious

const NO_SERVER = "The game server cannot be reached: is `arena web` (make play) still running? " +
  "Start it again; your game resumes where it was.";

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  for (let tries = 0; ; tries++) {
    let r;
    try {
      r = await fetch(authQuery(path), opts);
    } catch (e) {  // the browser's "Failed to fetch": no answer at all
      throw new Error(NO_SERVER);
    }
    const data = await r.json();
    // A game the restarted server is still playing on answers "resuming": ask again shortly.
    if (r.status === 503 && String(data.error).startsWith("resuming") && tries < 120) {
      await new Promise((ok) => setTimeout(ok, 1000));
      continue;
    }
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
}

function name(t) { return app.map.territories[t]; }
function swatch(seat) { return `<span class="swatch" style="background:${COLOURS[seat % 6]}"></span>`; }
function esc(s) { const d = document.createElement("div"); d.textContent = String(s); return d.innerHTML; }

// ---- a live game -----------------------------------------------------------------------
function render(s) {
  // Two requests in flight (a scheduled advance and a Skip, say) can answer out of order: an
  // older board is dropped, and a log line already shown is never added twice.
  if (app.state && s.log_next < app.logNext) return;
  if (hotseatTurn(s)) s = Object.assign({}, s, { decision: null, hand: [], mission: "" });
  const was = app.state;
  app.state = s;
  paint(s.owner, s.armies);
  if (s.seed !== undefined) $("game-info").textContent = `game ${app.gameId}, seed ${s.seed}`;
  const mover = s.players[s.to_move];
  $("status").textContent = s.over ? "game over" : s.stopped ? "game stopped"
    : `round ${s.round} · ${mover.human && !people.hot ? "your" : mover.label + "'s"} turn · ${s.phase}`;
  if (s.stopped) $("message").textContent = s.stopped;
  const body = $("players").querySelector("tbody");
  body.innerHTML = s.players.map((p) => `<tr class="${p.seat === s.to_move ? "to-move" : ""} ${p.alive ? "" : "dead"}" data-seat="${p.seat}">
    <td>${swatch(p.seat)}</td><td>${p.human ? "<b>you</b>" : esc(p.label)}</td><td>${p.territories}</td>
    <td>${p.armies}</td><td>${p.income}</td><td>${p.cards}</td></tr>`).join("");
  $("set-value").textContent = `Next set: ${s.next_set_value} armies · rules: ${s.rules}`;
  const alive = s.human === null || s.players[s.human].alive;
  $("mission").textContent = s.mission && alive && !s.over ? `Your mission: ${s.mission} (${s.mission_progress})` : "";
  shownControls(s);
  $("hand").innerHTML = (s.hand || []).map((c) =>
    `<span class="card" data-card="${c.id}">${esc(c.text)}</span>`).join("") || "no cards";
  const log = $("log");
  for (const e of s.log) {
    if (e.i < app.logNext) continue;
    const li = document.createElement("li");
    li.className = e.note ? "note" : (e.seat === s.human ? "you" : "");
    li.dataset.line = e.i + 1;
    li.innerHTML = (e.seat >= 0 ? swatch(e.seat) + " " : "") + esc(e.text);
    if (!e.note) whyButton(li, e.seat, e.i + 1, e.ev);
    log.appendChild(li);
    if (!e.note) { storyAdd(e, s.human); announce(e.ev); }
  }
  log.scrollTop = log.scrollHeight;
  if (s.decision && (!was || !was.decision)) { // the person's turn begins: older words go
    $("message").textContent = ""; $("news").textContent = "";
  }
  app.logNext = Math.max(app.logNext, s.log_next);
  explanationStale();
  drawEvents(shownTurns());
  if (s.since_last_turn) app.summary = s.since_last_turn;
  else if (!s.decision) app.summary = null;
  showSummary(app.summary);
  renderDecision(s);
  banner(s);
  if (s.over) showEnd(s);
}

function whyButton(li, seat, line, ev) {
  // Decisions only: a card drawn or an elimination follows from a move, nobody chose it.
  if (!explainable(seat) || !ev || ["card", "eliminate", "deal", "end"].includes(ev.kind)) return;
  const b = document.createElement("button");
  b.type = "button"; b.className = "why"; b.textContent = "why?"; b.dataset.line = line;
  b.title = "why this bot chose this move";
  b.onclick = (ev) => { ev.stopPropagation(); explainLine(line); };
  li.appendChild(b);
}

function banner(s) {
  const me = s.players[s.human], box = $("banner");
  let text = "";
  if (s.over && s.placements) text = (s.placements[s.human] === 1 ? "You won!" : `Game over: you finished ${s.placements[s.human]}.`)
    + (s.mission_done ? ` ${seatName(s.mission_done.seat)} completed a mission.` : "");
  else if (me && !me.alive) text = "You were eliminated.";
  box.hidden = !text;
  box.textContent = text;
}

// Controls only where they do something: the bots' Pause and pace while a game goes on (and the
// pace in replays, for play), Step and Skip only while the bots, not a person, are to move.
function shownControls(s) {
  const live = !!s && !s.over && !app.replay;
  $("bot-controls").hidden = !live;
  for (const id of ["btn-step", "btn-skip"]) $(id).hidden = !live || !!s.decision || othersTurn(s);
  $("pace-box").hidden = !live && !app.replay;
}

function pace() { return +$("pace").value; }

function schedule() {
  clearTimeout(app.timer);
  const s = app.state;
  if (!s || s.over || s.stopped || s.decision || app.replay || app.paused || explaining()) return;
  // Another person's turn: the server answers when they move, or after a while (a long poll).
  const others = othersTurn(s);
  app.timer = setTimeout(async () => {
    if (!(await advance(pace() === 0 ? 200 : 1, others))) return;
    schedule();
  }, others ? 100 : pace());
}

async function advance(max, wait = false) {
  const gid = app.gameId;
  // Bots' moves on their way (a why? asked now is about the position they leave); a long poll
  // for another person's move is not: what it brings makes an explanation stale.
  const moving = wait ? 0 : 1;
  app.advancing += moving;
  try {
    const s2 = await api("POST", `/api/games/${gid}/advance?since=${app.logNext}`, { max, wait });
    if (gid !== app.gameId) return false; // a new game started meanwhile
    render(s2);
    return true;
  } catch (e) {
    $("message").textContent = e.message;
    return false;
  } finally {
    app.advancing -= moving;
  }
}

// A game left for another: nothing of it stays on the page.
function resetGame() {
  clearTimeout(app.timer);
  Object.assign(app, { gameId: null, state: null, logNext: 0, selected: null, target: null, summary: null, replayGame: null });
  for (const id of ["log", "controls", "news", "message", "hand", "placements", "mission", "set-value", "status", "game-info", "end-missions"]) $(id).innerHTML = "";
  $("players").querySelector("tbody").innerHTML = "";
  $("decision").textContent = ""; $("decision").dataset.kind = "";
  for (const id of ["end", "summary", "explain", "banner"]) $(id).hidden = true;
  storyReset();
  $("invite").hidden = true; $("cover").hidden = true; document.body.classList.remove("between");
  shownControls(null);
  if (location.hash.startsWith("#game=")) history.replaceState(null, "", location.pathname);
}

// Back to a live game by its id (the address's #game=ID): its whole state, then on.
async function attach(gid, seat, key) {
  try {
    recall(gid, seat, key);
    app.gameId = gid;
    const s = await api("GET", `/api/games/${gid}?since=0`);
    resetGame();
    leaveReplay();
    app.gameId = gid;
    remember(gid);
    history.replaceState(null, "", gameHash(gid));
    $("setup").hidden = true;
    drawBoard(app.map);
    render(s);
    schedule();
    return true;
  } catch (e) {
    $("message").textContent = `${e.message}: start a new game`;
    return false;
  }
}


function showEnd(s) {
  $("end").hidden = false;
  const order = s.players.slice().sort((a, b) => s.placements[a.seat] - s.placements[b.seat]);
  $("placements").innerHTML = order.map((p) => `<li>${swatch(p.seat)} ${p.human ? "you" : esc(p.label)} (place ${s.placements[p.seat]})</li>`).join("")
    + (s.capped ? "<li>the round cap ended the game</li>" : "");
  const done = s.mission_done;
  $("end-missions").innerHTML = (done ? `<p id="mission-done"><b>${esc(seatName(done.seat))}</b> completed the mission: ${esc(done.text)}</p>` : "")
    + (s.missions ? "<p>The missions were:</p><ul>" + s.missions.map((m, k) => `<li>${swatch(k)} ${esc(seatName(k))}: ${esc(m)}</li>`).join("") + "</ul>" : "");
  $("btn-save").href = authQuery(`/api/games/${app.gameId}/transcript`);
}


function wire() {
  $("btn-first").onclick = () => showFrame(0);
  $("btn-last").onclick = () => showFrame(app.replay.frames.length - 1);
  $("btn-prev").onclick = () => showFrame(app.frame - 1);
  $("btn-next").onclick = () => showFrame(app.frame + 1);
  $("btn-prev-turn").onclick = () => turnStep(-1);
  $("btn-next-turn").onclick = () => turnStep(1);
  $("frame-slider").oninput = () => showFrame(+$("frame-slider").value);
  $("btn-play").onclick = () => {
    if (app.playing) { clearInterval(app.playing); app.playing = null; $("btn-play").textContent = "play"; return; }
    $("btn-play").textContent = "pause";
    app.playing = setInterval(() => {
      if (app.frame >= app.replay.frames.length - 1) { $("btn-play").click(); return; }
      showFrame(app.frame + 1);
    }, Math.max(60, pace()));
  };
  $("btn-replay").onclick = () => openReplay(`/api/games/${app.gameId}/replay`);
  $("btn-open-replay").onclick = () => openReplay("/api/replay");
  $("btn-new-game").onclick = () => {
    const s = app.state;
    if (s && !s.over && !app.replay && !confirm("Leave this game for a new one? (It stays on the server for 30 minutes: rejoin it from the list.)")) return;
    leaveReplay(); resetGame(); app.map = app.config.map; drawBoard(app.map); $("setup").hidden = false; listGames();
  };
  $("btn-pause").onclick = () => {
    app.paused = !app.paused;
    $("btn-pause").textContent = app.paused ? "Resume" : "Pause";
    if (!app.paused) schedule(); else clearTimeout(app.timer);
    if (app.state) renderDecision(app.state);
  };
  $("btn-step").onclick = () => { clearTimeout(app.timer); advance(1).then(() => schedule()); };
  $("btn-skip").onclick = () => { clearTimeout(app.timer); advance(5000).then(() => schedule()); };
  $("btn-round-prev").onclick = () => roundStep(-1);
  $("btn-round-next").onclick = () => roundStep(1);
  $("btn-round-all").onclick = () => roundStep(0);
  // The names move with the window's size: the turn's drawing moves off them again.
  window.addEventListener("resize", () => {
    layoutLabels();
    if (app.replay) showFrame(app.frame); else drawEvents(shownTurns());
  });
  $("btn-explain-close").onclick = () => { clearExplanation(); if (app.state) renderDecision(app.state); schedule(); };
  $("setup").addEventListener("submit", startGame);
  window.addEventListener("hashchange", openHash);
  $("pace").oninput = () => { $("pace-ms").textContent = pace() === 0 ? "fastest" : `${pace()} ms`; };
}


// An address edited in an open tab (#game=ID, a friend's link, #replay) opens what it names.
async function openHash() {
  if (location.hash === "#replay" && app.config.replay) return openReplay("/api/replay");
  if (!location.hash.startsWith("#game=")) return;
  const h = parseGameHash(location.hash);
  if (h.gid === app.gameId && (!h.key || h.key === people.key)) return;
  leaveReplay();
  if (!(await attach(h.gid, h.seat, h.key))) { $("setup").hidden = false; listGames(); }
}

async function main() {
  wire();
  app.config = await api("GET", "/api/config");
  engineStatus(app.config.engine);
  app.map = app.config.map;
  drawBoard(app.map);
  setupForm();
  if (app.config.replay) $("btn-open-replay").hidden = false;
  if (location.hash === "#replay" && app.config.replay) openReplay("/api/replay");
  else if (location.hash.startsWith("#game=")) await openHash();
  else { $("setup").hidden = false; listGames(); }
}

main();