// riskevo's page, the new-game form: the opponents, friends and seats, seed and rules; the
// live games to rejoin; whether the engine is ready yet.
"use strict";

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

async function startGame(ev) {
  if (ev) ev.preventDefault();
  const opponents = [...document.querySelectorAll(".opponent")].map((s) => s.value);
  const body = { opponents };
  const seat = $("seat").value, seed = $("seed").value, rules = $("rules").value.trim();
  body.seat = seat === "" ? null : +seat;
  if (seed !== "") body.seed = +seed;
  if (rules) body.rules = rules;
  peopleRequest(body);
  $("btn-start").disabled = true; $("starting").hidden = false;
  try {
    const s = await api("POST", "/api/games", body);
    leaveReplay();
    resetGame();
    $("hand-title").textContent = "Your cards";
    app.gameId = s.id;
    invite(s);
    history.replaceState(null, "", gameHash(s.id));
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
    if (box.children.length + (+$("friends").value || 0) >= 5) return;
    const row = document.createElement("div");
    row.innerHTML = `<select class="opponent">${c.bots.map((b) => `<option${b === value ? " selected" : ""}>${esc(b)}</option>`).join("")}</select> <button type="button">remove</button>`;
    row.querySelector("button").onclick = () => { if (box.children.length > 1) { row.remove(); seats(); } };
    box.appendChild(row);
    seats();
  };
  const seats = () => {
    const n = box.children.length + 1 + (+$("friends").value || 0), cur = $("seat").value;
    peopleForm(n);
    $("seat").innerHTML = `<option value="">random</option>` + [...Array(n).keys()].map((k) => `<option value="${k}">${k + 1}${k === 0 ? " (moves first)" : ""}</option>`).join("");
    if (cur !== "" && +cur < n) $("seat").value = cur;
  };
  c.defaults.forEach(add);
  $("champion-note").textContent = c.champion_note || "";
  $("btn-add-opponent").onclick = () => add(c.bots[0]);
  $("friends").onchange = () => {
    const most = 6 - 1 - box.children.length;
    if (+$("friends").value > most) $("friends").value = String(Math.max(0, most));
    if (+$("friends").value > 0 && $("seat").value === "") $("seat").value = "0";
    seats();
  };
  if (c.seat !== null) $("seat").value = String(c.seat);
  if (c.seed !== null) $("seed").value = String(c.seed);
  $("rules").value = c.rules;
}

// While the server really compiles the game engine (its first run only), the page says so;
// loading the compiled kernels at a start (a few seconds) says nothing.
async function engineStatus(e) {
  const box = $("engine");
  if (e.ready) {
    box.textContent = e.error ? `The engine warm-up failed (${e.error}): the first game compiles as it starts.` : "";
    $("starting").textContent = "starting…";
    return;
  }
  box.textContent = e.compiling ? `Getting the game engine ready (compiling, first run only): ${e.seconds} s so far. Start now and the game opens when it is done.` : "";
  $("starting").textContent = e.compiling ? "starting… the engine is still compiling (first run only)" : "starting…";
  setTimeout(async () => {
    try { engineStatus((await api("GET", "/api/config")).engine); } catch (err) { box.textContent = err.message; }
  }, 2000);
}
