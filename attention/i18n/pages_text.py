"""Words of the page frame: navigation between pages, which explanation is open, what a page ranks."""

STRINGS: dict[str, dict[str, str]] = {
    # the head view (attention/headview): every label it draws
    "headview.S": {"en": "S = Q·Kᵀ (raw scores)", "zh": "S = Q·Kᵀ（因子矩阵，原始分数）"},
    "headview.A": {"en": "A = softmax(S·scale + mask)", "zh": "A = softmax(S·缩放 + 掩码)（注意力权重）"},
    "headview.Z": {"en": "Z = A·V", "zh": "Z = A·V（加权和）"},
    "headview.lines": {"en": "A as lines", "zh": "连线表示的 A"},
    "headview.masked": {"en": "masked", "zh": "已遮蔽"},
    "headview.query": {"en": "query", "zh": "查询"},
    "headview.key": {"en": "key", "zh": "键"},
    "headview.score": {"en": "q·k", "zh": "q·k"},
    "headview.scaled": {"en": "scaled", "zh": "缩放后"},
    "headview.weight": {"en": "weight", "zh": "权重"},
    "headview.dim": {"en": "dim", "zh": "维度"},
    "headview.z": {"en": "z", "zh": "z"},
    "headview.reset": {"en": "Reset zoom", "zh": "重置缩放"},
    "headview.colour_one": {"en": "A's colours: 0 to 1", "zh": "A 的颜色：0 到 1"},
    "headview.colour_rows": {"en": "A's colours: each row 0 to its largest weight", "zh": "A 的颜色：每行从 0 到该行最大权重"},
    "headview.png": {"en": "PNG", "zh": "PNG"},
    "headview.svg": {"en": "SVG", "zh": "SVG"},
    "headview.kind": {"en": "attention", "zh": "注意力"},
    "headview.layer": {"en": "layer", "zh": "层"},
    "headview.head": {"en": "head", "zh": "头"},
    "headview.encoder": {"en": "encoder self-attention", "zh": "编码器自注意力"},
    "headview.decoder": {"en": "decoder self-attention (masked)", "zh": "解码器自注意力（带掩码）"},
    "headview.cross": {"en": "encoder–decoder cross-attention", "zh": "编码器–解码器交叉注意力"},
    "headview.lines_too_long": {
        "en": "The lines view is for inputs of up to {max} words a side; this one has {n}. Use the matrices "
              "(zoom in with the mouse wheel).",
        "zh": "连线视图只适用于每侧最多 {max} 个词的输入；此输入有 {n} 个。请使用矩阵（用鼠标滚轮放大）。"},
    "headview.help": {
        "en": "Hover to read a cell, click to select it (or a word), arrows move, Esc clears, wheel zooms, "
              "drag pans.",
        "zh": "悬停读取单元格，点击选中单元格（或词），方向键移动，Esc 清除，滚轮缩放，拖动平移。"},
    "explain.which": {"en": "Which explanation", "zh": "哪种解释"},
    "relevance.sentence": {"en": "Ranking the heads of {model} on: {text}", "zh": "正在为 {model} 的注意力头排序，句子：{text}"},
}
