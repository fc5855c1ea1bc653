// What the head view says to assistive technology. The matrices are canvases, so the words and numbers
// are given again as markup: the panels form one labelled grid whose focused cell (the selection) reads
// "query word, key word, weight (q.k, scaled)"; the selected row is a real table (hidden until asked
// for); a live region announces each keyboard move and selection; a hidden line lists the words.

const HV_TABLE_NOW = 256; // rows of a table built at once; a longer one waits for an idle moment
let hvA11yIds = 0; // ids must be unique in a page that holds several head views

function hvFill(template, values) { // "{q} ..." filled; a token's own braces are left alone
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

function hvWord(tokens, i) { return `${tokens[i]} #${i}`; }

function hvA11yBuild(view) {
  const L = view.labels, p = view.p, d = view.d, id = "hv-a11y-" + ++hvA11yIds;
  const grid = view.root.querySelector(".hv-panels");
  for (const el of Object.values(view.els)) el.setAttribute("aria-hidden", "true"); // pictures of the grid below
  grid.setAttribute("role", "grid");
  grid.tabIndex = 0;
  hvA11ySize(view, grid);
  const row = hvEl("div", "hv-sr", { role: "row" });
  const cell = hvEl("div", null, { role: "gridcell", id: id + "-cell", "aria-selected": "false" });
  row.append(cell);
  grid.prepend(row);
  grid.setAttribute("aria-activedescendant", cell.id);

  const words = hvEl("p", "hv-sr hv-words", { id: id + "-words" });
  words.textContent = hvA11yWords(view);
  grid.setAttribute("aria-describedby", words.id);
  const live = hvEl("div", "hv-sr hv-live", { role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const table = hvEl("div", "hv-table hv-sr", { id: id + "-table", role: "region", "aria-label": L.table });
  view.root.append(words, live, table);

  const toggle = view.buttons.table;
  toggle.setAttribute("aria-controls", table.id);
  toggle.addEventListener("click", () => {
    const shown = table.classList.toggle("hv-sr") === false;
    toggle.setAttribute("aria-expanded", shown ? "true" : "false");
    if (shown) table.tabIndex = 0; else table.removeAttribute("tabindex"); // shown, it scrolls by keyboard too
  });
  toggle.setAttribute("aria-expanded", "false");
  view.a11y = { grid, row, cell, live, table, words, tableFor: null };
  hvA11yUpdate(view, false);
}

function hvA11ySize(view, grid) { // the grid's name and size
  const L = view.labels, p = view.p, d = view.d;
  grid.setAttribute("aria-label", hvFill(L.grid, { matrix: L.A, layer: p.layer, head: p.head, nq: d.nq, nk: d.nk }));
  grid.setAttribute("aria-rowcount", String(d.nq));
  grid.setAttribute("aria-colcount", String(d.nk));
}

function hvA11yGrow(view) { // after view.grow: the grid's size and words, the selected row's table
  const a = view.a11y;
  hvA11ySize(view, a.grid);
  a.words.textContent = hvA11yWords(view);
  a.tableFor = null;
  hvA11yUpdate(view, false);
}

function hvA11yWords(view) {
  const L = view.labels, p = view.p;
  const cap = (list) => (list.length > 200 ? list.slice(0, 200).join(" ") + " \u2026" : list.join(" "));
  return hvFill(L.words, { query: cap((p.query_labels || p.query_tokens)), key: cap((p.key_labels || p.key_tokens)) });
}

function hvSay(view, at) { // one selection in words, in the page's language
  const L = view.labels, d = view.d, p = view.p, dec = d.decimals;
  if (at.row >= 0 && at.col >= 0) {
    const c = at.row * d.nk + at.col;
    const v = { q: hvWord((p.query_labels || p.query_tokens), at.row), k: hvWord((p.key_labels || p.key_tokens), at.col), s: hvFixed(d.S[c], dec.score) };
    if (d.masked[c]) return hvFill(L.sr_masked, v);
    return hvFill(L.sr_cell, { ...v, w: hvFixed(d.A[c], dec.weight), x: hvFixed(d.scaled[c], dec.scaled) });
  }
  if (at.row >= 0) {
    let best = -1;
    for (let j = 0; j < d.nk; j++) {
      const c = at.row * d.nk + j;
      if (!d.masked[c] && (best < 0 || d.A[c] > d.A[at.row * d.nk + best])) best = j;
    }
    const w = best < 0 ? L.masked : hvFixed(d.A[at.row * d.nk + best], dec.weight);
    return hvFill(L.sr_row, { q: hvWord((p.query_labels || p.query_tokens), at.row), k: best < 0 ? "\u2013" : hvWord((p.key_labels || p.key_tokens), best), w });
  }
  if (at.col >= 0) return hvFill(L.sr_col, { k: hvWord((p.key_labels || p.key_tokens), at.col) });
  return L.sr_none;
}

function hvA11yTable(view) {
  // The selected row (or column) as a table: word, position, weight, q.k, scaled. Rebuilt only when
  // the row (or column) changes, so moving along a row costs nothing.
  const a = view.a11y, s = view.sel, L = view.labels, d = view.d, p = view.p, dec = d.decimals;
  const key = s.row >= 0 ? "r" + s.row : s.col >= 0 ? "c" + s.col : "";
  if (a.tableFor === key) return;
  a.tableFor = key;
  const token = a.tableToken = (a.tableToken || 0) + 1;
  if (!key) {
    const msg = hvEl("p");
    msg.textContent = L.table_empty;
    a.table.replaceChildren(msg);
    return;
  }
  const byRow = s.row >= 0, n = byRow ? d.nk : d.nq, words = byRow ? (p.key_labels || p.key_tokens) : (p.query_labels || p.query_tokens);
  const build = () => {
    if (a.tableToken !== token || view.a11y !== a) return; // another row asked for since
    const t = hvEl("table");
    const caption = hvEl("caption");
    caption.textContent = byRow ? hvFill(L.table_row, { q: hvWord((p.query_labels || p.query_tokens), s.row) })
      : hvFill(L.table_col, { k: hvWord((p.key_labels || p.key_tokens), s.col) });
    const head = hvEl("tr");
    for (const text of [byRow ? L.key : L.query, L.position, L.weight, L.score, L.scaled]) {
      const th = hvEl("th", null, { scope: "col" });
      th.textContent = text;
      head.append(th);
    }
    const thead = hvEl("thead"), tbody = hvEl("tbody");
    thead.append(head);
    for (let i = 0; i < n; i++) {
      const c = byRow ? s.row * d.nk + i : i * d.nk + s.col, tr = hvEl("tr");
      const word = hvEl("th", null, { scope: "row" });
      word.textContent = words[i];
      const cells = [String(i), d.masked[c] ? L.masked : hvFixed(d.A[c], dec.weight), hvFixed(d.S[c], dec.score),
        d.masked[c] ? L.masked : hvFixed(d.scaled[c], dec.scaled)];
      tr.append(word, ...cells.map((text) => { const td = hvEl("td"); td.textContent = text; return td; }));
      tbody.append(tr);
    }
    t.append(caption, thead, tbody);
    a.table.replaceChildren(t);
  };
  // a long row is built when the page is idle: the drawing goes first, the table follows within moments
  if (n <= HV_TABLE_NOW) build();
  else (window.requestIdleCallback || ((f) => setTimeout(f, 0)))(build, { timeout: 300 });
}

function hvA11yUpdate(view, announce) {
  // After a selection changed: the focused cell's words, the table, and (a move or a click) the live region.
  const a = view.a11y;
  if (!a) return;
  const s = view.sel, text = hvSay(view, s);
  a.row.setAttribute("aria-rowindex", String(Math.max(0, s.row) + 1));
  a.cell.setAttribute("aria-colindex", String(Math.max(0, s.col) + 1));
  a.cell.setAttribute("aria-selected", s.row >= 0 || s.col >= 0 ? "true" : "false");
  a.cell.textContent = text;
  hvA11yTable(view);
  if (announce) a.live.textContent = text;
}

function hvTouchScreen() {
  return (window.matchMedia && window.matchMedia("(any-pointer: coarse)").matches) || navigator.maxTouchPoints > 0;
}
