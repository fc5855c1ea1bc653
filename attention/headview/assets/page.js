// Standalone hosts (a saved HTML file, a Jupyter output): find the embedded payload, unpack it,
// and mount it; a whole trace gets pickers for kind, layer and head. The saved file keeps the
// picked head and selection in the URL's #fragment, so a link restores them.

function hvHeadOfTrace(doc, site, head, selection) {
  const { heads, ...header } = site;
  return { format: doc.format, ...header, ...heads[head], decimals: doc.decimals, labels: doc.labels,
    lines_max: doc.lines_max, selection };
}

function hvReadHash() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [k, v] = part.split("=");
    if (k) out[decodeURIComponent(k)] = decodeURIComponent(v || "");
  }
  return out;
}

function hvPicker(bar, label, options, value, onChange) {
  const wrap = hvEl("label", "hv-pick");
  const name = hvEl("span");
  name.textContent = label;
  const select = hvEl("select");
  for (const [v, text] of options) {
    const o = hvEl("option", null, { value: String(v) });
    o.textContent = text;
    select.append(o);
  }
  select.value = String(value);
  select.addEventListener("change", () => onChange(select.value));
  wrap.append(name, select);
  bar.append(wrap);
  return select;
}

function hvTraceBrowser(host, doc, store, mountEl) {
  const L = doc.labels, urlState = host.hasAttribute("data-url-state");
  const h = urlState ? hvReadHash() : {};
  const kinds = [...new Set(doc.sites.map((s) => s.kind))];
  const st = { kind: kinds.includes(h.kind) ? h.kind : kinds[0], layer: +h.layer || 0, head: +h.head || 0,
    sel: [h.q === undefined ? -1 : +h.q, h.k === undefined ? -1 : +h.k], token: 0 };
  const bar = hvEl("div", "hv-pickers");
  mountEl.before(bar);
  const save = () => {
    if (!urlState) return;
    const hash = `kind=${st.kind}&layer=${st.layer}&head=${st.head}&q=${st.sel[0]}&k=${st.sel[1]}`;
    history.replaceState(null, "", "#" + hash);
  };
  const show = async () => {
    const sites = doc.sites.filter((s) => s.kind === st.kind);
    const site = sites.find((s) => s.layer === st.layer) || sites[0];
    st.layer = site.layer;
    st.head = Math.min(st.head, site.n_heads - 1);
    bar.replaceChildren();
    hvPicker(bar, L.kind, kinds.map((k) => [k, L[k] || k]), st.kind, (v) => { st.kind = v; show(); });
    hvPicker(bar, L.layer, sites.map((s) => [s.layer, String(s.layer)]), st.layer, (v) => { st.layer = +v; show(); });
    hvPicker(bar, L.head, [...Array(site.n_heads).keys()].map((i) => [i, String(i)]), st.head, (v) => { st.head = +v; show(); });
    save();
    const token = ++st.token;
    const view = await hvMount(mountEl, hvHeadOfTrace(doc, site, st.head, st.sel), {
      store, paletteButton: true, onSelect: (sel) => { st.sel = sel; save(); } });
    if (token !== st.token) return; // a newer pick is being drawn
    st.sel = [view.sel.row, view.sel.col];
  };
  show();
}

function hvBoot(host) {
  if (!host || host.hasAttribute("data-booted")) return;
  host.setAttribute("data-booted", "1");
  const doc = JSON.parse(host.querySelector("script.hv-data").textContent);
  const storeEl = host.querySelector("script.hv-store");
  const store = storeEl ? hvUnpackStore(storeEl.textContent) : null;
  const mountEl = host.querySelector(".hv-mount");
  if (doc.sites) hvTraceBrowser(host, doc, store, mountEl);
  else hvMount(mountEl, doc, { store, paletteButton: true });
}
