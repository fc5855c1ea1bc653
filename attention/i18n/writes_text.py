"""The Write page's "What each head writes" part of "Why this word" (direct logit attribution)."""

from attention.i18n import translate_writes_text

STRINGS: dict[str, dict[str, str]] = {
    "writes.title": {"en": "What each head writes", "zh": "每个头写入了什么"},
    "writes.explain": {
        "en": "The model's last residual r at this position is a sum: the token's embedding, every head's output "
              "(its z times its own columns of the output projection W_O) and every MLP's output. The final norm "
              "divides all of r by one scale s = √(mean(r²) + ε), so each part x adds (x / s) · (γ ⊙ W_U[:, word]) "
              "to the word's logit, and the parts add up to the logit the model computed. This is what a head puts "
              "in directly; switching it off (above) also counts what later parts do with it.",
        "zh": "模型在该位置的最后残差 r 是一个和：词元的嵌入、每个头的输出（其 z 乘以输出投影 W_O 中属于它的列）以及每个 MLP 的输出。"
              "最终归一化将整个 r 除以同一个尺度 s = √(mean(r²) + ε)，因此每个部分 x 为该词的 logit 贡献 "
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
    "writes.check_ok": {"en": "The parts add up: every part listed below, plus the output's own bias (0 where the model has none), make {total}; the model's own {what} = {logit}; "
                              "difference {check} (at most {tol} allowed).",
                        "zh": "各部分相加吻合：下面列出的所有部分，加上输出层自己的偏置（模型没有时为 0），合计 {total}；模型自己的 {what} = {logit}；差 {check}（允许至多 {tol}）。"},
    "writes.check_bad": {"en": "The parts do NOT add up: every part listed below plus the output's own bias make {total} against the model's own {what} "
                               "{logit} (difference {check}, more than {tol}). What follows is not this model's logit "
                               "split into parts.",
                         "zh": "各部分相加不吻合：下面列出的所有部分加上输出层自己的偏置合计 {total}，而模型自己的 {what} 为 {logit}（差 {check}，超过 {tol}）。"
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
    "writes.claim": {"en": "Layer {layer}, head {head} writes {token}: {part} logits. Half of the other {n} heads' "
                           "parts lie within ±{mad} of their median {centre}, and the largest of them, layer "
                           "{o_layer}, head {o_head}, writes {other}.",
                     "zh": "第 {layer} 层第 {head} 头写入了 {token}：{part} logit。其他 {n} 个头的贡献有一半落在其中位数 "
                           "{centre} 的 ±{mad} 以内；其中最大的是第 {o_layer} 层第 {o_head} 头，写入 {other}。"},
    "writes.no_claim": {"en": "No single head writes {token}: the largest part, {part} logits (layer {layer}, head "
                              "{head}), is not far beyond the others (the next largest, layer {o_layer}, head {o_head}, "
                              "writes {other}; half of the other parts lie within ±{mad} of {centre}): many parts write "
                              "it together.",
                        "zh": "没有哪一个头单独写入 {token}：最大的贡献是 {part} logit（第 {layer} 层第 {head} 头），"
                              "并不远超其他头（次大的是第 {o_layer} 层第 {o_head} 头，写入 {other}；其他贡献有一半落在 "
                              "{centre} 的 ±{mad} 以内）；是许多部分一起写入的。"},
    "writes.rather": {"en": "{token} rather than {vs}", "zh": "{token}（而不是 {vs}）"},
    "writes.what_logit": {"en": "logit", "zh": "logit"},
    "writes.what_difference": {"en": "logit difference", "zh": "logit 差"},
    "writes.grid_caption_vs": {"en": "Red: the head pushes the word up against the other; blue: the other up against "
                                     "it. Click a cell to choose that head (the head view above shows it too).",
                               "zh": "红色：该头把这个词相对另一个词推高；蓝色：把另一个词相对它推高。点击一个格子选择该头（上方的头视图也会显示它）。"},
    "writes.units": {"en": "Logits and nats: were nothing else to change, taking a part of x logits out of this word's "
                           "logit would lower its log p by about (1 − p) · x nats, with p = {p} its probability here. "
                           "Where the two columns disagree, later heads and MLPs change what a head's removal does.",
                     "zh": "logit 与奈特：若其他一切不变，从这个词的 logit 中去掉 x logit 的贡献，会使它的 log p 降低约 "
                           "(1 − p) · x 奈特（这里 p = {p} 是它的概率）。两列不一致的地方，是后面的头和 MLP 改变了去掉一个头的效果。"},
    "writes.said_opposite": {"en": "later parts outweigh what it writes", "zh": "后面的部分盖过了它直接写入的量"},
    "writes.opposite": {"en": "What it writes directly and what switching it off does point opposite ways: what it "
                              "does through later heads and MLPs outweighs what it writes itself.",
                        "zh": "它直接写入的量与关闭它的效果方向相反：它通过后面的头和 MLP 起的作用盖过了它自己写入的量。"},
    "writes.head": {"en": "Layer {layer}, head {head} writes {part} logits to {token}.",
                    "zh": "第 {layer} 层第 {head} 头为 {token} 写入 {part} logit。"},
    "writes.promotes": {"en": "Its output alone pushes up most (read through the residual's scale s): {tokens}",
                        "zh": "单看它的输出，推高最多的词（按残差的尺度 s 读出）：{tokens}"},
    "writes.suppresses": {"en": "and pushes down most: {tokens}", "zh": "压低最多的词：{tokens}"},
    "writes.rank": {"en": "Among everything this head pushes up, {token} is #{rank} of {size} (#1: pushed up most).",
                    "zh": "在这个头推高的所有词中，{token} 排第 {rank} 位，共 {size} 个（第 1 位：推高最多）。"},
    "writes.read_title": {"en": "What layer {layer}, head {head} read: its attention from the last token",
                          "zh": "第 {layer} 层第 {head} 头读了什么：最后一个词元的注意力"},
    "writes.read_x": {"en": "attention weight", "zh": "注意力权重"},
    "writes.read_series": {"en": "weight", "zh": "权重"},
    "writes.cost": {"en": "Switching it off changes log p by {change} nats; it writes {part} logits directly.",
                    "zh": "关闭它使 log p 改变 {change} 奈特；它直接写入 {part} logit。"},
    "writes.no_cost": {"en": "Explain the word above to set this beside what switching the head off costs.",
                       "zh": "在上方解释这个词，即可与关闭该头的代价并列比较。"},
    "writes.beside": {"en": "Beside each other, for the heads that write most and those whose switching off costs "
                            "most: what it writes directly (logits) and how log p changes with it off (nats).",
                      "zh": "并列比较写入最多的头和关闭代价最大的头：它直接写入的量（logit）与关闭它时 log p 的变化（奈特）。"},
    "writes.head_short": {"en": "L{layer}H{head}", "zh": "第{layer}层头{head}"},
    "writes.col_head": {"en": "head", "zh": "头"},
    "writes.col_part": {"en": "writes (logits)", "zh": "写入（logit）"},
    "writes.col_change": {"en": "change of log p with it off (nats)", "zh": "关闭后 log p 的变化（奈特）"},
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
STRINGS.update(translate_writes_text.STRINGS)  # the Translate page's part, kept in its own module
