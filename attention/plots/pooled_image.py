"""A max-pooled attention picture (analysis/pooled.py) as a PNG: 0 white to 1 dark blue, as the head view's A.
A PNG of 1,024 × 1,024 pixels is a few hundred kB, where the same numbers as JSON would be megabytes."""

from __future__ import annotations

import io

import numpy as np

# white -> dark blue (the head view's A): RGB at weight 0 and 1
_LOW = np.array([247, 251, 255], np.float32)
_HIGH = np.array([8, 48, 107], np.float32)


def colours(image: np.ndarray) -> np.ndarray:
    """(h, w) weights in 0..1 -> (h, w, 3) uint8 RGB; a square root spreads the small weights (the legend says so)."""
    a = np.sqrt(np.clip(np.nan_to_num(image, nan=0.0), 0.0, 1.0))[..., None]
    return np.rint(_LOW + (_HIGH - _LOW) * a).astype(np.uint8)


def png(image: np.ndarray) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(colours(image), mode="RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()
