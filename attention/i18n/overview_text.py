"""The Overview page: every layer × head at once, the rollout, the statistics and the downloads."""

STRINGS: dict[str, dict[str, str]] = {
    "page.overview": {"en": "Overview", "zh": "总览"},
    "overview.title": {"en": "Overview: the whole model at once", "zh": "总览：一次看遍整个模型"},
    "overview.open": {"en": "Every head at once", "zh": "一次看所有注意力头"},
    "overview.source": {"en": "Whose attention", "zh": "看谁的注意力"},
    "overview.source.model": {"en": "the pretrained model", "zh": "预训练模型"},
    "overview.source.translator": {"en": "the built-in English→Spanish translator", "zh": "内置的英→西翻译模型"},
    "overview.words_already": {
        "en": "The translator reads and writes whole words (its vocabulary has no pieces): nothing to merge.",
        "zh": "翻译模型读写的都是整词（词表里没有子词片段）：无需合并。",
    },
    "overview.measuring": {"en": "Measuring every head…", "zh": "正在测量每一个注意力头…"},
    # whole words
    "overview.merge": {"en": "Whole words", "zh": "整词"},
    "overview.merge_help": {
        "en": "Glue subword pieces (un ##believ ##able) back into words.",
        "zh": "把子词片段（un ##believ ##able）重新拼回完整的词。",
    },
    "overview.merge_caption": {
        "en": "Whole words: the attention a query gives to the pieces of one key word is summed (the word gets all "
              "of it), and the rows of the pieces of one query word are averaged, so every row still sums to 1.",
        "zh": "整词：一个查询分给同一个键词各片段的注意力被相加（整个词得到全部注意力），同一个查询词各片段的行则取平均，"
              "因此每一行的和仍为 1。",
    },
    # the grid
    "overview.order_by": {"en": "Order the grid by", "zh": "网格排序依据"},
    "overview.order.model": {"en": "layer, then head", "zh": "先按层，再按注意力头"},
    "overview.ascending": {"en": "lowest first", "zh": "从低到高"},
    "overview.word": {"en": "Outline a query word's row", "zh": "标出某个查询词所在的行"},
    "overview.word_none": {"en": "none", "zh": "无"},
    "overview.grid_caption": {
        "en": "Each thumbnail is one head's attention weights A: rows are query words, columns key words (at most "
              "{cells}×{cells} cells: on long inputs neighbouring keys are added up and neighbouring queries "
              "averaged). Click a thumbnail to open that head on the {page} page.",
        "zh": "每个缩略图是一个注意力头的注意力权重 A：行是查询词，列是键词（最多 {cells}×{cells} 格：输入较长时，相邻的键"
              "被相加，相邻的查询取平均）。点击缩略图即可在“{page}”页打开该注意力头。",
    },
    "overview.hover_title": {"en": "layer {layer} · head {head}", "zh": "第 {layer} 层 · 第 {head} 个注意力头"},
    "overview.hover_click": {"en": "click: open it on the {page} page", "zh": "点击：在“{page}”页打开"},
    # the statistics table
    "overview.col.layer": {"en": "layer", "zh": "层"},
    "overview.col.head": {"en": "head", "zh": "注意力头"},
    "overview.stat.entropy": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "overview.stat.distance": {"en": "mean distance (tokens)", "zh": "平均距离（词元）"},
    "overview.stat.special_share": {"en": "share on special / first token", "zh": "落在特殊词元 / 首个词元上的比例"},
    "overview.stat.previous_share": {"en": "share on previous token", "zh": "落在前一个词元上的比例"},
    "overview.stat.self_share": {"en": "share on itself", "zh": "落在自身上的比例"},
    "overview.cross_stats": {
        "en": "No distance, previous-token or self share here: a query (a word being written) and its keys (the "
              "encoder's words) belong to two different sentences, so positions cannot be compared.",
        "zh": "这里没有距离、前一个词元或自身的比例：查询（正在生成的词）和它的键（编码器的词）属于两个不同的句子，位置无法比较。",
    },
    "overview.table_caption": {
        "en": "Entropy in nats (ln of the number of keys = spread evenly, 0 = all on one key); distance in tokens. "
              "Sorting the table by a column header does not reach the grid: use “{order_by}”.",
        "zh": "熵以奈特为单位（等于键数量的自然对数 = 均匀分布，0 = 全部落在一个键上）；距离以词元计。"
              "点击表头排序不会改变网格的顺序：请使用“{order_by}”。",
    },
    "overview.table_caption_merged": {
        "en": "Entropy in nats (ln of the number of keys = spread evenly, 0 = all on one key); distance in tokens "
              "(per token, as the model attended, with whole words on too). Sorting the table by a column header "
              "does not reach the grid: use “{order_by}”.",
        "zh": "熵以奈特为单位（等于键数量的自然对数 = 均匀分布，0 = 全部落在一个键上）；距离以词元计（即使开启了整词，"
              "也按模型实际关注的逐个词元计算）。点击表头排序不会改变网格的顺序：请使用“{order_by}”。",
    },
    # the rollout
    "overview.rollout": {"en": "Attention rollout", "zh": "注意力展开"},
    "overview.rollout_title": {"en": "Attention rollout R = Â_L ··· Â_1  (rows sum to 1)",
                               "zh": "注意力展开 R = Â_L ··· Â_1（每行之和为 1）"},
    "overview.rollout_row": {"en": "position", "zh": "位置"},
    "overview.rollout_column": {"en": "input word", "zh": "输入词"},
    "overview.rollout_long": {
        "en": "No rollout at {n} tokens: it multiplies every layer's {n} × {n} weights in float64, and this trace "
              "never makes them (each head's rows are computed when shown). Choose a shorter text to see it.",
        "zh": "{n} 个词元时不做注意力展开：展开要把每一层 {n} × {n} 的权重以 float64 相乘，而这条记录从不生成这些矩阵"
              "（每个头的行只在显示时计算）。请选择更短的文本来查看展开。",
    },
    "overview.long_caption": {
        "en": "{n} tokens: every thumbnail and statistic below was computed head by head, a block of rows at a time, "
              "from the q, k and v the model used; per token (whole words would need every head's full matrix).",
        "zh": "{n} 个词元：下面的每个缩略图和统计量都是逐个头、每次一块行，由模型使用的 q、k、v 计算得到；按词元计算"
              "（合并成整词需要每个头的完整矩阵）。",
    },
    "overview.export_long": {
        "en": "The whole trace's S, A and Z would be about {gb} GB: download one head's CSV, or use attention.trace() "
              "in a notebook, where site.pattern(head, rows) gives any rows.",
        "zh": "整条记录的 S、A、Z 约有 {gb} GB：请下载单个头的 CSV，或在笔记本中使用 attention.trace()，"
              "其中 site.pattern(head, rows) 可给出任意行。",
    },
    "overview.rollout_encoder_only": {
        "en": "No rollout here: rollout follows a stack of self-attention layers that nothing else feeds (an "
              "encoder, or a decoder-only model). Here cross-attention brings the encoder's words in between "
              "these layers, so multiplying their weights would not say where a position's information came from.",
        "zh": "这里没有注意力展开：展开只适用于没有其他输入插入的自注意力层堆叠（编码器，或只有解码器的模型）。这里交叉注意力"
              "在这些层之间引入了编码器的词，因此把它们的权重相乘，并不能说明一个位置的信息从何而来。",
    },
    "overview.rollout_cross": {
        "en": "No rollout for cross-attention: its rows (the positions being written) and its columns (the "
              "encoder's words) are two different sequences, so its weights cannot be chained layer after layer.",
        "zh": "交叉注意力没有注意力展开：它的行（正在生成的位置）和列（编码器的词）是两个不同的序列，"
              "因此其权重无法逐层连乘。",
    },
    "overview.rollout_caption": {
        "en": "How much of each input word (column) reaches each position (row) after all these layers: per layer "
              "Â = ½·(A averaged over heads) + ½·I, the identity standing for the residual connection; "
              "R = Â_L ··· Â_1. Click a word to outline its row in the grid.",
        "zh": "经过所有这些层之后，每个输入词（列）有多少到达了每个位置（行）：每一层 Â = ½·(A 对各注意力头取平均) + ½·I，"
              "其中单位矩阵代表残差连接；R = Â_L ··· Â_1。点击一个词即可在网格中标出它所在的行。",
    },
    # downloads
    "overview.export": {"en": "Take the numbers away", "zh": "下载数据"},
    "overview.csv": {
        "en": "Weights of layer {layer}, head {head} (.csv)",
        "zh": "第 {layer} 层、第 {head} 个注意力头的权重（.csv）",
    },
    "overview.npz": {"en": "Whole trace (.npz, {size} MB)", "zh": "完整记录（.npz，{size} MB）"},
    "overview.json": {"en": "Whole trace (.json, 6 significant digits)", "zh": "完整记录（.json，6 位有效数字）"},
    "overview.json_too_big": {
        "en": "JSON is offered up to {max} numbers; this trace has {n}. Use the .npz (numpy.load) instead.",
        "zh": "JSON 最多提供 {max} 个数值；这份记录有 {n} 个。请改用 .npz（numpy.load）。",
    },
    "overview.export_caption": {
        "en": "The CSV is the head selected on the {page} page (click a thumbnail to change it). The .npz and .json hold "
              "every site's weights, scores, q, k, v and z, token for token.",
        "zh": "CSV 是在“{page}”页中选中的注意力头（点击缩略图即可更换）。.npz 和 .json 逐个词元包含每一处注意力的权重、"
              "分数以及 q、k、v 和 z。",
    },
    "overview.export_caption_words": {
        "en": "The CSV is the head selected on the {page} page (click a thumbnail to change it), between whole words. "
              "The .npz and .json hold every site's weights, scores, q, k, v and z, token for token.",
        "zh": "CSV 是在“{page}”页中选中的注意力头（点击缩略图即可更换），按整词计算。.npz 和 .json 逐个词元包含每一处"
              "注意力的权重、分数以及 q、k、v 和 z。",
    },
}
