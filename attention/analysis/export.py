"""Take the numbers away: one matrix as CSV, the whole trace as .npz (exact) or JSON (rounded).

    matrix_csv(values, rows, cols)   header row: the key words; first column: the query words
    trace_npz(trace) -> bytes        arrays layer{L}_{kind}_{weights,scores,q,k,v,z}, float32 as computed;
                                     token lists as JSON strings (no pickles: np.load(allow_pickle=False))
    load_npz(bytes) -> dict          the arrays back, token lists decoded
    trace_json(trace) -> str         the same content, numbers to 6 significant digits

Pure: no Streamlit.
"""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from attention.trace import Site, Trace

ARRAYS = ("weights", "scores", "q", "k", "v", "z")  # per site, as in Site
JSON_TEXT = ("meta", "tokens")  # whole-trace entries stored as JSON strings
SITE_TEXT = ("query_tokens", "key_tokens")  # per-site entries stored as JSON strings
SIGNIFICANT = 6


def matrix_csv(values: np.ndarray, row_labels: list[str], col_labels: list[str], corner: str = "query \\ key") -> str:
    """A (rows, cols) matrix as CSV text: a header of column words, then one row per row word."""
    values = np.asarray(values)
    if values.dtype.kind != "f":
        values = values.astype(np.float64)
    if values.shape != (len(row_labels), len(col_labels)):
        raise ValueError(f"values {values.shape} do not match {len(row_labels)} rows × {len(col_labels)} columns")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([corner, *col_labels])
    text = values.astype(str)  # the shortest digits that read back to the same float32 / float64
    for label, row in zip(row_labels, text.tolist(), strict=True):
        writer.writerow([label, *row])
    return out.getvalue()


def site_prefix(site: Site) -> str:
    return f"layer{site.layer}_{site.kind}"


def trace_arrays(trace: Trace) -> dict[str, np.ndarray]:
    """Every array the .npz holds, by name."""
    meta = {"model": trace.model_name, "text": trace.text, "dropped_tokens": trace.dropped_tokens}
    arrays: dict[str, np.ndarray] = {
        "meta": np.array(json.dumps(meta)),
        "tokens": np.array(json.dumps(list(trace.tokens))),
    }
    for site in trace.sites:
        prefix = site_prefix(site)
        if f"{prefix}_weights" in arrays:
            raise ValueError(f"two sites named {prefix}")
        for name in ARRAYS:
            arrays[f"{prefix}_{name}"] = np.asarray(getattr(site, name))
        arrays[f"{prefix}_query_tokens"] = np.array(json.dumps(list(site.query_tokens)))
        arrays[f"{prefix}_key_tokens"] = np.array(json.dumps(list(site.key_tokens)))
        arrays[f"{prefix}_scale"] = np.array(site.scale, dtype=np.float64)
        if site.mask is not None:
            arrays[f"{prefix}_mask"] = np.asarray(site.mask)
    return arrays


def trace_npz(trace: Trace) -> bytes:
    """The whole trace as .npz bytes: exact float32, loadable with np.load(…, allow_pickle=False)."""
    buf = io.BytesIO()
    np.savez(buf, **trace_arrays(trace))
    return buf.getvalue()


def _count(site: Site, name: str) -> int:
    """How many numbers one array of a site holds, without computing it (weights, scores, z are lazy)."""
    if name in ("q", "k", "v"):
        return getattr(site, name).size
    width = site.v.shape[-1] if name == "z" else len(site.key_tokens)  # weights, scores: key_pos
    return site.n_heads * len(site.query_tokens) * width


def json_numbers(trace: Trace) -> int:
    """How many numbers the export writes: ×4 bytes in the .npz, about ×10 characters in JSON."""
    return sum(_count(s, name) for s in trace.sites for name in ARRAYS)


def _is_text(name: str) -> bool:
    return name in JSON_TEXT or name.endswith(tuple(f"_{t}" for t in SITE_TEXT))


def load_npz(data: bytes) -> dict[str, object]:
    """What trace_npz wrote: arrays as numpy, token lists as lists of str, meta as a dict."""
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {name: json.loads(str(npz[name])) if _is_text(name) else npz[name] for name in npz.files}


def _number(x: float) -> str:
    return format(x, f".{SIGNIFICANT}g") if math.isfinite(x) else "null"


def json_array(a: np.ndarray) -> str:
    """A numeric array as nested JSON lists, each number to 6 significant digits (NaN/inf: null)."""
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:
        return json.dumps(np.zeros(a.shape).tolist())
    fmt = f"{{:.{SIGNIFICANT}g}}".format
    values = a.ravel().tolist()
    parts = list(map(fmt, values)) if np.isfinite(a).all() else [_number(x) for x in values]
    for dim in reversed(a.shape):  # join the innermost axis first
        parts = ["[" + ",".join(parts[i:i + dim]) + "]" for i in range(0, len(parts), dim)]
    return parts[0]


def trace_json(trace: Trace) -> str:
    """The whole trace as JSON text: model, text, tokens, then one object per site with its arrays."""
    sites = []
    for s in trace.sites:
        fields = [
            f'"layer":{s.layer}', f'"kind":{json.dumps(s.kind)}', f'"scale":{_number(s.scale)}',
            f'"query_tokens":{json.dumps(list(s.query_tokens))}', f'"key_tokens":{json.dumps(list(s.key_tokens))}',
        ]
        fields += [f'"{name}":{json_array(getattr(s, name))}' for name in ARRAYS]
        sites.append("{" + ",".join(fields) + "}")
    head = json.dumps({"model": trace.model_name, "text": trace.text, "tokens": list(trace.tokens),
                       "dropped_tokens": trace.dropped_tokens})
    return head[:-1] + ',"sites":[' + ",".join(sites) + "]}"
