"""The page "Does it matter?" (ablation, value-weighted attention, attribution) and its links."""

STRINGS: dict[str, dict[str, str]] = {
    "page.does_it_matter": {"en": "Does it matter?", "zh": "它重要吗？"},
    "ablation.open": {"en": "Does this head matter?", "zh": "这个头重要吗？"},
    "ablation.title": {"en": "Does this attention matter?", "zh": "这个注意力真的重要吗？"},
    "ablation.explain": {
        "en": "A weight says where a word looks, not whether looking there changes anything. Here you can test "
              "it: switch heads off in the grid (their output z is replaced) and see what the model says "
              "without them; then compare each head's rank by attention with its rank by effect.",
        "zh": "注意力权重只说明一个词在看哪里，并不说明看那里是否改变了结果。在这里可以检验：在网格中关闭一些头（它们的输出 z "
              "被替换），看看没有它们时模型输出什么；再把每个头按注意力的排名与按实际影响的排名作比较。"},
    "ablation.source": {"en": "Model", "zh": "模型"},
    "ablation.source_translator": {"en": "built-in translator", "zh": "内置翻译模型"},
    "ablation.source_model": {"en": "pretrained model (sidebar folder)", "zh": "预训练模型（侧边栏中的文件夹）"},
    "ablation.no_switch": {
        "en": "Heads cannot be switched off in {model}: its attention is computed inside its own layers, out of "
              "reach of the attention function this page replaces a head's output in. Its attention weights are "
              "read all the same (below, and on Explore).",
        "zh": "无法在 {model} 中关闭注意力头：它的注意力在自己的层内部计算，本页替换头输出所依靠的注意力函数接触不到它。"
              "它的注意力权重仍然可以读出（见下方和“探索”页）。"},
    "ablation.mode": {"en": "A head switched off outputs", "zh": "被关闭的头输出"},
    "ablation.mode_zero": {"en": "zeros", "zh": "零"},
    "ablation.mode_mean": {"en": "its average output", "zh": "它的平均输出"},
    "ablation.mode_help": {
        "en": "Zeros: the head says nothing. Average: the head says what it says on average over a few reference "
              "sentences, so only what is specific to this sentence is removed (a gentler test).",
        "zh": "零：这个头什么都不说。平均：这个头输出它在几个参考句子上的平均输出，只去掉与本句相关的部分（更温和的检验）。"},
    "ablation.grid": {"en": "**Switch heads off** — click a head number to switch it off, again to switch it on.",
                      "zh": "**关闭注意力头** —— 点击头的编号将其关闭，再点一次重新打开。"},
    "ablation.grid_row": {"en": "{kind}, layer {layer}", "zh": "{kind}，第 {layer} 层"},
    "ablation.clear": {"en": "Switch every head back on", "zh": "重新打开所有头"},
    "ablation.what_changed": {"en": "What changed", "zh": "发生了什么变化"},
    "ablation.none_off": {"en": "Every head is on: switch one off in the grid above.",
                          "zh": "所有头都开着：请在上面的网格中关闭一个。"},
    "ablation.all_on": {"en": "Every head on", "zh": "所有头都开着"},
    "ablation.heads_off": {"en": "With {n} heads off", "zh": "关闭 {n} 个头之后"},
    "ablation.heads_off_one": {"en": "With 1 head off", "zh": "关闭 1 个头之后"},
    "ablation.changed": {"en": "The translation changed.", "zh": "翻译改变了。"},
    "ablation.same": {"en": "The translation is the same word for word (the probabilities below may still move).",
                      "zh": "翻译逐词相同（但下面的概率仍可能变化）。"},
    "ablation.col_pos": {"en": "position", "zh": "位置"},
    "ablation.col_before": {"en": "every head on", "zh": "所有头开着"},
    "ablation.col_after": {"en": "heads off", "zh": "关闭之后"},
    "ablation.col_changed": {"en": "changed", "zh": "已改变"},
    "ablation.drop_title": {"en": "Log-probability each original word lost", "zh": "每个原始输出词损失的对数概率"},
    "ablation.drop_axis": {"en": "log p lost (nats)", "zh": "损失的 log p（奈特）"},
    "ablation.drop_caption": {
        "en": "Teacher-forced on the output with every head on: how much less likely each of its words became "
              "(red) or more likely (blue). Mean per word: {mean} nats.",
        "zh": "在所有头都开着时的输出上做教师强制：每个词的概率降低了多少（红）或升高了多少（蓝）。平均每词：{mean} 奈特。"},
    "ablation.pooled": {"en": "Cosine of the sentence embedding, with vs without", "zh": "句子向量的余弦（关闭前 vs 关闭后）"},
    "ablation.cos_title": {"en": "Final hidden state per token, with vs without (cosine)",
                           "zh": "每个词元最终隐藏状态的余弦（关闭前 vs 关闭后）"},
    "ablation.cos_axis": {"en": "cosine", "zh": "余弦"},
    "ablation.cos_caption": {
        "en": "This model has no language-model head, so it has no words to predict: the effect is how far its "
              "output vectors turned (1 = unchanged). The sentence embedding is the mean over tokens.",
        "zh": "这个模型没有语言模型头，不预测词：影响用输出向量转动了多少来衡量（1 表示不变）。句子向量是所有词元的平均。"},
    "ablation.ranking": {"en": "Attention rank vs effect rank", "zh": "注意力排名与影响排名"},
    "ablation.ranking_caption": {
        "en": "Every head of the chosen kind switched off alone (all in one batch). The pair of words is the one "
              "selected on Explore / Find heads (pretrained model) or Translate (translator).",
        "zh": "所选类型的每个头单独关闭（一次批量计算）。词对是在“探索”/“查找注意力头”（预训练模型）或“翻译”页（翻译模型）中选中的那一对。"},
    "ablation.effect_is_word": {"en": "Effect: the log-probability the word “{word}” loses when the head is off.",
                                "zh": "影响：关闭该头后词“{word}”损失的对数概率。"},
    "ablation.effect_is_total": {"en": "Effect: over the whole output (mean per word, or 1 − cosine).",
                                 "zh": "影响：对整个输出而言（每词平均，或 1 − 余弦）。"},
    "ablation.agree.strong": {
        "en": "The heads that look hardest from “{q}” to “{k}” are largely the heads whose removal hurts most "
              "(Spearman ρ = {rho} over {n} heads): here attention is a good guide.",
        "zh": "从“{q}”看向“{k}”最用力的头，大体上正是关掉后损失最大的头（Spearman ρ = {rho}，{n} 个头）：这里注意力是个好向导。"},
    "ablation.agree.moderate": {
        "en": "Looking hard from “{q}” to “{k}” and mattering go together only partly (Spearman ρ = {rho} over {n} heads): "
              "a high weight is a hint, not proof.",
        "zh": "从“{q}”看向“{k}”的权重与实际影响只部分一致（Spearman ρ = {rho}，{n} 个头）：高权重是线索，不是证据。"},
    "ablation.agree.weak": {
        "en": "Weight from “{q}” to “{k}” says little about which heads matter (Spearman ρ = {rho} over {n} heads).",
        "zh": "从“{q}”到“{k}”的权重几乎不能说明哪些头重要（Spearman ρ = {rho}，{n} 个头）。"},
    "ablation.agree.none": {
        "en": "Weight from “{q}” to “{k}” and effect are unrelated here (Spearman ρ = {rho} over {n} heads): the picture of "
              "attention alone would mislead.",
        "zh": "这里从“{q}”到“{k}”的权重与影响没有关系（Spearman ρ = {rho}，{n} 个头）：只看注意力图会被误导。"},
    "ablation.agree.opposite": {
        "en": "The heads that look hardest from “{q}” to “{k}” tend to matter least (Spearman ρ = {rho} over {n} heads).",
        "zh": "从“{q}”看向“{k}”最用力的头反而往往最不重要（Spearman ρ = {rho}，{n} 个头）。"},
    "ablation.agree.unknown": {
        "en": "No agreement can be measured: every head has the same weight or the same effect.",
        "zh": "无法衡量一致性：所有头的权重或影响都相同。"},
    "ablation.agree_vw": {"en": "Ranked by value-weighted share instead of weight: ρ = {rho} over {n} heads ({level}).",
                          "zh": "若按值加权份额而不是权重排序：ρ = {rho}，{n} 个头（{level}）。"},
    "ablation.no_head_matters": {
        "en": "No head matters for “{q}” here: switched off alone, none changes it by {floor} {unit} or more (the "
              "largest effect is {max} {unit}). Differences this small say nothing about which head matters, so "
              "the heads are not ranked by effect and no correlation is given.",
        "zh": "在这里没有哪个头对“{q}”重要：单独关闭任何一个头，变化都不到 {floor} {unit}（最大的影响是 {max} {unit}）。"
              "这么小的差别说明不了哪个头重要，所以不按影响给头排名，也不给出相关系数。"},
    "ablation.agree.too_few": {
        "en": "The effects are too few or too alike to rank ({n} heads; a correlation needs at least {min_n} and three "
              "distinct values on each side): no ρ is given.",
        "zh": "影响的数量太少或彼此太接近，无法排名（{n} 个头；相关系数至少需要 {min_n} 个，且两边各有三个不同的值）：不给出 ρ。"},
    "ablation.unit_nats": {"en": "nats", "zh": "奈特"},
    "ablation.unit_cosine": {"en": "(1 − cosine)", "zh": "（1 − 余弦）"},
    "ablation.col_rho": {"en": "ρ (over {n} words)", "zh": "ρ（{n} 个词）"},
    "ablation.level.strong": {"en": "strong", "zh": "强"},
    "ablation.level.moderate": {"en": "moderate", "zh": "中等"},
    "ablation.level.weak": {"en": "weak", "zh": "弱"},
    "ablation.level.none": {"en": "none", "zh": "无"},
    "ablation.level.opposite": {"en": "opposite", "zh": "相反"},
    "ablation.level.unknown": {"en": "not measurable", "zh": "无法衡量"},
    "ablation.col_head": {"en": "layer.head", "zh": "层.头"},
    "ablation.col_effect": {"en": "effect ({unit})", "zh": "影响（{unit}）"},
    "ablation.col_effect_rank": {"en": "rank by effect", "zh": "按影响排名"},
    "ablation.col_weight": {"en": "weight", "zh": "权重"},
    "ablation.col_weight_rank": {"en": "rank by weight", "zh": "按权重排名"},
    "ablation.col_share": {"en": "value-weighted share", "zh": "值加权份额"},
    "ablation.col_changes": {"en": "alone changes the translation", "zh": "单独关闭即改变翻译"},
    "ablation.alone_changes": {"en": "Switched off alone, these heads change the translation: {heads}.",
                               "zh": "单独关闭即会改变翻译的头：{heads}。"},
    "ablation.alone_none": {
        "en": "No head switched off alone changes the translation: the model has spares. Switch off several.",
        "zh": "单独关闭任何一个头都不会改变翻译：模型有冗余。请同时关闭几个。"},
    "ablation.sinks": {"en": "Where the weight goes vs where the output comes from",
                       "zh": "权重流向哪里 vs 输出来自哪里"},
    "ablation.sinks_caption": {
        "en": "Special tokens can take much weight while bringing a small value vector; when they do, their share of "
              "the output ‖α·v‖ is below their share of the weight. Compare the two columns row by row (both are "
              "shares of 1, averaged over heads and query words).",
        "zh": "特殊词元可能拿走很多权重，而值向量却很小；这时它们在输出 ‖α·v‖ 中的份额会低于其权重份额。请逐行比较这两列"
              "（两者都是占 1 的份额，对所有头和查询词取平均）。"},
    "ablation.col_site": {"en": "attention", "zh": "注意力"},
    "ablation.col_sinks": {"en": "special tokens", "zh": "特殊词元"},
    "ablation.col_sink_weight": {"en": "share of the weight", "zh": "权重份额"},
    "ablation.col_sink_share": {"en": "share of the output ‖α·v‖", "zh": "输出 ‖α·v‖ 份额"},
    "ablation.attribution": {"en": "Attention beside attribution", "zh": "注意力与归因并列"},
    "ablation.attribution_caption": {
        "en": "For one output word: its cross-attention row (mean over heads and layers), that row carried "
              "through the encoder's rollout (attention multiplied layer by layer), gradient × input and integrated gradients (torch autograd, over the "
              "source words' embeddings, baseline zero). Each is scaled to its own largest value.",
        "zh": "针对一个输出词：它的交叉注意力行（对头和层取平均）、该行经过编码器注意力展开（逐层相乘的注意力）后的结果、梯度×输入以及积分梯度"
              "（用 torch 自动求导，对源词的嵌入，基线为零）。每种度量按各自的最大值缩放。"},
    "ablation.output_word": {"en": "Output word", "zh": "输出词"},
    "ablation.measures_title": {"en": "Which English words “{word}” depends on", "zh": "“{word}”依赖哪些英文词"},
    "ablation.measures_axis": {"en": "scaled (largest = 1)", "zh": "缩放后（最大为 1）"},
    "ablation.m.cross": {"en": "cross-attention", "zh": "交叉注意力"},
    "ablation.m.rollout": {"en": "rollout", "zh": "注意力展开"},
    "ablation.m.gxi": {"en": "gradient × input", "zh": "梯度×输入"},
    "ablation.m.ig": {"en": "integrated gradients", "zh": "积分梯度"},
    "ablation.col_a": {"en": "measure", "zh": "度量"},
    "ablation.col_b": {"en": "compared with", "zh": "对比"},
    "ablation.disagree": {
        "en": "They disagree: {measures} rank the English words differently from cross-attention (top word — {tops}).",
        "zh": "它们不一致：{measures} 对英文词的排序与交叉注意力不同（排第一的词 —— {tops}）。"},
    "ablation.agree_all": {"en": "All four agree on the most important English word: “{word}”.",
                           "zh": "四种度量都认为最重要的英文词是“{word}”。"},
    "ablation.completeness": {
        "en": "Here f is the log-probability (in nats) the translator gives “{word}” at its position, read from the "
              "English words' embeddings x; the baseline sets every embedding to zero. Integrated gradients with "
              "{steps} steps: the attributions sum to f(x) − f(baseline) = {diff} nats, up to {gap} nats (the "
              "integral's approximation error).",
        "zh": "这里 f 是翻译模型在该位置给“{word}”的对数概率（单位：奈特），由英文词的嵌入 x 算出；基线把所有嵌入设为零。"
              "积分梯度（{steps} 步）：各归因之和等于 f(x) − f(基线) = {diff} 奈特，误差 {gap} 奈特（积分近似的误差）。"},
    "ablation.measuring": {"en": "Switching heads off…", "zh": "正在关闭注意力头…"},
    "ablation.attributing": {"en": "Computing gradients…", "zh": "正在计算梯度…"},
    "ablation.honest_title": {"en": "What these measures are, and what they do not prove",
                              "zh": "这些度量是什么，又不能证明什么"},
    "ablation.honest": {
        "en": "**Attention weight** is where a query looks. **Value-weighted share** ‖α·v‖ is how much each key "
              "actually adds to the head's output (before W_O): a key with a tiny value vector can take a large "
              "weight and add almost nothing. **Ablation** switches a head's output off and measures the change; "
              "it shows what the model does without the head, which is not the same as what the head does with "
              "it: other heads may take over (this translator has spares — single heads rarely change its output), "
              "and a zeroed output is one the model never saw in training (the average output is gentler). "
              "**Gradient × input** is a first-order, local estimate; **integrated gradients** add up the gradient "
              "along a path from a baseline (here: every word's embedding zero, positions kept) and are exact in "
              "total only as the steps grow; both depend on the baseline chosen. **Rollout** assumes that heads "
              "mix linearly and ignores values and the feed-forward layers. None of these is *the* explanation: "
              "when they agree, that is evidence; when they disagree, a picture of attention alone should not be "
              "trusted.",
        "zh": "**注意力权重**表示查询看向哪里。**值加权份额** ‖α·v‖ 表示每个键实际为该头的输出（W_O 之前）贡献了多少："
              "值向量很小的键可以拿到很大的权重却几乎什么也不贡献。**消融**把一个头的输出关掉并测量变化；它说明的是没有这个头时"
              "模型会怎样，这与这个头在场时做了什么并不相同：其他头可能接替它（这个翻译模型有冗余——单独关闭一个头很少改变输出），"
              "而且全零的输出是模型训练中从未见过的（平均输出更温和）。**梯度×输入**是一阶的局部估计；**积分梯度**沿从基线"
              "（这里：所有词嵌入为零，位置保留）出发的路径累加梯度，只有步数足够多时总和才精确；两者都取决于所选的基线。"
              "**注意力展开**假设各头线性混合，并忽略值向量和前馈层。它们都不是“唯一的”解释：相互一致时是证据；相互矛盾时，"
              "单凭注意力图不可轻信。"},
    # value-weighted attention on Explore and Translate
    "vw.toggle": {"en": "Also draw the value-weighted share ‖α·v‖", "zh": "同时绘制值加权份额 ‖α·v‖"},
    "vw.help": {
        "en": "Each key's contribution to the query's output, ‖α_ij·v_j‖, normalised per row (rows sum to 1 like "
              "A). A key with large weight and a small value vector (a “sink”) fades here.",
        "zh": "每个键对查询输出的贡献 ‖α_ij·v_j‖，按行归一化（每行和为 1，与 A 相同）。权重大而值向量小的键（“汇点”）在这里会变淡。"},
    "vw.title": {"en": "‖α·v‖ — each key's share of the query's output", "zh": "‖α·v‖ —— 每个键在查询输出中的份额"},
    "vw.metric": {"en": "share of the output ‖α·v‖", "zh": "输出份额 ‖α·v‖"},
}
