"""Every word the app shows, in English and Simplified Chinese. tests/test_i18n.py fails on a gap.

Terms follow the usual Chinese usage: 查询 Query, 键 Key, 值 Value, 因子矩阵 for the factor matrix
Q·Kᵀ, 注意力权重 attention weights, 加权和 weighted sum.
"""

from __future__ import annotations

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"

STRINGS: dict[str, dict[str, str]] = {
    # app and sidebar
    "app.name": {"en": "Attention, seen from inside", "zh": "从内部看注意力"},
    "app.blurb": {
        "en": "Type a sentence, pick a layer and head, click a word: see S = Q·Kᵀ, the softmax weights A and "
              "the output Z = A·V exactly as the model computed them.",
        "zh": "输入一句话，选择层和注意力头，点击一个词：查看模型实际计算出的 S = Q·Kᵀ、softmax 注意力权重 A "
              "以及输出 Z = A·V。",
    },
    "app.language": {"en": "Language", "zh": "语言"},
    "app.model_folder": {"en": "Model folder (blank: all-MiniLM-L6-v2)", "zh": "模型文件夹（留空：all-MiniLM-L6-v2）"},
    "app.model_folder_help": {"en": "Any local Hugging Face model folder.", "zh": "任意本地 Hugging Face 模型文件夹。"},
    "page.explore": {"en": "Explore", "zh": "探索"},
    "page.relevance": {"en": "Find heads", "zh": "查找注意力头"},
    # the Explore page
    "explore.title": {"en": "Explore attention", "zh": "探索注意力"},
    "explore.sentence": {"en": "Sentence", "zh": "句子"},
    "explore.kind": {"en": "Attention", "zh": "注意力类型"},
    "explore.layer": {"en": "Layer", "zh": "层"},
    "explore.head": {"en": "Head", "zh": "注意力头"},
    "explore.caption": {
        "en": "{model} · {n} tokens · {site} · head {head} of {heads} · d_k = {d_k} · max difference from the "
              "model's own weights {diff}",
        "zh": "{model} · {n} 个词元 · {site} · 第 {head} 个头（共 {heads} 个）· d_k = {d_k} · 与模型自身权重的最大差异 "
              "{diff}",
    },
    "explore.truncated": {
        "en": "The text is longer than the model's maximum of {max} tokens: the last {dropped} tokens were dropped.",
        "zh": "文本超过了模型的最大长度 {max} 个词元：末尾的 {dropped} 个词元已被舍弃。",
    },
    "explore.unfaithful": {
        "en": "Our recomputed attention differs from the model's own by up to {diff} (tolerance {tol}): treat "
              "these pictures with care.",
        "zh": "我们重新计算的注意力与模型自身的结果最多相差 {diff}（容差 {tol}）：请谨慎看待这些图。",
    },
    "text.blank": {
        "en": "Type a sentence above to see how its words attend to each other.",
        "zh": "请在上方输入一句话，看看其中的词如何相互关注。",
    },
    "text.cut": {"en": "The text was cut to its first {n} characters.", "zh": "文本已截取为前 {n} 个字符。"},
    "error.model": {"en": "{message}", "zh": "无法加载模型：{message}"},
    # kinds of attention
    "kind.encoder": {"en": "encoder self-attention", "zh": "编码器自注意力"},
    "kind.decoder": {"en": "decoder self-attention (masked)", "zh": "解码器自注意力（带掩码）"},
    "kind.cross": {"en": "encoder–decoder cross-attention", "zh": "编码器–解码器交叉注意力"},
    "site.title": {"en": "layer {layer} · {kind}", "zh": "第 {layer} 层 · {kind}"},
    # the three matrices
    "matrices.click_cells": {
        "en": "Click a cell to select a (query, key) pair, or a word beside a row or a dot above a column.",
        "zh": "点击一个格子选择一对（查询，键），或点击行旁的词、列上方的圆点。",
    },
    "matrices.click_labels": {
        "en": "The cells are too small to click at this length: click the words (dots) beside the rows and above "
              "the columns instead.",
        "zh": "文本较长，格子太小无法点击：请点击行旁和列上方的词（圆点）。",
    },
    "title.S": {"en": "S = Q·Kᵀ  (raw scores, the factor matrix)", "zh": "S = Q·Kᵀ（原始分数，因子矩阵）"},
    "title.A": {"en": "A = softmax(S / √d_k + mask)  (weights; rows sum to 1)",
                "zh": "A = softmax(S / √d_k + 掩码)（注意力权重；每行之和为 1）"},
    "title.Z": {"en": "Z = A·V  (each row: a weighted sum of value vectors)", "zh": "Z = A·V（每一行：值向量的加权和）"},
    "masked": {"en": "masked", "zh": "已屏蔽"},
    # the detail panel
    "detail.title": {"en": "Selection", "zh": "当前选择"},
    "detail.nothing": {"en": "Nothing selected yet: click a cell or a word.", "zh": "尚未选择：请点击一个格子或一个词。"},
    "detail.query_word": {"en": "**Query word:** {word} (position {pos})", "zh": "**查询词：** {word}（位置 {pos}）"},
    "detail.where": {"en": "Where {word} looks most, in this head:", "zh": "在这个头中，{word} 最关注的词："},
    "detail.col_key": {"en": "key word", "zh": "键词"},
    "detail.col_pos": {"en": "position", "zh": "位置"},
    "detail.col_weight": {"en": "weight", "zh": "权重"},
    "detail.pick_pair": {"en": "Click a cell or a column dot to see one pair in detail.",
                         "zh": "点击一个格子或列上方的圆点，查看一对词的细节。"},
    "detail.pair": {"en": "**Pair:** {q} → {k} (query {qi}, key {ki})", "zh": "**词对：** {q} → {k}（查询 {qi}，键 {ki}）"},
    "detail.dot": {"en": "q·k (raw S)", "zh": "q·k（原始 S）"},
    "detail.scaled": {"en": "scaled score", "zh": "缩放后的分数"},
    "detail.weight": {"en": "weight (A)", "zh": "权重（A）"},
    "detail.masked_note": {
        "en": "This key comes after the query word: the decoder's mask hides it, so its weight is exactly 0.",
        "zh": "这个键位于查询词之后：解码器的掩码把它遮住了，所以它的权重恰好为 0。",
    },
    "detail.scaled_note": {
        "en": "scaled = q·k × {scale} (that is 1/√d_k with d_k = {d_k}); the weight is the softmax of the scaled "
              "scores of this row.",
        "zh": "缩放后的分数 = q·k × {scale}（即 1/√d_k，d_k = {d_k}）；权重是这一行缩放后分数的 softmax。",
    },
    # the explanation tabs
    "tab.dot": {"en": "Why this score: q·k", "zh": "分数从何而来：q·k"},
    "tab.sum": {"en": "How Z is built", "zh": "Z 如何构成"},
    "tab.steps": {"en": "Step by step", "zh": "逐步计算"},
    "tab.origin": {"en": "Where q, k, v come from", "zh": "q、k、v 从何而来"},
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
    "sum.title": {"en": "Row {q} of Z as Σ_j weight_j·V_j", "zh": "Z 的第 {q} 行 = Σ_j weight_j·V_j"},
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
              "value for this head: q = x·W_Q + b_Q, k = x·W_K + b_K, v = x·W_V + b_V. In the first layer, x is "
              "the word's token embedding plus its position embedding (then normalised).",
        "zh": "每个词以一个向量 x 进入这一层。三个学习得到的矩阵把它变成这个头的查询、键和值：q = x·W_Q + b_Q，"
              "k = x·W_K + b_K，v = x·W_V + b_V。在第一层，x 是词元嵌入加上位置嵌入（再做归一化）。",
    },
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
    # the Translate page
    "page.translate": {"en": "Translate", "zh": "翻译"},
    "translate.title": {"en": "Attention in a translator", "zh": "翻译模型中的注意力"},
    "translate.explain": {
        "en": "Our own small English→Spanish transformer, trained by the script in this repository. Attention "
              "lives in three places: the English words attend to each other (encoder), each Spanish word attends "
              "to the Spanish words before it (decoder, the future is masked), and each Spanish word attends to "
              "the English words (cross-attention) — that is where a word finds what it translates.",
        "zh": "这是我们自己训练的小型英译西 Transformer（训练脚本在本仓库中）。注意力出现在三个地方：英文词彼此关注（编码器），"
              "每个西班牙文词关注它之前的西班牙文词（解码器，未来的词被掩码遮住），以及每个西班牙文词关注英文词"
              "（交叉注意力）——一个词正是在这里找到它所翻译的原词。",
    },
    "translate.input": {"en": "English sentence", "zh": "英文句子"},
    "translate.output": {"en": "Spanish (greedy, one word at a time)", "zh": "西班牙文（贪心解码，逐词生成）"},
    "translate.unknown": {
        "en": "Not in the vocabulary, read as <unk>: {words}",
        "zh": "不在词表中，按 <unk> 处理：{words}",
    },
    "translate.rows": {
        "en": "Decoder rows are labelled by the word each position produces, with the word it was fed after "
              "the arrow: “bola ← la” is the position that reads “la” and writes “bola”.",
        "zh": "解码器的行以该位置生成的词命名，箭头后是输入该位置的词：“bola ← la” 表示读入 “la”、写出 “bola” 的位置。",
    },
    "translate.vocab": {"en": "Browse the vocabulary ({n} English words)", "zh": "浏览词表（{n} 个英文词）"},
    "translate.search": {"en": "Search", "zh": "搜索"},
    "translate.unavailable": {"en": "The built-in translator's weights are missing: {error}",
                              "zh": "缺少内置翻译模型的权重：{error}"},
    "translate.nothing": {"en": "Type an English sentence to translate.", "zh": "请输入要翻译的英文句子。"},
    # the Learning page
    "page.learning": {"en": "Learning", "zh": "学习过程"},
    "learning.title": {"en": "Watch attention being learned", "zh": "观察注意力如何被学会"},
    "learning.explain": {
        "en": "Nothing in attention is designed by hand. The embeddings and W_Q, W_K, W_V start random and are "
              "changed a little at every training step so that the translation gets better. Move the slider "
              "through the snapshots saved while our translator trained: the same words, the same head, at "
              "each step. If training pulls a query and a key into alignment, their score q·k and the cosine of "
              "the angle between them rise; the curves below show whether that happened, pair by pair.",
        "zh": "注意力中没有任何东西是人工设计的。词嵌入和 W_Q、W_K、W_V 一开始是随机的，每一步训练都会稍作调整，让翻译更好。"
              "拖动滑块浏览翻译模型训练时保存的快照：同样的词、同一个头、在不同的训练步。如果训练让一个查询和一个键彼此对齐，"
              "它们的分数 q·k 以及夹角余弦就会上升；下面的曲线逐对展示是否真的如此。",
    },
    "learning.step": {"en": "Training step", "zh": "训练步"},
    "learning.play": {"en": "▶ Play", "zh": "▶ 播放"},
    "learning.target": {"en": "Every snapshot reads the same Spanish words: {target}",
                        "zh": "每个快照都读入同样的西班牙文词：{target}"},
    "learning.pairs": {"en": "Related and unrelated pairs over training", "zh": "相关词对与无关词对在训练中的变化"},
    "learning.query": {"en": "Query word", "zh": "查询词"},
    "learning.related": {"en": "Related key", "zh": "相关的键"},
    "learning.unrelated": {"en": "Unrelated key", "zh": "无关的键"},
    "learning.score": {"en": "raw score q·k", "zh": "原始分数 q·k"},
    "learning.weight": {"en": "weight", "zh": "权重"},
    "learning.cosine": {"en": "cosine of the angle between q and k", "zh": "q 与 k 夹角的余弦"},
    "learning.loss": {"en": "Training loss", "zh": "训练损失"},
    "learning.grew": {
        "en": "In this head, training pulled {q}·{a} ahead of {q}·{b}: the gap in q·k went from {first} to {last} "
              "(final weights {wa} vs {wb}).",
        "zh": "在这个头中，训练让 {q}·{a} 超过了 {q}·{b}：q·k 的差距从 {first} 变为 {last}（最终权重 {wa} 对 {wb}）。",
    },
    "learning.narrowed": {
        "en": "In this head, training moved {q}·{a} towards {q}·{b} but not past it: the gap in q·k went from "
              "{first} to {last}, still negative (final weights {wa} vs {wb}). A weak effect, not an alignment.",
        "zh": "在这个头中，训练让 {q}·{a} 向 {q}·{b} 靠近，但没有超过：q·k 的差距从 {first} 变为 {last}，仍为负"
              "（最终权重 {wa} 对 {wb}）。这是微弱的效果，而不是对齐。",
    },
    "learning.shrank": {
        "en": "In this head, training did the opposite: {q}·{b} gained on {q}·{a} (gap in q·k from {first} to "
              "{last}; final weights {wa} vs {wb}).",
        "zh": "在这个头中，训练的效果相反：{q}·{b} 反超了 {q}·{a}（q·k 差距从 {first} 变为 {last}；最终权重 {wa} 对 {wb}）。",
    },
    "learning.none": {
        "en": "No clear effect in this head: the gap in q·k between {q}·{a} and {q}·{b} barely moved ({first} → "
              "{last}; final weights {wa} vs {wb}). Try another head or layer.",
        "zh": "这个头中没有明显效果：{q}·{a} 与 {q}·{b} 的 q·k 差距几乎没变（{first} → {last}；最终权重 {wa} 对 {wb}）。"
              "试试别的头或层。",
    },
    "learning.alignment": {"en": "Cross-attention alignment over training", "zh": "交叉注意力对齐率随训练的变化"},
    "learning.alignment_explain": {
        "en": "For each decoder layer and head: the share of Spanish words (300 held-out test sentences) whose "
              "strongest cross-attention falls on the English word they translate.",
        "zh": "对每个解码器层和头：在 300 个留出测试句中，最强交叉注意力落在其所翻译英文词上的西班牙文词所占比例。",
    },
    "learning.share": {"en": "share aligned", "zh": "对齐比例"},
    # the relevance finder
    "relevance.title": {"en": "Which heads link two words?", "zh": "哪些注意力头连接这两个词？"},
    "relevance.explain": {
        "en": "Pick a query word and a key word: every layer and head is ranked by the weight the query gives the "
              "key (and by the raw score q·k). Click a row to open that head in Explore.",
        "zh": "选择一个查询词和一个键词：按查询词给键词的权重（以及原始分数 q·k）对每一层、每个头排序。点击一行即可在“探索”"
              "页打开该头。",
    },
    "relevance.query": {"en": "Query word", "zh": "查询词"},
    "relevance.key": {"en": "Key word", "zh": "键词"},
    "relevance.rank_by": {"en": "Rank by", "zh": "排序依据"},
    "relevance.by_weight": {"en": "weight", "zh": "权重"},
    "relevance.by_score": {"en": "raw score q·k", "zh": "原始分数 q·k"},
    "relevance.col_layer": {"en": "layer", "zh": "层"},
    "relevance.col_head": {"en": "head", "zh": "头"},
    "relevance.col_kind": {"en": "attention", "zh": "注意力类型"},
    "relevance.col_weight": {"en": "weight", "zh": "权重"},
    "relevance.col_score": {"en": "q·k", "zh": "q·k"},
    "relevance.col_rank": {"en": "rank of the key in the row", "zh": "该键在这一行中的名次"},
}


def t(key: str, lang: str = DEFAULT_LANGUAGE, **values: object) -> str:
    """The string `key` in `lang`, formatted with `values`; English when the language is unknown."""
    entry = STRINGS[key]
    text = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return text.format(**values) if values else text
