// Decoding a head payload (see payload.py): base64 or a packed byte store -> zlib -> byte planes
// -> integers. Numbers are printed from those integers (fixed()), never re-rounded from floats.

// windows-1252 characters 0x80..0x9F as the HTML parser decodes them (WHATWG Encoding index);
// every other byte b decodes to the character b. Used by the packed store of saved files.
const HV_CP1252_HIGH = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
const HV_STORE_ESCAPE = 0x3d; // "=": the next byte is (b + 64) & 255; escapes NUL, CR, "<" and "=" itself

function hvUnpackStore(text) {
  // text: the packed store as the page decoded it (windows-1252). Returns its bytes.
  const byChar = new Map();
  for (let i = 0; i < 32; i++) byChar.set(HV_CP1252_HIGH.charCodeAt(i), 0x80 + i);
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const b = c < 0x80 || (c > 0x9f && c < 256) ? c : byChar.get(c);
    if (b === HV_STORE_ESCAPE) {
      const next = text.charCodeAt(++i);
      out[n++] = (next - 64) & 255;
    } else {
      out[n++] = b;
    }
  }
  return out.subarray(0, n);
}

function hvBase64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function hvInflate(bytes) {
  // zlib (RFC 1950) as Python's zlib.compress writes it: the browser's own decompressor.
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const HV_TYPES = {
  int8: [Int8Array, 1], uint8: [Uint8Array, 1], int16: [Int16Array, 2],
  uint16: [Uint16Array, 2], int32: [Int32Array, 4],
};

async function hvDecodeInts(enc, store) {
  // enc: {dtype, shape, data}; data is base64 text or [offset, length] into the packed store.
  const [Type, size] = HV_TYPES[enc.dtype];
  const packed = typeof enc.data === "string" ? hvBase64Bytes(enc.data)
    : store.subarray(enc.data[0], enc.data[0] + enc.data[1]);
  const planes = enc.plain ? packed : await hvInflate(packed); // plain: ready in this task (payload.py)
  const cells = enc.shape.reduce((a, b) => a * b, 1);
  const bytes = new Uint8Array(cells * size); // little-endian, as Python wrote it
  for (let p = 0; p < size; p++) {
    const plane = planes.subarray(p * cells, (p + 1) * cells);
    for (let i = 0; i < cells; i++) bytes[i * size + p] = plane[i];
  }
  return new Type(bytes.buffer); // typed arrays read the platform's order: little-endian everywhere we run
}

function hvPredicted(qi, ki, nq, nk, dh, factor) {
  // floor(qi . ki^T * factor + 0.5): integer dot products, exact in float64 (see payload.py).
  const out = new Float64Array(nq * nk);
  for (let i = 0; i < nq; i++) {
    const qo = i * dh;
    for (let j = 0; j < nk; j++) {
      const ko = j * dh;
      let dot = 0;
      for (let t = 0; t < dh; t++) dot += qi[qo + t] * ki[ko + t];
      out[i * nk + j] = Math.floor(dot * factor + 0.5);
    }
  }
  return out;
}

async function hvDecodeHead(p, store) {
  // p: one head payload (site header + matrices + decimals). Returns the integers it prints.
  const nq = p.query_tokens.length, nk = p.key_tokens.length, dh = p.d_head;
  const [qi, ki, resid, corr, a, z] = await Promise.all([
    hvDecodeInts(p.S.q, store), hvDecodeInts(p.S.k, store), hvDecodeInts(p.S.residual, store),
    hvDecodeInts(p.scaled, store), hvDecodeInts(p.A, store), hvDecodeInts(p.Z, store)]);
  const S = hvPredicted(qi, ki, nq, nk, dh, p.S.factor);
  const scaled = new Float64Array(nq * nk);
  const masked = new Uint8Array(nq * nk);
  for (let c = 0; c < nq * nk; c++) {
    S[c] += resid[c];
    scaled[c] = Math.floor(S[c] * p.scaled.factor + 0.5) + corr[c];
    masked[c] = a[c] === -1 ? 1 : 0; // MASKED_CODE
  }
  return { nq, nk, dh, S, scaled, A: a, Z: z, masked, decimals: p.decimals };
}

function hvFixed(n, decimals) {
  // The integer n printed as n / 10^decimals with exactly `decimals` digits after the point.
  const digits = String(Math.abs(n)).padStart(decimals + 1, "0");
  const sign = n < 0 ? "-" : "";
  if (decimals === 0) return sign + digits;
  return sign + digits.slice(0, -decimals) + "." + digits.slice(-decimals);
}
