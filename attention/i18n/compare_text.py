"""The Compare page ("Change one word") and the button other pages show to open it."""

STRINGS: dict[str, dict[str, str]] = {
    "compare.site_row": {"en": "{kind} {layer}", "zh": "{kind} {layer}"},
    "compare.kind_short.encoder": {"en": "encoder", "zh": "编码器"},
    "compare.kind_short.decoder": {"en": "decoder", "zh": "解码器"},
    "compare.kind_short.cross": {"en": "cross", "zh": "交叉"},
    "page.compare": {"en": "Change one word", "zh": "改一个词"},
    "compare.title": {"en": "Change one word", "zh": "改一个词"},
    "compare.explain": {
        "en": "Write two sentences that differ by one word, A and B, and see head by head how the model's attention "
              "changed, how its output changed and (patching, below) which heads carry the change. The tokens are "
              "aligned by an edit alignment: what A and B share is compared position by position.",
        "zh": "写两个只差一个词的句子 A 和 B，逐个注意力头查看模型的注意力如何变化、输出如何变化，以及（下方的激活修补）"
              "哪些头承载了这一变化。词元按编辑对齐方式对齐：A 和 B 共有的部分逐个位置比较。"},
    "compare.model": {"en": "Model", "zh": "模型"},
    "compare.sentence_a": {"en": "Sentence A", "zh": "句子 A"},
    "compare.sentence_b": {"en": "Sentence B (change one word of A)", "zh": "句子 B（改动 A 中的一个词）"},
    "compare.sentence_b_help": {"en": "Press Ctrl+Enter or click outside the box to compare.",
                                "zh": "按 Ctrl+Enter 或点击框外即可比较。"},
    "compare.blank_a": {"en": "Sentence A is empty: type a sentence.", "zh": "句子 A 为空：请输入一个句子。"},
    "compare.blank_b": {"en": "Sentence B is empty: type A again with one word changed.",
                        "zh": "句子 B 为空：请再输入一遍 A，并改动其中一个词。"},
    "compare.failed": {"en": "Could not compare these two sentences: {error}", "zh": "无法比较这两个句子：{error}"},
    "compare.truncated": {"en": "Sentence {which} is longer than the model reads: only its first {max} tokens are "
                                "compared ({dropped} dropped).",
                          "zh": "句子 {which} 超出模型能读的长度：只比较前 {max} 个词元（丢弃了 {dropped} 个）。"},
    "compare.refused.empty": {"en": "One of the two sentences has no tokens the model reads ({n_a} and {n_b} tokens), "
                                    "so there is nothing to align.",
                              "zh": "两个句子之一没有模型能读的词元（分别为 {n_a} 和 {n_b} 个），无法对齐。"},
    "compare.refused.lengths": {"en": "These two sentences cannot be aligned: their lengths are too different ({n_a} "
                                      "and {n_b} tokens; at most twice as long). Change one word, not the sentence.",
                                "zh": "这两个句子无法对齐：长度相差太大（{n_a} 和 {n_b} 个词元；最多相差一倍）。"
                                      "请只改一个词，而不是整个句子。"},
    "compare.refused.shared": {"en": "These two sentences cannot be aligned: they share too few tokens ({shared} of "
                                     "{n_a} and {n_b}; at least half of the shorter one is needed). Change one word, "
                                     "not the sentence.",
                               "zh": "这两个句子无法对齐：共有的词元太少（{n_a} 和 {n_b} 个中共有 {shared} 个；"
                                     "至少需要较短句子的一半）。请只改一个词，而不是整个句子。"},
    "compare.running": {"en": "Running both sentences through the model…", "zh": "正在让模型读两个句子……"},
    "compare.patching_spinner": {"en": "Patching every head…", "zh": "正在逐个修补每个注意力头……"},
    "compare.patching_progress": {"en": "Patching heads: {done} of {total}", "zh": "正在修补注意力头：{done} / {total}"},
    "compare.open": {"en": "Change one word", "zh": "改一个词"},
    "compare.open_help": {"en": "Open Compare with this text as A (and as B, for you to change one word).",
                          "zh": "以此文本为 A 打开比较页（B 也预填为它，供你改动一个词）。"},
    "compare.head_name": {"en": "{kind} layer {layer}, head {head}", "zh": "{kind} 第 {layer} 层第 {head} 头"},
    "compare.alignment": {"en": "The two sentences, aligned", "zh": "两个句子的对齐"},
    "compare.aligned_one": {"en": "{shared} tokens aligned (A has {n_a}, B has {n_b}); 1 place changed, marked.",
                            "zh": "对齐了 {shared} 个词元（A 有 {n_a} 个，B 有 {n_b} 个）；1 处改动，已标出。"},
    "compare.aligned": {"en": "{shared} tokens aligned (A has {n_a}, B has {n_b}); {changes} places changed, marked.",
                        "zh": "对齐了 {shared} 个词元（A 有 {n_a} 个，B 有 {n_b} 个）；{changes} 处改动，已标出。"},
    "compare.nothing": {"en": "(nothing)", "zh": "（无）"},
    "compare.col_in_a": {"en": "in A", "zh": "A 中"},
    "compare.col_in_b": {"en": "in B", "zh": "B 中"},
    "compare.col_where": {"en": "positions in A / in B", "zh": "在 A / B 中的位置"},
    "compare.unreadable": {
        "en": "{model} cannot read some of these characters: {n_a} of A's {len_a} tokens and {n_b} of B's {len_b} are "
              "[UNK], one token for every character it has no piece for, so it sees them all as the same. A change "
              "there is invisible to it. SmolLM2 reads any character (byte by byte).",
        "zh": "{model} 读不懂其中一些字符：A 的 {len_a} 个词元中有 {n_a} 个、B 的 {len_b} 个词元中有 {n_b} 个是 [UNK]，"
              "凡是它没有对应词片的字符都变成这同一个词元，所以在它看来全都一样，那里的改动它看不见。SmolLM2 能逐字节读取任何字符。"},
    "compare.use_smollm2": {"en": "Compare with SmolLM2", "zh": "改用 SmolLM2 比较"},
    "compare.identical": {"en": "A and B read as the same tokens, so nothing can change: every head's change is "
                                "exactly 0 (largest |ΔA| = {max}, Jensen–Shannon distance = {js}). Change one word of B.",
                          "zh": "A 和 B 读作相同的词元，因此什么都不会变：每个头的变化都恰好为 0（最大 |ΔA| = {max}，"
                                "詹森-香农距离 = {js}）。请改动 B 中的一个词。"},
    "compare.output": {"en": "The output's change", "zh": "输出的变化"},
    "compare.next_title": {"en": "Next token after {which}", "zh": "{which} 之后的下一个词元"},
    "compare.next_js": {"en": "The two next-token distributions (over every token, not only these five) are a "
                              "Jensen–Shannon distance of {js} apart: 0 the same, 1 nothing in common.",
                        "zh": "两个下一个词元分布（覆盖全部词元，不只这五个）之间的詹森-香农距离为 {js}："
                              "0 表示相同，1 表示毫无重叠。"},
    "compare.unseen": {"en": "In this model a token sees only the tokens before it (causal attention), and here the "
                             "change comes after every token A and B share. So no shared token can see it: every "
                             "head's attention over the shared tokens is exactly the same in A and B, and patching "
                             "a head has nothing to carry. No head is ranked, because there is no change to rank. "
                             "The change shows only in what the changed last token predicts: the next-token "
                             "distributions above are {js} apart (Jensen–Shannon distance). To watch heads carry a "
                             "change, change a word before the end of the sentence.",
                       "zh": "在这个模型中，每个词元只能看到它前面的词元（因果注意力），而这里的改动位于 A 和 B "
                             "所有共有词元之后。所以没有哪个共有词元能看到它：每个头在共有词元上的注意力在 A 和 B "
                             "中完全相同，修补某个头也没有可传递的东西。因为没有变化可排，这里不对任何头排名。"
                             "改动只体现在改动后的最后一个词元所预测的内容上：上面两个下一个词元分布之间的"
                             "詹森-香农距离为 {js}。若想看注意力头如何承载变化，请改动句子末尾之前的一个词。"},
    "compare.try_pair": {"en": "Try a pair that works: “{a}” / “{b}”", "zh": "试试一对可行的句子：“{a}” / “{b}”"},
    "compare.translation_same": {"en": "Both sentences get the same translation.", "zh": "两个句子的翻译相同。"},
    "compare.translation_changed": {"en": "The translation changed.", "zh": "翻译变了。"},
    "compare.cosine": {"en": "Cosine of the two sentence embeddings", "zh": "两个句子嵌入的余弦"},
    "compare.cosine_caption": {"en": "The sentence embedding is the mean of the final hidden states (as "
                                     "all-MiniLM-L6-v2 is used); 1 − cosine = {distance}.",
                               "zh": "句子嵌入是最终隐藏状态的平均（all-MiniLM-L6-v2 的用法）；1 − 余弦 = {distance}。"},
    "compare.grid": {"en": "Every head at once", "zh": "所有注意力头一览"},
    "compare.measure": {"en": "Change measured as", "zh": "变化的度量"},
    "compare.measure.js": {"en": "Jensen–Shannon distance", "zh": "詹森-香农距离"},
    "compare.measure.max_abs": {"en": "largest |ΔA|", "zh": "最大 |ΔA|"},
    "compare.measure_help": {
        "en": "Jensen–Shannon distance: how far each aligned row of attention weights moved, as a distribution "
              "(0 the same, 1 nothing in common), averaged over the aligned rows; the weight on the changed words "
              "counts as one more key. Largest |ΔA|: the largest change of one weight between aligned words.",
        "zh": "詹森-香农距离：每个对齐行的注意力权重作为分布移动了多远（0 表示相同，1 表示毫无重叠），对所有对齐行取平均；"
              "落在改动词上的权重算作另一个键。最大 |ΔA|：对齐词之间单个权重的最大变化。"},
    "compare.grid_title_js": {"en": "Jensen–Shannon distance of A's and B's attention, per head",
                              "zh": "A 与 B 注意力的詹森-香农距离（每个头）"},
    "compare.grid_title_max_abs": {"en": "Largest |A_B − A_A|, per head", "zh": "最大 |A_B − A_A|（每个头）"},
    "compare.head_col": {"en": "H{head}", "zh": "头{head}"},
    "compare.no_head": {"en": "no such head", "zh": "无此头"},
    "compare.axis_site": {"en": "layer", "zh": "层"},
    "compare.axis_head": {"en": "head", "zh": "头"},
    "compare.grid_caption": {"en": "Rows are layers, columns heads; the darker, the more that head's attention changed "
                                   "(colours from 0 to the largest change, {top}). Click a cell to show that head below.",
                             "zh": "行是层，列是头；颜色越深，该头的注意力变化越大（颜色从 0 到最大变化 {top}）。"
                                   "点击一个格子即可在下方显示该头。"},
    "compare.top_changed": {"en": "The heads whose attention changed most (each opens on sentence A):",
                            "zh": "注意力变化最大的头（点击即以句子 A 打开）："},
    "compare.top_restoring": {"en": "The heads that restore most, each opened on sentence A:",
                              "zh": "恢复最多的头（点击即以句子 A 打开）："},
    "compare.open_head": {"en": "{n}. {head}: {value}", "zh": "{n}. {head}：{value}"},
    "compare.head": {"en": "One head, A beside B", "zh": "单个头：A 与 B 对照"},
    "compare.head_numbers": {"en": "**{head}**: Jensen–Shannon distance {js}, largest |ΔA| {max}.",
                             "zh": "**{head}**：詹森-香农距离 {js}，最大 |ΔA| {max}。"},
    "compare.tab_a": {"en": "A of A and of B", "zh": "A 与 B 的注意力权重"},
    "compare.tab_s": {"en": "S = Q·Kᵀ of A and of B", "zh": "A 与 B 的因子矩阵 S = Q·Kᵀ"},
    "compare.tab_diff": {"en": "A_B − A_A", "zh": "A_B − A_A"},
    "compare.a_title": {"en": "Attention weights, sentence {which}", "zh": "注意力权重：句子 {which}"},
    "compare.s_title": {"en": "S = Q·Kᵀ, sentence {which}", "zh": "因子矩阵 S = Q·Kᵀ：句子 {which}"},
    "compare.diff_title": {"en": "A_B − A_A on the aligned words (red: more weight in B, blue: less)",
                           "zh": "对齐词上的 A_B − A_A（红：B 中权重更大，蓝：更小）"},
    "compare.elsewhere": {"en": "(changed words)", "zh": "（改动的词）"},
    "compare.diff_caption": {"en": "Rows and columns are the words A and B share, named by A's tokens; the last "
                                   "column is the weight on the changed words (each row sums to 0).",
                             "zh": "行和列是 A 与 B 共有的词（用 A 的词元命名）；最后一列是落在改动词上的权重（每行之和为 0）。"},
    "compare.patching": {"en": "Which heads carry the change? (patching)", "zh": "哪些头承载了这一变化？（激活修补）"},
    "compare.patching_explain": {
        "en": "Activation patching: run A again with one head's output z replaced by that head's z from run B at the "
              "aligned positions, and measure how much of the output's change it restores: 100 % means that head alone "
              "turns A's output into B's, 0 % that it changes nothing. Every head is patched alone.",
        "zh": "激活修补：重新运行 A，把某一个头在对齐位置上的输出 z 换成运行 B 中该头的 z，再测量它恢复了多少输出变化："
              "100 % 表示这个头单独就把 A 的输出变成了 B 的，0 % 表示它什么也没改变。每个头单独修补。"},
    "compare.patch_button": {"en": "Patch every head", "zh": "修补每个注意力头"},
    "compare.no_patch.switch": {"en": "Patching is not offered for this model: its attention is computed inside its "
                                      "own layers, so one head's output cannot be replaced.",
                                "zh": "此模型不提供激活修补：它的注意力在自身层内计算，无法替换单个头的输出。"},
    "compare.no_patch.encoder_decoder": {"en": "Patching is not offered for this model: it is an encoder–decoder "
                                               "without a language-model head, so there is no single output to "
                                               "measure the change on.",
                                         "zh": "此模型不提供激活修补：它是没有语言模型头的编码器–解码器，"
                                               "没有可用来测量变化的单一输出。"},
    "compare.measure_lm": {"en": "The change measured: the logit difference LD = logit({b}) − logit({a}) at the last "
                                 "position, B's likeliest next token ({b}) against A's ({a}): {ld_a} in A, {ld_b} in B.",
                           "zh": "所测的变化：最后一个位置上的 logit 差 LD = logit({b}) − logit({a})，即 B 最可能的下一个"
                                 "词元（{b}）对比 A 的（{a}）：A 中为 {ld_a}，B 中为 {ld_b}。"},
    "compare.measure_lm_rose": {
        "en": "A and B both put {a} first (the charts above), so to follow the change the measure takes {b}: the token "
              "among B's ten likeliest whose logit rose most from A to B (probability {p_a} in A, {p_b} in B). The "
              "change measured: the logit difference LD = logit({b}) − logit({a}) at the last position: {ld_a} in A, "
              "{ld_b} in B. Below 0, {a} is still ahead of {b}.",
        "zh": "A 和 B 都把 {a} 排在第一（见上方图表），所以为了跟踪变化，度量改用 {b}：B 最可能的十个词元中，"
              "logit 从 A 到 B 上升最多的那个（概率：A 中 {p_a}，B 中 {p_b}）。所测的变化：最后一个位置上的 "
              "logit 差 LD = logit({b}) − logit({a})：A 中为 {ld_a}，B 中为 {ld_b}。小于 0 表示 {a} 仍领先于 {b}。"},
    "compare.measure_tr": {"en": "The change measured: the log-probability of B's word {b} where the translations "
                                 "first differ (A's word there: {a}): {ld_a} nats in A, {ld_b} in B.",
                           "zh": "所测的变化：在两个翻译首次不同之处，B 的词 {b} 的对数概率（A 在该处的词：{a}）："
                                 "A 中为 {ld_a} 奈特，B 中为 {ld_b}。"},
    "compare.measure_emb": {"en": "The change measured: 1 − cosine between the embeddings of A and B over the tokens "
                                  "they share (the mean of those tokens' final hidden states): {d} in A, 0 in B (B against itself). "
                                  "It differs from the {full} above, which is over every token, the changed ones "
                                  "included: patching can only move the shared ones.",
                            "zh": "所测的变化：A 与 B 在共有词元上的嵌入（这些词元最终隐藏状态的平均）之间的 1 − 余弦："
                                  "A 中为 {d}，B 中为 0（B 与自身比较）。它与上面的 {full} 不同：那是对所有词元（包括改动的词元）"
                                  "计算的，而修补只能改变共有的词元。"},
    "compare.nothing_to_restore": {"en": "A and B give the same output measure: there is no change to restore, so no "
                                         "head is ranked.",
                                   "zh": "A 和 B 的输出度量相同：没有可恢复的变化，因此不对任何头排名。"},
    "compare.claim.none": {"en": "The output measure differs by less than {floor} between A and B: too little to "
                                 "rank heads by.",
                           "zh": "A 与 B 的输出度量相差不到 {floor}：太小，不足以对头排名。"},
    "compare.claim.carrier": {"en": "**{head}** carries most of the change: patched alone, it restores {share} of it.",
                              "zh": "**{head}** 承载了大部分变化：单独修补它，就恢复了其中的 {share}。"},
    "compare.claim.largest": {"en": "No single head stands out: the largest share, {share}, is restored by {head}, "
                                    "and the next head restores {second} alone.",
                              "zh": "没有哪个头明显突出：{head} 恢复的份额最大，为 {share}；其次的头单独恢复 {second}。"},
    "compare.claim.spread": {"en": "The change is spread over many heads: none of the {n} restores much more than "
                                   "an even share alone (the largest: {head}, {share}).",
                             "zh": "变化分散在许多头上：{n} 个头中没有一个单独恢复的明显多于平均份额（最大的是 {head}，{share}）。"},
    "compare.together": {"en": "All heads patched at once restore {share} (a check: 100 % when every shared "
                               "position becomes B's).",
                         "zh": "同时修补所有头恢复了 {share}（检验：当每个共有位置都变成 B 的时为 100 %）。"},
    "compare.shares_overlap": {
        "en": "Single-head shares need not add up to 100 %: each is measured with that head alone patched, and heads "
              "act through each other (a later head reads an earlier one's output), so two heads can each restore much "
              "of the same change. Here the two largest, {first} and {second}, make {sum} together.",
        "zh": "单个头的份额加起来不必等于 100 %：每个份额都是只修补那一个头时测得的，而头之间会相互作用（后面的头读取"
              "前面的头的输出），所以两个头可以各自恢复同一变化的很大一部分。这里最大的两个份额 {first} 和 {second} "
              "加起来为 {sum}。"},
    "compare.col_rank": {"en": "rank", "zh": "名次"},
    "compare.col_head": {"en": "head", "zh": "注意力头"},
    "compare.col_share": {"en": "restored alone", "zh": "单独恢复"},
}
