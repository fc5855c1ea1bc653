"""The Write page's "What each head writes" part of "Why this word" (direct logit attribution)."""

STRINGS: dict[str, dict[str, str]] = {
    "writes.title": {"en": "What each head writes", "zh": "每个头写入了什么"},
    "writes.explain": {
        "en": "The model's last residual r at this position is a sum: the token's embedding, every head's output "
              "(its z times its own columns of the output projection W_O) and every MLP's output. The final norm "
              "divides all of r by one scale s = √(mean(r²) + ε), so each part x adds (x / s) · (γ ⊙ W_U[:, word]) "
              "to the word's logit, and the parts add up to the logit the model computed. This is what a head puts "
              "in directly; switching it off (above) also counts what later parts do with it.",
        "zh": "模型在该位置的最后残差 r 是一个和：词元的嵌入、每个头的输出（其 z 乘以输出投影 W_O 中属于它的列）以及每个 MLP 的输出。"
              "最终归一化用同一个尺度 s = √(mean(r²) + ε) 去除整个 r，因此每个部分 x 为该词的 logit 贡献 "
              "(x / s) · (γ ⊙ W_U[:, 词])，各部分相加正好等于模型算出的 logit。这是一个头直接写入的量；上面的“关闭”还计入了后面的部分对它的加工。"},
    "writes.open": {"en": "Show what each head writes to the chosen word (one forward pass)",
                    "zh": "显示每个头为所选词写入了什么（一次前向计算）"},
    "writes.playing": {"en": "Paused while the model writes: press Pause to see what each head writes.",
                       "zh": "模型正在写作，此处暂停：按“暂停”即可查看每个头写入了什么。"},
    "writes.word": {"en": "The word whose logit is split", "zh": "拆分其 logit 的词"},
    "writes.vs": {"en": "rather than", "zh": "而不是"},
    "writes.vs_none": {"en": "— (its logit alone)", "zh": "—（只看它的 logit）"},
    "writes.refused": {"en": "This model's logit does not split into heads: {reason}.",
                       "zh": "这个模型的 logit 不能拆分到各个头：{reason}。"},
    "writes.failed": {"en": "Could not split the logit: {error}", "zh": "无法拆分 logit：{error}"},
    "writes.check_ok": {"en": "The parts add up: Σ parts + bias = {total}; the model's own logit = {logit}; "
                              "difference {check} (at most {tol} allowed).",
                        "zh": "各部分相加吻合：Σ 部分 + 偏置 = {total}；模型自己的 logit = {logit}；差 {check}（允许至多 {tol}）。"},
    "writes.check_bad": {"en": "The parts do NOT add up: Σ parts + bias = {total} against the model's own logit "
                               "{logit} (difference {check}, more than {tol}). What follows is not this model's logit "
                               "split into parts.",
                         "zh": "各部分相加不吻合：Σ 部分 + 偏置 = {total}，而模型自己的 logit 为 {logit}（差 {check}，超过 {tol}）。"
                               "下面的数字不是这个模型 logit 的拆分。"},
    "writes.totals": {"en": "In logits: embedding {emb} · all heads {heads} · all MLPs {mlps} · output-projection "
                            "biases {out} · final norm and unembedding biases {bias}.",
                      "zh": "单位为 logit：嵌入 {emb} · 所有头 {heads} · 所有 MLP {mlps} · 输出投影偏置 {out} · 最终归一化与反嵌入偏置 {bias}。"},
    "writes.chart_title": {"en": "What each head writes directly to the logit of {token}",
                           "zh": "每个头直接写入 {token} 的 logit 的量"},
    "writes.chart_title_vs": {"en": "What each head writes to logit({token}) − logit({vs})",
                              "zh": "每个头写入 logit({token}) − logit({vs}) 的量"},
    "writes.axis_layer": {"en": "layer", "zh": "层"},
    "writes.axis_head": {"en": "head", "zh": "头"},
    "writes.row": {"en": "L{layer}", "zh": "第{layer}层"},
    "writes.col": {"en": "H{head}", "zh": "头{head}"},
    "writes.grid_caption": {"en": "Red: the head pushes the word up; blue: down. Click a cell to choose that head "
                                  "(the head view above shows it too).",
                            "zh": "红色：该头把这个词推高；蓝色：压低。点击一个格子选择该头（上方的头视图也会显示它）。"},
    "writes.claim": {"en": "Layer {layer}, head {head} writes {token}: {part} logits, while the other heads' parts "
                           "spread over about ±{spread} around {centre}.",
                     "zh": "第 {layer} 层第 {head} 头写入了 {token}：{part} 个 logit，而其他头的贡献大约在 {centre} 附近 ±{spread} 的范围内。"},
    "writes.no_claim": {"en": "No single head writes {token}: the largest part, {part} logits (layer {layer}, head "
                              "{head}), does not stand out from the spread of the other heads' parts (about ±{spread}); "
                              "many parts write it together.",
                        "zh": "没有哪一个头单独写入 {token}：最大的贡献是 {part} 个 logit（第 {layer} 层第 {head} 头），"
                              "并不比其他头贡献的离散程度（约 ±{spread}）突出；是许多部分一起写入的。"},
    "writes.head": {"en": "Layer {layer}, head {head} writes {part} logits to {token}.",
                    "zh": "第 {layer} 层第 {head} 头为 {token} 写入 {part} 个 logit。"},
    "writes.promotes": {"en": "Its output alone pushes up most (read through the residual's scale s): {tokens}",
                        "zh": "单看它的输出，推高最多的词（按残差的尺度 s 读出）：{tokens}"},
    "writes.suppresses": {"en": "and pushes down most: {tokens}", "zh": "压低最多的词：{tokens}"},
    "writes.read_title": {"en": "What layer {layer}, head {head} read: its attention from the last token",
                          "zh": "第 {layer} 层第 {head} 头读了什么：最后一个词元的注意力"},
    "writes.read_x": {"en": "attention weight", "zh": "注意力权重"},
    "writes.read_series": {"en": "weight", "zh": "权重"},
    "writes.cost": {"en": "Switching it off changes log p by {change} nats; it writes {part} logits directly.",
                    "zh": "关闭它使 log p 改变 {change} 奈特；它直接写入 {part} 个 logit。"},
    "writes.no_cost": {"en": "Explain the word above to set this beside what switching the head off costs.",
                       "zh": "在上方解释这个词，即可与关闭该头的代价并列比较。"},
    "writes.beside": {"en": "Beside each other, for the heads that write most and those whose switching off costs "
                            "most: what it writes directly (logits) and how log p changes with it off (nats).",
                      "zh": "并列比较写入最多的头和关闭代价最大的头：它直接写入的量（logit）与关闭它时 log p 的变化（奈特）。"},
    "writes.head_short": {"en": "L{layer}H{head}", "zh": "第{layer}层头{head}"},
    "writes.col_head": {"en": "head", "zh": "头"},
    "writes.col_part": {"en": "writes (logits)", "zh": "写入（logit）"},
    "writes.col_change": {"en": "log p with it off (nats)", "zh": "关闭后 log p 的变化（奈特）"},
    "writes.col_said": {"en": "what the two say together", "zh": "两者合起来说明"},
    "writes.said_compensated": {"en": "another path makes up for it", "zh": "另一条路径补上了它"},
    "writes.said_indirect": {"en": "acts through later parts", "zh": "通过后面的部分起作用"},
    "writes.compensated": {"en": "It writes the word, yet switching it off costs little: another path (other heads "
                                 "or the MLPs) makes up for it.",
                           "zh": "它写入了这个词，但关闭它代价很小：另一条路径（其他头或 MLP）补上了它。"},
    "writes.indirect": {"en": "Switching it off costs much, yet it writes little directly: it acts through later "
                              "heads and MLPs.",
                        "zh": "关闭它代价很大，但它直接写入的很少：它是通过后面的头和 MLP 起作用的。"},
}
