// riskevo's page: draws the board, sends the person's clicks to the server, which referees
// every action with the rule kernel; the page never decides what is legal.
"use strict";

const $ = (id) => document.getElementById(id);

const app = {
  config: null, map: null, gameId: null, state: null, logNext: 0,
  selected: null, target: null, busy: false, timer: null,
  replay: null, frame: 0, playing: null, paused: false, summary: null, replayGame: null,
  oddsSeq: 0, explainSeq: 0, drawn: null,
};
window.riskevo = app; // for the browser test and the curious

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  for (let tries = 0; ; tries++) {
    const r = await fetch(path, opts);
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
  const was = app.state;
  app.state = s;
  paint(s.owner, s.armies);
  const mover = s.players[s.to_move];
  $("status").textContent = s.over ? "game over" : s.stopped ? "game stopped"
    : `round ${s.round} · ${mover.human ? "your" : mover.label + "'s"} turn · ${s.phase}`;
  if (s.stopped) $("message").textContent = s.stopped;
  const body = $("players").querySelector("tbody");
  body.innerHTML = s.players.map((p) => `<tr class="${p.seat === s.to_move ? "to-move" : ""} ${p.alive ? "" : "dead"}" data-seat="${p.seat}">
    <td>${swatch(p.seat)}</td><td>${p.human ? "<b>you</b>" : esc(p.label)}</td><td>${p.territories}</td>
    <td>${p.armies}</td><td>${p.income}</td><td>${p.cards}</td></tr>`).join("");
  $("set-value").textContent = `Next set: ${s.next_set_value} armies · rules: ${s.rules}`;
  const alive = s.human === null || s.players[s.human].alive;
  $("mission").textContent = s.mission && alive && !s.over ? `Your mission: ${s.mission} (${s.mission_progress})` : "";
  $("bot-controls").hidden = s.over;
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

function renderDecision(s) {
  const d = s.decision, box = $("decision"), ctl = $("controls");
  // What the person typed survives a redraw of the same question (an error keeps it).
  const kept = {};
  if (d && box.dataset.kind === d.kind) for (const id of ["amount", "down-to", "dice"]) if ($(id)) kept[id] = $(id).value;
  box.dataset.kind = d ? d.kind : (s.over ? "over" : "waiting");
  ctl.innerHTML = "";
  clearMarks();
  // The last roll while the bots play, or the person's own during their turn.
  const dice = s.dice.attack.length && !s.over && (!d || s.dice.seat === s.human)
    ? `<div class="dice" id="last-roll">last roll, ${esc(s.dice.label)} (${esc(name(s.dice.src))} → ${esc(name(s.dice.dst))}): ${s.dice.attack.map((x) => `<span class="a">${x}</span>`).join("")} vs ${s.dice.defend.map((x) => `<span class="d">${x}</span>`).join("")}</div>` : "";
  if (!d) {
    box.textContent = s.over ? "" : app.paused ? "Paused: the bots wait. Press Resume or Step." : "The bots are playing…";
    ctl.innerHTML = dice;
    return;
  }
  const mine = s.owner.map((o, t) => (o === s.human ? t : -1)).filter((t) => t >= 0);
  if (d.kind === "place_initial") {
    box.textContent = `Initial placement: ${d.left} armies left to place. Choose how many, then click one of your territories (the others place between yours).`;
    ctl.innerHTML = `<label>Armies <input id="amount" type="number" min="1" max="${d.left}" value="1"></label>`;
    mine.forEach((t) => mark(t, "option"));
  } else if (d.kind === "reinforce") {
    const inc = d.income;
    box.textContent = `Reinforce: ${d.armies} armies left. Choose how many, then click your territory.`;
    ctl.innerHTML = `<div id="income">This turn: ${inc.base} from ${inc.territories} territories / 3`
      + inc.continents.map((c) => ` + ${c.bonus} ${esc(c.name)}`).join("")
      + (inc.cards ? ` + ${inc.cards} from cards` : "") + ` = ${inc.total}</div>`
      + `<label>Armies <input id="amount" type="number" min="1" max="${d.armies}" value="${d.armies}"></label>`;
    mine.forEach((t) => mark(t, "option"));
  } else if (d.kind === "trade") {
    box.textContent = d.compulsory ? "You hold too many cards: trade a set." : "Trade a set of cards, or keep them.";
    d.sets.forEach((set, i) => {
      const b = button(`Trade ${set.cards.map(cardName).join(" + ")} for ${set.value}`, () => act({ type: "trade", cards: set.cards }));
      b.id = `btn-set-${i}`; b.classList.add("set-btn");
    });
    if (!d.compulsory) button("Keep my cards", () => act({ type: "end_trade" })).id = "btn-end-trade";
  } else if (d.kind === "attack") {
    attackControls(s, d, ctl, box);
  } else if (d.kind === "move_in") {
    const [src, dst] = d.occupy;
    box.textContent = `You conquered ${name(dst)}: move ${d.lo} to ${d.hi} armies in from ${name(src)}.`;
    ctl.innerHTML = `<label>Armies <input id="amount" type="range" min="${d.lo}" max="${d.hi}" value="${d.hi}"> <span id="amount-v">${d.hi}</span></label>`;
    $("amount").oninput = () => { $("amount-v").textContent = $("amount").value; };
    button("Move in", () => act({ type: "move_in", count: +$("amount").value })).id = "btn-move";
    mark(src, "selected"); mark(dst, "target");
  } else if (d.kind === "fortify") {
    fortifyControls(s, d, ctl, box);
  }
  for (const [id, v] of Object.entries(kept)) if ($(id)) $(id).value = v;
  if ($("down-to") && app.selected !== null && app.target !== null) showOdds(app.selected, app.target);
  if (hintable()) button("What would my champion do?", () => showExplanation(`/api/games/${app.gameId}/hint`, "your decision")).id = "btn-hint";
  ctl.insertAdjacentHTML("beforeend", dice);
}

function hintable() {
  const ex = app.config.explainers || [];
  return ex.length > 0;
}

async function showOdds(src, dst) {
  const down = Math.max(1, +$("down-to").value || 1), seq = ++app.oddsSeq;
  try {
    const [won, to] = await Promise.all([1, down].map((k) => api("GET", `/api/games/${app.gameId}/odds?src=${src}&dst=${dst}&down_to=${k}`)));
    if (seq !== app.oddsSeq) return; // an older reply arriving after a newer one
    const pct = (p) => `${(100 * p).toFixed(1)}%`;
    if (!$("odds")) return;
    $("odds").innerHTML = `${esc(name(dst))} defends with ${won.defender_dice_now} ${won.defender_dice_now === 1 ? "die" : "dice"}.<br>`
      + `Until won: P(conquer) <b>${pct(won.conquer)}</b>, expected armies left on ${esc(name(src))}: ${won.source_left.toFixed(2)}.<br>`
      + `Until down to ${down}: P(conquer) <b>${pct(to.conquer)}</b>, expected left ${to.source_left.toFixed(2)}.`;
  } catch (e) {
    if ($("odds") && seq === app.oddsSeq) $("odds").textContent = e.message;
  }
}

// Attack and fortify both pick a (source, destination) pair among the options the server
// listed: the clicks choose it, `chosen(src, dst)` draws the controls for a chosen pair.
function pairControls(d, box, texts, chosen) {
  const sources = [...new Set(d.options.map((o) => o[0]))];
  if (app.selected !== null && !sources.includes(app.selected)) app.selected = null;
  const targets = d.options.filter((o) => o[0] === app.selected).map((o) => o[1]);
  if (!targets.includes(app.target)) app.target = null;
  if (app.selected === null) {
    box.textContent = d.options.length ? texts.source : texts.none;
    sources.forEach((t) => mark(t, "option"));
  } else if (app.target === null) {
    box.textContent = texts.target(name(app.selected));
    mark(app.selected, "selected");
    targets.forEach((t) => mark(t, "target"));
  } else {
    mark(app.selected, "selected"); mark(app.target, "target");
    chosen(app.selected, app.target);
    button("Choose another", () => { app.selected = null; app.target = null; renderDecision(app.state); });
  }
}

function attackControls(s, d, ctl, box) {
  pairControls(d, box, {
    source: "Attack: click one of your territories to attack from.",
    none: "No attack is possible.",
    target: (src) => `Attack from ${src}: click a neighbouring enemy territory.`,
  }, (src, dst) => {
    const most = Math.min(3, s.armies[src] - 1);
    box.textContent = `${name(src)} (${s.armies[src]}) attacks ${name(dst)} (${s.armies[dst]}).`;
    let opts = "";
    for (let k = most; k >= 1; k--) opts += `<option value="${k}">${k}</option>`;
    ctl.insertAdjacentHTML("beforeend", `<label>Dice <select id="dice">${opts}</select></label>`);
    const dice = () => +$("dice").value;
    button("Roll once", () => act({ type: "attack", src, dst, dice: dice() })).id = "btn-roll";
    button("Attack until won", () => act({ type: "attack_until", src, dst, dice: dice(), down_to: 1 })).id = "btn-until";
    ctl.insertAdjacentHTML("beforeend", `<label>…or until ${name(src)} is down to <input id="down-to" type="number" min="1" value="3" style="width:4em"></label>`);
    button("Attack until down to", () => act({ type: "attack_until", src, dst, dice: dice(), down_to: +$("down-to").value })).id = "btn-until-down";
    ctl.insertAdjacentHTML("beforeend", `<div id="odds">odds…</div>`);
    $("down-to").oninput = () => showOdds(src, dst);
  });
  button("End attacks", () => act({ type: "stop" })).id = "btn-stop";
}

function fortifyControls(s, d, ctl, box) {
  pairControls(d, box, {
    source: "Fortify: click a territory to move armies from, or end your turn.",
    none: "No fortify move is possible: end your turn.",
    target: (src) => `Fortify from ${src}: click where the armies go.`,
  }, (src, dst) => {
    const most = s.armies[src] - 1;
    box.textContent = `Move armies from ${name(src)} to ${name(dst)}.`;
    ctl.insertAdjacentHTML("beforeend", `<label>Armies <input id="amount" type="range" min="1" max="${most}" value="${most}"> <span id="amount-v">${most}</span></label>`);
    $("amount").oninput = () => { $("amount-v").textContent = $("amount").value; };
    button("Fortify", () => act({ type: "fortify", src, dst, count: +$("amount").value })).id = "btn-fortify";
  });
  button("End turn (no fortify)", () => act({ type: "skip" })).id = "btn-end-turn";
}

function cardName(id) {
  const c = (app.state.hand || []).find((h) => h.id === id);
  return c ? c.text : `card ${id}`;
}

function button(text, fn) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", fn);
  $("controls").appendChild(b);
  return b;
}

