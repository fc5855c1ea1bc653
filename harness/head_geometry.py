"""Where a cell or a word of the head view (attention/headview) is on screen, read from the attributes
the view publishes: data-plot (the plot area in stage pixels) and data-view (the cells shown)."""

from __future__ import annotations


def panel(page, matrix: str = "A"):
    """The panel of one matrix: "S", "A", "Z" or "lines" (Playwright locators see into the shadow root)."""
    return page.locator(f'[data-matrix="{matrix}"]').first


def wait_ready(page, timeout_ms: int = 60_000) -> None:
    page.locator('[data-matrix="A"][data-view]').first.wait_for(timeout=timeout_ms)


def cell_point(page, matrix: str, row: float, col: float) -> tuple[float, float]:
    """The page coordinates of (row, col) in cell units; row -1 is the key words above the plot,
    col -1 the query words to its left."""
    el = panel(page, matrix)
    return point_in(el.get_attribute("data-plot"), el.get_attribute("data-view"),
                    el.locator(".hv-stage").bounding_box(), row, col)


def point_in(plot: str, view: str, stage_box: dict, row: float, col: float) -> tuple[float, float]:
    """cell_point from a panel's data-plot and data-view attributes and its stage's bounding box
    (for async Playwright, which reads those itself)."""
    x, y, w, h = (float(v) for v in plot.split(","))
    x0, y0, x1, y1 = (float(v) for v in view.split(","))
    px = x - 20 if col < 0 else x + (col + 0.5 - x0) / (x1 - x0) * w
    py = y - 20 if row < 0 else y + (row + 0.5 - y0) / (y1 - y0) * h
    return stage_box["x"] + px, stage_box["y"] + py


def selected(page, matrix: str = "A") -> str:
    return panel(page, matrix).get_attribute("data-selected") or ""
