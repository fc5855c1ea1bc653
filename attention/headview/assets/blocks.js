// A head put together from blocks (blocks.py): each band's block is decoded once and kept by its id,
// so a view one row longer decodes only the band that changed.

function hvBlockStore() { // id -> {obj, ints}: page-wide, so it outlives a remount
  return (globalThis.__attentionHeadviewBlocks ||= new Map());
}
const HV_BLOCKS_KEPT = 4000;

function hvKeepBlocks(blocks) {
  const store = hvBlockStore();
  for (const [id, obj] of Object.entries(blocks || {})) if (!store.has(id)) store.set(id, { obj, ints: null });
  while (store.size > HV_BLOCKS_KEPT) store.delete(store.keys().next().value);
}

async function hvBlockInts(entry) {
  if (!entry.ints) {
    const b = entry.obj;
    const dec = (e) => hvDecodeInts(e, null);
    entry.ints = Promise.all([dec(b.q), dec(b.k), dec(b.Z), dec(b.L.residual), dec(b.L.scaled), dec(b.L.A),
      dec(b.U.residual), dec(b.U.scaled), dec(b.U.A)]);
  }
  return entry.ints;
}

async function hvAssemble(head, prev) {
  // head: the message's description (blocks.py head_blocks). Returns [payload, data] as hvMount wants.
  // prev: {bands, data} of the last head assembled for this view, or null. A square head whose first
  // bands are prev's takes the cells those bands cover from prev's data: a written word computes its own
  // row and column, not every Q.K^T again.
  const store = hvBlockStore();
  const nq = head.nq, nk = head.nk, dh = head.d_head;
  const bands = head.bands.map((id) => store.get(id).obj);
  const ints = await Promise.all(head.bands.map((id) => hvBlockInts(store.get(id))));
  const qi = new Float64Array(nq * dh), ki = new Float64Array(nk * dh);
  const qs = new Float64Array(nq), ks = new Float64Array(nk);
  const Z = new Int32Array(nq * dh);
  const qt = [], kt = [], ql = [], kl = [];
  let anyQl = false, anyKl = false;
  bands.forEach((b, i) => {
    const [r0, r1] = b.rows, [c0, c1] = b.cols;
    qi.set(ints[i][0], r0 * dh); ki.set(ints[i][1], c0 * dh); Z.set(ints[i][2], r0 * dh);
    qs.fill(b.qstep, r0, r1); ks.fill(b.kstep, c0, c1);
    qt.push(...b.qt); kt.push(...b.kt);
    ql.push(...(b.ql || b.qt)); kl.push(...(b.kl || b.kt));
    anyQl ||= !!b.ql; anyKl ||= !!b.kl;
  });
  const S = new Float64Array(nq * nk), scaled = new Float64Array(nq * nk);
  const A = new Int32Array(nq * nk), masked = new Uint8Array(nq * nk);
  const rect = (r0, r1, c0, c1, resid, corr, a) => { // one L or U rectangle, row-major
    const w = c1 - c0;
    for (let i = r0; i < r1; i++) {
      for (let j = c0; j < c1; j++) {
        let dot = 0;
        for (let t = 0; t < dh; t++) dot += qi[i * dh + t] * ki[j * dh + t];
        const s = Math.floor(dot * ((qs[i] * ks[j]) * head.tenpow) + 0.5) + resid[(i - r0) * w + (j - c0)];
        const c = i * nk + j, x = (i - r0) * w + (j - c0);
        S[c] = s;
        scaled[c] = Math.floor(s * head.scaled_factor + 0.5) + corr[x];
        A[c] = a[x];
        masked[c] = a[x] === -1 ? 1 : 0; // MASKED_CODE
      }
    }
  };
  let reuse = 0; // leading bands shared with prev: rows and keys [0, edge) are prev's cells
  const square = nq === nk && prev && prev.data.nq === prev.data.nk && prev.data.dh === dh;
  if (square) {
    const n = Math.min(prev.bands.length, head.bands.length);
    while (reuse < n && prev.bands[reuse] === head.bands[reuse]) reuse++;
  }
  const edge = reuse ? bands[reuse - 1].rows[1] : 0;
  if (edge) {
    const old = prev.data, w = old.nk;
    for (let i = 0; i < edge; i++) {
      S.set(old.S.subarray(i * w, i * w + edge), i * nk);
      scaled.set(old.scaled.subarray(i * w, i * w + edge), i * nk);
      A.set(old.A.subarray(i * w, i * w + edge), i * nk);
      masked.set(old.masked.subarray(i * w, i * w + edge), i * nk);
    }
  }
  bands.forEach((b, i) => {
    if (i < reuse) return;
    const [r0, r1] = b.rows, [c0, c1] = b.cols, v = ints[i];
    rect(r0, r1, 0, c1, v[3], v[4], v[5]);
    rect(0, r0, c0, c1, v[6], v[7], v[8]);
  });
  const payload = { format: head.format, kind: head.kind, layer: head.layer, head: head.head,
    n_heads: head.n_heads, d_head: dh, scale: head.scale, query_tokens: qt, key_tokens: kt,
    decimals: head.decimals, labels: store.get(head.labels).obj, lines_max: head.lines_max };
  if (anyQl) payload.query_labels = ql;
  if (anyKl) payload.key_labels = kl;
  return [payload, { nq, nk, dh, S, scaled, A, Z, masked, decimals: head.decimals }];
}
