"""Words of the Lesson's last step: a model that writes predicts the next word, and the heads that decide
it read earlier words (attention/lesson/predict_word.py). Numbers and words come in as fields."""

STRINGS: dict[str, dict[str, str]] = {
    "lesson.predict_word.title": {"en": "11. A model that writes: which earlier words decide the next one?",
                                  "zh": "11. 会写字的模型：哪些前面的词决定了下一个词？"},
    "lesson.predict_word.intro": {
        "en": "Everything so far leads here. A language model that writes reads the words before the gap with "
              "the same attention: each head's query is the last word, its keys are every earlier word, and "
              "what the heads bring back decides the next word. This step runs on SmolLM2 (135 million "
              "parameters, 30 layers of 9 heads), whatever model the other steps read: a model that predicts "
              "the next word is needed.",
        "zh": "前面的一切都通向这里。会写字的语言模型用同样的注意力读取空缺之前的词：每个头的查询是最后一个词，键是前面的每个词，"
              "各个头带回的值决定下一个词。无论其他步骤使用哪个模型，这一步都在 SmolLM2（1.35 亿参数，30 层，每层 9 个头）上运行："
              "这里需要一个预测下一个词的模型。"},
    "lesson.predict_word.body": {
        "en": "The prompt is your sentence without its last word: {prompt} ({n_tokens} tokens; a \"·\" marks a "
              "leading space).",
        "zh": "提示是你的句子去掉最后一个词：{prompt}（{n_tokens} 个词元；“·”表示前面有一个空格）。"},
    "lesson.predict_word.body_character": {
        "en": "The prompt is your sentence without its last character (a script written without spaces between "
              "words: the character stands for the word): {prompt} ({n_tokens} tokens; a \"·\" marks a leading "
              "space).",
        "zh": "提示是你的句子去掉最后一个字（中文词与词之间没有空格，这里以字代词）：{prompt}（{n_tokens} 个词元；“·”表示前面有一个空格）。"},
    "lesson.predict_word.cut": {
        "en": "Your sentence is long: the model continues its last {max} words before the cut ({cut} words at "
              "the front are left out).",
        "zh": "你的句子很长：模型只接着截断前的最后 {max} 个词写（开头的 {cut} 个词被省略）。"},
    "lesson.predict_word.ask_next": {"en": "Which token will SmolLM2 find likeliest after {prompt}?",
                                     "zh": "在 {prompt} 之后，SmolLM2 认为哪个词元最可能？"},
    "lesson.predict_word.next_explain": {
        "en": "SmolLM2's likeliest next token is {w}, with probability {p}; the chart shows all ten.",
        "zh": "SmolLM2 最可能的下一个词元是 {w}，概率为 {p}；图中画出了全部十个。"},
    "lesson.predict_word.next_explain_later": {
        "en": "SmolLM2's likeliest next token is {w}, with probability {p}; the chart of all ten comes once you "
              "have answered the next question.",
        "zh": "SmolLM2 最可能的下一个词元是 {w}，概率为 {p}；回答下一个问题后会显示全部十个的图。"},
    "lesson.predict_word.held_ranked": {
        "en": "Your sentence goes on with {held}: the model ranks it number {rank} of the ten (probability {p}).",
        "zh": "你的句子接下来是 {held}：模型把它排在十个中的第 {rank} 位（概率 {p}）。"},
    "lesson.predict_word.held_absent": {
        "en": "Your sentence goes on with {held}, which is not one of the ten likeliest tokens (a word may also "
              "take more than one token).",
        "zh": "你的句子接下来是 {held}，它不在最可能的十个词元之中（一个词也可能由多个词元组成）。"},
    "lesson.predict_word.ask_decider": {
        "en": "Which earlier token do you think decides {w}: which one does the head that matters most read? "
              "(The first token {first} is left out: many heads park their weight there. So is {last}, the last "
              "token: it is where the heads' query stands, not an earlier word.)",
        "zh": "你认为前面哪个词元决定了 {w}：最重要的那个头读取的是哪一个？（第一个词元 {first} 不在选项中：许多头把权重停放在那里。"
              "最后一个词元 {last} 也不在：头的查询就在那里，它不是前面的词。）"},
    "lesson.predict_word.none": {"en": "none clearly", "zh": "没有明显的"},
    "lesson.predict_word.head": {"en": "layer {layer}, head {head}", "zh": "第 {layer} 层第 {head} 个头"},
    # beside the chart's rows: short, so the bars above keep their width on a phone
    "lesson.predict_word.head_short": {"en": "L{layer} H{head}", "zh": "{layer} 层 {head} 头"},
    "lesson.predict_word.drops": {
        "en": "The {k} heads a one-pass estimate ranked first were each switched off alone; the log-probability "
              "of {w} fell most for {heads}.",
        "zh": "单次反向传播的估计排在前面的 {k} 个头被逐个单独关闭；{w} 的对数概率下降最多的是：{heads}。"},
    "lesson.predict_word.drop": {"en": "{name}: −{drop} nats (probability {before} → {after})",
                                 "zh": "{name}：−{drop} 奈特（概率 {before} → {after}）"},
    "lesson.predict_word.decides": {
        "en": "Switched off alone, {heads} each take at least {floor} nats, about a tenth of the word's "
              "probability: these heads decide the word.",
        "zh": "单独关闭时，{heads} 各自至少带走 {floor} 奈特，约为该词概率的十分之一：这些头决定了这个词。"},
    "lesson.predict_word.no_decider": {
        "en": "No head is singled out: switching any one off costs the word at most {most} nats, under the {floor} "
              "nats that would take a tenth of its probability. Many heads share the work here.",
        "zh": "没有哪个头特别突出：关闭任何一个头，这个词最多损失 {most} 奈特，低于相当于其概率十分之一的 {floor} 奈特。"
              "这里是许多头共同完成的。"},
    "lesson.predict_word.tied": {
        "en": "Every head measured costs the word the same {most} nats: no head is singled out.",
        "zh": "测量的每个头都让这个词损失相同的 {most} 奈特：没有哪个头特别突出。"},
    "lesson.predict_word.reads": {
        "en": "From the last position, {name} reads {words}: clearly above the even share 1/{n_keys} = {even}.",
        "zh": "从最后一个位置出发，{name} 读取 {words}：明显高于平均份额 1/{n_keys} = {even}。"},
    "lesson.predict_word.reads_none": {
        "en": "From the last position, {name} reads no earlier token clearly above the even share "
              "1/{n_keys} = {even}.",
        "zh": "从最后一个位置出发，{name} 没有明显高于平均份额 1/{n_keys} = {even} 地读取任何前面的词元。"},
    "lesson.predict_word.sink": {
        "en": "Its largest weight, {w}, is on the first token {first}: an attention sink, not a word it reads.",
        "zh": "它最大的权重 {w} 在第一个词元 {first} 上：这是注意力汇聚点，而不是它读取的词。"},
    "lesson.predict_word.agree": {
        "en": "How well the one-pass estimate ranked these heads: Spearman's ρ = {rho} against their measured "
              "drops (n = {n}).",
        "zh": "单次估计与实测下降的一致程度：斯皮尔曼 ρ = {rho}（n = {n}）。"},
    "lesson.predict_word.no_agree": {
        "en": "How well the estimate ranked the heads is not said: the measured drops are too few or too alike.",
        "zh": "不评价估计的排序好坏：实测的下降太少或太接近。"},
    "lesson.predict_word.answer": {"en": "So the answer: the head that matters most reads {w} most clearly.",
                                   "zh": "所以答案是：最重要的那个头最明显地读取 {w}。"},
    "lesson.predict_word.answer_none": {
        "en": "So the answer: no earlier token is singled out (no head decides the word, or the one that matters "
              "most reads no token clearly).",
        "zh": "所以答案是：没有哪个前面的词元特别突出（没有头决定这个词，或最重要的头没有明显地读取任何词元）。"},
    "lesson.predict_word.one_token": {
        "en": "The prompt is a single token: there is no earlier word for a head to read.",
        "zh": "提示只有一个词元：没有前面的词可供头读取。"},
    "lesson.predict_word.two_tokens": {
        "en": "The prompt has two tokens: the only earlier one is the first, {first}, where many heads park their "
              "weight, so no earlier word is asked for.",
        "zh": "提示只有两个词元：唯一在前面的是第一个词元 {first}，许多头把权重停放在那里，所以不问哪个前面的词。"},
    "lesson.predict_word.chart_next": {"en": "The ten likeliest next tokens", "zh": "最可能的十个下一个词元"},
    "lesson.predict_word.chart_rows": {"en": "What the leading heads read (attention weights from the last token)",
                                       "zh": "领先的头读取什么（从最后一个词元出发的注意力权重）"},
    "lesson.predict_word.chart_p": {"en": "probability", "zh": "概率"},
    "lesson.predict_word.chart_tokens": {"en": "earlier token (key)", "zh": "前面的词元（键）"},
    "lesson.predict_word.try": {
        "en": "Change the last words of your sentence: does another head take over? Write with this prompt, "
              "or open the leading head in Explore.",
        "zh": "改变句子的最后几个词：会换成另一个头吗？用这个提示去写作，或在探索页面中打开领先的头。"},
    "lesson.predict_word.empty": {"en": "Type a sentence first: the model needs at least one word to continue.",
                                  "zh": "请先输入一个句子：模型至少需要一个词才能接着写。"},
    "lesson.predict_word.running": {"en": "SmolLM2 predicts the next word and switches heads off…",
                                    "zh": "SmolLM2 正在预测下一个词并逐个关闭头……"},
    "lesson.predict_word.not_expanded": {
        "en": "The model that writes is not prepared on this server, so this step cannot run here.",
        "zh": "此服务器上没有准备好会写字的模型，因此这一步无法在这里运行。"},
    "lesson.predict_word.no_model": {"en": "The model that writes could not be loaded: {error}",
                                     "zh": "无法加载会写字的模型：{error}"},
    "lesson.predict_word.write": {"en": "Write with this prompt", "zh": "用这个提示写作"},
    "lesson.predict_word.explore_head": {"en": "Open layer {layer}, head {head} in Explore",
                                         "zh": "在探索页面中打开第 {layer} 层第 {head} 个头"},
    "lesson.predict_word.caption": {
        "en": "SmolLM2-135M-Instruct, decoder self-attention: every head switched off alone where its output "
              "leaves the attention.",
        "zh": "SmolLM2-135M-Instruct，解码器自注意力：每个头在其输出离开注意力处被单独关闭。"},
}
