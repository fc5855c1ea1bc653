"""The Overview's "On real text" section: every head's roles measured over a corpus (the atlas)."""

STRINGS: dict[str, dict[str, str]] = {
    "atlas.title": {"en": "On real text: what each head does over a corpus",
                    "zh": "在真实文本上：每个注意力头在语料上做什么"},
    "atlas.show": {"en": "Read a corpus and measure every head on it (tens of seconds the first time)",
                   "zh": "读取一份语料并在其上测量每个注意力头（首次需要几十秒）"},
    "atlas.intro": {
        "en": "The probe in “Head roles” below asks a narrow question. Here every head is measured on ordinary sentences: how much "
              "of its attention each role's pattern takes. A head is called by a role only when that role takes at "
              "least half of its attention and clearly more than an even spread would give.",
        "zh": "下面“注意力头的角色”中的探针只问了一个很窄的问题。这里在普通句子上测量每个注意力头：每种角色的模式占它多少注意力。"
              "只有当某个角色占它至少一半的注意力、并且明显多于均匀分布所给的份额时，才用这个角色称呼它。"},
    "atlas.model": {"en": "Model", "zh": "模型"},
    "atlas.corpus": {"en": "Corpus", "zh": "语料"},
    "atlas.corpus.builtin": {"en": "built-in (lesson, translator, model-written)", "zh": "内置（课程、翻译器、模型所写）"},
    "atlas.corpus.own": {"en": "my own text", "zh": "我自己的文本"},
    "atlas.own_text": {"en": "Paste your text", "zh": "粘贴你的文本"},
    "atlas.own_file": {"en": "… or upload a .txt file", "zh": "……或上传一个 .txt 文件"},
    "atlas.own_empty": {"en": "Paste some text or upload a .txt file: the atlas reads it in pieces of whole sentences.",
                        "zh": "请粘贴一些文本或上传 .txt 文件：图谱会按完整句子分段读取。"},
    "atlas.own_cap": {"en": "Your text was cut to its first {max:,} characters (this demo's limit).",
                      "zh": "你的文本已截取前 {max:,} 个字符（本演示的上限）。"},
    "atlas.own_bad_file": {"en": "The file is not UTF-8 text, so it cannot be read.",
                           "zh": "该文件不是 UTF-8 文本，无法读取。"},
    "atlas.own_caption": {"en": "Your text, read as {n} piece(s) of at most {words} words.",
                          "zh": "你的文本，按最多 {words} 个词一段，共 {n} 段读取。"},
    "atlas.builtin_caption": {
        "en": "{n} texts: {fixed} sentences from the lesson and the translator, and {written} texts written by "
              "{model} itself (model-written text: sampled at temperature {temperature}, top-p {top_p}, seed {seed}).",
        "zh": "{n} 段文本：{fixed} 句来自课程和翻译器，{written} 段由 {model} 自己写成（模型所写的文本：温度 "
              "{temperature}、top-p {top_p}、随机种子 {seed} 采样）。"},
    "atlas.written_mark": {"en": "model-written", "zh": "模型所写"},
    "atlas.measuring": {"en": "Reading the corpus through the model, layer by layer…",
                        "zh": "正在让模型逐层读取语料……"},
    "atlas.progress": {"en": "Texts read: {done} of {total}", "zh": "已读取文本：{done} / {total}"},
    "atlas.failed": {"en": "The atlas could not be made on this model: {why}", "zh": "无法在此模型上制作图谱：{why}"},
    "atlas.definitions": {
        "en": "What each role means, in words and in numbers (averaged over every text's rows of A):\n"
              "- previous token: the head reads the word just before. Mean A[i, i−1] (rows i ≥ 1).\n"
              "- first token: the head parks its weight on the text's first token (a sink). Mean A[i, 0] (rows i ≥ 1).\n"
              "- induction: when the current word was seen before, the head reads the word that came after it then, "
              "to copy it. Over rows i whose token occurred earlier at some j < i − 1, mean Σ A[i, j+1].\n"
              "- duplicate token: over the same rows, the head reads the earlier copy of the same word. Mean Σ A[i, j].\n"
              "- local: the head reads its own neighbourhood, the last four tokens. Mean weight on keys i−3 … i.\n\n"
              "Grey bars: what an even spread over the same keys would give.",
        "zh": "每种角色的含义，先用文字，再用数字（对每段文本 A 的各行求平均）：\n"
              "- 前一个词元：注意力头读取紧挨在前面的那个词。A[i, i−1] 的均值（i ≥ 1 的行）。\n"
              "- 首个词元：注意力头把权重放在文本的第一个词元上（汇聚点）。A[i, 0] 的均值（i ≥ 1 的行）。\n"
              "- 归纳：当前的词以前出现过时，注意力头读取当时跟在它后面的那个词，以便照抄。在词元曾于某个 j < i − 1 "
              "出现过的行 i 上，Σ A[i, j+1] 的均值。\n"
              "- 重复词元：在同样的行上，注意力头读取同一个词先前的那一次。Σ A[i, j] 的均值。\n"
              "- 局部：注意力头读取自己附近的最后四个词元。键 i−3 … i 上权重的均值。\n\n"
              "灰色条：在同样的键上均匀分布会得到的份额。"},
    "atlas.shares_title": {"en": "Each role's share: they overlap", "zh": "每种角色的份额：彼此重叠"},
    "atlas.overlap": {
        "en": "The shares overlap: the token just before is also a local one, and the first token can be the one "
              "just before, so one weight can count for several roles; here they add up to {total}. Outside its "
              "largest role ({role}, {share}) lies {rest} of the head's attention: what that role leaves, not a "
              "share of its own.",
        "zh": "这些份额彼此重叠：紧挨在前面的词元也是局部词元，首个词元也可能正是前一个词元，所以同一份权重可以同时算进几种角色；"
              "这里它们加起来是 {total}。在它最大的角色（{role}，{share}）之外，还有该头 {rest} 的注意力：这是那个角色剩下的部分，"
              "不是单独的一种份额。"},
    "atlas.role.previous": {"en": "previous token", "zh": "前一个词元"},
    "atlas.role.first": {"en": "first token", "zh": "首个词元"},
    "atlas.role.induction": {"en": "induction", "zh": "归纳"},
    "atlas.role.duplicate": {"en": "duplicate token", "zh": "重复词元"},
    "atlas.role.local": {"en": "local (i−3 … i)", "zh": "局部（i−3 … i）"},
    "atlas.role.rest": {"en": "outside the largest role", "zh": "最大角色之外"},
    "atlas.hover": {"en": "layer {layer} · head {head}: {role} {share}", "zh": "第 {layer} 层 · 注意力头 {head}：{role} {share}"},
    "atlas.grid_caption": {
        "en": "Each head is coloured by its largest role on this corpus, darker for a larger share; a letter marks "
              "a head that earns the role's name, a dot one that does not. Click a head to see it below.",
        "zh": "每个注意力头按它在这份语料上最大的角色着色，份额越大颜色越深；格子里的字（角色名的第一个字，如“首”= 首个词元，"
              "“局”= 局部）表示该头配得上这个角色的名字，圆点表示配不上。点击一个注意力头，在下方查看。"},
    "atlas.layer": {"en": "layer", "zh": "层"},
    "atlas.head": {"en": "head", "zh": "注意力头"},
    "atlas.called": {
        "en": "Layer {layer}, head {head} is a **{role}** head on this corpus: the role takes {share} of its "
              "attention (an even spread would give {even}), over {n} rows.",
        "zh": "第 {layer} 层注意力头 {head} 在这份语料上是**{role}**头：该角色占它 {share} 的注意力（均匀分布为 {even}），"
              "共 {n} 行。"},
    "atlas.not_called": {
        "en": "Layer {layer}, head {head} is not called by any role here: its largest, {role}, takes {share} "
              "(an even spread would give {even}); a name needs at least half, clearly above even, over {min_n} rows or more.",
        "zh": "第 {layer} 层注意力头 {head} 在这里不以任何角色称呼：它最大的角色“{role}”占 {share}（均匀分布为 {even}）；"
              "要得到名字，需要至少一半、明显高于均匀分布，并且至少 {min_n} 行。"},
    "atlas.series.corpus": {"en": "on the corpus", "zh": "在语料上"},
    "atlas.series.even": {"en": "even spread", "zh": "均匀分布"},
    "atlas.series.probe": {"en": "on the probe", "zh": "在探针上"},
    "atlas.probe_caption": {
        "en": "The probe (12 random words written twice) beside the corpus: the probe's previous, duplicate, "
              "induction and sink (first token) scores; it has no local share.",
        "zh": "探针（12 个随机词写两遍）与语料并列：探针的前一个、重复、归纳和汇聚（首个词元）得分；探针没有局部份额。"},
    "atlas.examples": {"en": "Where this head moves the most", "zh": "这个注意力头作用最大的地方"},
    "atlas.examples_caption": {
        "en": "Per text, the query and key where the key's share of the head's output ‖α·v‖ is largest outside the "
              "first token. The query is marked blue, the word it reads orange.",
        "zh": "每段文本中，除首个词元外，键在该头输出 ‖α·v‖ 中份额最大的查询和键。查询标为蓝色，它读取的词标为橙色。"},
    "atlas.example_numbers": {"en": "weight {weight:.2f} · share of the output {share:.0%}",
                              "zh": "权重 {weight:.2f} · 输出份额 {share:.0%}"},
    "atlas.open_explore": {"en": "Open in Explore", "zh": "在“探索”中打开"},
    "atlas.too_short": {"en": "Every text is one token long: no word has an earlier word to attend to. Give longer text.",
                        "zh": "每段文本都只有一个词元：没有词可以关注前面的词。请给出更长的文本。"},
    "atlas.no_examples": {"en": "No example: every text is one token long.", "zh": "没有例子：每段文本只有一个词元。"},
    "atlas.map": {"en": "Queries and keys on one map", "zh": "查询和键在同一张图上"},
    "atlas.map.queries": {"en": "queries", "zh": "查询"},
    "atlas.map.keys": {"en": "keys (its key/value group's)", "zh": "键（其键/值组的）"},
    "atlas.map_trust": {
        "en": "How far to trust the map: Spearman's ρ between q·k and closeness on the map is {rho} over {n} "
              "(query, key) pairs of the same text; the two axes hold {kept:.0%} of the vectors' squared length.",
        "zh": "这张图可信到什么程度：q·k 与图上距离远近之间的 Spearman ρ 为 {rho}（同一文本中的 {n} 对查询和键）；"
              "两条轴保留了向量平方长度的 {kept:.0%}。"},
    "atlas.map_untrusted": {
        "en": "Do not read this map for layer {layer}, head {head}: closeness on it hardly follows q·k (ρ above is "
              "below 0.5), so two points near each other may not attend to each other. It is folded below.",
        "zh": "不要用这张图来理解第 {layer} 层注意力头 {head}：图上的远近几乎不跟随 q·k（上面的 ρ 低于 0.5），"
              "两个挨得很近的点未必互相关注。它被折叠在下面。"},
    "atlas.map_folded": {"en": "The map anyway (not to be trusted for this head)", "zh": "仍然查看这张图（对这个头不可信）"},
    "atlas.head_progress": {"en": "Head {layer}.{head}: {stage}", "zh": "注意力头 {layer}.{head}：{stage}"},
    "atlas.stage.probe": {"en": "its scores on the probe", "zh": "它在探针上的得分"},
    "atlas.stage.examples": {"en": "the texts where it moves most", "zh": "它作用最大的文本"},
    "atlas.stage.map": {"en": "its queries and keys on one map", "zh": "把它的查询和键放到同一张图上"},
    "atlas.map_none": {"en": "Too few pairs to say how far the map can be trusted.",
                       "zh": "配对太少，无法说明这张图可信到什么程度。"},
    "atlas.map_caption": {
        "en": "The first {tokens} tokens of the corpus ({texts} texts). Keys are centred and queries and keys "
              "rescaled (no weight changes); the axes are the two directions they reach furthest together (PCA).",
        "zh": "语料的前 {tokens} 个词元（{texts} 段文本）。键已居中，查询和键重新缩放（权重不变）；两条轴是它们"
              "共同延伸最远的两个方向（PCA）。"},
    "atlas.translator": {"en": "The atlas reads language models and sentence encoders; the translator is not offered.",
                         "zh": "图谱读取语言模型和句子编码器；不提供翻译器。"},
}
