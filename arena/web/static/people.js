// Friends at the table: the person who starts a game picks the seats of the other people; each
// joins by a link carrying their seat's secret (#game=ID&seat=S&key=K), and every request about
// the game carries it, so the server answers as that seat. Hot-seat: one screen holds every
// person's secret and hides the hand between turns until the next person shows theirs.
"use strict";

const people = {
  seat: null, key: null, // this page's person
  keys: {},              // hot-seat: every person's secret by seat
  hot: false, shown: null, // hot-seat: the seat whose turn is uncovered
};

// The address's game, seat and secret ("#game=ID" alone for a game of one person).
function parseGameHash(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const seat = p.get("seat");
  return { gid: p.get("game"), seat: seat === null ? null : +seat, key: p.get("key") };
}

function gameHash(gid) {
  return `#game=${gid}` + (people.key ? `&seat=${people.seat}&key=${people.key}` : "");
}

// The seat and secret a request about the current game goes out with.
function authQuery(path) {
  if (!people.key || !app.gameId || !path.startsWith(`/api/games/${app.gameId}`)) return path;
  let seat = people.seat, key = people.key;
  if (people.hot && people.shown !== null && people.keys[people.shown]) { seat = people.shown; key = people.keys[seat]; }
  return path + (path.includes("?") ? "&" : "?") + `seat=${seat}&key=${encodeURIComponent(key)}`;
}

function forgetPeople() { Object.assign(people, { seat: null, key: null, keys: {}, hot: false, shown: null }); }

function remember(gid) {
  try { localStorage.setItem(`riskevo-seat-${gid}`, JSON.stringify({ seat: people.seat, key: people.key, keys: people.keys, hot: people.hot })); } catch (e) { /* private mode */ }
}

function recall(gid, seat, key) {
  forgetPeople();
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(`riskevo-seat-${gid}`) || "null"); } catch (e) { kept = null; }
  if (key) Object.assign(people, { seat, key });
  else if (kept && kept.key) Object.assign(people, { seat: kept.seat, key: kept.key });
  if (kept && kept.hot && kept.key === people.key) Object.assign(people, { keys: kept.keys || {}, hot: true });
}

// ---- the form: which seats are people, hot-seat ----------------------------------------------
function peopleForm(nSeats) {
  const k = +$("friends").value || 0, box = $("friend-seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 0; i < k; i++) {
    const sel = document.createElement("select");
    sel.className = "friend-seat"; sel.id = `friend-seat-${i}`;
    sel.innerHTML = [...Array(nSeats).keys()].map((s) => `<option value="${s}">${s + 1}</option>`).join("");
    sel.value = before[i] !== undefined && +before[i] < nSeats ? before[i] : String(Math.min(nSeats - 1, i + 1));
    const lab = document.createElement("label");
    lab.textContent = `friend ${i + 1}'s seat `;
    lab.appendChild(sel);
    box.appendChild(lab);
  }
  $("hotseat-row").hidden = k === 0;
}

// The request's people: the friends' seats and hot-seat; your own seat must be chosen too.
function peopleRequest(body) {
  const seats = [...document.querySelectorAll(".friend-seat")].map((s) => +s.value);
  if (!seats.length) return body;
  if (body.seat === null) body.seat = [...Array(seats.length + 2).keys()].find((s) => !seats.includes(s));
  return Object.assign(body, { people: seats, hotseat: $("hotseat").checked });
}

// After a start: this page is the starter's seat; the links go to the others (or, hot-seat,
// every secret stays here).
function invite(s) {
  forgetPeople();
  const box = $("invite");
  box.hidden = !s.links;
  if (!s.key) return;
  Object.assign(people, { seat: s.human, key: s.key, hot: !!s.hotseat });
  if (people.hot) {
    people.keys = { [s.human]: s.key };
    for (const l of s.links) people.keys[l.seat] = l.key;
    box.innerHTML = "<h2>Hot-seat</h2><p>One screen: each person's cards and mission show only after they press to see their turn. Pass the screen at each turn.</p>";
  } else {
    box.innerHTML = "<h2>Invite your friends</h2><p>Send each friend their own link (it lets them play only their seat; keep yours to come back):</p>"
      + s.links.map((l) => `<p>${swatch(l.seat)} ${esc(l.label)} (seat ${l.seat + 1}): <input class="invite-link" readonly size="40" data-seat="${l.seat}" value="${esc(`${location.origin}${location.pathname}#game=${s.id}&seat=${l.seat}&key=${l.key}`)}"></p>`).join("");
  }
  remember(s.id);
}

// Hot-seat: when another person's turn comes, the hand, mission and controls are covered until
// that person asks to see them; while the bots play, nobody's hand is shown.
function hotseatTurn(s) {
  if (!people.hot) return false;
  const mover = s.players[s.to_move];
  const theirs = !s.over && mover && mover.person && people.keys[s.to_move] !== undefined;
  document.body.classList.toggle("between", !theirs && !s.over);
  if (!theirs) people.shown = null; // each person's turn starts covered, even the same person's
  if (!theirs || s.to_move === people.shown) { $("cover").hidden = true; return false; }
  people.shown = null;
  document.body.classList.add("between");
  $("cover").hidden = false;
  $("cover-text").textContent = `Pass the screen to ${mover.label}.`;
  $("btn-uncover").textContent = `I am ${mover.label}: show my turn`;
  $("btn-uncover").onclick = async () => {
    people.shown = s.to_move;
    $("cover").hidden = true;
    document.body.classList.remove("between");
    try { render(await api("GET", `/api/games/${app.gameId}?since=${app.logNext}`)); } catch (e) { $("message").textContent = e.message; }
  };
  return true;
}

// Another person is to move: this page waits for their move (a long poll, `schedule`).
function othersTurn(s) {
  const mover = s.players[s.to_move];
  return !s.over && !!mover && mover.person && !mover.human;
}
