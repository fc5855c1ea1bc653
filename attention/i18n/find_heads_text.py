"""The Find heads page."""

STRINGS: dict[str, dict[str, str]] = {
    # the relevance finder
    "relevance.title": {"en": "Which heads link two words?", "zh": "哪些注意力头连接这两个词？"},
    "relevance.explain": {
        "en": "Pick a query word and a key word: every layer and head is ranked by the weight the query gives the "
              "key (and by the raw score q·k). Click a row to open that head in Explore.",
        "zh": "选择一个查询词和一个键词：按查询词给键词的权重（以及原始分数 q·k）对每一层、每个头排序。点击一行即可在“探索”"
              "页打开该头。",
    },
    "relevance.pair": {
        "en": "Every head ranked by how strongly {q} looks at {k} in “{text}”.",
        "zh": "在 “{text}” 中，按 {q} 关注 {k} 的强度给每个注意力头排序。",
    },
    "relevance.explore_link": {"en": "Find heads where {q} looks at {k}", "zh": "查找 {q} 关注 {k} 的注意力头"},
    "relevance.query": {"en": "Query word", "zh": "查询词"},
    "relevance.key": {"en": "Key word", "zh": "键词"},
    "relevance.rank_by": {"en": "Rank by", "zh": "排序依据"},
    "relevance.by_weight": {"en": "weight", "zh": "权重"},
    "relevance.by_score": {"en": "raw score q·k", "zh": "原始分数 q·k"},
    "relevance.words_note": {
        "en": "Whole words: the weight is what the query word's pieces give the key word's pieces (summed over the "
              "key's pieces, averaged over the query's); q·k is the mean over the pairs of pieces the query may see.",
        "zh": "整词：权重是查询词各片段给键词各片段的注意力（对键的片段求和，对查询的片段取平均）；q·k 是查询能看到的所有片段两两配对的平均值。",
    },
    "relevance.col_layer": {"en": "layer", "zh": "层"},
    "relevance.col_head": {"en": "head", "zh": "头"},
    "relevance.col_kind": {"en": "attention", "zh": "注意力类型"},
    "relevance.col_weight": {"en": "weight", "zh": "权重"},
    "relevance.col_score": {"en": "q·k", "zh": "q·k"},
    "relevance.col_rank": {"en": "rank of the key in the row", "zh": "该键在这一行中的名次"},
    "relevance.col_top": {"en": "ranked 1 in the row", "zh": "这一行排第 1 的键"},
    "relevance.col_other": {"en": "weight to “{o}”", "zh": "给“{o}”的权重"},
    "relevance.compare": {
        "en": "The article's question is a comparison: does {q} look at {k} more than at {o}? In {n} of {heads} heads "
              "it clearly does: {k} is above an even spread (1.5 × {even}, the share each of {n_keys} keys would get) "
              "and ahead of {o}. Where {k}'s rank is above 1, the last column says which key comes first (often a "
              "marker such as [CLS]).",
        "zh": "文章的问题是一个比较：{q} 看 {k} 是否多于看 {o}？在 {heads} 个头中有 {n} 个明显如此：{k} 的权重高于平均分配"
              "（{n_keys} 个键各 {even} 的 1.5 倍），并且领先于 {o}。若 {k} 的名次大于 1，最后一列给出排第一的键（常常是 [CLS] "
              "之类的标记）。"},
}
