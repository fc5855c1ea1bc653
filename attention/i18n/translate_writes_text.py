"""The Translate page's "What each decoder head writes" (attention/ui/pages/translate_writes.py): merged into
writes_text.STRINGS, beside the Write page's part it shares words with."""

STRINGS: dict[str, dict[str, str]] = {
    "trwrites.explain": {
        "en": "The decoder's last residual at a position is a sum: the word's embedding (token + position), every "
              "masked self-attention head's and every cross-attention head's output (its z times its own W_O), each "
              "output projection's bias and each feed-forward's output. The final LayerNorm centres it and divides it "
              "by one scale s, so each part adds its share to the Spanish word's logit, and the shares add up to it.",
        "zh": "解码器在某个位置的最后残差是一个和：该词的嵌入（词元 + 位置）、每个带掩码自注意力头和每个交叉注意力头的输出（其 z 乘以它自己的 W_O）、"
              "每个输出投影的偏置以及每个前馈层的输出。最终的 LayerNorm 先将其中心化，再除以同一个尺度 s，因此每个部分为该西班牙语词的 "
              "logit 贡献一份，各份相加正好等于它。"},
    "trwrites.open": {"en": "Show what each decoder head writes to a Spanish word",
                      "zh": "显示每个解码器头为一个西班牙语词写入了什么"},
    "trwrites.position": {"en": "Decoder position: the word fed in ▸ the word written there",
                          "zh": "解码器位置：输入的词 ▸ 在此写出的词"},
    "trwrites.position_label": {"en": "{i}: {fed} ▸ {made}", "zh": "{i}：{fed} ▸ {made}"},
    "trwrites.check_ok": {"en": "The parts add up: all the parts listed next, together with the final LayerNorm's "
                                "learned shift β, make {total}; the model's own {what} = {logit}; difference {check} "
                                "(at most {tol} allowed).",
                          "zh": "各部分相加吻合：下面列出的所有部分，加上最终 LayerNorm 学到的平移量 β，合计 {total}；"
                                "模型自己的 {what} = {logit}；差 {check}（允许至多 {tol}）。"},
    "trwrites.check_bad": {"en": "The parts do NOT add up: all the parts listed next, together with the final "
                                 "LayerNorm's learned shift β, make {total} against the model's own {what} {logit} "
                                 "(difference {check}, more than {tol}). What follows is not this model's logit split "
                                 "into parts.",
                           "zh": "各部分相加不吻合：下面列出的所有部分加上最终 LayerNorm 学到的平移量 β，合计 {total}，"
                                 "而模型自己的 {what} 为 {logit}（差 {check}，超过 {tol}）。下面的数字不是这个模型 logit 的拆分。"},
    "trwrites.totals": {"en": "In logits: embedding {emb} · masked self-attention heads {self} · cross-attention heads "
                              "{cross} · feed-forwards {mlps} · output-projection biases {out} · final LayerNorm's β "
                              "{bias}.",
                        "zh": "单位为 logit：嵌入 {emb} · 带掩码自注意力头 {self} · 交叉注意力头 {cross} · 前馈层 {mlps} · "
                              "输出投影偏置 {out} · 最终 LayerNorm 的 β {bias}。"},
    "trwrites.grid_caption": {"en": "Each cell: what that head writes to the logit of {token}. Red: up; blue: down. "
                                    "Both grids share one colour scale, ±{top} logits, so their colours compare. The "
                                    "outlined cell is the head described below; click a cell to choose that head.",
                              "zh": "每个格子：该头写入 {token} 的 logit 的量。红色：推高；蓝色：压低。两个网格共用同一个颜色尺度"
                                    "（±{top} logit），颜色可以直接比较。加框的格子是下面介绍的头；点击一个格子即可选择该头。"},
    "trwrites.hover": {"en": "layer {layer}, head {head} ({kind}): {part} logit to ‘{token}’",
                       "zh": "第 {layer} 层第 {head} 头（{kind}）：为“{token}”写入 {part} logit"},
    "trwrites.claim": {"en": "Layer {layer}, head {head} ({kind}) writes {token}: {part} logits, {ratio}× the next "
                             "head ({other}), and {away} robust spreads from the other {n} heads' parts (at least "
                             "{z} needed).",
                       "zh": "{kind}第 {layer} 层第 {head} 头写入了 {token}：{part} logit，是次大的头（{other}）的 "
                             "{ratio} 倍，距其他 {n} 个头的贡献 {away} 个稳健离散度（至少需要 {z} 个）。"},
    "trwrites.no_claim_small": {"en": "No single head writes {token}: the largest part, {part} logits ({kind}, layer "
                                      "{layer}, head {head}), is under {floor} logits, too small to call writing.",
                                "zh": "没有哪一个头单独写入 {token}：最大的贡献 {part} logit（{kind}第 {layer} 层第 {head} 头）"
                                      "不到 {floor} logit，小到不能算作写入。"},
    "trwrites.no_claim_lead": {"en": "No single head writes {token}: the largest part, {part} logits ({kind}, layer "
                                     "{layer}, head {head}), is only {ratio}× the next head ({other}); it would need "
                                     "{lead}× to stand alone, so these heads write it together.",
                               "zh": "没有哪一个头单独写入 {token}：最大的贡献 {part} logit（{kind}第 {layer} 层第 {head} 头）"
                                     "只是次大的头（{other}）的 {ratio} 倍；要单独算作写入需要 {lead} 倍，所以是这些头一起写入的。"},
    "trwrites.no_claim_spread": {"en": "No single head writes {token}: the largest part, {part} logits ({kind}, layer "
                                       "{layer}, head {head}), is {ratio}× the next head ({other}), but with only {n} "
                                       "other heads, whose parts spread widely (half lie within ±{mad} of {centre}), it "
                                       "lies {away} such spreads from them, short of the {z} needed to call it the one "
                                       "head that writes {token}.",
                                 "zh": "没有哪一个头单独写入 {token}：最大的贡献 {part} logit（{kind}第 {layer} 层第 {head} 头）"
                                       "是次大的头（{other}）的 {ratio} 倍，但其他头只有 {n} 个，且它们的贡献分散很广（一半落在 "
                                       "{centre} 的 ±{mad} 以内）；它离它们只有 {away} 个这样的离散度，不到所需的 {z} 个，"
                                       "不能说它是单独写入 {token} 的那个头。"},
    "trwrites.no_claim_few": {"en": "No single head writes {token}: with only {n} other heads there are too few to "
                                    "judge the largest part, {part} logits ({kind}, layer {layer}, head {head}), against.",
                              "zh": "没有哪一个头单独写入 {token}：其他头只有 {n} 个，太少，无法据此判断最大的贡献 {part} logit"
                                    "（{kind}第 {layer} 层第 {head} 头）。"},
    "trwrites.head": {"en": "The head chosen above ({kind}, layer {layer}, head {head}) writes {part} logits to {token}.",
                      "zh": "上面选中的头（{kind}第 {layer} 层第 {head} 头）为 {token} 写入 {part} logit。"},
    "trwrites.head_standout": {"en": "The head chosen above is an encoder head, which writes nothing directly to a "
                                     "Spanish word, so this part follows the head that writes most here ({kind}, "
                                     "layer {layer}, head {head}): {part} logits to {token}. Click a cell of a grid "
                                     "to choose another.",
                               "zh": "上面选中的是编码器的头，它不直接为西班牙语词写入任何量，所以这里改看在此写入最多的头"
                                     "（{kind}第 {layer} 层第 {head} 头）：为 {token} 写入 {part} logit。点击网格中的格子可选择别的头。"},
    "trwrites.promotes": {"en": "Its output alone pushes these words up most (each word's logit share, computed as in "
                                "the sum above): {tokens}",
                          "zh": "单看它的输出，推高最多的词（每个词的 logit 份额，算法与上面的和相同）：{tokens}"},
    "trwrites.rank": {"en": "Ordering all {size} words of the translator's Spanish vocabulary by how much this head "
                            "pushes each up, {token} is #{rank} (#1: pushed up most).",
                      "zh": "把翻译模型西班牙语词表中的全部 {size} 个词按这个头推高的量排序，{token} 排第 {rank} 位（第 1 位：推高最多）。"},
    "trwrites.other": {"en": "layer {layer}, head {head}, {kind}: {part}", "zh": "{kind}第 {layer} 层第 {head} 头：{part}"},
    "trwrites.kind_decoder": {"en": "masked self-attention", "zh": "带掩码自注意力"},
    "trwrites.kind_cross": {"en": "cross-attention", "zh": "交叉注意力"},
    "trwrites.sep": {"en": ", ", "zh": "、"},
}
