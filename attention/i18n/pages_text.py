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
    # the legend the page draws under the head view (ui/head_view/head_legend.py): what each matrix's colours mean
    "legend.blue": {"en": "blue", "zh": "蓝色"},
    "legend.red": {"en": "red", "zh": "红色"},
    "legend.orange": {"en": "orange", "zh": "橙色"},
    "legend.white": {"en": "white", "zh": "白色"},
    "legend.dark_blue": {"en": "dark blue", "zh": "深蓝色"},
    "legend.yellow": {"en": "yellow", "zh": "黄色"},
    "legend.S": {"en": "{lo}: q·k below 0 (the key points away from the query), white: 0, {hi}: above 0 (they "
                       "point the same way). The ends are ±{m}, this head's largest |q·k|.",
                 "zh": "{lo}：q·k 小于 0（键与查询方向相反），白色：0，{hi}：大于 0（方向一致）。两端为 ±{m}，"
                       "即此头最大的 |q·k|。"},
    "legend.A": {"en": "{lo}: weight 0, {hi}: weight 1 (the row's whole attention on that key). With the button "
                       "“A's colours: each row 0 to its largest weight”, {hi} is each row's own largest.",
                 "zh": "{lo}：权重 0，{hi}：权重 1（该行的全部注意力都在这个键上）。按下“A 的颜色：每行从 0 到该行最大权重”"
                       "后，{hi}表示每行自己的最大权重。"},
    "legend.opposite": {"en": "Dark blue means opposite things: in S a very negative score (almost no weight), "
                              "in A a weight near 1.",
                        "zh": "深蓝色在两处意思相反：在 S 中是很负的分数（几乎没有权重），在 A 中是接近 1 的权重。"},
    "legend.Z": {"en": "Each row is that word's output, {d} numbers (the columns); {lo}: below 0, white: 0, "
                       "{hi}: above 0. The ends are ±{m}.",
                 "zh": "每一行是该词的输出，共 {d} 个数（各列）；{lo}：小于 0，白色：0，{hi}：大于 0。两端为 ±{m}。"},
    "legend.rows": {"en": "When the rows are too thin for every word, the view writes only every other one (or "
                         "fewer) beside S and A. To read a row, hover it (its word and position show) or click "
                         "it: the selected row's and column's words are always written, boxed in orange. The "
                         "mouse wheel (two fingers on a phone) zooms in until every word fits.",
                   "zh": "行太窄、写不下每个词时，S 和 A 旁只隔一个（或更多）写一个词。要读某一行，把鼠标悬停在上面"
                         "（会显示它的词和位置），或点击它：选中的行和列的词总会写出来，带橙色边框。用鼠标滚轮"
                         "（手机上用两指）放大，直到每个词都写得下。"},
    "legend.masked": {"en": "Grey: masked, a later word the query may not see (no weight).",
                      "zh": "灰色：已遮蔽，查询看不到的后面的词（没有权重）。"},
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
