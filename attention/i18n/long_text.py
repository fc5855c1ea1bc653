"""Explore past the length where every cell is drawn (ui/head_view/long_view.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "long.caption": {
        "en": "{n} tokens: too many cells to send one by one. This head's A is drawn max-pooled, {side} × {side} "
              "pixels at first: each shows the largest weight of a {cell} × {cell} block, so a sink column or a single "
              "strong cell stays visible; grey is the causal mask. White is 0 and dark blue 1, on a square-root scale "
              "so that small weights show. Zoom in (wheel, +, or the keys + and −) and, at 512 positions a side or "
              "fewer, the exact weights are fetched and drawn over the picture (4 decimals). Click a cell: its "
              "query's row (under A) and its key's column (right of A) are drawn exact, whatever the zoom.",
        "zh": "{n} 个词元：单元格太多，无法逐个发送。这个头的 A 以最大池化方式绘制，初始为 {side} × {side} 像素："
              "每个像素显示一个 {cell} × {cell} 块中最大的权重，因此汇聚列（sink）或单个很强的单元格仍然可见；灰色是因果掩码。"
              "白色为 0，深蓝为 1，采用平方根刻度，以便看清较小的权重。放大（滚轮、“+” 按钮，或按键 + 和 −）到每边 512 个"
              "位置或更少时，会取回精确的权重并画在图上（4 位小数）。点击一个单元格：它的查询所在的行（A 的下方）和它的键所在的列"
              "（A 的右侧）会以精确值绘制，无论缩放到什么程度。",
    },
    "long.go_query": {"en": "Go to query position", "zh": "转到查询位置"},
    "long.go_key": {"en": "Go to key position", "zh": "转到键位置"},
    "long.go_help": {
        "en": "Type a position: that cell is selected and the view moves there, exact (the same as a click).",
        "zh": "输入一个位置：该单元格被选中，视图移到那里并显示精确值（与点击相同）。",
    },
    "long.pick": {
        "en": "Click a cell (or type a query position): that query's largest weights appear here as a table.",
        "zh": "点击一个单元格（或输入查询位置）：该查询最大的几个权重会在这里以表格列出。",
    },
    # drawn by the long head view in the browser (headview/assets/long_*.js)
    "long.js.reset": {"en": "Whole matrix", "zh": "整个矩阵"},
    "long.js.zoom_in": {"en": "Zoom in", "zh": "放大"},
    "long.js.zoom_out": {"en": "Zoom out", "zh": "缩小"},
    "long.js.help": {
        "en": "Wheel or + / − zoom, drag pans, click selects a cell; with the keyboard: arrows move the selection "
              "(Shift: 16 at a time), + and − zoom, 0 shows the whole matrix, Esc clears.",
        "zh": "滚轮或 + / − 缩放，拖动平移，点击选择单元格；键盘：方向键移动选择（按住 Shift 每次 16 格），+ 和 − 缩放，"
              "0 显示整个矩阵，Esc 清除选择。",
    },
    "long.js.grid": {
        "en": "Attention weights A of a long text, queries down, keys across. Arrow keys move the selection, "
              "+ and − zoom, Escape clears.",
        "zh": "长文本的注意力权重 A，查询自上而下，键从左到右。方向键移动选择，+ 和 − 缩放，Esc 清除。",
    },
    "long.js.roledescription": {"en": "zoomable matrix", "zh": "可缩放矩阵"},
    "long.js.where": {"en": "Queries {r0}–{r1}, keys {c0}–{c1}: {how}", "zh": "查询 {r0}–{r1}，键 {c0}–{c1}：{how}"},
    "long.js.exact": {"en": "exact", "zh": "精确值"},
    "long.js.pooled_how": {
        "en": "pooled, each pixel the largest of {cell} × {cell} (zoom in to 512 or fewer for exact weights)",
        "zh": "池化，每个像素为 {cell} × {cell} 块中的最大值（放大到 512 个或更少可看精确权重）",
    },
    "long.js.pooled_value": {"en": "largest weight of block {block}: {w}", "zh": "块 {block} 中的最大权重：{w}"},
    "long.js.query": {"en": "query", "zh": "查询"},
    "long.js.key": {"en": "key", "zh": "键"},
    "long.js.weight": {"en": "weight", "zh": "权重"},
    "long.js.masked": {"en": "masked: this query may not see this key", "zh": "已掩码：这个查询看不到这个键"},
    "long.js.sr_row": {"en": "query {q} selected", "zh": "已选择查询 {q}"},
    "long.js.sr_col": {"en": "key {k} selected", "zh": "已选择键 {k}"},
    "long.js.strips": {
        "en": "Under A, the row of query {q} «{qt}» over every key; right of A, the column of key {k} «{kt}» over "
              "every query: both exact, each bar the largest weight of the positions it covers.",
        "zh": "A 的下方是查询 {q}「{qt}」在所有键上的行；A 的右侧是键 {k}「{kt}」在所有查询上的列：两者都是精确值，"
              "每根柱表示它覆盖的位置中最大的权重。",
    },
    "long.js.strips_row": {
        "en": "Under A, the row of query {q} «{qt}» over every key, exact, each bar the largest weight of the positions "
              "it covers. Pick a key to see its column too.",
        "zh": "A 的下方是查询 {q}「{qt}」在所有键上的行（精确值），每根柱表示它覆盖的位置中最大的权重。选一个键，还能看到它的列。",
    },
    "long.js.strips_col": {
        "en": "Right of A, the column of key {k} «{kt}» over every query, exact, each bar the largest weight of the "
              "positions it covers. Pick a query to see its row too.",
        "zh": "A 的右侧是键 {k}「{kt}」在所有查询上的列（精确值），每根柱表示它覆盖的位置中最大的权重。选一个查询，还能看到它的行。",
    },
    "long.js.strip_max": {"en": "largest in view {w}", "zh": "视图内最大 {w}"},
    "long.js.sr_none": {"en": "no cell selected", "zh": "未选择单元格"},
    "long.row_title": {
        "en": "Where query {i} (`{token}`) puts its weight: its 10 largest weights, exact, beside the even share "
              "1/n over the keys it can see",
        "zh": "查询 {i}（`{token}`）把权重放在哪里：它最大的 10 个权重（精确值），旁边是它能看到的键平均分得的份额 1/n",
    },
    "long.row_title_at": {
        "en": "Where row {i}, the query at position {position} (`{token}`), puts its weight: its 10 largest weights, "
              "exact, beside the even share 1/n over the keys it can see",
        "zh": "第 {i} 行，即位置 {position} 处的查询（`{token}`），把权重放在哪里：它最大的 10 个权重（精确值），旁边是它能看到的键"
              "平均分得的份额 1/n",
    },
    "long.col_key": {"en": "key position", "zh": "键位置"},
    "long.col_token": {"en": "token", "zh": "词元"},
    "long.col_weight": {"en": "weight", "zh": "权重"},
    "long.col_uniform": {"en": "even share 1/n", "zh": "平均份额 1/n"},
}
