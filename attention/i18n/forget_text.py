"""The Forget page: a KV cache that evicts keys (attention/lm/evict.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "page.forget": {"en": "Forget", "zh": "遗忘"},
    "fg.title": {"en": "What if the model forgot? A KV-cache eviction lab", "zh": "如果模型忘了呢？KV 缓存淘汰实验"},
    "fg.explain": {
        "en": "Long texts are served with only part of the KV cache. Here the prompt is read in full; from the first "
              "written word on, each new query sees only the keys the policy kept (its own among them), at their "
              "original positions (not renumbered). Beside it, the same text read with the full cache: how far the "
              "next-word distribution moved is the KL divergence, in nats.",
        "zh": "服务长文本时，往往只保留一部分 KV 缓存。这里提示词会被完整读入；从写出的第一个词起，每个新的查询只能看到策略保留的键"
              "（包括它自己），位置保持原样（不重新编号）。旁边是用完整缓存读同一段文本的结果：下一个词的分布移动了多远，用 KL 散度"
              "（单位：奈特）表示。"},
    "fg.prompt": {"en": "Prompt", "zh": "提示词"},
    "fg.policy": {"en": "Policy", "zh": "策略"},
    "fg.policy_help": {
        "en": "streaming: the first tokens (sinks) and the most recent (Xiao et al. 2023); window: the most recent "
              "only; h2o: recent half and heavy hitters (Zhang et al. 2023); tova: the newest query's top keys "
              "(Oren et al. 2024); snapkv: the prompt compressed once to the budget, every written word kept, so its "
              "queries see the budget plus the words written (Li et al. 2024).",
        "zh": "streaming：最前面的词元（汇聚点）加最近的词元（Xiao 等，2023）；window：只保留最近的；h2o：最近的一半加累计关注最多的键"
              "（Zhang 等，2023）；tova：最新查询权重最大的键（Oren 等，2024）；snapkv：读完提示词后把它压缩到预算一次，之后写出的词全部保留，"
              "所以它的查询能看到预算加上已写出的词（Li 等，2024）。"},
    "fg.policy_streaming": {"en": "streaming (sinks + recent)", "zh": "streaming（汇聚点 + 最近）"},
    "fg.policy_window": {"en": "window (recent only)", "zh": "window（只保留最近）"},
    "fg.policy_h2o": {"en": "h2o (heavy hitters)", "zh": "h2o（累计关注最多的键）"},
    "fg.policy_tova": {"en": "tova (newest query)", "zh": "tova（最新查询）"},
    "fg.policy_snapkv": {"en": "snapkv (prompt compressed)", "zh": "snapkv（压缩提示词）"},
    "fg.budget": {"en": "Budget (keys per query)", "zh": "预算（每查询键数）"},
    "fg.budget_help": {"en": "How many keys a written word's query sees, its own included (snapkv: the prompt's keys "
                             "kept; every written word is kept on top of them).",
                       "zh": "一个写出的词的查询能看到多少个键（包括它自己）（snapkv：保留的提示词键数；写出的词都另外保留）。"},
    "fg.sinks": {"en": "Sinks (streaming)", "zh": "汇聚点（streaming）"},
    "fg.sinks_help": {"en": "The first tokens streaming always keeps (with window chosen: the streaming run drawn "
                            "beside it).",
                      "zh": "streaming 始终保留的最前面几个词元（选了 window 时：用于旁边对照的 streaming）。"},
    "fg.with_sinks": {"en": "{name}, {sinks} sinks", "zh": "{name}，{sinks} 个汇聚点"},
    "fg.next": {"en": "Next word", "zh": "下一个词"},
    "fg.six": {"en": "Write 6", "zh": "写 6 个"},
    "fg.restart": {"en": "Start again", "zh": "重新开始"},
    "fg.lesson": {"en": "Try: Drop the first tokens", "zh": "试一试：丢掉最前面的词元"},
    "fg.lesson_help": {
        "en": "A long prompt and a budget of 64 keys with the first tokens dropped (window: no sinks), beside the "
              "same budget keeping 4 sinks (streaming).",
        "zh": "一段长提示词，预算 64 个键，丢掉最前面的词元（window：没有汇聚点），旁边是同样预算、保留 4 个汇聚点的 streaming。"},
    "fg.fact_lesson": {"en": "Try: A name from the middle", "zh": "试一试：中间提到的名字"},
    "fg.fact_lesson_help": {
        "en": "A name said once in the middle of a long prompt, asked for at its end: streaming with 4 sinks keeps "
              "the text fluent, but can it keep the name?",
        "zh": "一个名字只在长提示词的中间出现一次，结尾处又要用到它：有 4 个汇聚点的 streaming 让文字保持通顺，"
              "但能记住这个名字吗？"},
    "fg.progress": {"en": "Words written: {done} of {total}", "zh": "已写出的词：{done} / {total}"},
    "fg.rewritten": {"en": "The settings changed: the {n} word(s) were written again with the new cache.",
                     "zh": "设置已改变：这 {n} 个词已用新的缓存重新写出。"},
    "fg.working": {"en": "Writing with both caches…", "zh": "正在用两种缓存写作……"},
    "fg.failed": {"en": "Could not write: {error}", "zh": "无法写作：{error}"},
    "fg.nothing_yet": {"en": "Write a word to see what the cache forgot.", "zh": "写一个词，看看缓存忘了什么。"},
    "fg.written": {"en": "Written with the evicted cache ({policy})", "zh": "用淘汰后的缓存（{policy}）写出的文本"},
    "fg.written_full": {"en": "Written with the full cache (its own text)", "zh": "用完整缓存写出的文本（它自己的）"},
    "fg.ended": {"en": "The model wrote its end-of-text token.", "zh": "模型写出了文本结束词元。"},
    "fg.step": {
        "en": "Word {index}, “{word}”: predicted by the query at position {pos}, which saw {seen} of {n} keys "
              "(layer {layer}, first key/value head).",
        "zh": "第 {index} 个词“{word}”：由位置 {pos} 的查询预测，它看到了 {n} 个键中的 {seen} 个（第 {layer} 层，第一个键/值头）。"},
    "fg.first": {"en": "The first word comes from the prompt read in full: nothing is evicted yet.",
                 "zh": "第一个词来自完整读入的提示词：还没有任何键被淘汰。"},
    "fg.kl_of": {"en": "KL, {policy}", "zh": "KL，{policy}"},
    "fg.kl_means.same": {"en": "KL {kl} nats: the same prediction (the full cache's likely words are {ratio}× less "
                               "likely here, on average).",
                         "zh": "KL {kl} 奈特：预测几乎相同（完整缓存认为可能的词，在这里的概率平均只低了 {ratio} 倍）。"},
    "fg.kl_means.small": {"en": "KL {kl} nats: a small shift (the full cache's likely words are {ratio}× less likely "
                                "here, on average).",
                          "zh": "KL {kl} 奈特：小的偏移（完整缓存认为可能的词，在这里的概率平均低了 {ratio} 倍）。"},
    "fg.kl_means.large": {"en": "KL {kl} nats: a different prediction (the full cache's likely words are {ratio}× "
                                "less likely here, on average).",
                          "zh": "KL {kl} 奈特：预测不同了（完整缓存认为可能的词，在这里的概率平均低了 {ratio} 倍）。"},
    "fg.kl_means.lost": {"en": "KL {kl} nats: the full cache's words all but ruled out ({ratio}× less likely here, on "
                               "average).",
                         "zh": "KL {kl} 奈特：完整缓存认为可能的词在这里几乎被排除了（概率平均低了 {ratio} 倍）。"},
    "fg.kl_scale": {
        "en": "The scale: 0.03 nats, the same prediction (1.03×); 0.3, a small shift (1.35×); 3, a different "
              "prediction (20×); 10, the full cache's word all but ruled out (22,000×). The factor is e^KL: how many "
              "times less likely, on average, the evicted cache finds the words the full cache expects.",
        "zh": "刻度：0.03 奈特，预测相同（1.03 倍）；0.3，小的偏移（1.35 倍）；3，预测不同了（20 倍）；10，完整缓存的词几乎"
              "被排除（22,000 倍）。倍数是 e^KL：淘汰后的缓存认为完整缓存期待的词的可能性平均低了多少倍。"},
    "fg.forgot": {
        "en": "Forgotten, at word {index}: the full cache predicts “{full_word}” ({full}), a word the text holds only "
              "at position {at}, which this cache evicted; the evicted cache gives it {evicted} and writes "
              "“{wrote}”. The sinks keep the text fluent, not what was said in the middle.",
        "zh": "第 {index} 个词处忘记了：完整缓存预测“{full_word}”（{full}），这个词在文本中只出现在位置 {at}，而这个缓存"
              "已把它淘汰；淘汰后的缓存只给它 {evicted}，写出了“{wrote}”。汇聚点让文字保持通顺，却留不住中间说过的内容。"},
    "fg.snapkv_over": {
        "en": "snapkv sees {seen} keys, more than the budget of {budget}: it compressed the prompt once to {prompt} "
              "keys and keeps every written word ({written}, this query's own included), as SnapKV does.",
        "zh": "snapkv 看到 {seen} 个键，多于预算 {budget}：它只在读完提示词后把提示词压缩到 {prompt} 个键一次，之后写出的词"
              "全部保留（{written} 个，包括这个查询自己），SnapKV 本来就是这样做的。"},
    "fg.top": {"en": "Top word", "zh": "最可能的词"},
    "fg.top_same": {"en": "unchanged", "zh": "未变"},
    "fg.top_changed": {"en": "changed", "zh": "变了"},
    "fg.bars_evicted": {"en": "With the evicted cache", "zh": "用淘汰后的缓存"},
    "fg.bars_full": {"en": "With the full cache", "zh": "用完整缓存"},
    "fg.token": {"en": "Token", "zh": "词元"},
    "fg.prob": {"en": "Probability", "zh": "概率"},
    "fg.chosen": {"en": "written", "zh": "已写出"},
    "fg.kl_title": {"en": "KL per word: {policy} against {other}", "zh": "每个词的 KL：{policy} 对比 {other}"},
    "fg.kl_x": {"en": "Written word", "zh": "写出的词"},
    "fg.kl_y": {"en": "KL (nats)", "zh": "KL（奈特）"},
    "fg.kl_note": {"en": "Each policy writes its own text; the KL is to the full cache at that text.",
                   "zh": "每种策略写出各自的文本；KL 是相对于同一文本上完整缓存的结果。"},
    "fg.lost_title": {"en": "Which heads lost most", "zh": "哪些注意力头损失最多"},
    "fg.lost_explain": {
        "en": "Per head, the attention weight the full cache's newest query put on keys this policy evicted.",
        "zh": "对每个头：完整缓存的最新查询放在本策略已淘汰的键上的注意力权重。"},
    "fg.lost_x": {"en": "Weight on evicted keys", "zh": "放在已淘汰键上的权重"},
    "fg.lost_click": {"en": "Click a bar to draw that head's layer below.", "zh": "点击一根条，在下方画出那个头所在的层。"},
    "fg.lost_none": {"en": "No head put weight on an evicted key at this word.",
                     "zh": "在这个词上，没有任何头把权重放在已淘汰的键上。"},
    "fg.layer": {"en": "Layer", "zh": "层"},
    "fg.row_title": {"en": "Newest row, layer {layer}", "zh": "最新一行，第 {layer} 层"},
    "fg.row_caption": {
        "en": "The evicted cache's newest query, one row per head: blue, its weights on the keys it kept; grey, the "
              "keys it evicted (weight 0: it cannot see them). ▼ marks kept keys among evicted ones (streaming's sinks, h2o's heavy hitters).",
        "zh": "淘汰后缓存的最新查询，每个头一行：蓝色是它在保留的键上的权重；灰色是已淘汰的键（权重为 0：它看不到）。"
              "▼ 标出夹在已淘汰键之间的保留键（streaming 的汇聚点、h2o 累计关注最多的键）。"},
    "fg.kept_hover": {"en": "kept · weight {weight} (evicted cache)", "zh": "保留 · 权重 {weight}（淘汰后的缓存）"},
    "fg.evicted_hover": {"en": "evicted · weight {weight} (hidden from this query)",
                         "zh": "已淘汰 · 权重 {weight}（这个查询看不到）"},
    "fg.marked": {"en": "kept among evicted keys", "zh": "夹在已淘汰键之间的保留键"},
    "fg.row_x": {"en": "Key", "zh": "键"},
    "fg.row_y": {"en": "Query head", "zh": "查询头"},
}
