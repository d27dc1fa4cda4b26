// Majlis tournament page: the bracket of a tournament, drawn from /api/tournament, asked again every
// few seconds while the tournament is open. Every word comes from the server (the bot's catalogs).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.hash.slice(1)).get("k");
  const EVERY = 10000;

  function text(id, value) { $(id).textContent = value || ""; }
  function make(tag, cls, words) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (words !== undefined) e.textContent = words;
    return e;
  }

  function side(s, done) {
    const cls = !s.name ? "side empty" : s.won ? "side won" : s.out ? "side out" : done ? "side lost" : "side";
    const e = make("div", cls, s.name || "—");
    e.setAttribute("dir", "auto");
    return e;
  }

  function draw(p) {
    document.documentElement.lang = p.lang;
    document.documentElement.dir = p.rtl ? "rtl" : "ltr";
    document.title = p.title;
    $("tournament").classList.remove("loading");
    text("title", p.title);
    text("status", p.status);
    text("organiser", p.organiser);
    text("ai", p.ai);
    text("refresh", p.open ? p.refresh : "");
    const reg = p.registered;
    $("registered").hidden = !reg;
    if (reg) {
      text("regtitle", reg.title);
      $("reglist").replaceChildren(...reg.items.map((it) => {
        const li = make("li", it.checked ? "checked" : "", it.name);
        li.setAttribute("dir", "auto");
        if (it.checked) li.title = reg.checked;
        if (it.wanted) li.append(" ", make("span", "wanted", reg.wanted));
        return li;
      }));
    }
    const st = p.standings;
    $("standings").hidden = !st;
    if (st) {
      text("sttitle", st.title);
      $("sthead").replaceChildren(make("th", "", ""), ...st.head.map((h) => make("th", "", h)));
      $("stbody").replaceChildren(...st.rows.map((r) => {
        const tr = make("tr");
        const pair = make("td", "pair", r.pair);
        pair.setAttribute("dir", "auto");
        tr.append(make("td", "rank", r.rank), pair, make("td", "num", r.points), make("td", "num", r.buchholz));
        return tr;
      }));
    }
    $("bracket").replaceChildren(...p.rounds.map((r) => {
      const col = make("section", r.now ? "round now" : "round");
      col.append(make("h2", "", r.title));
      const list = make("div", "matches");
      for (const m of r.matches) {
        const card = make("article", "match" + (m.live ? " live" : "") + (m.done ? " done" : "") +
          (m.review ? " review" : ""));
        const label = make("span", "label", m.label);
        label.setAttribute("dir", "ltr");
        const sides = m.seats ? m.seats : [m.a, m.b];  // a Trix pool lists its four
        card.append(label, ...sides.map((s) => side(s, m.done || m.review)), make("div", "state", m.state));
        list.append(card);
      }
      col.append(list);
      return col;
    }));
  }

  function denied() {
    fetch(`/api/words?lang=${encodeURIComponent(navigator.language || "")}`).then((r) => r.json()).then((w) => {
      document.documentElement.lang = w.lang;
      document.documentElement.dir = w.rtl ? "rtl" : "ltr";
      $("tournament").classList.remove("loading");
      $("tournament").classList.add("denied");
      text("title", w.ui.tournament_denied);
      document.body.dataset.denied = "1";
    }).catch(() => { text("title", "403"); document.body.dataset.denied = "1"; });
  }

  function load() {
    if (!token) { denied(); return; }
    fetch(`/api/tournament?k=${encodeURIComponent(token)}`, { cache: "no-store" }).then((r) => {
      if (r.status === 401 || r.status === 403 || r.status === 404) { denied(); return null; }
      return r.ok ? r.json() : null;
    }).then((p) => {
      if (!p) return;
      draw(p);
      document.body.dataset.ready = "1";
      if (p.open) setTimeout(load, EVERY);
    }).catch(() => setTimeout(load, EVERY));
  }
  load();
})();
