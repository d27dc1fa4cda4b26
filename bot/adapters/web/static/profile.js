// Majlis profile page: draws a person's figures and their season rating as an SVG line chart.
// Every word comes from the server (the bot's catalogs); nothing is fetched from anywhere but this site.
// The chart's time runs left to right in both languages (oldest on the left, like the chat card's
// sparkline); its ends say "oldest" and "latest" in the page's language.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  let digits = "western";
  let data = null;

  function num(n) {
    const s = String(n).replace("-", "\u2212");
    return digits === "arabic" ? s.replace(/[0-9]/g, (d) => "٠١٢٣٤٥٦٧٨٩"[d]) : s;
  }
  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function label(parent, x, y, words, anchor, cls) {
    const t = el("text", { x: x.toFixed(1), y: y.toFixed(1), "text-anchor": anchor }, parent);
    if (cls) t.setAttribute("class", cls);
    t.textContent = words;
    return t;
  }
  function text(id, value) { $(id).textContent = value || ""; }

  // A rounded step for the rating axis: 3 to 5 grid lines over the values' range.
  function step(span) {
    const raw = Math.max(span, 10) / 4;
    const mag = 10 ** Math.floor(Math.log10(raw));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
    return 10 * mag;
  }

  function drawChart(chart) {
    const box = $("chart");
    box.replaceChildren();
    const width = Math.max(260, Math.round(box.clientWidth || 600));
    const height = width < 500 ? 190 : 230;
    const left = 44, right = 14, top = 22, bottom = 30;
    const pw = width - left - right, ph = height - top - bottom;
    const pts = chart.points;
    const lo0 = Math.min(...pts), hi0 = Math.max(...pts);
    const st = step(hi0 - lo0);
    const lo = Math.floor(lo0 / st) * st - (hi0 === lo0 ? st : 0);
    const hi = Math.ceil(hi0 / st) * st + (hi0 === lo0 ? st : 0);
    const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: width, height: height, role: "img",
      "aria-label": chart.title + " · " + chart.label }, box);
    const y = (v) => top + ph - (ph * (v - lo)) / (hi - lo || 1);
    const x = (i) => left + (pts.length === 1 ? pw / 2 : (pw * i) / (pts.length - 1));
    for (let v = lo; v <= hi + st / 2; v += st) {
      el("line", { class: "grid", x1: left, x2: left + pw, y1: y(v), y2: y(v) }, svg);
      label(svg, left - 6, y(v) + 4, num(Math.round(v)), "end");
    }
    el("line", { class: "axis", x1: left, x2: left + pw, y1: top + ph, y2: top + ph }, svg);
    // where each season begins: a dashed line and its name (the first season's at the left edge)
    const seasons = chart.seasons || [];
    let lastLabelEnd = -Infinity;
    seasons.forEach((s, i) => {
      if (i > 0 && s === seasons[i - 1]) return;
      const at = i === 0 ? left : (x(i - 1) + x(i)) / 2;
      if (i > 0) el("line", { class: "season", x1: at, x2: at, y1: top - 6, y2: top + ph }, svg);
      const name = chart.season_names[String(s)];
      if (name && at + 4 > lastLabelEnd) {
        const t = label(svg, at + 4, top - 8, name, "start", "seasonname");
        lastLabelEnd = at + 4 + t.getComputedTextLength() + 8;
      }
    });
    const path = pts.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    if (pts.length > 1) {
      el("path", { class: "area", d: `${path} L${x(pts.length - 1).toFixed(1)},${top + ph} L${left},${top + ph} Z` },
        svg);
      el("path", { class: "line", d: path }, svg);
    }
    pts.forEach((v, i) => {
      const last = i === pts.length - 1;
      const c = el("circle", { class: last ? "pt last" : "pt", cx: x(i).toFixed(1), cy: y(v).toFixed(1),
        r: last ? 5 : (pts.length > 20 ? 2.5 : 3.5), "data-value": String(v) }, svg);
      el("title", {}, c).textContent = num(Math.round(v));
    });
    const lastX = x(pts.length - 1), lastY = y(pts[pts.length - 1]);
    label(svg, Math.min(lastX, left + pw), lastY - 10, num(Math.round(pts[pts.length - 1])), "end", "value");
    label(svg, left, height - 8, chart.oldest, "start", "end-oldest");
    label(svg, left + pw, height - 8, chart.latest, "end", "end-latest");
    svg.dataset.points = String(pts.length);
  }

  // A champion's cup, drawn here (no emoji font needed).
  function cup() {
    const svg = el("svg", { viewBox: "0 0 24 24", width: 18, height: 18, class: "cup", "aria-hidden": "true" });
    el("path", { d: "M7 3h10v3h3a1 1 0 0 1 1 1c0 3-2 5-4.6 5.4A5 5 0 0 1 13 15.9V18h3v3H8v-3h3v-2.1A5 5 0 0 1 " +
      "7.6 12.4C5 12 3 10 3 7a1 1 0 0 1 1-1h3zm10 5v2.3c1.2-.4 2-1.2 2.2-2.3zM5 8c.2 1.1 1 1.9 2 2.3V8z" }, svg);
    return svg;
  }

  function drawGames(games) {
    const box = $("games");
    box.replaceChildren();
    for (const g of games) {
      const card = document.createElement("article");
      card.className = "box game";
      card.dataset.game = g.game;
      const h = document.createElement("h2");
      h.textContent = g.name;
      card.appendChild(h);
      const dl = document.createElement("dl");
      for (const tile of g.tiles) {
        const d = document.createElement("div");
        const dt = document.createElement("dt");
        dt.textContent = tile.label;
        const dd = document.createElement("dd");
        dd.textContent = tile.value;
        d.append(dt, dd);
        dl.appendChild(d);
      }
      card.appendChild(dl);
      for (const n of g.notes) {
        const p = document.createElement("p");
        p.textContent = n;
        card.appendChild(p);
      }
      box.appendChild(card);
    }
  }

  function show(p) {
    data = p;
    digits = p.digits;
    document.documentElement.lang = p.lang;
    document.documentElement.dir = p.rtl ? "rtl" : "ltr";
    document.title = p.title;
    text("title", p.title);
    text("summary", p.summary);
    text("streak", p.streak);
    $("chartbox").hidden = !p.chart;
    if (p.chart) {
      text("charttitle", p.chart.title);
      text("chartnote", p.chart.label);
      drawChart(p.chart);
    }
    drawGames(p.games);
    $("more").hidden = false;
    text("partner", p.partner);
    text("bestdeal", p.best_deal);
    text("badgestitle", p.ui.badges);
    const ul = $("badges");
    ul.replaceChildren();
    for (const b of p.badges) {
      const li = document.createElement("li");
      li.appendChild(cup());
      const span = document.createElement("span");
      span.textContent = b;
      li.appendChild(span);
      ul.appendChild(li);
    }
    if (!p.badges.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = p.ui.no_badges;
      ul.appendChild(li);
    }
    $("profile").className = "";
    document.body.dataset.ready = "1";
  }

  function deny() {
    $("profile").className = "denied";
    fetch(`/api/words?lang=${encodeURIComponent(navigator.language || "")}`).then((r) => r.json()).then((w) => {
      document.documentElement.lang = w.lang;
      document.documentElement.dir = w.rtl ? "rtl" : "ltr";
      text("title", w.ui.profile_denied);
      document.body.dataset.denied = "1";
    }).catch(() => { text("title", "403"); document.body.dataset.denied = "1"; });
  }

  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (data && data.chart) drawChart(data.chart); }, 100);
  });

  const token = new URLSearchParams(location.hash.slice(1)).get("k");
  if (!token) deny();
  else {
    const hint = encodeURIComponent(navigator.language || "");
    fetch(`/api/profile?k=${encodeURIComponent(token)}&lang=${hint}`, { cache: "no-store" }).then((r) => {
      if (!r.ok) { deny(); return null; }
      return r.json();
    }).then((p) => { if (p) show(p); }).catch(deny);
  }
})();
