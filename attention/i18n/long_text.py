"""Explore past the length where every cell is drawn (ui/long_view.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "long.caption": {
        "en": "{n} tokens: too many cells to draw one by one. This head's A is max-pooled to {rows} × {cols} pixels "
              "({kb} kB): each pixel shows the largest weight of a {cell} × {cell} block, so a sink column or a single "
              "strong cell stays visible, and the blank triangle is the causal mask. White is 0 and dark blue 1, on a "
              "square-root scale so that small weights show. For exact weights, and the row of one query, choose a "
              "window below (S and Z of one cell: a shorter text, or site.score_rows and z_rows in a notebook).",
        "zh": "{n} 个词元：单元格太多，无法逐个绘制。这个头的 A 经过最大池化，缩成 {rows} × {cols} 像素（{kb} kB）："
              "每个像素显示一个 {cell} × {cell} 块中最大的权重，因此汇聚列（sink）或单个很强的单元格仍然可见，空白的三角形是因果掩码。"
              "白色为 0，深蓝为 1，采用平方根刻度，以便看清较小的权重。要看精确的权重和某个查询的那一行，请在下方选择一个窗口"
              "（单元格的 S 和 Z：请用更短的文本，或在笔记本中使用 site.score_rows 和 z_rows）。",
    },
    "long.picture": {"en": "A of layer {layer}, head {head}, max-pooled", "zh": "第 {layer} 层第 {head} 个头的 A（最大池化）"},
    "long.window_heading": {"en": "An exact window", "zh": "精确窗口"},
    "long.rows_from": {"en": "Query rows from position", "zh": "查询行起始位置"},
    "long.keys_from": {"en": "Keys from position", "zh": "键起始位置"},
    "long.span": {"en": "Window size", "zh": "窗口大小"},
    "long.window_title": {
        "en": "A, exact: query rows {r0}–{r1}, keys {c0}–{c1} (each row's softmax over all its keys; click a cell)",
        "zh": "A（精确）：查询行 {r0}–{r1}，键 {c0}–{c1}（每行的 softmax 覆盖它能看到的全部键；点击单元格进行选择）",
    },
    "long.row_title": {
        "en": "Where query {i} (`{token}`) puts its weight: its 10 largest weights, exact, beside the even share "
              "1/n over the keys it can see",
        "zh": "查询 {i}（`{token}`）把权重放在哪里：它最大的 10 个权重（精确值），旁边是它能看到的键平均分得的份额 1/n",
    },
    "long.col_key": {"en": "key position", "zh": "键位置"},
    "long.col_token": {"en": "token", "zh": "词元"},
    "long.col_weight": {"en": "weight", "zh": "权重"},
    "long.col_uniform": {"en": "even share 1/n", "zh": "平均份额 1/n"},
}
