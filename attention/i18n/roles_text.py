"""The Overview's "Head roles" section: what each head does, measured on a probe."""

STRINGS: dict[str, dict[str, str]] = {
    "roles.title": {"en": "Head roles", "zh": "注意力头的角色"},
    "roles.show": {"en": "Measure what each head does (on a probe made for it)",
                   "zh": "测量每个注意力头做什么（在专门设计的探针输入上）"},
    "roles.model": {"en": "Model", "zh": "模型"},
    "roles.model.pretrained": {"en": "the pretrained model", "zh": "预训练模型"},
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
}