function mark(t, cls) { $(`t-${t}`).classList.add(cls); }
function clearMarks() {
  document.querySelectorAll(".territory").forEach((g) => g.classList.remove("option", "selected", "target"));
}

function onTerritory(t) {
  if (app.replay || !app.state || app.busy) return;
  if (!app.state.decision) {
    const s = app.state;
    $("message").textContent = s.over ? "The game is over." : `Not your turn: ${s.players[s.to_move].label} is playing. Wait, or press "Skip to my turn".`;
    return;
  }
  const d = app.state.decision, s = app.state;
  if (d.kind === "place_initial") {
    // Bounded by the armies left, said rather than cut silently (issue 65, R1).
    const k = +$("amount").value;
    if (!Number.isInteger(k) || k < 1 || k > d.left) {
      $("message").textContent = `Initial placement: choose 1..${d.left} armies (${d.left} left to place).`;
      return;
    }
    return placeSeveral(t, k);
  }
  if (d.kind === "reinforce") return act({ type: "place", territory: t, count: +$("amount").value });
  if (d.kind === "attack" || d.kind === "fortify") {
    const sources = d.options.map((o) => o[0]);
    if (app.selected !== null && d.options.some((o) => o[0] === app.selected && o[1] === t)) {
      app.target = t;
    } else if (sources.includes(t)) {
      app.selected = t; app.target = null;
    } else {
      $("message").textContent = d.kind === "attack"
        ? `${name(t)}: ${s.owner[t] === s.human ? "attack from a territory of yours with 2+ armies that borders an enemy" : "not a target from here"}`
        : `${name(t)}: not a territory you can fortify from here`;
      return;
    }
    $("message").textContent = "";
    renderDecision(s);
  }
}

