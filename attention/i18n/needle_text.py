"""The Find-the-needle page: retrieval heads (attention/lm/needle.py, attention/analysis/retrieval.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "page.find_needle": {"en": "Find the needle", "zh": "大海捞针"},
    "nd.title": {"en": "Find the needle: which heads fetch a fact from far back?",
                 "zh": "大海捞针：哪些注意力头从很远的地方取回一个事实？"},
    "nd.explain": {
        "en": "A fact (the needle) is hidden once in a long text (the haystack); a question at the end asks for it, "
              "and the model answers greedily. For each written token, every head's largest attention weight "
              "lands on one earlier token, its top key. Wu et al. (2024) call a head a retrieval head when its top "
              "key is, again and again, the very needle token being written: it copies.",
        "zh": "一个事实（“针”）只在一段长文本（“草堆”）里出现一次；末尾的问题问到它，模型用贪心方式作答。对于写出的每个词元，每个注意力头"
              "权重最大的位置都落在某个更早的词元上，称为它的最高键。Wu 等（2024）把这样的头称为检索头：它的最高键一次又一次正好是"
              "正在写出的那个针中的词元——它在复制。"},
    "nd.definition": {
        "en": "Retrieval score of a head = (written tokens whose top-1 key lies inside the needle AND is that same "
              "token) ÷ (the needle's length in tokens). Averaged only over runs answered right; above {threshold} "
              "a head is a retrieval head (Wu et al. 2024).",
        "zh": "一个头的检索分数 = 它复制的次数 ÷ 针的词元数。“复制”指：写出某个词元时，这个头的最高键落在针内，而且那个位置上的"
              "词元就是正在写出的这个词元。只在答对的运行上取平均；高于 {threshold} 即为检索头（Wu 等，2024）。"},
    "nd.haystack_note": {
        "en": "The built-in haystack is text SmolLM2 wrote itself (the atlas's corpus: 24 short texts from fixed "
              "prompts and a fixed seed), repeated as often as the length needs. The needle goes in at the "
              "sentence boundary nearest the depth.",
        "zh": "内置的“草堆”是 SmolLM2 自己写的文本（图谱使用的语料：由固定提示词和固定随机种子写出的 24 段短文），按长度需要重复。"
              "针插在最接近所选深度的句子边界处。"},
    "nd.needle": {"en": "Needle (the fact)", "zh": "针（事实）"},
    "nd.question": {"en": "Question", "zh": "问题"},
    "nd.answer": {"en": "A right answer contains", "zh": "正确答案应包含"},
    "nd.haystack": {"en": "Your own haystack (blank: the built-in one)", "zh": "自己的草堆文本（留空：使用内置文本）"},
    "nd.length": {"en": "Length (tokens)", "zh": "长度（词元）"},
    "nd.length_help": {"en": "The whole prompt in tokens: haystack, needle, question and chat template. Longer "
                             "takes longer: about a minute at 2,048 tokens on a busy 2-core machine.",
                       "zh": "整个提示词的词元数：草堆、针、问题和对话模板。越长越慢：在繁忙的双核机器上 2,048 个词元约需一分钟。"},
    "nd.depth": {"en": "Depth (where the needle goes)", "zh": "深度（针放在哪里）"},
    "nd.go": {"en": "Find the needle", "zh": "开始找针"},
    "nd.press": {"en": "Press “Find the needle”: the model reads the whole haystack and answers (seconds to minutes, "
                       "with the length).",
                 "zh": "点击“开始找针”：模型会读完整个草堆并作答（根据长度，需要几秒到几分钟）。"},
    "nd.working": {"en": "Reading the haystack and writing the answer…", "zh": "正在读草堆并写出答案……"},
    "nd.err.blank": {"en": "Give a needle (the fact) and a question that asks for it.",
                     "zh": "请给出一根针（要藏的事实）和一个问它的问题。"},
    "nd.err.short": {"en": "The length must be at least {least} tokens.", "zh": "长度至少要 {least} 个词元。"},
    "nd.err.depth": {"en": "The depth must be between 0 (the start) and 1 (the end).",
                     "zh": "深度必须在 0（开头）和 1（结尾）之间。"},
    "nd.err.no_room": {"en": "The needle and the question alone take about {tokens} tokens: give a longer length.",
                       "zh": "针和问题本身就占了大约 {tokens} 个词元：请给一个更长的长度。"},
    "nd.err.haystack": {"en": "The haystack has no words: give a text, or none for the built-in one.",
                        "zh": "草堆里没有字：请给一段文本，或者留空使用内置的文本。"},
    "nd.err.grid": {"en": "The grid needs at least one length, one depth and one needle.",
                    "zh": "网格至少需要一个长度、一个深度和一根针。"},
    "nd.err.proof": {"en": "The proof needs at least one prompt and one head to switch off.",
                     "zh": "证明至少需要一个提示词和一个可以关掉的头。"},
    "nd.err.capture": {"en": "{model}: the needle needs attention captured through the registry.",
                       "zh": "{model}：找针需要通过注册的注意力函数来捕获注意力。"},
    "nd.failed": {"en": "The needle could not be run: {error}", "zh": "无法运行：{error}"},
    "nd.answer_title": {"en": "The model's answer", "zh": "模型的回答"},
    "nd.found": {"en": "Found the needle", "zh": "找到了针"},
    "nd.not_found": {"en": "Did not find the needle", "zh": "没有找到针"},
    "nd.prompt_info": {"en": "{n} prompt tokens (positions 0–{last}); the needle is at positions {start}–{end}, with "
                             "{depth:.0%} of the haystack's tokens before it; {copyable} written tokens occur in the "
                             "needle.",
                       "zh": "提示词共 {n} 个词元（位置 0–{last}）；针在位置 {start}–{end}，草堆的词元有 {depth:.0%} 在它之前；"
                             "写出的词元中有 {copyable} 个出现在针里。"},
    "nd.haystack_cut": {
        "en": "Your haystack was cut to fit the length: only its first {kept:,} of {total:,} sentences were read, {tokens:,} "
              "of its about {given:,} tokens (the whole prompt: {n:,} tokens). It was cut at the end, after “{last}”; "
              "everything after that was left out.",
        "zh": "你的草堆文本被截短以适应长度：只读了它的前 {kept:,} 句（共 {total:,} 句），即大约 {given:,} 个词元中的 {tokens:,} 个"
              "（整个提示词：{n:,} 个词元）。截断发生在末尾，在“{last}”之后；其后的内容都没有读。"},
    "nd.scores_title": {"en": "Retrieval score of every head (this run)", "zh": "每个头的检索分数（本次运行）"},
    "nd.scores_title_wrong": {"en": "For inspection only, not counted (the answer was wrong): where every head's "
                                    "copies fell in this run",
                              "zh": "仅供查看，不计入（答案是错的）：本次运行中每个头的复制落在哪里"},
    "nd.scores_legend": {"en": "Orange squares: the heads above {threshold} (retrieval heads in this run).",
                         "zh": "橙色方框：高于 {threshold} 的头（本次运行中的检索头）。"},
    "nd.heads_wrong": {"en": "The answer was wrong, so by the definition above this run counts for no head: none is "
                             "listed as above {threshold}. The grid above is shown for inspection only.",
                       "zh": "答案是错的，按上面的定义，本次运行不计入任何头：不列出高于 {threshold} 的头。上面的网格仅供查看。"},
    "nd.head_x": {"en": "head", "zh": "头"},
    "nd.layer_y": {"en": "layer", "zh": "层"},
    "nd.heads_above": {"en": "Heads above {threshold}: {heads}", "zh": "高于 {threshold} 的头：{heads}"},
    "nd.heads_none": {"en": "No head is above {threshold} in this run.", "zh": "本次运行中没有头高于 {threshold}。"},
    "nd.claim.retrieval": {
        "en": "Layer {layer}, head {head} is a retrieval head here: it copied {hits} of the needle's {length} tokens "
              "({hits} ÷ {length} = {score}, above the line {threshold}; {n} of the written tokens occur in the needle).",
        "zh": "第 {layer} 层第 {head} 个头在这里是检索头：它复制了针的 {length} 个词元中的 {hits} 个（{hits} ÷ {length} = "
              "{score}，高于界线 {threshold}；写出的词元中有 {n} 个出现在针里）。"},
    "nd.claim.not": {
        "en": "Layer {layer}, head {head} is not a retrieval head here: it copied {hits} of the needle's {length} "
              "tokens ({hits} ÷ {length} = {score}), not above {threshold}.",
        "zh": "第 {layer} 层第 {head} 个头在这里不是检索头：它复制了针的 {length} 个词元中的 {hits} 个（{hits} ÷ {length} = "
              "{score}），没有高于 {threshold}。"},
    "nd.claim.retrieval_mean": {
        "en": "Layer {layer}, head {head} is a retrieval head over the grid: averaged over {runs} right answers, it "
              "copied {score} of each needle's tokens (above the line {threshold}; {n} written tokens could be copied).",
        "zh": "在整个网格上，第 {layer} 层第 {head} 个头是检索头：在 {runs} 个正确答案上平均，它复制了每根针 {score} 的词元"
              "（高于界线 {threshold}；共有 {n} 个写出的词元可以被复制）。"},
    "nd.claim.not_mean": {
        "en": "Layer {layer}, head {head} (the best over the grid) is not a retrieval head: averaged over {runs} right "
              "answers it copied {score} of each needle's tokens, not above {threshold}.",
        "zh": "第 {layer} 层第 {head} 个头（网格上最好的头）不是检索头：在 {runs} 个正确答案上平均，它复制了每根针 {score} "
              "的词元，没有高于 {threshold}。"},
    "nd.claim.too_few": {
        "en": "Layer {layer}, head {head} scores {score}, but only {n} written tokens could be copied (at least {min} "
              "are needed before a head is called anything).",
        "zh": "第 {layer} 层第 {head} 个头得分 {score}，但只有 {n} 个写出的词元可以被复制（至少需要 {min} 个才能下结论）。"},
    "nd.claim.no_right": {
        "en": "The answer was wrong, so nothing was retrieved: no head is called a retrieval head from this run.",
        "zh": "答案是错的，没有检索到任何东西：不能根据本次运行把任何头称为检索头。"},
    "nd.head": {"en": "Head to follow", "zh": "要跟踪的头"},
    "nd.head_title": {"en": "Layer {layer}, head {head}: its top key for each written token (needle shaded)",
                      "zh": "第 {layer} 层第 {head} 个头：每个写出词元的最高键（针为阴影部分）"},
    "nd.head_steps_x": {"en": "written token", "zh": "写出的词元"},
    "nd.head_steps_y": {"en": "top key position", "zh": "最高键的位置"},
    "nd.head_steps_y2": {"en": "weight on the needle", "zh": "在针上的权重"},
    "nd.rows_title": {"en": "Its exact rows", "zh": "它的精确行"},
    "nd.rows_explain": {
        "en": "For each written token, the head's whole row of attention weights for the query that predicted it, "
              "computed from the very q and keys the model used (not only the top key). Below, the same rows on the "
              "long head view: one row per written token, every key of the text.",
        "zh": "对每个写出的词元，给出预测它的那个查询在该头上的整行注意力权重，由模型实际使用的 q 和键算出（不只是最高键）。"
              "下面是长头视图中的同样这些行：每个写出的词元一行，文本中的每个键一列。"},
    "nd.row_pick": {"en": "Written token", "zh": "写出的词元"},
    "nd.row_title": {"en": "Written token {i} ({word}): the row of the query at position {position} (needle shaded)",
                     "zh": "第 {i} 个写出的词元（{word}）：位置 {position} 处查询的行（针为阴影部分）"},
    "nd.row_option": {"en": "{i}: {word} (position {position})", "zh": "{i}：{word}（位置 {position}）"},
    "nd.long_rows": {
        "en": "In the long view below, rows count from 0: rows 0–{last} are the queries at prompt positions "
              "{first}–{end}, one per written token. Picked: row {row} = the query at position {position}, which "
              "predicted written token {i} ({word}).",
        "zh": "下面的长视图中，行从 0 开始数：第 0–{last} 行是提示词位置 {first}–{end} 处的查询，每个写出的词元一行。"
              "当前所选：第 {row} 行 = 位置 {position} 处的查询，它预测了第 {i} 个写出的词元（{word}）。"},
    "nd.needle_weight_means": {
        "en": "Dotted line, weight on the needle: of the head's attention for the query that predicted each written "
              "token (its weights sum to 1), the share that falls on the needle's tokens.",
        "zh": "虚线“在针上的权重”：预测每个写出词元的那个查询在该头上的注意力（权重总和为 1）中，落在针的词元上的份额。"},
    "nd.row_x": {"en": "key position", "zh": "键的位置"},
    "nd.row_y": {"en": "attention weight", "zh": "注意力权重"},
    "nd.grid_title": {"en": "Over lengths and depths", "zh": "不同长度与深度"},
    "nd.grid_explain": {
        "en": "Each cell: the three built-in needles asked back at that length and depth (green: all right). The "
              "retrieval scores below are averaged over the right answers only. Kept on disk once measured.",
        "zh": "每个格子：在该长度和深度下问回三根内置的针（绿色：全对）。下面的检索分数只在答对的运行上取平均。测量一次后保存在磁盘上。"},
    "nd.grid_run": {"en": "Measure the grid", "zh": "测量网格"},
    "nd.grid_progress": {"en": "Run {done} of {total}", "zh": "第 {done} / {total} 次运行"},
    "nd.grid_chart": {"en": "Share answered right", "zh": "答对的比例"},
    "nd.grid_x": {"en": "length (tokens)", "zh": "长度（词元）"},
    "nd.grid_y": {"en": "depth", "zh": "深度"},
    "nd.grid_scores": {"en": "Mean retrieval score over {runs} right answers ({n} copyable tokens)",
                       "zh": "{runs} 个正确答案上的平均检索分数（{n} 个可复制词元）"},
    "nd.proof_title": {"en": "Proof: switch the retrieval heads off", "zh": "证明：关掉检索头"},
    "nd.proof_explain": {
        "en": "This run's best heads (by retrieval score, ties by weight on the needle) switched off k at a time, k = "
              "{ks} (their output set to zero), against {draws} draws of k random heads with the same layers' "
              "spread, on the same prompt: is the answer still right?",
        "zh": "把本次运行中最好的头（按检索分数排序，分数相同时按在针上的权重）每次关掉 k 个，k = {ks}（输出置零），"
              "对照 {draws} 次随机抽取的 k 个头（层的分布相同），使用同一个提示词：答案还对吗？"},
    "nd.proof_run": {"en": "Run the proof", "zh": "运行证明"},
    "nd.proof_none": {"en": "No head copied anything in this run: there is nothing to switch off.",
                      "zh": "本次运行中没有头复制任何东西：没有可以关掉的头。"},
    "nd.curve_title": {"en": "Still right, of {n} prompt(s) answered right with every head on",
                       "zh": "在所有头开启时答对的 {n} 个提示词中，仍然答对的比例"},
    "nd.curve_x": {"en": "heads switched off (k)", "zh": "关掉的头数（k）"},
    "nd.curve_y": {"en": "still right", "zh": "仍然答对"},
    "nd.curve_top": {"en": "the top k retrieval heads off", "zh": "关掉前 k 个检索头"},
    "nd.curve_random": {"en": "k random heads off (same layers; dots: each draw)",
                        "zh": "关掉 k 个随机头（相同层；点：每次抽取）"},
    "nd.curve.matter": {
        "en": "The retrieval heads matter here: with the top {k} off, {top} of the {n} answers stay right, while {k} "
              "random heads from the same layers leave {random} right (in each of the {draws} random draws, at least "
              "{worst} stayed right): a gap of {gap}.",
        "zh": "检索头在这里是必需的：关掉前 {k} 个后，{n} 个答案中只有 {top} 仍然正确；而关掉相同层中随机的 {k} 个头，仍有 "
              "{random} 答对（{draws} 次随机抽取中，每一次都至少有 {worst} 仍然答对）：相差 {gap}。"},
    "nd.curve.matter_but": {
        "en": "The retrieval heads matter here: with the top {k} off, {top} of the {n} answers stay right, while {k} "
              "random heads from the same layers leave {random} right (in each of the {draws} random draws, at least "
              "{worst} stayed right): a gap of {gap}. But random heads broke answers too: at k = {broke}, at least one "
              "random draw lost some.",
        "zh": "检索头在这里是必需的：关掉前 {k} 个后，{n} 个答案中只有 {top} 仍然正确；而关掉相同层中随机的 {k} 个头，仍有 "
              "{random} 答对（{draws} 次随机抽取中，每一次都至少有 {worst} 仍然答对）：相差 {gap}。但随机的头也弄错过答案："
              "在 k = {broke} 时，至少有一次随机抽取丢掉了一些答案。"},
    "nd.curve.not": {
        "en": "Switching off the top heads (up to {kmax}) did not break the answer more than random heads from the "
              "same layers did (top {kmax} off: {top} right; random: {random}): this does not show the heads are "
              "needed.",
        "zh": "关掉前面的头（最多 {kmax} 个）并没有比关掉相同层中的随机头更能破坏答案（关掉前 {kmax} 个：{top} 答对；"
              "随机：{random}）：这不能说明这些头是必需的。"},
    "nd.curve.too_few": {
        "en": "Too little to judge from: {n} prompt(s) answered right with every head on and {draws} random draws of "
              "each k (at least {min_prompts} prompts and {min_draws} draws are needed, or one lucky draw decides): "
              "nothing is said. The curve is shown as measured.",
        "zh": "可依据的太少：所有头开启时答对的提示词只有 {n} 个，每个 k 随机抽取 {draws} 次（至少需要 {min_prompts} "
              "个提示词和 {min_draws} 次抽取，否则一次运气就能决定结果）：不下结论。曲线按测得的样子画出。"},
    "nd.curve.no_right": {
        "en": "The answer was wrong with every head on: there was nothing to break, so nothing is said.",
        "zh": "所有头都开启时答案就是错的：没有什么可以被破坏，所以不下结论。"},
    "nd.right": {"en": "right", "zh": "答对"},
    "nd.wrong": {"en": "wrong", "zh": "答错"},
    "nd.proof_sink": {"en": "Where switching off the top {k} heads broke the answer, those same heads (their attention "
                            "still computed, only their output zeroed) put their largest weight on the first token, "
                            "the “sink”, for {share} of the written tokens. The sink is where a head parks its "
                            "weight when it is not fetching anything: at those written tokens these heads were "
                            "not looking at the needle.",
                      "zh": "在关掉前 {k} 个头而使答案出错的运行里，这些头本身（注意力照常计算，只是输出被置零）在 {share} "
                            "的写出词元上把最大的权重放在第一个词元——“汇聚点”——上。汇聚点是头在不取任何东西时存放权重的地方："
                            "在这些写出词元上，这些头没有看着针。"},
    "nd.forget_title": {"en": "With forgetting: which caches keep the needle?", "zh": "加上遗忘：哪些缓存留住了针？"},
    "nd.forget_explain": {
        "en": "The same prompt with the Forget page's policies: each written token's query sees only {budget} keys. "
              "“duo” (DuoAttention-style): the key/value groups holding this run's retrieval heads keep every key, "
              "the others 4 sinks and the most recent keys. Bytes: the keys and values the last written query saw.",
        "zh": "同一个提示词，使用“遗忘”页面的策略：每个写出词元的查询只能看到 {budget} 个键。“duo”（DuoAttention 式）：包含本次检索头的"
              "键/值组保留所有键，其余只保留 4 个汇聚点和最近的键。字节数：最后一个写出查询看到的键和值。"},
    "nd.forget_summary": {
        "en": "With {budget} keys per query, the answer stayed right with: {kept}; it was lost with: {lost}. What each "
              "policy keeps and drops is shown on the “{page}” page.",
        "zh": "每个查询只看 {budget} 个键时，答案仍然正确的缓存：{kept}；答错的缓存：{lost}。每种策略保留和丢弃什么，见“{page}”页面。"},
    "nd.forget_none": {"en": "none", "zh": "无"},
    "nd.english_only": {
        "en": "SmolLM2 was trained on English text: a needle, question or haystack in another language is read as "
              "unfamiliar tokens, so a wrong answer here says little about its retrieval heads. Use English to see it work.",
        "zh": "SmolLM2 只用英文文本训练：非英文的针、问题或草堆对它来说是陌生的词元，所以这里答错并不能说明它的检索头如何。"
              "想看它正常工作，请用英文。"},
    "nd.forget_budget": {"en": "Budget (keys per query)", "zh": "预算（每个查询可见的键数）"},
    "nd.forget_run": {"en": "Compare the caches", "zh": "比较各种缓存"},
    "nd.col_cache": {"en": "cache", "zh": "缓存"},
    "nd.col_right": {"en": "right?", "zh": "答对？"},
    "nd.col_answer": {"en": "answer", "zh": "回答"},
    "nd.col_kept": {"en": "KV kept (MB)", "zh": "保留的 KV（MB）"},
    "nd.col_share": {"en": "share of full", "zh": "占完整缓存的比例"},
}
