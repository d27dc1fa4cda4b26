// Majlis web table: draws what the server sends, sends the moves the viewer makes.
// Every word shown comes from the server (the bot's catalogs); every legal move from the engine's
// view. Nothing is fetched from anywhere but this site.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const RED = { H: true, D: true };
  const $ = (id) => document.getElementById(id);
  let ui = {};
  let state = null;
  let digits = "western";
  let rtl = true;
  let ws = null;
  let token = null;
  let lastSeq = -1;
  let deadlineAt = null;
  let showLast = false;
  let pending = false;
  let retry = 0;
  let gotMessage = false;
  let stopped = false;
  let langHint = "";
  let conns = 0;

  // -- drawing cards -------------------------------------------------------------------------------
  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // Suit shapes drawn in a 100 x 100 box.
  function pip(suit, parent, x, y, size) {
    const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 100})`,
      fill: RED[suit] ? "#c62828" : "#1b1b1b" }, parent);
    if (suit === "H") {
      el("path", { d: "M50 92C22 68 2 50 2 29 2 13 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 11 26 27 0 21-20 39-48 63z" }, g);
    } else if (suit === "D") {
      el("path", { d: "M50 2 88 50 50 98 12 50z" }, g);
    } else if (suit === "S") {
      el("path", { d: "M50 2C78 28 98 44 98 62c0 15-11 25-24 25-9 0-16-5-20-12 1 11 5 18 12 25H34c7-7 11-14 12-25-4 7-11 12-20 12C13 87 2 77 2 62 2 44 22 28 50 2z" }, g);
    } else {
      el("circle", { cx: 50, cy: 27, r: 22 }, g);
      el("circle", { cx: 25, cy: 60, r: 22 }, g);
      el("circle", { cx: 75, cy: 60, r: 22 }, g);
      el("path", { d: "M44 50h12c0 22 4 36 12 48H32c8-12 12-26 12-48z" }, g);
    }
    return g;
  }
  function cardFace(c) {
    const s = el("svg", { viewBox: "0 0 60 84", role: "img", "aria-hidden": "true", focusable: "false" });
    el("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fffdf7", stroke: "#8a8a8a" }, s);
    const colour = RED[c.suit] ? "#c62828" : "#1b1b1b";
    const t1 = el("text", { x: 6, y: 16, "font-size": c.rank.length > 1 ? 12 : 14, "font-weight": "bold",
      fill: colour, "font-family": "DejaVu Sans, sans-serif" }, s);
    t1.textContent = c.rank;
    pip(c.suit, s, 5, 19, 11);
    const t2 = el("text", { x: 54, y: 68, "font-size": c.rank.length > 1 ? 12 : 14, "font-weight": "bold",
      fill: colour, "text-anchor": "end", "font-family": "DejaVu Sans, sans-serif",
      transform: "rotate(180 48 72)" }, s);
    t2.textContent = c.rank;
    pip(c.suit, s, 15, 26, 32);
    return s;
  }
  function cardBack() {
    const s = el("svg", { viewBox: "0 0 60 84", "aria-hidden": "true", focusable: "false" });
    el("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#7b1f2a", stroke: "#f2c14e" }, s);
    el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, fill: "none", stroke: "#f2c14e", "stroke-width": 1.5 }, s);
    el("path", { d: "M30 16 46 42 30 68 14 42z", fill: "none", stroke: "#f2c14e", "stroke-width": 1.5 }, s);
    return s;
  }
  function cardEl(c, tag, label) {
    const d = document.createElement(tag || "div");
    d.className = "card";
    d.dataset.code = c.code;
    d.setAttribute("aria-label", label || c.name);
    if (tag !== "button") d.setAttribute("role", "img");
    d.appendChild(cardFace(c));
    return d;
  }

  // -- numbers and time ----------------------------------------------------------------------------
  function num(n) {
    const s = String(n);
    return digits === "arabic" ? s.replace(/[0-9]/g, (d) => "٠١٢٣٤٥٦٧٨٩"[d]) : s;
  }
  function text(id, value) { $(id).textContent = value || ""; }

  // -- positions: you at the bottom, the next seat to your right, your partner across ----------------
  function me() { return state && state.me !== null && state.me !== undefined ? state.me : 0; }
  function pos(seat) { return (seat - me() + 4) % 4; }

  // -- the device: touch or a mouse; what one tap does; motion -------------------------------------
  const coarse = window.matchMedia("(pointer: coarse)").matches || window.matchMedia("(hover: none)").matches;
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  function oneTap() {
    let v = null;
    try { v = localStorage.getItem("majlis.oneTap"); } catch (e) { /* storage off */ }
    return v === null ? !coarse : v === "1";  // a mouse click plays; a tap raises first
  }
  let raised = null;  // the code of the card raised by a first tap
  let prevTrick = [];  // the trick on the table before this state (for the motion to the winner)
  let prevLast = "";
  let panelShown = null;  // the id of the result panel on screen (or shown already)
  let panelTimer = null;
  let finalClosed = false;
  let errorTimer = null;
  // a hint or a review, for this reader alone: {kind, text, version, action, refused, waiting}
  let advice = null;
  let asking = null;  // "hint" or "review" while the server thinks
  let askedInPanel = false;  // the review was asked from the result panel (its answer goes there)

  // -- rendering -----------------------------------------------------------------------------------
  function face(initials, cls) {
    const f = document.createElement("span");
    f.className = "face" + (cls ? " " + cls : "");
    f.setAttribute("aria-hidden", "true");
    f.textContent = initials;
    return f;
  }
  function render() {
    if (!state) return;
    const s = state;
    document.documentElement.lang = s.rtl ? "ar" : "en";
    document.documentElement.dir = s.rtl ? "rtl" : "ltr";
    text("title", s.title);
    document.title = s.title + " · " + (ui.title || "Majlis");
    text("banner", s.banner);
    text("casual", s.casual);
    for (const seat of s.seats) {
      const box = $("seat-" + pos(seat.seat));
      box.replaceChildren();
      box.dataset.seat = seat.seat;
      box.classList.toggle("turn", s.to_act === seat.seat);
      box.classList.toggle("team-1", seat.team === 1);
      const f = face(seat.initials, seat.team_name ? "" : "seat-" + seat.seat);
      if (seat.team_name) f.title = seat.team_name;
      box.appendChild(f);
      const words = document.createElement("div");
      words.className = "words";
      const name = document.createElement("div");
      name.className = "name";
      name.textContent = seat.name;
      words.appendChild(name);
      const badges = document.createElement("div");
      badges.className = "badges";
      for (const b of seat.badges) {
        const span = document.createElement("span");
        span.textContent = b;
        badges.appendChild(span);
      }
      words.appendChild(badges);
      box.appendChild(words);
      if (pos(seat.seat) !== 0 || s.me === null) {
        const backs = document.createElement("span");
        backs.className = "backs";
        backs.appendChild(cardBack());
        const n = document.createElement("span");
        n.textContent = num(seat.cards);
        backs.appendChild(n);
        backs.setAttribute("role", "img");
        backs.setAttribute("aria-label", seat.cards_text);
        box.appendChild(backs);
      }
      box.setAttribute("aria-label", [seat.name, ...(seat.team_name ? [seat.team_name] : []), ...seat.badges].join(", ") +
        (s.to_act === seat.seat ? ", " + (ui.turn_of || "") : ""));
    }
    // the trick, and the last one carried to its winner
    const trick = $("trick");
    trick.replaceChildren();
    trick.setAttribute("aria-label", ui.trick || "");
    for (const p of s.trick) {
      const c = cardEl(p, "div", p.aria || p.name);
      c.classList.add("at-" + pos(p.seat));
      trick.appendChild(c);
    }
    const lastKey = s.last_trick ? s.last_trick.cards.map((c) => c.code).join(" ") : "";
    if (lastKey && lastKey !== prevLast && s.trick.length === 0 && prevTrick.length) sweep(s.last_trick);
    prevLast = lastKey;
    prevTrick = s.trick.map((p) => p.code);
    // the Trix layout: a row of cards per suit
    const lay = $("layout");
    lay.replaceChildren();
    lay.hidden = !s.layout.length;
    document.body.dataset.layout = s.layout.length ? "1" : "";
    for (const row of s.layout) {
      const r = document.createElement("div");
      r.className = "layout-row";
      r.dataset.suit = row.suit;
      r.setAttribute("role", "img");
      r.setAttribute("aria-label", row.name + ": " + row.cards.map((c) => c.label).join(" "));
      const head = el("svg", { viewBox: "0 0 100 100", class: "pip", "aria-hidden": "true" });
      pip(row.suit, head, 0, 0, 100);
      r.appendChild(head);
      const cards = document.createElement("div");
      cards.className = "layout-cards";
      row.cards.forEach((c, i) => {  // each card in its rank's column, so that the rows line up
        const e = cardEl(c, "div");
        if (i === 0) e.style.marginLeft = `calc(var(--lw) * 0.6 * ${"23456789TJQKA".indexOf(c.code[0])})`;
        cards.appendChild(e);
      });
      if (!row.cards.length) {
        const none = document.createElement("span");
        none.className = "none";
        none.textContent = "—";
        cards.appendChild(none);
      }
      r.appendChild(cards);
      lay.appendChild(r);
    }
    const last = $("lasttrick");
    last.replaceChildren();
    if (showLast && s.last_trick) {
      for (const p of s.last_trick.cards) {
        const c = cardEl(p, "div", p.aria || p.name);
        c.classList.add("at-" + pos(p.seat));
        last.appendChild(c);
      }
      const cap = document.createElement("div");
      cap.className = "caption";
      cap.textContent = s.last_trick.text;
      last.appendChild(cap);
      last.hidden = false;
    } else {
      last.hidden = true;
    }
    const lb = $("lastbtn");
    lb.textContent = showLast ? ui.hide_last_trick : ui.last_trick;
    lb.hidden = !s.last_trick || !!s.layout.length;
    lb.dataset.cards = lastKey;
    lb.setAttribute("aria-pressed", showLast ? "true" : "false");
    text("result", s.result);
    const rl = $("replaylink");
    rl.replaceChildren();
    if (s.replay) rl.appendChild(replayAnchor(s.replay, "replay-a"));
    text("turn", s.turn);
    text("prompt", s.prompt);
    deadlineAt = s.deadline_in !== null && s.deadline_in !== undefined ? performance.now() + s.deadline_in * 1000 : null;
    tick();
    // actions (bids, contracts, doubles, pass, done)
    const acts = $("actions");
    acts.replaceChildren();
    for (const a of s.actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = a.style;
      b.textContent = a.label;
      b.dataset.action = a.code;
      b.addEventListener("click", () => send(a.code));
      if (a.code === hinted(s)) b.classList.add("hinted");
      acts.appendChild(b);
    }
    drawHand(s);
    drawAdvice(s);
    // trump, exposed card (in the felt's corner), game lines, scores, sheet
    const tb = $("trumpbox");
    tb.replaceChildren();
    if (s.trump && s.trump.suit && s.trump.suit !== "N") {
      const item = document.createElement("div");
      item.className = "item chip";
      item.setAttribute("aria-label", ui.trump + ": " + s.trump.label);
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = ui.trump;
      item.appendChild(label);
      const p = el("svg", { viewBox: "0 0 100 100", class: "pip", "aria-hidden": "true" });
      pip(s.trump.suit, p, 0, 0, 100);
      item.appendChild(p);
      const nm = document.createElement("span");
      nm.textContent = s.trump.name;
      item.appendChild(nm);
      tb.appendChild(item);
    } else if (s.contract) {
      const item = document.createElement("div");
      item.className = "item chip";
      item.textContent = s.contract;
      tb.appendChild(item);
    }
    if (s.exposed) {
      const item = document.createElement("div");
      item.className = "item chip";
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = ui.exposed;
      item.appendChild(label);
      item.appendChild(cardEl(s.exposed, "div", ui.exposed + ": " + s.exposed.name));
      tb.appendChild(item);
    }
    list("info", s.info);
    list("scores", s.target ? [...s.scores, s.target] : s.scores);
    text("sheettitle", ui.sheet);
    const table = $("sheet");
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const h of s.sheet.heads) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const row of s.sheet.rows) {
      const tr = body.insertRow();
      row.forEach((v) => { tr.insertCell().textContent = v; });
    }
    if (s.sheet.totals.length) {
      const tr = table.createTFoot().insertRow();
      tr.insertCell().textContent = ui.total;
      s.sheet.totals.forEach((v) => { tr.insertCell().textContent = v; });
    }
    text("logtitle", ui.log);
    if (s.final && !finalClosed) showPanel(s.final);
    document.body.dataset.table = String(s.table);
    document.body.dataset.version = String(s.version);
    document.body.dataset.phase = s.phase || "";
    document.body.dataset.over = s.over ? "1" : "";
  }
  function replayAnchor(href, id) {
    const a = document.createElement("a");
    a.href = href;
    a.id = id;
    a.textContent = ui.watch_replay;
    a.addEventListener("click", () => { stopped = true; });
    return a;
  }

  // -- the hand: a tap raises a card, a second tap (or Play) plays it; one tap where so set ----------
  function drawHand(s) {
    const hand = $("hand");
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.code : null;
    hand.replaceChildren();
    hand.setAttribute("aria-label", ui.your_hand || "");
    const myTurn = s.hand.some((c) => c.playable);
    hand.classList.toggle("myturn", myTurn);
    hand.classList.toggle("touch", !oneTap());
    if (!s.hand.some((c) => c.code === raised && c.playable)) raised = null;
    // two rows on a narrow screen, so that every card is a target of at least 44 px
    const rows = window.matchMedia("(max-width: 600px)").matches && s.hand.length > 7 ? 2 : 1;
    const per = Math.ceil(s.hand.length / rows);
    let row = null;
    let first = null;
    s.hand.forEach((c, i) => {
      if (i % per === 0) {
        row = document.createElement("div");
        row.className = "hand-row";
        hand.appendChild(row);
      }
      const b = cardEl(c, "button", c.name);
      b.type = "button";
      b.tabIndex = -1;
      if (c.playable) {
        b.classList.add("playable");
        if (!first) first = b;
      } else {
        b.setAttribute("aria-disabled", "true");
      }
      if (c.code === raised) b.classList.add("raised");
      if ("play " + c.code === hinted(s)) b.classList.add("hinted");
      b.addEventListener("click", (ev) => tapCard(c, ev.detail === 0));
      row.appendChild(b);
    });
    const cards = hand.querySelectorAll(".card");
    const again = focused ? hand.querySelector(`[data-code="${focused}"]`) : null;
    const target = (again && again.classList.contains("playable")) ? again : first || cards[0];
    if (target) target.tabIndex = 0;
    if (myTurn && hand.contains(document.activeElement) === false && focused) {
      if (target) target.focus();
    }
    const pb = $("playbtn");
    const r = s.hand.find((c) => c.code === raised);
    pb.hidden = !r;
    pb.textContent = r ? (ui.play || "") + " " + r.label : "";
    text("onetaptext", ui.one_tap);
    $("onetapbox").checked = oneTap();
    $("handbar").hidden = !s.hand.length;
    const hb = $("hintbtn");
    hb.textContent = ui.hint || "";
    hb.hidden = !s.can_hint;
    hb.disabled = !!asking;
    const rb = $("reviewbtn");
    rb.textContent = ui.review || "";
    rb.hidden = !s.can_review;
    rb.disabled = !!asking;
    text("keys", s.hand.length && !coarse ? ui.keys : "");
  }
  function tapCard(c, keyboard) {
    if (!c.playable) {  // the table says why not (must follow suit, not your turn ...), nothing changes
      send("play " + c.code);
      return;
    }
    if (keyboard || oneTap() || raised === c.code) {
      raised = null;
      send("play " + c.code);
      return;
    }
    raised = c.code;
    showError(ui.tap_again || "", true);
    drawHand(state);
  }
  $("playbtn").addEventListener("click", () => {
    if (raised) { const code = raised; raised = null; send("play " + code); }
  });
  $("onetapbox").addEventListener("change", (ev) => {
    try { localStorage.setItem("majlis.oneTap", ev.target.checked ? "1" : "0"); } catch (e) { /* storage off */ }
    raised = null;
    if (state) drawHand(state);
  });
  function showError(msg, hint) {
    const e = $("error");
    e.textContent = msg || "";
    e.classList.toggle("hint", !!hint);
    if (errorTimer) clearTimeout(errorTimer);
    if (msg) errorTimer = setTimeout(() => { e.textContent = ""; }, hint ? 2500 : 4500);
  }

  // -- Hint and Review: asked of the server for this page's seat, answered to this page alone -----------
  function hinted(s) {  // the action code the hint on screen suggests (for this position only)
    return advice && advice.kind === "hint" && !advice.refused && !advice.waiting && advice.version === s.version
      ? advice.action : null;
  }
  function ask(kind, inPanel) {
    if (!ws || ws.readyState !== 1 || !state || asking || state.me === null) return;
    asking = kind;
    askedInPanel = !!inPanel && !$("panel").hidden;
    const waiting = { kind: kind, text: ui.thinking || "…", version: state.version, waiting: true };
    if (askedInPanel) {
      panelReview(waiting);
      if (panelTimer) { clearTimeout(panelTimer); panelTimer = null; }  // being read: it stays until closed
      $("panelbar").hidden = true;
    } else {
      advice = waiting;
    }
    ws.send(JSON.stringify({ type: kind, version: state.version }));
    render();
  }
  function answered(a) {  // an advice message, or a refusal of what was asked
    const inPanel = askedInPanel && !$("panel").hidden;
    asking = null;
    askedInPanel = false;
    if (inPanel) {
      panelReview(a);
    } else {
      advice = a;
      if (a.kind === "hint" && !a.refused && state && a.version === state.version &&
          a.action && a.action.startsWith("play ")) {
        raised = a.action.slice(5);  // the suggested card stands up: Play (or a tap on it) plays it
      }
    }
    render();
  }
  function panelReview(a) {
    const p = $("panelreview");
    p.textContent = a ? a.text : "";
    p.classList.toggle("waiting", !!(a && a.waiting));
    p.classList.toggle("refused", !!(a && a.refused));
    p.dataset.code = a && a.code ? a.code : "";
    for (const b of $("panelbtns").querySelectorAll("#panelreviewbtn")) {
      b.disabled = !!(a && a.waiting);
      b.hidden = !!(a && !a.waiting && !a.refused);  // answered: the same deal gives the same answer
    }
  }
  function drawAdvice(s) {
    // a hint is about one position: it goes once the table moves on
    if (advice && advice.kind === "hint" && advice.version !== s.version && !advice.waiting) advice = null;
    const box = $("advice");
    box.hidden = !advice;
    box.dataset.kind = advice ? advice.kind : "";
    box.classList.toggle("waiting", !!(advice && advice.waiting));
    box.classList.toggle("refused", !!(advice && advice.refused));
    box.dataset.code = advice && advice.code ? advice.code : "";
    text("advicetext", advice ? advice.text : "");
    const close = $("adviceclose");
    close.textContent = "×";
    close.setAttribute("aria-label", ui.close || "×");
    close.hidden = !!(advice && advice.waiting);
  }
  $("hintbtn").addEventListener("click", () => ask("hint", false));
  $("reviewbtn").addEventListener("click", () => ask("review", false));
  $("adviceclose").addEventListener("click", () => {
    advice = null;
    render();
  });

  // -- the last trick goes to its winner -----------------------------------------------------------------
  function sweep(lastTrick) {
    const layer = $("sweep");
    layer.replaceChildren();
    if (calm.matches) return;
    const to = pos(lastTrick.winner);
    for (const p of lastTrick.cards) {
      const c = cardEl(p, "div");
      c.classList.add("at-" + pos(p.seat));
      layer.appendChild(c);
    }
    layer.className = "";
    layer.dataset.to = String(to);
    setTimeout(() => { layer.className = "go to-" + to; }, 650);  // a moment to see the fourth card
    setTimeout(() => { layer.replaceChildren(); layer.className = ""; }, 1150);
  }

  // -- the result of a deal, and of the match, in a panel of its own -------------------------------
  function showPanel(p) {
    const key = p.kind === "match" ? "match" : String(p.id);
    if (panelShown === key && !$("panel").hidden) return;
    panelShown = key;
    const box = $("panel");
    box.dataset.kind = p.kind;
    box.dataset.mood = p.mood || "";
    text("paneltitle", p.title);
    const lines = $("panellines");
    lines.replaceChildren();
    for (const l of p.lines) {
      const d = document.createElement("p");
      d.textContent = l;
      lines.appendChild(d);
    }
    const table = $("paneltable");
    table.replaceChildren();
    if (p.heads.length) {
      const hr = table.createTHead().insertRow();
      for (const h of p.heads) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = h;
        hr.appendChild(th);
      }
      const body = table.createTBody();
      for (const row of p.rows) {
        const tr = body.insertRow();
        tr.dataset.seat = row.seat === undefined ? "" : String(row.seat);
        if (row.won) tr.className = "won";
        const who = tr.insertCell();
        who.className = "who";
        for (const f of row.faces || [row]) {
          who.appendChild(face(f.initials, p.partners === false ? "seat-" + f.seat : (f.team ? "team-1" : "")));
        }
        const nm = document.createElement("span");
        nm.textContent = row.name;
        who.appendChild(nm);
        row.cells.forEach((v, i) => {
          const td = tr.insertCell();
          td.textContent = v;
          if (p.kind !== "match" && i === row.cells.length - 2) {
            td.className = row.delta > 0 ? "up" : row.delta < 0 ? "down" : "";
          }
        });
      }
    }
    const btns = $("panelbtns");
    btns.replaceChildren();
    text("panelnote", "");
    panelReview(null);
    if (askedInPanel) askedInPanel = false;  // an answer still on its way goes beside the hand
    const bar = $("panelbar");
    if (panelTimer) { clearTimeout(panelTimer); panelTimer = null; }
    if (p.kind === "match") {
      bar.hidden = true;
      for (const a of p.again || []) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = a.swap ? "secondary" : "primary";
        b.dataset.rematch = a.swap ? "swap" : "same";
        b.textContent = a.label;
        b.addEventListener("click", () => rematch(a.swap));
        btns.appendChild(b);
      }
      if (state && state.replay) btns.appendChild(replayAnchor(state.replay, "panel-replay"));
      if (state && state.can_review) btns.appendChild(reviewButton());
      const close = document.createElement("button");
      close.type = "button";
      close.className = "secondary";
      close.id = "panelclose";
      close.textContent = ui.close || "×";
      close.addEventListener("click", () => { finalClosed = true; hidePanel(); });
      btns.appendChild(close);
    } else {
      bar.hidden = false;
      const i = bar.firstElementChild;
      i.style.transition = "none";
      i.style.width = "100%";
      void i.offsetWidth;
      i.style.transition = `width ${p.seconds}s linear`;
      i.style.width = "0%";
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.id = "nextdeal";
      b.textContent = p.next;
      b.addEventListener("click", () => {
        if (ws && ws.readyState === 1 && state && state.me !== null) ws.send(JSON.stringify({ type: "next" }));
        hidePanel();
      });
      btns.appendChild(b);
      if (p.kind === "deal" && state && state.can_review) btns.appendChild(reviewButton());
      panelTimer = setTimeout(hidePanel, p.seconds * 1000);
    }
    box.hidden = false;
    document.body.dataset.panel = p.kind;
    const focusMe = btns.querySelector("button");
    if (focusMe) focusMe.focus();
  }
  function reviewButton() {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.id = "panelreviewbtn";
    b.textContent = ui.review || "";
    b.disabled = !!asking;
    b.addEventListener("click", () => ask("review", true));
    return b;
  }
  function hidePanel() {
    if (panelTimer) { clearTimeout(panelTimer); panelTimer = null; }
    $("panel").hidden = true;
    document.body.dataset.panel = "";
  }
  function rematch(swap) {
    if (!ws || ws.readyState !== 1) return;
    text("panelnote", ui.rematch_wait || "");
    for (const b of $("panelbtns").querySelectorAll("button[data-rematch]")) b.disabled = true;
    ws.send(JSON.stringify({ type: "rematch", swap: !!swap }));
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !$("panel").hidden) {
      if ($("panel").dataset.kind === "match") finalClosed = true;
      hidePanel();
    }
  });

  function list(id, items) {
    const ul = $(id);
    ul.replaceChildren();
    for (const x of items || []) {
      const li = document.createElement("li");
      li.textContent = x;
      ul.appendChild(li);
    }
  }
  function addLog(lines) {
    const ol = $("log");
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      ol.appendChild(li);
    }
    while (ol.children.length > 60) ol.removeChild(ol.firstChild);
    ol.scrollTop = ol.scrollHeight;
  }
  function tick() {
    const t = $("timer");
    if (deadlineAt === null || !state || state.over) { t.textContent = ""; return; }
    const left = Math.max(0, Math.ceil((deadlineAt - performance.now()) / 1000));
    t.textContent = "⏱ " + num(left);
  }
  setInterval(tick, 250);

  // -- keyboard: arrows move between cards, Enter or Space plays -------------------------------------
  $("hand").addEventListener("keydown", (ev) => {
    const cards = Array.from($("hand").querySelectorAll(".card"));
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let step = 0;
    if (ev.key === "ArrowRight") step = 1;  // the hand is laid out left to right in both languages
    if (ev.key === "ArrowLeft") step = -1;
    if (ev.key === "Home") step = -i;
    if (ev.key === "End") step = cards.length - 1 - i;
    if (!step) return;
    ev.preventDefault();
    const j = Math.max(0, Math.min(cards.length - 1, i + step));
    cards[i].tabIndex = -1;
    cards[j].tabIndex = 0;
    cards[j].focus();
  });
  $("lastbtn").addEventListener("click", () => { showLast = !showLast; render(); });
  $("panel").addEventListener("click", (ev) => {  // a tap beside the panel closes it
    if (ev.target === $("panel")) {
      if ($("panel").dataset.kind === "match") finalClosed = true;
      hidePanel();
    }
  });

  // -- the connection --------------------------------------------------------------------------------
  function send(action) {
    if (!ws || ws.readyState !== 1 || !state || pending) return;
    pending = true;
    showError("");
    ws.send(JSON.stringify({ type: "act", version: state.version, action: action }));
  }
  function onMessage(ev) {
    gotMessage = true;
    retry = 0;
    const m = JSON.parse(ev.data);
    if (m.type === "hello") {
      ui = m.ui;
      digits = m.digits;
      rtl = m.rtl;
      document.documentElement.lang = m.lang;
      document.documentElement.dir = m.rtl ? "rtl" : "ltr";
      $("app").className = "";
      document.body.dataset.conn = String(++conns);
      return;
    }
    if (m.type === "state") {
      if (m.seq < lastSeq) return;  // older than what is shown
      if (state && m.state.version < state.version && m.state.table === state.table) return;
      lastSeq = m.seq;
      state = m.state;
      pending = false;
      render();
      if (m.log && m.log.length) addLog(m.log);
      if (m.panel) showPanel(m.panel);
      return;
    }
    if (m.type === "advice") {
      answered({ kind: m.kind, text: m.text, version: m.version, action: m.action });
      return;
    }
    if (m.type === "error" && m.about) {  // a hint or review refused (hints off, busy, not your turn ...)
      answered({ kind: m.about, text: m.text, version: state ? state.version : -1, refused: true, code: m.code });
      return;
    }
    if (m.type === "error") {
      pending = false;
      showError(m.text);
      if (!$("panel").hidden && $("panel").dataset.kind === "match") {
        text("panelnote", m.text);
        for (const b of $("panelbtns").querySelectorAll("button[data-rematch]")) b.disabled = false;
      }
      return;
    }
    if (m.type === "moved") {  // Play again: the new match is at another table; this page follows it
      token = m.token;
      history.replaceState(null, "", "#k=" + encodeURIComponent(token));
      follow();
      return;
    }
    if (m.type === "rematched") {  // Play again went to the chat, where the new table is
      text("panelnote", ui.rematch_sent || "");
    }
  }
  function follow() {
    const old = ws;
    ws = null;
    state = null;
    lastSeq = -1;
    finalClosed = false;
    panelShown = null;
    prevTrick = [];
    prevLast = "";
    raised = null;
    showLast = false;
    advice = null;
    asking = null;
    hidePanel();
    $("log").replaceChildren();
    if (old) { old.onclose = null; old.close(); }
    connect();
  }
  function connect() {
    if (stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    gotMessage = false;
    lastSeq = -1;
    ws = new WebSocket(`${proto}//${location.host}/ws?k=${encodeURIComponent(token)}`);
    ws.onmessage = onMessage;
    ws.onclose = () => {
      pending = false;
      asking = null;  // what was asked is lost with the connection: it may be asked again
      askedInPanel = false;
      if (advice && advice.waiting) advice = null;
      panelReview(null);
      if (stopped) return;
      $("app").className = "connecting";
      text("banner", ui.reconnecting || "…");
      // Ask why, once: a refused credential is final; anything else is retried.
      fetch(`/ws?k=${encodeURIComponent(token)}`, { cache: "no-store" }).then((r) => {
        if (r.status === 401 || r.status === 403 || r.status === 404) deny();
        else later();
      }).catch(later);
    };
  }
  function later() {
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, Math.min(5000, 250 * 2 ** retry));
  }
  function deny() {
    stopped = true;
    $("app").className = "denied";
    document.body.dataset.denied = "1";
    if (ui.denied) { text("banner", ui.denied); return; }
    fetch(`/api/words?lang=${encodeURIComponent(langHint || navigator.language || "")}`).then((r) => r.json())
      .then((w) => {
        ui = w.ui;
        document.documentElement.lang = w.lang;
        document.documentElement.dir = w.rtl ? "rtl" : "ltr";
        text("banner", ui.denied);
      }).catch(() => text("banner", "403"));
  }

  // -- Telegram Mini App: initData and theme from the address, no script from elsewhere ---------------
  function theme(params) {
    const map = { bg_color: "--bg", secondary_bg_color: "--felt", text_color: "--text", hint_color: "--hint",
      button_color: "--button", button_text_color: "--button-text" };
    for (const k in map) {
      if (typeof params[k] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(params[k])) {
        document.documentElement.style.setProperty(map[k], params[k]);
      }
    }
  }
  function telegram() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const data = hash.get("tgWebAppData");
    try { langHint = JSON.parse(new URLSearchParams(data || "").get("user") || "{}").language_code || ""; }
    catch (e) { /* no hint */ }
    try { theme(JSON.parse(hash.get("tgWebAppThemeParams") || "{}")); } catch (e) { /* no theme */ }
    const table = new URLSearchParams(location.search).get("table");
    fetch("/api/telegram", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ init_data: data, table: table }) }).then((r) => {
      if (!r.ok) { deny(); return null; }
      return r.json();
    }).then((j) => {
      if (j && j.token) { token = j.token; connect(); }
    }).catch(deny);
  }

  // -- Discord Activity: the SDK's handshake and the sign-in live in a module of their own ---------
  function discord() {
    import("/static/activity.mjs").then((m) => m.signIn()).then((t) => {
      token = t;
      connect();
    }).catch(deny);
  }

  // -- replays -------------------------------------------------------------------------------------
  function replay(tableId) {
    fetch(`/api/replay/${tableId}?k=${encodeURIComponent(token)}`, { cache: "no-store" }).then((r) => {
      if (!r.ok) { deny(); return null; }
      return r.json();
    }).then((story) => {
      if (!story) return;
      ui = story.ui;
      rtl = story.rtl;
      document.documentElement.lang = story.lang;
      document.documentElement.dir = story.rtl ? "rtl" : "ltr";
      $("app").className = "replay";
      let i = 0;
      const bar = $("replaybar");
      bar.hidden = false;
      $("prev").textContent = ui.previous;
      $("next").textContent = ui.next;
      const show = () => {
        const f = story.frames[i];
        if (!f) return;
        text("title", f.title);
        text("banner", ui.replay);
        text("frameno", num(i + 1) + " / " + num(story.frames.length));
        text("result", "");
        $("log").replaceChildren();
        addLog([f.text]);
        for (let seat = 0; seat < 4; seat++) {
          const box = $("seat-" + seat);
          box.replaceChildren();
          box.classList.toggle("turn", f.winner === seat);
          const name = document.createElement("div");
          name.className = "name";
          name.textContent = story.seats[seat];
          box.appendChild(name);
          const h = document.createElement("div");
          h.className = "replay-hand";
          for (const c of f.hands[seat]) h.appendChild(cardEl(c, "div"));
          box.appendChild(h);
        }
        const trick = $("trick");
        trick.replaceChildren();
        for (const p of f.trick) {
          const c = cardEl(p, "div");
          c.classList.add("at-" + p.seat);
          trick.appendChild(c);
        }
        document.body.dataset.frame = String(i);
      };
      $("prev").addEventListener("click", () => { if (i > 0) { i--; show(); } });
      $("next").addEventListener("click", () => { if (i < story.frames.length - 1) { i++; show(); } });
      show();
    }).catch(deny);
  }

  // -- start -----------------------------------------------------------------------------------------
  const hashParams = new URLSearchParams(location.hash.slice(1));
  token = hashParams.get("k");
  const replayMatch = location.pathname.match(/^\/replay\/(\d+)$/);
  const search = new URLSearchParams(location.search);
  if (location.pathname === "/tg") telegram();
  else if (search.has("frame_id") && search.has("instance_id")) discord();
  else if (replayMatch) replay(replayMatch[1]);
  else if (token) connect();
  else deny();
})();
