"""Words for touch screens and assistive technology: what the head view says to a screen reader, the
colour choice in the sidebar."""

STRINGS: dict[str, dict[str, str]] = {
    "headview.lang": {"en": "en", "zh": "zh"},  # the view's lang attribute: a screen reader's voice
    "headview.help_touch": {
        "en": "Tap a cell or a word to select it, pinch to zoom, drag with two fingers to pan.",
        "zh": "轻点单元格或词即可选中，双指捏合缩放，双指拖动平移。"},
    "headview.grid": {
        "en": "{matrix}: layer {layer}, head {head}, {nq} query words by {nk} key words. "
              "Arrow keys move the selection, Escape clears it.",
        "zh": "{matrix}：第 {layer} 层，第 {head} 个头，{nq} 个查询词 × {nk} 个键词。方向键移动选中位置，Esc 清除。"},
    "headview.words": {"en": "Query words: {query}. Key words: {key}.", "zh": "查询词：{query}。键词：{key}。"},
    "headview.sr_cell": {"en": "query {q}, key {k}, weight {w} (q·k {s}, scaled {x})",
                         "zh": "查询 {q}，键 {k}，权重 {w}（q·k {s}，缩放后 {x}）"},
    "headview.sr_masked": {"en": "query {q}, key {k}: masked, this query may not see this key (q·k {s})",
                           "zh": "查询 {q}，键 {k}：已遮蔽，该查询看不到这个键（q·k {s}）"},
    "headview.sr_row": {"en": "query {q} selected: its largest weight is on {k}, {w}",
                        "zh": "已选中查询 {q}：它的最大权重在 {k} 上，为 {w}"},
    "headview.sr_col": {"en": "key {k} selected", "zh": "已选中键 {k}"},
    "headview.sr_none": {"en": "no word or cell selected", "zh": "未选中任何词或单元格"},
    "headview.table": {"en": "Row as a table", "zh": "以表格显示该行"},
    "headview.table_row": {"en": "Weights of query {q} over every key word", "zh": "查询 {q} 对每个键词的权重"},
    "headview.table_col": {"en": "Weights of every query word over key {k}", "zh": "每个查询词对键 {k} 的权重"},
    "headview.table_empty": {"en": "Select a word or a cell: its row of weights appears here as a table.",
                             "zh": "选中一个词或单元格：它那一行的权重会以表格显示在这里。"},
    "headview.position": {"en": "position", "zh": "位置"},
    "headview.palette": {"en": "Colour-blind-safe colours", "zh": "色盲友好配色"},
    "app.palette": {"en": "Colour-blind-safe colours", "zh": "色盲友好配色"},
    "app.palette_help": {
        "en": "Matrices drawn in cividis (weights) and blue–orange (scores) instead of blues and red–blue; "
              "hatching still marks masked cells and an outline the selected one.",
        "zh": "矩阵改用 cividis（权重）和蓝–橙（分数）配色，代替蓝色和红–蓝配色；被遮蔽的单元格仍以斜线标出，选中的单元格仍有边框。"},
}
