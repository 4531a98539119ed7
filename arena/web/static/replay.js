// riskevo's page, replays: a recorded game stepped frame by frame, by turn, with a slider
// and a play button; the board and the players' table follow the frame.
"use strict";

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
    shownControls(null);
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
  explanationStale();
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
