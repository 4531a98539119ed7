// riskevo's page, the board: territory shapes (or discs where a map ships none) filled in their
// owner's colour, army counts, names and continent labels placed so that none overlaps another.
"use strict";

const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
const SHADES = ["#e8d9a8", "#b9dfd9", "#cfd8f0", "#efcdb9", "#d5ecd0", "#e6d2ec"];
const W = 1000, H = 600, SVGNS = "http://www.w3.org/2000/svg";
const ARMY_R = 13; // the army disc's radius, board units

function xy(p) { return [30 + p[0] * (W - 60), 20 + (1 - p[1]) * (H - 40)]; }

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function pathOf(points) { return "M" + points.map((p) => `${p[0]},${p[1]}`).join("L") + "Z"; }

// Long names on two lines, split at the space nearest the middle.
function nameLines(name) {
  if (name.length <= 11 || !name.includes(" ")) return [name];
  const mid = name.length / 2;
  let best = -1;
  for (let i = 0; i < name.length; i++) if (name[i] === " " && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
  return [name.slice(0, best), name.slice(best + 1)];
}

function drawBoard(map) {
  const svg = $("board");
  svg.innerHTML = "";
  const pts = map.positions.map(xy);
  const defs = el("defs", {}, svg);
  for (let s = 0; s < COLOURS.length; s++) {
    for (const k of ["attack", "move"]) {
      const m = el("marker", { id: `head-${k}-${s}`, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: COLOURS[s], stroke: "#1b1b1b", "stroke-width": 1.2 }, m);
    }
  }
  const shapes = map.shapes && map.shapes.length === map.territories.length ? map.shapes : null;
  const coast = el("g", { id: "coast" }, svg), lines = el("g", { id: "borders" }, svg);
  const lands = el("g", { id: "lands" }, svg), labels = el("g", { id: "labels" }, svg);
  map.continents.forEach((c, i) => {
    for (const t of c.members) {
      if (shapes) el("path", { class: "coast", d: pathOf(shapes[t]), fill: SHADES[i % SHADES.length], stroke: SHADES[i % SHADES.length] }, coast);
      else el("circle", { class: "coast", cx: pts[t][0], cy: pts[t][1], r: 46, fill: SHADES[i % SHADES.length] }, coast);
    }
    el("text", { class: "continent-label", id: `c-${i}`, "text-anchor": "middle" }, labels).textContent = `${c.name} +${c.bonus}`;
  });
  // Borders: lines between discs; with shapes only the ones across the sea (the land shows the rest).
  for (const [a, b] of map.borders) {
    const [p, q] = [pts[a], pts[b]];
    if (shapes && touching(shapes[a], shapes[b])) continue;
    if (Math.abs(p[0] - q[0]) > W / 2) { // a border across the map's edge
      const [l, r] = p[0] < q[0] ? [p, q] : [q, p];
      el("line", { class: "border sea", x1: l[0], y1: l[1], x2: 0, y2: l[1] }, lines);
      el("line", { class: "border sea", x1: r[0], y1: r[1], x2: W, y2: r[1] }, lines);
    } else {
      el("line", { class: shapes ? "border sea" : "border", x1: p[0], y1: p[1], x2: q[0], y2: q[1] }, lines);
    }
  }
  map.territories.forEach((name, t) => {
    const g = el("g", { class: "territory", id: `t-${t}`, "data-name": name }, lands);
    el("title", {}, g).textContent = name;
    if (shapes) el("path", { class: "land", d: pathOf(shapes[t]), fill: "#d8d2c0" }, g);
    el("circle", { class: "army-disc", cx: pts[t][0], cy: pts[t][1], r: shapes ? ARMY_R : 17, fill: "#bbb" }, g);
    el("text", { class: "armies", x: pts[t][0], y: pts[t][1] }, g);
    g.addEventListener("click", () => onTerritory(t));
    const lab = el("text", { class: "name", id: `n-${t}`, "data-t": t }, labels);
    nameLines(name).forEach((line, k) => el("tspan", { dy: k ? "1.05em" : 0 }, lab).textContent = line);
  });
  el("g", { id: "overlay" }, svg);
  app.drawn = { map, pts, shapes };
  layoutLabels();
}

function touching(a, b) {
  // Two shapes share a border when a corner of one lies within a few units of an edge of the other.
  for (const p of a) {
    for (let i = 0; i < b.length; i++) {
      const q = b[i], r = b[(i + 1) % b.length], dx = r[0] - q[0], dy = r[1] - q[1];
      const u = Math.max(0, Math.min(1, ((p[0] - q[0]) * dx + (p[1] - q[1]) * dy) / (dx * dx + dy * dy || 1)));
      if (Math.hypot(p[0] - q[0] - u * dx, p[1] - q[1] - u * dy) < 5) return true;
    }
  }
  return false;
}

// ---- labels that never overlap ---------------------------------------------------------
function box(x, y, w, h) { return { x, y, w, h }; }
function overlap(a, b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }

// Place every name, then every continent label, at the first candidate spot clear of the
// army discs and of the labels placed before it (the least crowded spot when none is clear).
function layoutLabels() {
  const d = app.drawn;
  if (!d || !$("labels")) return;
  const taken = d.pts.map((p) => box(p[0] - ARMY_R - 1, p[1] - ARMY_R - 1, 2 * ARMY_R + 2, 2 * ARMY_R + 2));
  // Every label's box measured at once, anchored at the start of (0, 0), so the page lays
  // itself out once, not at each candidate's getBBox (a stall whenever a continent changed
  // hands); a candidate's box follows from it (each line is anchored alone: the widest sets it).
  const SHIFT = { start: 0, middle: 0.5, end: 1 }, ATTRS = ["x", "y", "text-anchor"];
  const texts = [...d.map.territories.map((_, t) => $(`n-${t}`)), ...d.map.continents.map((_, i) => $(`c-${i}`))];
  const parts = texts.map((text) => [text, ...text.querySelectorAll("tspan")]);
  const was = parts.map((els) => els.map((e) => ATTRS.map((a) => e.getAttribute(a))));
  for (const els of parts) {
    els[0].setAttribute("y", 0); els[0].setAttribute("text-anchor", "start");
    for (const e of els) e.setAttribute("x", 0);
  }
  const size = new Map(texts.map((text) => [text, text.getBBox()]));
  parts.forEach((els, j) => els.forEach((e, i) => ATTRS.forEach((a, k) => {
    if (was[j][i][k] === null) e.removeAttribute(a); else e.setAttribute(a, was[j][i][k]);
  })));
  // The first spot of `cands` clear of everything, else of `fallback` (a continent's label
  // outside it), else the least crowded of `cands`.
  const spot = (text, cands) => {
    let best = null, bestHits = Infinity;
    const b = size.get(text);
    for (const [x, y, anchor] of cands) {
      const bb = box(x + b.x - SHIFT[anchor] * b.width - 1, y + b.y - 1, b.width + 2, b.height + 2);
      if (bb.x < 0 || bb.x + bb.w > W || bb.y < 0 || bb.y + bb.h > H) continue;
      const hits = taken.filter((t) => overlap(t, bb)).length;
      if (hits < bestHits) { best = [x, y, anchor, bb]; bestHits = hits; }
      if (hits === 0) break;
    }
    return [best, bestHits];
  };
  const place = (text, cands, fallback) => {
    let [best, hits] = spot(text, cands);
    if (hits > 0 && fallback) {
      const [other, otherHits] = spot(text, fallback);
      if (other && (otherHits === 0 || !best)) best = other;
    }
    if (!best) return;
    const [x, y, anchor, bb] = best;
    text.setAttribute("x", x); text.setAttribute("y", y); text.setAttribute("text-anchor", anchor);
    for (const ts of text.querySelectorAll("tspan")) ts.setAttribute("x", x);
    taken.push(bb);
  };
  d.map.territories.forEach((_, t) => {
    const text = $(`n-${t}`), [x, y] = d.pts[t], two = text.querySelectorAll("tspan").length > 1;
    const up = two ? 31 : 18;
    place(text, [[x, y + 25, "middle"], [x, y - up, "middle"], [x + 16, y + 4, "start"], [x - 16, y + 4, "end"],
      [x + 12, y + 24, "start"], [x - 12, y + 24, "end"], [x + 12, y - up, "start"], [x - 12, y - up, "end"],
      [x, y + 37, "middle"], [x, y - up - 12, "middle"]]);
  });
  d.map.continents.forEach((c, i) => {
    const text = $(`c-${i}`), ps = c.members.map((t) => d.pts[t]);
    const cx = ps.reduce((a, p) => a + p[0], 0) / ps.length, cy = ps.reduce((a, p) => a + p[1], 0) / ps.length;
    const top = Math.min(...ps.map((p) => p[1])), bottom = Math.max(...ps.map((p) => p[1]));
    const left = Math.min(...ps.map((p) => p[0])), right = Math.max(...ps.map((p) => p[0]));
    // Inside the continent first: spots around its territories, nearest its middle first,
    // whose centre lies on the continent's own land with a few pixels to spare (a spot on a
    // coast's very edge put the drawn label's centre in the sea).
    const onLand = (x, y) => [[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3]].every(([a, b]) => onContinent(d, c, x + a, y + b));
    const inside = [];
    const near = c.members.slice().sort((a, b) => Math.hypot(d.pts[a][0] - cx, d.pts[a][1] - cy) - Math.hypot(d.pts[b][0] - cx, d.pts[b][1] - cy));
    for (const t of near) {
      const [x, y] = d.pts[t];
      for (const [ox, oy] of [[0, 44], [0, -34], [0, 56], [0, -46], [40, 30], [-40, 30], [40, -24], [-40, -24]]) {
        if (onLand(x + ox, y + oy - 4)) inside.push([x + ox, y + oy, "middle"]);
      }
    }
    const outside = [];
    for (const dy of [0, 12, 24, 36]) outside.push([cx, top - 48 - dy, "middle"], [cx, bottom + 62 + dy, "middle"]);
    for (const dy of [0, 30, -30]) outside.push([left - 50, (top + bottom) / 2 + dy, "end"], [right + 50, (top + bottom) / 2 + dy, "start"]);
    place(text, inside, outside);
  });
}

// True when board point (x, y) lies on the land of continent `c` (its shapes, or near its discs).
function onContinent(d, c, x, y) {
  return c.members.some((t) => {
    if (!d.shapes) return Math.hypot(d.pts[t][0] - x, d.pts[t][1] - y) < 40;
    const poly = d.shapes[t];
    let inside = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i], [xj, yj] = poly[j];
      if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  });
}

function paint(owner, armies) {
  owner.forEach((o, t) => {
    const g = $(`t-${t}`);
    g.setAttribute("data-owner", o);
    g.setAttribute("data-armies", armies[t]);
    const fill = o >= 0 ? COLOURS[o % 6] : "#ccc";
    g.querySelector("circle").setAttribute("fill", fill);
    const land = g.querySelector("path.land");
    if (land) land.setAttribute("fill", fill);
    g.querySelector("text.armies").textContent = armies[t];
  });
  // Held continents: the label in the holder's colour, underlined, with who holds it.
  let moved = false;
  app.map.continents.forEach((c, i) => {
    const holders = new Set(c.members.map((t) => owner[t]));
    const lab = $(`c-${i}`);
    if (!lab) return;
    const held = holders.size === 1 ? [...holders][0] : -1;
    lab.classList.toggle("held", held >= 0);
    lab.setAttribute("data-holder", held);
    lab.style.fill = held >= 0 ? COLOURS[held % 6] : "";
    const text = `${c.name} +${c.bonus}` + (held >= 0 ? ` (${seatName(held)})` : "");
    if (lab.textContent !== text) { lab.textContent = text; moved = true; }
  });
  if (moved) layoutLabels();
}