// Initial armies go one at a time, the others placing between: k of them, one per round.
async function placeSeveral(t, k) {
  for (let i = 0; i < k; i++) {
    await act({ type: "place", territory: t, count: 1 }, true);
    if (!app.state.decision || app.state.decision.kind !== "place_initial" || $("message").textContent) break;
  }
  schedule();
}

async function act(body, chained) {
  if (app.busy) return;
  app.busy = true;
  try {
    let s = await api("POST", `/api/games/${app.gameId}/act?since=${app.logNext}`, body);
    if (chained && !s.error && !s.decision && !s.over) {
      render(s);
      s = await api("POST", `/api/games/${app.gameId}/advance?since=${app.logNext}`, { max: 5000, setup_only: true });
    }
    $("message").textContent = s.error ? `Not allowed: ${s.error}. Change your choice and try again.` : "";
    if (!s.error && body.type !== "attack" && body.type !== "attack_until") { app.selected = null; app.target = null; }
    render(s);
  } catch (e) {
    $("message").textContent = e.message;
  } finally {
    app.busy = false;
    if (!chained) schedule();
  }
}

function pace() { return +$("pace").value; }

function schedule() {
  clearTimeout(app.timer);
  const s = app.state;
  if (!s || s.over || s.stopped || s.decision || app.replay || app.paused) return;
  app.timer = setTimeout(async () => {
    if (!(await advance(pace() === 0 ? 200 : 1))) return;
    schedule();
  }, pace());
}

