"""The explanation tabs under the matrices (the "why")."""

STRINGS: dict[str, dict[str, str]] = {
    # the explanation tabs
    "tab.dot": {"en": "Why this score: q·k", "zh": "分数从何而来：q·k"},
    "tab.sum": {"en": "How Z is built", "zh": "Z 如何构成"},
    "tab.steps": {"en": "Step by step", "zh": "逐步计算"},
    "tab.space": {"en": "Queries and keys on one map", "zh": "查询与键在同一张图上"},
    "tab.origin": {"en": "Where q, k, v come from", "zh": "q、k、v 从何而来"},
    "space.explain": {
        "en": "Every query (●) and every key (◆) of this head on one map, drawn from the origin (+). A query "
              "gives most of its attention to the keys that reach furthest in its direction: q·k is large when "
              "the two are long and point the same way. Two changes make that readable without changing any "
              "weight: every key has the keys' average taken off (that lowers all of a query's scores by the "
              "same amount, which the softmax ignores), and queries are multiplied by a number that keys are "
              "divided by (every q·k stays the same). The axes are the two directions in which queries and keys "
              "reach furthest, as in AttentionViz.",
        "zh": "本注意力头的每个查询（●）和每个键（◆）画在同一张图上，从原点（+）出发。一个查询把大部分注意力分给沿它的方向"
              "伸得最远的键：两者越长、方向越一致，q·k 就越大。有两处改动让这一点易读，却不改变任何权重：每个键减去所有键的"
              "平均值（这让一个查询的所有分数减少同一个量，softmax 不受影响）；查询乘以一个数、键除以同一个数（每个 q·k "
              "都不变）。两条坐标轴是查询和键一起伸得最远的两个方向，与 AttentionViz 的做法相同。",
    },
    "space.title": {"en": "Queries and keys of head {head}", "zh": "第 {head} 个注意力头的查询与键"},
    "space.query": {"en": "query", "zh": "查询"},
    "space.key": {"en": "key", "zh": "键"},
    "space.kept": {
        "en": "How far to trust the map: it holds {kept} of the vectors' squared length (the rest lies in "
              "directions it cannot draw), and for {agree} of its {n} queries the key furthest in their direction "
              "on the map is also the key they attend to most. The map shows q·k only: a position bias added to "
              "the scores (as in T5) is not on it. The exact numbers are in the heatmaps above.",
        "zh": "这张图可信到什么程度：它保留了向量平方长度的 {kept}（其余部分位于图中画不出的方向上）；{n} 个查询中有 "
              "{agree} 个，在图上沿其方向伸得最远的键正是它们最关注的键。这张图只表示 q·k：加在分数上的位置偏置（如 T5）"
              "不在图上。精确的数值见上方的热力图。",
    },
    "space.lines": {
        "en": "The chosen query is ringed, with a dashed line from the origin giving its direction; solid lines go "
              "to the keys it gives at least 5% of its attention, as thick as the weight.",
        "zh": "选中的查询被圈出，从原点出发的虚线表示它的方向；实线指向它分配了至少 5% 注意力的键，线越粗权重越大。",
    },
    "explain.need_pair": {"en": "Select a cell (a query word and a key word) to take its score apart.",
                          "zh": "请选择一个格子（一个查询词和一个键词）来拆解它的分数。"},
    "explain.need_query": {"en": "Select a query word (a row) first.", "zh": "请先选择一个查询词（一行）。"},
    "dot.explain": {
        "en": "The score of {q} → {k} is the dot product of their query and key vectors: each dimension d adds "
              "q_d·k_d. Where q and k have the same sign the term is positive (red), where they disagree it is "
              "negative (blue). Vectors that point the same way score high. Nothing here is designed by hand: "
              "training shaped the embeddings and W_Q, W_K so that related words align.",
        "zh": "{q} → {k} 的分数是它们的查询向量与键向量的点积：每个维度 d 贡献 q_d·k_d。q 和 k 符号相同时该项为正（红色），"
              "符号相反时为负（蓝色）。方向一致的向量得分高。这里没有任何人工设计：是训练塑造了词嵌入以及 W_Q、W_K，"
              "让相关的词彼此对齐。",
    },
    "dot.sort": {"en": "Sort dimensions by contribution", "zh": "按贡献大小排序维度"},
    "dot.compare": {"en": "Compare with another key word", "zh": "与另一个键词比较"},
    "dot.none": {"en": "(none)", "zh": "（不比较）"},
    "dot.sum": {"en": "Σ q_d·k_d = {total} = S[{qi}, {ki}]", "zh": "Σ q_d·k_d = {total} = S[{qi}, {ki}]"},
    "dot.stats": {
        "en": "{agree} of {d} dimensions agree in sign · cosine of the angle between q and k: {cos}",
        "zh": "{d} 个维度中有 {agree} 个符号一致 · q 与 k 夹角的余弦：{cos}",
    },
    "dot.vectors": {"en": "q and k, dimension by dimension", "zh": "q 与 k，逐维度"},
    "dot.terms": {"en": "q_d·k_d per dimension (sum = the cell of S)", "zh": "每个维度的 q_d·k_d（求和 = S 中的格子）"},
    "dot.dimension": {"en": "dimension", "zh": "维度"},
    "sum.explain": {
        "en": "The output row of {q} is a weighted sum: every word's value vector V_j, multiplied by the weight "
              "{q} gives it, all added up. Each coloured segment is one word's contribution weight_j·V_j; the "
              "black line is their total, which is exactly the row of Z.",
        "zh": "{q} 的输出行是一个加权和：每个词的值向量 V_j 乘以 {q} 给它的权重，再全部相加。每个彩色片段是一个词的贡献 "
              "weight_j·V_j；黑线是它们的总和，恰好等于 Z 的这一行。",
    },
    "sum.total": {"en": "total = row of Z", "zh": "总和 = Z 的这一行"},
    "sum.others": {"en": "all other words", "zh": "其余所有词"},
    "sum.title": {"en": "The row of {q} in Z = Σ_j w_j·V_j  (w_j: the weight {q} gives word j)",
                  "zh": "Z 中 {q} 的那一行 = Σ_j w_j·V_j（w_j：{q} 给词 j 的权重）"},
    "steps.explain": {
        "en": "One query row through the whole formula: raw scores q·k, scaled by 1/√d_k (and divided by the "
              "temperature), the mask where there is one, the softmax that turns scores into weights summing to "
              "1, and the weighted sum of value vectors. Temperature 1 is exactly what the model computed; a "
              "higher temperature flattens the weights, a lower one sharpens them.",
        "zh": "一行查询经过完整公式：原始分数 q·k，乘以 1/√d_k 缩放（并除以温度），如有掩码则加上掩码，softmax 把分数变成"
              "和为 1 的权重，最后对值向量加权求和。温度为 1 时正是模型的计算结果；温度越高权重越平均，越低则越集中。",
    },
    "steps.temperature": {"en": "Softmax temperature", "zh": "softmax 温度"},
    "steps.col_key": {"en": "key word", "zh": "键词"},
    "steps.col_raw": {"en": "1 · raw q·k", "zh": "1 · 原始 q·k"},
    "steps.col_scaled": {"en": "2 · ÷√d_k ÷ T", "zh": "2 · ÷√d_k ÷ T"},
    "steps.col_masked": {"en": "3 · mask", "zh": "3 · 掩码"},
    "steps.col_weight": {"en": "4 · softmax", "zh": "4 · softmax"},
    "steps.col_model": {"en": "model's weight", "zh": "模型的权重"},
    "steps.hidden": {"en": "hidden", "zh": "被遮住"},
    "steps.open": {"en": "open", "zh": "可见"},
    "steps.entropy": {"en": "spread of the weights (entropy): {h} nats (uniform: {hmax})",
                      "zh": "权重的分散程度（熵）：{h} 奈特（均匀分布：{hmax}）"},
    "steps.z": {"en": "5 · Z row = weights · V", "zh": "5 · Z 的行 = 权重 · V"},
    "steps.weights_chart": {"en": "weights at this temperature vs the model's", "zh": "此温度下的权重与模型权重对比"},
    "steps.at_t": {"en": "temperature {t}", "zh": "温度 {t}"},
    "steps.model": {"en": "model (T = 1)", "zh": "模型（T = 1）"},
    "origin.explain": {
        "en": "Each word enters the layer as one vector x. Three learned matrices turn it into its query, key and "
              "value for this head: q = x·W_Q + b_Q, k = x·W_K + b_K, v = x·W_V + b_V.",
        "zh": "每个词以一个向量 x 进入这一层。三个学习得到的矩阵把它变成这个头的查询、键和值：q = x·W_Q + b_Q，"
              "k = x·W_K + b_K，v = x·W_V + b_V。",
    },
    "origin.first": {
        "en": "This is the first layer: x is the word's token embedding plus its position embedding (plus a segment "
              "embedding in BERT-like models), then normalised — the lower chart shows the parts and their sum.",
        "zh": "这是第一层：x 是词元嵌入加上位置嵌入（BERT 类模型还要加片段嵌入），再做归一化——下方的图显示各部分及其和。",
    },
    "origin.later": {
        "en": "This is not the first layer: x is the word's vector as layer {prev} left it — the embeddings after "
              "every earlier layer's attention and feed-forward step — so it no longer splits into token + position.",
        "zh": "这不是第一层：x 是该词经过第 {prev} 层之后的向量——嵌入已经过前面每一层的注意力和前馈网络——"
              "因此不能再拆成词元嵌入 + 位置嵌入。",
    },
    "origin.parts": {"en": "the parts, before normalisation (their own scale)", "zh": "归一化之前的各部分（独立刻度）"},
    "origin.sum": {"en": "their sum", "zh": "它们的和"},
    "origin.unavailable": {
        "en": "This model's projection weights are not laid out in a way this view reads yet.",
        "zh": "这个模型的投影权重布局暂不支持此视图。",
    },
    "origin.input": {"en": "x: the input vector of {w} to layer {layer}", "zh": "x：{w} 输入第 {layer} 层的向量"},
    "origin.embedding": {"en": "first layer: x = LayerNorm(token + position + segment)",
                         "zh": "第一层：x = LayerNorm(词元嵌入 + 位置嵌入 + 片段嵌入)"},
    "origin.token": {"en": "token embedding", "zh": "词元嵌入"},
    "origin.position": {"en": "position embedding", "zh": "位置嵌入"},
    "origin.segment": {"en": "segment embedding", "zh": "片段嵌入"},
    "origin.projected": {"en": "x·W + b for this head, next to what the model used", "zh": "此头的 x·W + b，与模型实际使用的值对比"},
    "origin.check": {"en": "max |x·W + b − model| = {diff}", "zh": "最大 |x·W + b − 模型值| = {diff}"},
    "origin.from_model": {"en": "model", "zh": "模型"},
    "origin.recomputed": {"en": "x·W + b", "zh": "x·W + b"},
}
