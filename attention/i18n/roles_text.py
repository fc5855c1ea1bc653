"""The Overview's "Head roles" section: what each head does, measured on a probe."""

STRINGS: dict[str, dict[str, str]] = {
    "roles.title": {"en": "Head roles", "zh": "注意力头的角色"},
    "roles.show": {"en": "Measure what each head does (on a probe made for it)",
                   "zh": "测量每个注意力头做什么（在专门设计的探针输入上）"},
    "roles.model": {"en": "Model", "zh": "模型"},
    "roles.model.named": {"en": "this page's model ({name})", "zh": "本页的模型（{name}）"},
    "roles.model.smollm2": {"en": "the built-in language model (SmolLM2)", "zh": "内置语言模型（SmolLM2）"},
    "roles.role": {"en": "Colour the grid by", "zh": "网格着色依据"},
    "roles.measuring": {"en": "Measuring every head on the probe…", "zh": "正在探针输入上测量每个注意力头…"},
    "roles.failed": {"en": "The roles could not be measured on this model: {why}",
                     "zh": "无法在此模型上测量角色：{why}"},
    "roles.probe": {
        "en": "Probe: {words} random words (numpy seed {seed}) written twice, {length} tokens per copy: “{text}”",
        "zh": "探针：{words} 个随机词（numpy 随机种子 {seed}）写两遍，每遍 {length} 个词元：“{text}”",
    },
    "roles.sink_rate": {
        "en": "Sink rate: {rate:.1%} of the heads put more than {eps} of their weight on the first token.",
        "zh": "汇聚率：{rate:.1%} 的注意力头把超过 {eps} 的权重放在第一个词元上。",
    },
    "roles.grid_title": {"en": "{role}: every layer × head", "zh": "{role}：每一层 × 每个注意力头"},
    "roles.click": {"en": "Click a head to open it on Explore, reading the very probe that scored it.",
                    "zh": "点击一个注意力头，即可在“探索”页面上用为它打分的同一段探针文本打开它。"},
    "roles.layer": {"en": "layer", "zh": "层"},
    "roles.head": {"en": "head", "zh": "注意力头"},
    "roles.table_caption": {"en": "Click a column's name to sort the table by that role.",
                            "zh": "点击列名即可按该角色排序。"},
    "roles.csv": {"en": "Every head's roles (.csv)", "zh": "每个注意力头的角色（.csv）"},
    "roles.not_measured": {"en": "Not measured on this model — {role}: {why}", "zh": "此模型不测量“{role}”：{why}"},
    "roles.na.induction": {
        "en": "this model has no causal mask, so a query also sees the token right after itself — the same word as "
              "the one after its earlier copy. Weight on position i − L + 1 then no longer shows a head copying a "
              "continuation it could not see.",
        "zh": "此模型没有因果掩码，查询也能看到紧跟在自己后面的词元——它与前一遍中对应词之后的词相同。"
              "因此落在位置 i − L + 1 上的权重不再说明该注意力头在复制它本来看不到的后续内容。",
    },
    "roles.name.previous": {"en": "previous token", "zh": "前一个词元"},
    "roles.name.duplicate": {"en": "duplicate token", "zh": "重复词元"},
    "roles.name.induction": {"en": "induction", "zh": "归纳（induction）"},
    "roles.name.sink": {"en": "sink (first token)", "zh": "汇聚（第一个词元）"},
    "roles.name.local": {"en": "distance (low = local)", "zh": "距离（越低越局部）"},
    "roles.name.broad": {"en": "broad (normalised entropy)", "zh": "广泛（归一化熵）"},
    "roles.formula.previous": {
        "en": "mean a[i, i−1] over the probe's tokens: the weight on the token just before. "
              "Source: TransformerLens head detector (previous-token head).",
        "zh": "探针各词元的 a[i, i−1] 平均值：放在前一个词元上的权重。来源：TransformerLens 的 head detector（前一词元头）。",
    },
    "roles.formula.duplicate": {
        "en": "mean weight on the same word in the other copy (i − L; without a causal mask also i + L). "
              "Source: TransformerLens head detector (duplicate-token head).",
        "zh": "放在另一遍中同一个词上的平均权重（i − L；无因果掩码时也包括 i + L）。"
              "来源：TransformerLens 的 head detector（重复词元头）。",
    },
    "roles.formula.induction": {
        "en": "mean a[i, i − L + 1] over the second copy: the weight on the token that followed the earlier "
              "occurrence of the query's word, the one to copy to predict the next token. "
              "Source: Olsson et al. 2022, “In-context learning and induction heads”.",
        "zh": "第二遍中 a[i, i − L + 1] 的平均值：放在该查询词前一次出现之后那个词元上的权重，也就是预测下一个词时要复制的词元。"
              "来源：Olsson 等 2022，“In-context learning and induction heads”。",
    },
    "roles.formula.sink": {
        "en": "mean weight on the first token; a head is a sink above ε = 0.3. "
              "Source: Gu et al. 2025, “When attention sink emerges in language models”.",
        "zh": "放在第一个词元上的平均权重；超过 ε = 0.3 即为汇聚头。来源：Gu 等 2025，“When attention sink emerges in "
              "language models”。",
    },
    "roles.formula.local": {
        "en": "mean Σ_j a[i, j]·|i − j|: how far, in tokens, the head looks. Low is local.",
        "zh": "Σ_j a[i, j]·|i − j| 的平均值：注意力头看得有多远（以词元计）。越低越局部。",
    },
    "roles.formula.broad": {
        "en": "mean entropy of a row ÷ ln(keys the row sees): 0 = all on one key, 1 = spread evenly.",
        "zh": "每行的熵 ÷ ln(该行可见的键数) 的平均值：0 表示全部落在一个键上，1 表示均匀分散。",
    },
    "roles.proving": {"en": "Switching heads off…", "zh": "正在关闭注意力头…"},
    "proof.title": {"en": "Prove it: switch the role's heads off", "zh": "证明：关闭具有该角色的注意力头"},
    "proof.needs_lm": {"en": "The proof needs a model that predicts the next token (choose SmolLM2): it "
                                "measures the loss on the probe's repeated half.",
                       "zh": "证明需要一个预测下一个词元的模型（请选择 SmolLM2）：它测量探针第二遍上的损失。"},
    "proof.how": {"en": "The top-k heads of a role are switched off, against k random heads ({draws} draws), "
                        "for k = 1…{k}; the loss is measured on {probes} fresh probes, not the one that ranked the heads.",
                  "zh": "关闭某角色得分最高的 k 个注意力头，与随机关闭 k 个注意力头（{draws} 次抽样）对比，"
                        "k = 1…{k}；损失在 {probes} 个新的探针上测量，而不是用于排序的那个。"},
    "proof.button": {"en": "Prove it: {role}", "zh": "证明：{role}"},
    "proof.progress": {"en": "Switching off {role} heads and random heads…", "zh": "正在关闭“{role}”注意力头和随机注意力头…"},
    "proof.failed": {"en": "The proof could not run: {why}", "zh": "无法运行证明：{why}"},
    "proof.line.top": {"en": "top-k role heads off", "zh": "关闭得分最高的 k 个角色头"},
    "proof.line.random": {"en": "k random heads off (mean)", "zh": "关闭 k 个随机头（平均）"},
    "proof.line.draws": {"en": "each random draw", "zh": "每次随机抽样"},
    "proof.line.base": {"en": "every head on: {base:.2f}", "zh": "所有头开启：{base:.2f}"},
    "proof.k": {"en": "k (heads switched off)", "zh": "k（关闭的注意力头数）"},
    "proof.loss": {"en": "loss on the repeated half (nats)", "zh": "第二遍上的损失（奈特）"},
    "proof.matters": {"en": "{role}: switching off its top heads raises the loss more than random heads, from k = {k} "
                            "(above every random draw and their mean + 2 sd).",
                      "zh": "{role}：从 k = {k} 起，关闭其得分最高的注意力头比随机关闭更能提高损失"
                            "（高于每次随机抽样，且高于其平均值加 2 个标准差）。"},
    "proof.does_not_matter": {"en": "{role}: its top heads do NOT matter more than random heads here: up to k = {k}, "
                                    "switching them off does not raise the loss clearly above the random draws.",
                              "zh": "{role}：在这里其得分最高的注意力头并不比随机头更重要：直到 k = {k}，"
                                    "关闭它们都没有使损失明显高于随机抽样。"},
    "proof.col.top": {"en": "top-k off", "zh": "关闭前 k 个"},
    "proof.col.mean": {"en": "random: mean", "zh": "随机：平均"},
    "proof.col.sd": {"en": "random: sd", "zh": "随机：标准差"},
    "proof.col.min": {"en": "random: min", "zh": "随机：最小"},
    "proof.col.max": {"en": "random: max", "zh": "随机：最大"},
    "proof.heads": {"en": "The role's top heads, best first: {heads}", "zh": "该角色得分最高的注意力头（从高到低）：{heads}"},
    "roles.kind": {"en": "Attention", "zh": "注意力类型"},
    "roles.not_measured_kind": {"en": "Not measured on {kind} — {role}: {why}", "zh": "{kind}不测量“{role}”：{why}"},
    "roles.probe_pair": {
        "en": "Probe in the translator's own words: {words} random English words (numpy seed {seed}) written twice "
              "after “the”: “{text}”; the decoder reads {words} random Spanish words written twice, given to it "
              "(teacher-forced): “{target}”",
        "zh": "用翻译器自己的词表构造的探针：{words} 个随机英语词（numpy 随机种子 {seed}）在 “the” 之后写两遍：“{text}”；"
              "解码器读入 {words} 个随机西班牙语词写两遍（教师强制输入）：“{target}”",
    },
    "roles.click_translate": {
        "en": "Click a head to open it on Translate with the English probe (there the decoder reads its own "
              "translation of it, not the Spanish probe).",
        "zh": "点击一个注意力头，即可在“翻译”页面上用英语探针打开它（在那里解码器读的是它自己的译文，而不是西班牙语探针）。",
    },
    "roles.na.cross.previous": {
        "en": "in cross-attention the queries are Spanish positions and the keys English ones, two different "
              "sentences: no key is the token just before the query.",
        "zh": "交叉注意力的查询是西班牙语的位置，键是英语的位置，属于两个不同的句子：没有哪个键是查询的前一个词元。",
    },
    "roles.na.cross.duplicate": {
        "en": "in cross-attention the keys are another sentence in another language: no key is the query's own "
              "token repeated.",
        "zh": "交叉注意力的键是另一种语言的另一个句子：没有哪个键是查询自身词元的重复。",
    },
    "roles.na.cross.induction": {
        "en": "in cross-attention the query's own earlier copy is not among the keys (they are the English "
              "sentence), so there is no token after it to copy.",
        "zh": "交叉注意力的键是英语句子，其中没有查询自己先前的那一遍，因此也没有可以复制的“其后的词元”。",
    },
    "roles.na.cross.local": {
        "en": "in cross-attention a distance |i − j| would compare a Spanish position with an English one, which "
              "means nothing.",
        "zh": "在交叉注意力中，距离 |i − j| 比较的是西班牙语位置与英语位置，没有意义。",
    },
}