async function advance(max) {
  const gid = app.gameId;
  try {
    const s2 = await api("POST", `/api/games/${gid}/advance?since=${app.logNext}`, { max });
    if (gid !== app.gameId) return false; // a new game started meanwhile
    render(s2);
    return true;
  } catch (e) {
    $("message").textContent = e.message;
    return false;
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
  if (location.hash.startsWith("#game=")) history.replaceState(null, "", location.pathname);
}

// Back to a live game by its id (the address's #game=ID): its whole state, then on.
async function attach(gid) {
  try {
    const s = await api("GET", `/api/games/${gid}?since=0`);
    resetGame();
    leaveReplay();
    app.gameId = gid;
    history.replaceState(null, "", `#game=${gid}`);
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

async function listGames() {
  try {
    const r = await api("GET", "/api/games");
    const box = $("live-games");
    box.innerHTML = r.games.length ? "<h2>Live games</h2>" : "";
    for (const g of r.games) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "rejoin"; b.dataset.id = g.id;
      b.textContent = `Rejoin: you vs ${g.labels.filter((_, k) => k !== g.human).join(", ")}, round ${g.round}${g.over ? " (over)" : ""}`;
      b.onclick = () => attach(g.id);
      box.appendChild(b);
    }
  } catch (e) {
    $("live-games").textContent = e.message;
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
  $("btn-save").href = `/api/games/${app.gameId}/transcript`;
}

async function startGame(ev) {
  if (ev) ev.preventDefault();
  const opponents = [...document.querySelectorAll(".opponent")].map((s) => s.value);
  const body = { opponents };
  const seat = $("seat").value, seed = $("seed").value, rules = $("rules").value.trim();
  body.seat = seat === "" ? null : +seat;
  if (seed !== "") body.seed = +seed;
  if (rules) body.rules = rules;
  $("btn-start").disabled = true; $("starting").hidden = false;
  try {
    const s = await api("POST", "/api/games", body);
    leaveReplay();
    resetGame();
    $("hand-title").textContent = "Your cards";
    app.gameId = s.id;
    history.replaceState(null, "", `#game=${s.id}`);
    $("setup").hidden = true;
    $("game-info").textContent = `game ${s.id}, seed ${s.seed}`;
    drawBoard(app.map);
    render(s);
    schedule();
  } catch (e) {
    $("message").textContent = e.message;
  } finally {
    $("btn-start").disabled = false; $("starting").hidden = true;
  }
}

function setupForm() {
  const c = app.config, box = $("opponents");
  box.innerHTML = "";
  const add = (value) => {
    if (box.children.length >= 5) return;
    const row = document.createElement("div");
    row.innerHTML = `<select class="opponent">${c.bots.map((b) => `<option${b === value ? " selected" : ""}>${esc(b)}</option>`).join("")}</select> <button type="button">remove</button>`;
    row.querySelector("button").onclick = () => { if (box.children.length > 1) { row.remove(); seats(); } };
    box.appendChild(row);
    seats();
  };
  const seats = () => {
    const n = box.children.length + 1, cur = $("seat").value;
    $("seat").innerHTML = `<option value="">random</option>` + [...Array(n).keys()].map((k) => `<option value="${k}">${k + 1}${k === 0 ? " (moves first)" : ""}</option>`).join("");
    if (cur !== "" && +cur < n) $("seat").value = cur;
  };
  c.defaults.forEach(add);
  $("champion-note").textContent = c.champion_note || "";
  $("btn-add-opponent").onclick = () => add(c.bots[0]);
  if (c.seat !== null) $("seat").value = String(c.seat);
  if (c.seed !== null) $("seed").value = String(c.seed);
  $("rules").value = c.rules;
}

// ---- replays -----------------------------------------------------------------------------
async function openReplay(path) {
  clearTimeout(app.timer);
  try {
    const r = await api("GET", path);
    app.replayGame = path.startsWith("/api/games/") ? app.gameId : null;
    app.replay = r; app.frame = 0;
    app.map = r.map;
    drawBoard(r.map);
    $("replay-bar").hidden = false; $("turn").hidden = true; $("setup").hidden = true; $("banner").hidden = true;
    $("frame-slider").max = r.frames.length - 1;
    const log = $("log");
    log.innerHTML = r.frames.map((f, i) => `<li data-frame="${i}" data-line="${f.index + 1}">${f.seat >= 0 ? swatch(f.seat) + " " : ""}${esc(f.text)}</li>`).join("");
    log.querySelectorAll("li").forEach((li) => {
      li.onclick = () => showFrame(+li.dataset.frame);
      const f = r.frames[+li.dataset.frame];
      whyButton(li, f.seat, +li.dataset.line, f.event);
    });
    showFrame(0);
  } catch (e) {
    $("message").textContent = e.message;
  }
}

function leaveReplay() {
  if (app.playing) clearInterval(app.playing);
  app.replay = null; app.playing = null;
  $("replay-bar").hidden = true; $("turn").hidden = false;
}

function showFrame(i) {
  const r = app.replay, n = r.frames.length;
  i = Math.max(0, Math.min(n - 1, i));
  app.frame = i;
  const f = r.frames[i];
  paint(f.owner, f.armies);
  // This turn's events up to the frame: the seat's actions since another seat acted.
  let k = i;
  while (k > 0 && r.frames[k - 1].seat === f.seat) k--;
  drawEvents(f.seat >= 0 ? [{ seat: f.seat, events: r.frames.slice(k, i + 1).map((x) => x.event).filter((e) => e && e.kind !== "card") }] : []);
  $("news").textContent = "";
  announce(f.event);
  $("frame-slider").value = i;
  $("frame-index").textContent = `${i + 1} / ${n}`; // as the log numbers its lines
  $("frame-text").textContent = `round ${f.round}: ${f.text}`;
  $("status").textContent = `replay ${r.name} · round ${f.round}`;
  const body = $("players").querySelector("tbody");
  const labels = r.labels;
  body.innerHTML = labels.map((lab, s) => {
    const mine = f.owner.map((o, t) => (o === s ? f.armies[t] : null)).filter((a) => a !== null);
    return `<tr class="${s === f.seat ? "to-move" : ""} ${f.alive[s] ? "" : "dead"}"><td>${swatch(s)}</td><td>${esc(lab)}</td><td>${mine.length}</td><td>${mine.reduce((a, b) => a + b, 0)}</td><td></td><td>${f.hands[s].length}</td></tr>`;
  }).join("");
  $("hand-title").textContent = "Cards";
  $("hand").textContent = labels.map((lab, s) => `${lab}: ${f.hands[s].length} cards`).join(" · ");
  $("set-value").textContent = r.rules ? `rules: ${r.rules}` : "";
  $("mission").textContent = Object.entries(r.missions).map(([s, m]) => `${labels[+s]}: ${m}`).join("; ");
  document.querySelectorAll("#log li").forEach((li) => li.classList.toggle("current", +li.dataset.frame === i));
  const cur = document.querySelector("#log li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function turnStep(dir) {
  // The first frame of the next (or this/previous) turn: where the acting seat changes.
  const fr = app.replay.frames;
  let i = app.frame;
  const seatAt = (k) => fr[k].seat;
  if (dir > 0) {
    const s = seatAt(i);
    while (i < fr.length - 1 && (seatAt(i) === s || seatAt(i) < 0)) i++;
  } else {
    if (i > 0) i--;
    const s = seatAt(i);
    while (i > 0 && seatAt(i - 1) === s) i--;
  }
  showFrame(i);
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
  window.addEventListener("resize", () => layoutLabels());
  $("btn-explain-close").onclick = () => { $("explain").hidden = true; markExplained([]); };
  $("setup").addEventListener("submit", startGame);
  $("pace").oninput = () => { $("pace-ms").textContent = pace() === 0 ? "fastest" : `${pace()} ms`; };
}

// While the server compiles the game engine (its first run only), the page says so.
async function engineStatus(e) {
  const box = $("engine");
  if (e.ready) {
    box.textContent = e.error ? `The engine warm-up failed (${e.error}): the first game compiles as it starts.` : "";
    $("starting").textContent = "starting…";
    return;
  }
  box.textContent = `Getting the game engine ready (compiling, first run only): ${e.seconds} s so far. Start now and the game opens when it is done.`;
  $("starting").textContent = "starting… the engine is still compiling (first run only)";
  setTimeout(async () => {
    try { engineStatus((await api("GET", "/api/config")).engine); } catch (err) { box.textContent = err.message; }
  }, 2000);
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
  else if (location.hash.startsWith("#game=") && await attach(location.hash.slice(6))) return;
  else { $("setup").hidden = false; listGames(); }
}

main();
