// The long head view's messages (headview/long_payload.py): b"ATLV", uint32 header length, JSON
// header, body. Arrays are {dtype, shape, data: [offset, length]} into the body.

function lvBytes(data) { // what Streamlit hands a component for raw bytes, as a Uint8Array
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data && data.buffer instanceof ArrayBuffer) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

function lvUnpack(data) { // -> {header, body} or null
  const bytes = lvBytes(data);
  if (!bytes || bytes.length < 8 || String.fromCharCode(...bytes.subarray(0, 4)) !== "ATLV") return null;
  const n = new DataView(bytes.buffer, bytes.byteOffset + 4, 4).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  return { header, body: bytes.subarray(8 + n) };
}

function lvFloats(entry, body) { // a float32 array of the body (copied: the body is Streamlit's)
  const [off, len] = entry.data;
  const out = new Float32Array(len / 4);
  new Uint8Array(out.buffer).set(body.subarray(off, off + len));
  return out;
}
