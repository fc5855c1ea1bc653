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

function hvRoomy(Type, length, room) { // a typed array of `length` on a buffer holding `room` elements
  return new Type(new ArrayBuffer(Math.max(length, room) * Type.BYTES_PER_ELEMENT), 0, length);
}

function hvRegrow(arr, oldW, edge, n, length) {
  // arr's first `edge` rows of `edge` cells (row stride oldW <= n) moved to stride n, in its own buffer,
  // last row first (each moves right, over nothing not yet moved); null if the buffer is too small.
  if (arr.buffer.byteLength < length * arr.BYTES_PER_ELEMENT) return null;
  const all = new arr.constructor(arr.buffer, 0, length);
  for (let i = edge - 1; i > 0; i--) all.copyWithin(i * n, i * oldW, i * oldW + edge);
  return all;
}

async function hvAssemble(head, prev, isCurrent) {
  // head: the message's description (blocks.py head_blocks). Returns [payload, data] as hvMount wants and
  // the rows and keys [0, edge) taken from prev,
  // or null when isCurrent() says a newer head came while the blocks were decoded.
  // prev: {bands, data} of the last head assembled for this view, or null. A square head whose first
  // bands are prev's takes the cells those bands cover from prev's data: a written word computes its own
  // row and column, not every Q.K^T again; and when prev's arrays have room, in place (prev is spent).
  const store = hvBlockStore();
  const nq = head.nq, nk = head.nk, dh = head.d_head;
  const bands = head.bands.map((id) => store.get(id).obj);
  const ints = await Promise.all(head.bands.map((id) => hvBlockInts(store.get(id))));
  if (isCurrent && !isCurrent()) return null;
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
  let reuse = 0; // leading bands shared with prev: rows and keys [0, edge) are prev's cells
  const square = nq === nk && prev && prev.data.nq === prev.data.nk && prev.data.dh === dh;
  if (square) {
    const n = Math.min(prev.bands.length, head.bands.length);
    while (reuse < n && prev.bands[reuse] === head.bands[reuse]) reuse++;
  }
  const edge = reuse ? bands[reuse - 1].rows[1] : 0, size = nq * nk;
  const room = nq === nk ? (nk + HV_ROOM) * (nk + HV_ROOM) : 0;
  const fresh = () => [Float64Array, Float64Array, Int32Array, Uint8Array].map((T) => hvRoomy(T, size, room));
  let arrays = null; // S, scaled, A, masked
  if (edge) {
    const old = prev.data, w = old.nk, olds = [old.S, old.scaled, old.A, old.masked];
    const moved = nk >= w ? olds.map((arr) => hvRegrow(arr, w, edge, nk, size)) : [];
    if (moved.length && moved.every((arr) => arr)) arrays = moved;
    else {
      arrays = fresh();
      olds.forEach((arr, k) => { for (let i = 0; i < edge; i++) arrays[k].set(arr.subarray(i * w, i * w + edge), i * nk); });
    }
  }
  arrays ||= fresh();
  const [S, scaled, A, masked] = arrays;
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
  return [payload, { nq, nk, dh, S, scaled, A, Z, masked, decimals: head.decimals }, edge];
}
