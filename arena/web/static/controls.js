// riskevo's page, the person's decision: the question the server asks, its controls, the
// clicks on the board and the actions they send (the server referees each one), the odds.
"use strict";

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
    box.textContent = s.over ? "" : othersTurn(s) ? `${s.players[s.to_move].label} is playing…`
      : app.paused ? "Paused: the bots wait. Press Resume or Step."
      : explaining() ? "The bots wait while the explanation is open: close it, or press Step." : "The bots are playing…";
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
