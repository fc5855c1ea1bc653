"""What the long head view (assets/long_*.js) receives: one binary message per element, never n × n.

A message is b"ATLV", the header's length (uint32, little-endian), the header as UTF-8 JSON, then the
body. Arrays live in the body; the header names each as {"dtype", "shape", "data": [offset, length]}:
integers as payload.py's byte planes, zlib-compressed (decode.js's hvDecodeInts reads them as they
are), float32 raw. Raw bytes at the top level of a component's data travel as they are (no base64).

    first   the pooled picture: A max-pooled to ≤ 1,024 px a side, each block's largest weight at
            DECIMALS decimals, MASKED_CODE where every cell of the block is hidden; the tokens
    tile    one exact tile of A at DECIMALS decimals (the view asks for it when it shows few positions)
    lines   the selected query's exact row and the selected key's exact column, float32 as computed
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any

import numpy as np

from attention.analysis.pooled import Pooled
from attention.analysis.token_text import readable_tokens
from attention.headview.payload import MASKED_CODE, round_to

MAGIC = b"ATLV"
FORMAT = "attention.longview/1"
DECIMALS = 4  # weights as the rest of the app prints them: a drawn value is within 0.00005 of Site.pattern's
ZLIB_LEVEL = 6

_INT_TYPES = (np.int8, np.int16, np.int32)


class Body:
    """The body being written and the header entries that point into it."""

    def __init__(self) -> None:
        self.data = bytearray()

    def _put(self, raw: bytes) -> list[int]:
        at = [len(self.data), len(raw)]
        self.data.extend(raw)
        return at

    def ints(self, a: np.ndarray) -> dict[str, Any]:
        """An integer array as byte planes (all low bytes, then all high bytes), zlib."""
        lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
        dtype = next(t for t in _INT_TYPES if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max)
        raw = np.ascontiguousarray(a, dtype=np.dtype(dtype).newbyteorder("<"))
        planes = raw.view(np.uint8).reshape(-1, raw.itemsize).T  # (itemsize, cells)
        return {"dtype": np.dtype(dtype).name, "shape": list(a.shape),
                "data": self._put(zlib.compress(planes.tobytes(), ZLIB_LEVEL))}

    def floats(self, a: np.ndarray) -> dict[str, Any]:
        """A float32 array as its bytes, padded to a multiple of 4 so the browser can view it in place."""
        while len(self.data) % 4:
            self.data.append(0)
        raw = np.ascontiguousarray(a, dtype="<f4")
        return {"dtype": "float32", "shape": list(a.shape), "data": self._put(raw.tobytes())}


def codes(a: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """Weights as the integers round(a · 10^DECIMALS), MASKED_CODE where hidden."""
    return np.where(hidden, MASKED_CODE, round_to(np.asarray(a, np.float32), DECIMALS))


def pack(header: dict[str, Any], body: Body) -> bytes:
    head = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return MAGIC + struct.pack("<I", len(head)) + head + bytes(body.data)


def unpack(message: bytes) -> tuple[dict[str, Any], bytes]:
    """(header, body): the inverse of pack (the browser does the same in long_view.js); for tests."""
    if message[:4] != MAGIC:
        raise ValueError("not a long view message")
    (n,) = struct.unpack("<I", message[4:8])
    return json.loads(message[8 : 8 + n].decode("utf-8")), message[8 + n :]


def array(entry: dict[str, Any], body: bytes) -> np.ndarray:
    """An array of a header back from the body (what the browser draws); for tests and tools."""
    off, length = entry["data"]
    raw = body[off : off + length]
    if entry["dtype"] == "float32":
        return np.frombuffer(raw, "<f4").reshape(entry["shape"])
    dtype = np.dtype(entry["dtype"]).newbyteorder("<")
    cells = int(np.prod(entry["shape"]))
    planes = np.frombuffer(zlib.decompress(raw), np.uint8).reshape(dtype.itemsize, cells)
    return planes.T.copy().view(dtype).reshape(entry["shape"]).astype(np.int64)


def first(pooled: Pooled, query_tokens: tuple[str, ...], key_tokens: tuple[str, ...], *,
          info: dict[str, Any], labels: dict[str, str]) -> bytes:
    """The first draw: the pooled picture, the tokens as text, the words. `info`: layer, head, channel…"""
    body = Body()
    hidden = pooled.hidden if pooled.hidden is not None else np.zeros(pooled.image.shape, bool)
    query = readable_tokens(query_tokens)
    header = {"format": FORMAT, **info, "n_query": len(query_tokens), "n_key": len(key_tokens),
              "cell": pooled.cell, "decimals": DECIMALS, "masked_code": MASKED_CODE,
              "query_labels": query, "labels": labels, "pooled": body.ints(codes(pooled.image, hidden))}
    if tuple(key_tokens) != tuple(query_tokens):  # self-attention: the same words, sent once
        header["key_labels"] = readable_tokens(key_tokens)
    return pack(header, body)


def tile_message(bounds: tuple[int, int, int, int], cells: np.ndarray, hidden: np.ndarray, *,
                 head: int, channel: str) -> bytes:
    """One exact tile of A: rows r0..r1, keys c0..c1 (bounds)."""
    body = Body()
    r0, r1, c0, c1 = bounds
    return pack({"kind": "tile", "channel": channel, "head": head, "r0": r0, "r1": r1, "c0": c0, "c1": c1, "decimals": DECIMALS,
                 "A": body.ints(codes(cells, hidden))}, body)


def lines_message(query: int, key: int, row: np.ndarray | None, column: np.ndarray | None, *,
                  head: int, channel: str, goto: bool = False) -> bytes:
    """The selection (-1: none on that axis) with its exact row (key_pos,) and column (query_pos,);
    `goto`: the view moves to it (a position typed in)."""
    body = Body()
    header: dict[str, Any] = {"kind": "lines", "channel": channel, "head": head, "selection": [query, key],
                              "goto": goto}
    if row is not None:
        header["row"] = body.floats(row)
    if column is not None:
        header["column"] = body.floats(column)
    return pack(header, body)
