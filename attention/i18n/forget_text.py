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
              "(Oren et al. 2024); snapkv: the prompt compressed once (Li et al. 2024).",
        "zh": "streaming：最前面的词元（汇聚点）加最近的词元（Xiao 等，2023）；window：只保留最近的；h2o：最近的一半加“重击者”"
              "（Zhang 等，2023）；tova：最新查询权重最大的键（Oren 等，2024）；snapkv：读完提示词后压缩一次（Li 等，2024）。"},
    "fg.policy_streaming": {"en": "streaming (sinks + recent)", "zh": "streaming（汇聚点 + 最近）"},
    "fg.policy_window": {"en": "window (recent only)", "zh": "window（只保留最近）"},
    "fg.policy_h2o": {"en": "h2o (heavy hitters)", "zh": "h2o（重击者）"},
    "fg.policy_tova": {"en": "tova (newest query)", "zh": "tova（最新查询）"},
    "fg.policy_snapkv": {"en": "snapkv (prompt compressed)", "zh": "snapkv（压缩提示词）"},
    "fg.budget": {"en": "Budget (keys per query)", "zh": "预算（每个查询可见的键数）"},
    "fg.budget_help": {"en": "How many keys a written word's query sees, its own included.",
                       "zh": "一个写出的词的查询能看到多少个键（包括它自己）。"},
    "fg.sinks": {"en": "Sinks (streaming)", "zh": "汇聚点数（streaming）"},
    "fg.sinks_help": {"en": "The first tokens streaming always keeps.", "zh": "streaming 始终保留的最前面几个词元。"},
    "fg.next": {"en": "Next word", "zh": "下一个词"},
    "fg.six": {"en": "Write 6", "zh": "写 6 个"},
    "fg.restart": {"en": "Start again", "zh": "重新开始"},
    "fg.lesson": {"en": "Try: Drop the first tokens", "zh": "试一试：丢掉最前面的词元"},
    "fg.lesson_help": {
        "en": "A long prompt, a budget of 64 keys, with 4 sinks (streaming) against none (window): the chart "
              "below shows both.",
        "zh": "一段长提示词，预算 64 个键，有 4 个汇聚点（streaming）对比没有汇聚点（window）：下面的图同时显示两者。"},
    "fg.working": {"en": "Writing with both caches…", "zh": "正在用两种缓存写作……"},
    "fg.failed": {"en": "Could not write: {error}", "zh": "无法写作：{error}"},
    "fg.nothing_yet": {"en": "Write a word to see what the cache forgot.", "zh": "写一个词，看看缓存忘了什么。"},
    "fg.written": {"en": "Written with the evicted cache", "zh": "用淘汰后的缓存写出的文本"},
    "fg.ended": {"en": "The model wrote its end-of-text token.", "zh": "模型写出了文本结束词元。"},
    "fg.step": {
        "en": "Word {index}, “{word}”: predicted by the query at position {pos}, which saw {seen} of {n} keys "
              "(layer {layer}, first key/value head).",
        "zh": "第 {index} 个词“{word}”：由位置 {pos} 的查询预测，它看到了 {n} 个键中的 {seen} 个（第 {layer} 层，第一个键/值头）。"},
    "fg.first": {"en": "The first word comes from the prompt read in full: nothing is evicted yet.",
                 "zh": "第一个词来自完整读入的提示词：还没有任何键被淘汰。"},
    "fg.kl": {"en": "KL(full ‖ evicted)", "zh": "KL（完整 ‖ 淘汰）"},
    "fg.top": {"en": "Top word", "zh": "最可能的词"},
    "fg.top_same": {"en": "unchanged", "zh": "未变"},
    "fg.top_changed": {"en": "changed", "zh": "变了"},
    "fg.bars_evicted": {"en": "With the evicted cache", "zh": "用淘汰后的缓存"},
    "fg.bars_full": {"en": "With the full cache", "zh": "用完整缓存"},
    "fg.token": {"en": "Token", "zh": "词元"},
    "fg.prob": {"en": "Probability", "zh": "概率"},
    "fg.chosen": {"en": "written", "zh": "已写出"},
    "fg.kl_title": {"en": "KL per written word: {policy} against window", "zh": "每个写出的词的 KL：{policy} 对比 window"},
    "fg.kl_x": {"en": "Written word", "zh": "写出的词"},
    "fg.kl_y": {"en": "KL (nats)", "zh": "KL（奈特）"},
    "fg.kl_note": {"en": "Each policy writes its own text; the KL is to the full cache at that text.",
                   "zh": "每种策略写出各自的文本；KL 是相对于同一文本上完整缓存的结果。"},
    "fg.lost_title": {"en": "Which heads lost most", "zh": "哪些注意力头损失最多"},
    "fg.lost_explain": {
        "en": "Per head, the attention weight the full cache's newest query put on keys this policy evicted.",
        "zh": "对每个头：完整缓存的最新查询放在本策略已淘汰的键上的注意力权重。"},
    "fg.lost_x": {"en": "Weight on evicted keys", "zh": "放在已淘汰键上的权重"},
    "fg.lost_none": {"en": "No head put weight on an evicted key at this word.",
                     "zh": "在这个词上，没有任何头把权重放在已淘汰的键上。"},
    "fg.layer": {"en": "Layer", "zh": "层"},
    "fg.row_title": {"en": "The newest row, layer {layer}: evicted keys in grey",
                     "zh": "最新一行，第 {layer} 层：灰色为已淘汰的键"},
    "fg.row_x": {"en": "Key", "zh": "键"},
    "fg.row_y": {"en": "Query head", "zh": "查询头"},
    "fg.evicted": {"en": "evicted", "zh": "已淘汰"},
}
