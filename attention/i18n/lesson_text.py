"""Words of the Lesson page: the guided walk through the article's argument, in English and Chinese
(the article's own terms: 因子矩阵, 查询, 键, 值, 掩码). Numbers and words come in as fields."""

STRINGS: dict[str, dict[str, str]] = {
    "page.lesson": {"en": "Lesson", "zh": "课程"},
    "lesson.title": {"en": "Attention, step by step, on real numbers", "zh": "注意力，一步一步，用真实的数字"},
    "lesson.explain": {
        "en": "Eleven short steps through how attention works, each on a model's own numbers for the sentence "
              "below, then a summary to save. Type your own sentence at any step: the text and charts follow it.",
        "zh": "十一个简短的步骤讲解注意力如何工作，每一步都使用模型对下面句子的真实数字，最后是一份可保存的总结。任何一步都可以输入你自己的句子："
              "文字和图表都会随之改变。"},
    "lesson.sentence_model": {"en": "Sentence (read by {model})", "zh": "句子（由 {model} 读取）"},
    "lesson.sentence_translator": {"en": "English sentence to translate", "zh": "要翻译的英文句子"},
    "lesson.progress": {"en": "Step {i} of {n}", "zh": "第 {i} 步，共 {n} 步"},
    "lesson.progress_end": {"en": "Summary", "zh": "总结"},
    "lesson.colon": {"en": ":", "zh": "："},
    "lesson.score": {"en": "Predictions: {right} right of {answered}", "zh": "预测：{answered} 次中答对 {right} 次"},
    "lesson.back": {"en": "Back", "zh": "上一步"},
    "lesson.next": {"en": "Next", "zh": "下一步"},
    "lesson.try_label": {"en": "Try it", "zh": "试一试"},
    "lesson.open_full": {"en": "Open this view on its full page", "zh": "在完整页面中打开此视图"},
    "lesson.back_to": {"en": "Back to the lesson, step {step}", "zh": "返回课程第 {step} 步"},
    "lesson.head_caption": {"en": "{model}, {kind}: layer {layer}, head {head} ({heads} heads per layer).",
                            "zh": "{model}，{kind}：第 {layer} 层，第 {head} 个头（每层 {heads} 个头）。"},
    "lesson.predict": {"en": "Predict first", "zh": "先预测"},
    "lesson.check": {"en": "Reveal the model's answer", "zh": "揭晓模型的答案"},
    "lesson.pick_first": {"en": "Pick an answer first.", "zh": "请先选择一个答案。"},
    "lesson.right": {"en": "Right: the model agrees with you.", "zh": "答对了：模型与你的预测一致。"},
    "lesson.wrong": {"en": "Not this time: the model's answer is {answer}.", "zh": "这次没猜中：模型的答案是 {answer}。"},
    "lesson.answer_was": {"en": "Your answer: “{chosen}”. The model's: “{answer}”.",
                          "zh": "你的答案：「{chosen}」。模型的答案：「{answer}」。"},
    "lesson.switch_head": {"en": "Switch the lesson to layer {layer}, head {head}", "zh": "把课程切换到第 {layer} 层第 {head} 个头"},
    "lesson.temperature_slider": {"en": "Temperature T", "zh": "温度 T"},
    "lesson.yes": {"en": "yes", "zh": "能"},
    "lesson.no": {"en": "no", "zh": "不能"},
    "lesson.and": {"en": " and ", "zh": "和"},
    "lesson.list_sep": {"en": "; ", "zh": "；"},
    "lesson.comma": {"en": ", ", "zh": "、"},
    "lesson.end.title": {"en": "The whole argument, on your sentence", "zh": "完整的论证，用你的句子"},
    "lesson.end.body": {
        "en": "You went through the eleven steps. Save them as one page (text and charts, in the chosen language) to "
              "read again or print; the charts in the file stay interactive and can be saved as pictures.",
        "zh": "你已经走完了十一个步骤。可以把它们保存为一个页面（文字和图表，使用所选语言），以便再读或打印；文件中的图表仍可交互，"
              "也可以保存为图片。"},
    "lesson.end.download": {"en": "Download the lesson (HTML)", "zh": "下载课程（HTML）"},
    "lesson.end.steps": {"en": "The steps", "zh": "各个步骤"},
    "lesson.end.score": {"en": "Your predictions: {right} right of {answered}.", "zh": "你的预测：{answered} 次中答对 {right} 次。"},
    "lesson.end.restart": {"en": "Start again", "zh": "重新开始"},
    "lesson.print": {"en": "Print", "zh": "打印"},
    "lesson.print_sentences": {"en": "Sentences: {text} · {tr_text}", "zh": "句子：{text} · {tr_text}"},
    # 1
    "lesson.vectors.title": {"en": "1. Words become vectors", "zh": "1. 词变成向量"},
    "lesson.vectors.body": {
        "en": "The model first cuts the sentence into {n} tokens: {tokens}. Each token becomes a vector of {d} numbers: "
              "a learned vector for the word plus a learned vector for its position, so the same word in two places "
              "starts out different. We follow {q}.",
        "zh": "模型先把句子切成 {n} 个词元：{tokens}。每个词元变成一个由 {d} 个数组成的向量：词本身的学习向量加上其位置的学习向量，"
              "所以同一个词在两个位置上一开始就不同。我们跟踪 {q}。"},
    "lesson.vectors.numbers": {
        "en": "For {q} the word's vector has length {norm_t} and the position's {norm_p}; the chart shows both, their "
              "sum, and the normalised sum that enters layer 0.",
        "zh": "对 {q} 来说，词向量的长度是 {norm_t}，位置向量的长度是 {norm_p}；图中画出了两者、它们的和，以及进入第 0 层的归一化之和。"},
    "lesson.vectors.segment": {
        "en": "This model adds a third learned vector, the segment (which sentence of a pair a token belongs to; "
              "here every token is in the first), of length {norm_s} for {q}: the chart draws it too.",
        "zh": "这个模型还加上第三个学习向量——片段向量（表示词元属于一对句子中的哪一句；这里所有词元都属于第一句），{q} 的片段向量长度是 "
              "{norm_s}：图中也画出了它。"},
    "lesson.vectors.unavailable": {"en": "This model's embeddings cannot be taken apart here, so the chart is left out.",
                                   "zh": "这里无法拆开这个模型的嵌入，因此省略了图表。"},
    "lesson.vectors.try": {"en": "Type your own sentence above: every later step re-reads its numbers from it.",
                           "zh": "在上面输入你自己的句子：之后的每一步都会从中重新读取数字。"},
    # 2
    "lesson.qkv.title": {"en": "2. Three linear layers: query, key, value", "zh": "2. 三个线性层：查询、键、值"},
    "lesson.qkv.body": {
        "en": "Three learned linear layers turn each word's vector x into a query (what the word looks for), a key "
              "(what it offers to others' queries) and a value (what it passes on): q = x·W_Q + b_Q, and the same "
              "with W_K and W_V. In layer {layer}, head {head} each is {d} numbers long; here those of {q}.",
        "zh": "三个学习得到的线性层把每个词的向量 x 变成查询（这个词要找什么）、键（它向别的查询提供什么）和值（它传递什么）："
              "q = x·W_Q + b_Q，W_K 和 W_V 同理。在第 {layer} 层第 {head} 个头中，每个向量有 {d} 个数；这里是 {q} 的。"},
    "lesson.qkv.check": {
        "en": "Recomputed from x and the model's weights, {q}'s q, k and v match what the model used to within {diff}.",
        "zh": "用 x 和模型的权重重新计算，{q} 的 q、k、v 与模型实际使用的相差不超过 {diff}。"},
    "lesson.qkv.unavailable": {"en": "This model's q, k and v cannot be recomputed from x here.",
                               "zh": "这里无法从 x 重新计算这个模型的 q、k、v。"},
    "lesson.qkv.try": {"en": "Open the full page and pick another word or head: the bars change, the check stays.",
                       "zh": "打开完整页面，换一个词或头：柱子会变，核对结果不变。"},
    # 3
    "lesson.factor.title": {"en": "3. The factor matrix S = Q·Kᵀ", "zh": "3. 因子矩阵 S = Q·Kᵀ"},
    "lesson.factor.intro": {
        "en": "Put every word's query against every word's key: one dot product per pair, all at once, is the "
              "matrix S = Q·Kᵀ, the factor matrix. Row i is how well word i's query matches each key.",
        "zh": "把每个词的查询与每个词的键相乘：每一对一个点积，合在一起就是矩阵 S = Q·Kᵀ，即因子矩阵。第 i 行表示第 i 个词的查询与每个键的匹配程度。"},
    "lesson.factor.body": {
        "en": "In layer {layer}, head {head}, {q}'s row has {n_keys} entries. Leaving out {k} and {o} (the next step "
              "asks you about them), the largest is {q}·{top} = {s_top} and the smallest {q}·{low} = {s_low}.",
        "zh": "在第 {layer} 层第 {head} 个头中，{q} 这一行有 {n_keys} 个数。先不看 {k} 和 {o}（下一步会请你预测它们），"
              "最大的是 {q}·{top} = {s_top}，最小的是 {q}·{low} = {s_low}。"},
    "lesson.factor.try": {"en": "Click a cell (or a word beside a row): the lesson follows the pair you pick.",
                          "zh": "点击一个单元格（或行旁的词）：课程会跟随你选的词对。"},
    # 4
    "lesson.dot.title": {"en": "4. A dot product is large when the signs agree", "zh": "4. 符号一致时点积就大"},
    "lesson.dot.intro": {
        "en": "A dot product adds q_d·k_d over every dimension d: a term is positive where the query and the key have "
              "the same sign, negative where they differ. The more dimensions agree (and the larger they are), the "
              "larger the score.",
        "zh": "点积把每个维度 d 上的 q_d·k_d 相加：查询和键符号相同的维度贡献正数，符号相反的贡献负数。符号一致的维度越多（数值越大），分数越大。"},
    "lesson.dot.ask": {"en": "Which will be larger: {q}·{k} or {q}·{o}?", "zh": "哪个会更大：{q}·{k} 还是 {q}·{o}？"},
    "lesson.dot.explain": {
        "en": "{win} wins. {q} and {k} agree in sign in {agree_k} of {d} dimensions, sum {s_k}; {q} and {o} in "
              "{agree_o} of {d}, sum {s_o}. The chart takes {q}·{k} apart, largest terms first.",
        "zh": "{win} 更大。{q} 和 {k} 在 {d} 个维度中有 {agree_k} 个符号一致，总和 {s_k}；{q} 和 {o} 有 {agree_o} 个，总和 {s_o}。"
              "图表把 {q}·{k} 拆开，最大的项在前。"},
    "lesson.dot.try": {"en": "On the full page, compare with a second key side by side.",
                       "zh": "在完整页面上，可以与第二个键并排比较。"},
    # 5
    "lesson.softmax.title": {"en": "5. Scale by √d_k, then softmax: weights that sum to 1",
                             "zh": "5. 除以 √d_k，再做 softmax：和为 1 的注意力权重"},
    "lesson.softmax.intro": {
        "en": "Each row of S is divided by √d_k = √{d} = {sqrt}, so that long vectors do not make the softmax too "
              "sharp; softmax then turns the row into weights between 0 and 1 that sum to 1: a row of A.",
        "zh": "S 的每一行除以 √d_k = √{d} = {sqrt}，以免长向量让 softmax 过于尖锐；然后 softmax 把这一行变成 0 到 1 之间、"
              "和为 1 的注意力权重：A 的一行。"},
    "lesson.softmax.ask": {"en": "Among the words (marker tokens such as [CLS], [SEP] and punctuation left out), "
                                 "which will {q} attend to most in this head?",
                           "zh": "在这些词中（不算 [CLS]、[SEP] 等标记词元和标点），这个头里 {q} 最关注哪个词？"},
    "lesson.softmax.sink": {
        "en": "Counting the markers too, {sink} takes {w_sink}, more than {k} ({w_k}): heads often park weight on such tokens (a "
              "“sink”); their value vectors are small, so they add little to the output (step 7, and the "
              "value-weighted view on Explore, show how little).",
        "zh": "若把标记词元也算上，{sink} 拿走了 {w_sink}，比 {k}（{w_k}）还多：注意力头常把权重停放在这类词元上（称为“汇点”）；"
              "它们的值向量很小，对输出贡献不大（第 7 步以及“探索”页的值加权视图会显示有多小）。"},
    "lesson.softmax.faint": {
        "en": "{k} comes first among the words, but with {w_k} it is not clearly above an even spread ({even} for each "
              "of the {n_keys} tokens): too little to say that {q} attends to {k} in this head.",
        "zh": "{k} 在这些词中排第一，但它的权重 {w_k} 并没有明显高于平均分配（{n_keys} 个词元各 {even}）："
              "不足以说明这个头里 {q} 在关注 {k}。"},
    "lesson.softmax.top": {
        "en": "{q} gives {top} the most weight among the words: {w_top} of its 1 (marker tokens and punctuation take "
              "{markers}).",
        "zh": "在所有词中，{q} 给 {top} 的注意力权重最大：总共 1 中的 {w_top}（标记词元和标点占 {markers}）。"},
    "lesson.softmax.holds": {
        "en": "As the article says: among the words, {q} attends to {k} most here ({w_k}, well above the even "
              "{even} of {n_keys} tokens).",
        "zh": "正如文章所说：在这些词中，{q} 在这里最关注 {k}（{w_k}，明显高于 {n_keys} 个词元平均分配的 {even}）。"},
    "lesson.softmax.fails": {
        "en": "The article's pattern does not hold in this head: {q} gives {k} only {w_k}, less than {top}.",
        "zh": "文章所说的规律在这个头中不成立：{q} 只给 {k} {w_k}，比 {top} 少。"},
    "lesson.softmax.offer": {
        "en": "The relevance finder's strongest head for {q} → {k} is layer {layer}, head {head} (weight {w}).",
        "zh": "相关性查找器找到的 {q} → {k} 最强的头是第 {layer} 层第 {head} 个头（权重 {w}）。"},
    "lesson.softmax.try": {"en": "Click another row of A and switch heads on the full page: every head reads "
                                 "the sentence its own way.",
                           "zh": "点击 A 的另一行，并在完整页面上切换头：每个头以自己的方式读句子。"},
    # 6
    "lesson.temperature.title": {"en": "6. Temperature: sharper or flatter weights", "zh": "6. 温度：更尖锐或更平坦的权重"},
    "lesson.temperature.intro": {
        "en": "Divide the scaled scores by a temperature T before the softmax: T below 1 sharpens the weights "
              "toward the highest score, T above 1 flattens them toward equal. The model itself uses T = 1.",
        "zh": "在 softmax 之前把缩放后的分数再除以温度 T：T 小于 1 让权重向最高分集中，T 大于 1 让权重趋于平均。模型本身使用 T = 1。"},
    "lesson.temperature.ask": {"en": "At temperature {t}, will the weight {q} → {k} (now {w}) go up or down?",
                               "zh": "在温度 {t} 下，{q} → {k} 的权重（现在是 {w}）会上升还是下降？"},
    "lesson.temperature.up": {"en": "up", "zh": "上升"},
    "lesson.temperature.down": {"en": "down", "zh": "下降"},
    "lesson.temperature.went_up": {
        "en": "It goes up, from {before} to {after} at T = {t}: {k} is among the keys that already score highest "
              "for {q}, and a lower temperature gives them more.",
        "zh": "它上升了，在 T = {t} 时从 {before} 变为 {after}：{k} 本来就是 {q} 得分最高的键之一，温度降低会给它们更多权重。"},
    "lesson.temperature.went_down": {
        "en": "It goes down, from {before} to {after} at T = {t}: other keys score higher for {q}, and a lower "
              "temperature moves weight toward them.",
        "zh": "它下降了，在 T = {t} 时从 {before} 变为 {after}：对 {q} 来说别的键得分更高，温度降低会把权重移向它们。"},
    "lesson.temperature.try": {"en": "Move the slider: the dark bars are the weights at your temperature, the pale "
                                     "ones the model's.",
                               "zh": "拖动滑块：深色柱是你设定温度下的权重，浅色柱是模型的权重。"},
    # 7
    "lesson.sum.title": {"en": "7. Z = A·V: a weighted sum of value vectors", "zh": "7. Z = A·V：值向量的加权和"},
    "lesson.sum.body": {
        "en": "Each word's output is a weighted sum of every word's value vector ({d} numbers), each multiplied by "
              "its weight in A. For {q} the largest parts come from {parts}.",
        "zh": "每个词的输出是所有词的值向量（{d} 个数）的加权和，每个值向量乘以它在 A 中的注意力权重。对 {q} 来说，最大的部分来自{parts}。"},
    "lesson.sum.part": {"en": "{w} ({share} of the total size, weight {weight})",
                        "zh": "{w}（占总大小的 {share}，权重 {weight}）"},
    "lesson.sum.try": {"en": "The black line is the row of Z: the coloured bars add up to it.",
                       "zh": "黑线是 Z 的这一行：彩色柱加起来就是它。"},
    # 8
    "lesson.training.title": {"en": "8. Does training move related words into alignment?", "zh": "8. 训练会让相关的词对齐吗？"},
    "lesson.training.intro": {
        "en": "The weights W_Q, W_K, W_V are learned: training turns them so that the query of a word lines up with "
              "the keys of the words it needs. Our small English→Spanish translator was saved at several steps of "
              "its training; here the same words go through every saved copy.",
        "zh": "W_Q、W_K、W_V 是学习得到的：训练会调整它们，使一个词的查询与它需要的词的键对齐。我们的小型英译西翻译器在训练中保存了若干份；"
              "这里同样的词经过每一份保存的模型。"},
    "lesson.training.body": {
        "en": "{n} snapshots from the start of training (random weights) to step {last}, on {sentence} as the "
              "translator reads it. We follow the weight {q} gives {k}, against the weight it gives {o}, in the "
              "encoder's layer {layer}, head {head} (where {q} → {k} ends strongest):",
        "zh": "从训练开始（随机权重）到第 {last} 步共 {n} 个快照，句子为翻译模型读到的 {sentence}。我们跟踪 {q} 给 {k} 的权重，"
              "并与它给 {o} 的权重比较，位置是编码器第 {layer} 层第 {head} 个头（{q} → {k} 最终最强的地方）："},
    "lesson.training.other_changed": {
        "en": "Step 4 compared with {before}; the translator reads the sentence in its own words, so here the "
              "comparison word is {o}.",
        "zh": "第 4 步比较的是 {before}；翻译模型用自己的词表读这句话，所以这里比较的词是 {o}。"},
    "lesson.training.no_pair": {
        "en": "Of this sentence the translator knows only {words}: too few words to follow a query with a related "
              "and an unrelated key, so this step draws no curve. Try “The black cat drank the milk.” above.",
        "zh": "这句话中翻译模型只认识 {words}：词太少，无法跟踪一个查询词与一个相关键、一个无关键，所以这一步不画曲线。"
              "请在上面试试 “The black cat drank the milk.”。"},
    "lesson.training.unknown": {
        "en": "Words the translator does not know are read as <unk>: it sees them all as the same unknown word.",
        "zh": "翻译模型不认识的词按 <unk> 读取：它把这些词都看作同一个未知词。"},
    "lesson.training.learned": {"en": "Here training did what the article says: {q} came to prefer {k}.",
                                "zh": "在这里训练做到了文章所说的：{q} 逐渐偏向 {k}。"},
    "lesson.training.not_learned": {
        "en": "So here the data do not show the article's claim: training did not widen {q}'s lead for {k} over {o} "
              "beyond what random initialisation gave (this small translator's encoder learns little of it; its "
              "cross-attention learns alignment strongly).",
        "zh": "所以这里的数据并不支持文章的说法：与随机初始化相比，训练并没有扩大 {q} 对 {k} 相对于 {o} 的偏好（这个小翻译器的编码器学到的很少；"
              "它的交叉注意力则学到了很强的对齐）。"},
    "lesson.training.try": {"en": "On the full page, ▶ Play steps through training.",
                            "zh": "在完整页面上，▶ 播放可以逐步查看训练过程。"},
    # 9
    "lesson.three.title": {"en": "9. Three places attention lives in a translator", "zh": "9. 翻译器中注意力的三个位置"},
    "lesson.three.intro": {
        "en": "A translator uses attention three times: the encoder's self-attention (the English words read each "
              "other), the decoder's masked self-attention (a Spanish word may read only the words already written: "
              "the mask hides the future) and encoder–decoder cross-attention (each word being written reads the "
              "English words).",
        "zh": "翻译器使用三次注意力：编码器自注意力（英文词彼此读取）、解码器带掩码的自注意力（一个西班牙语词只能读取已经写出的词："
              "掩码遮住未来）以及编码器–解码器交叉注意力（每个正在写的词读取英文词）。"},
    "lesson.three.body": {
        "en": "The encoder reads {src}; the decoder writes {out}. This translator has {enc} encoder layers, {dec} "
              "masked decoder layers and {cross} cross-attention layers.",
        "zh": "编码器读取 {src}；解码器写出 {out}。这个翻译器有 {enc} 层编码器、{dec} 层带掩码的解码器和 {cross} 层交叉注意力。"},
    "lesson.three.ask": {"en": "When the decoder writes {w}, can it look at {k}?",
                         "zh": "解码器写 {w} 时，能看到 {k} 吗？"},
    "lesson.three.hidden": {
        "en": "No: {k} is not written yet when {w} is, so the mask adds −∞ to that score before the softmax and its "
              "weight is exactly {weight} (the grey cells).",
        "zh": "不能：写 {w} 时 {k} 还没有写出，所以掩码在 softmax 之前给这个分数加上 −∞，它的权重正好是 {weight}（灰色单元格）。"},
    "lesson.three.open": {"en": "Yes: {k} is already written when {w} is; its weight is {weight}.",
                          "zh": "能：写 {w} 时 {k} 已经写出；它的权重是 {weight}。"},
    "lesson.three.chart": {"en": "Decoder self-attention (masked), head 0: written ▸ word", "zh": "解码器自注意力（带掩码），第 0 个头：输入 ▸ 输出"},
    "lesson.three.try": {"en": "Type another English sentence in the box above.", "zh": "在上面的框中输入另一个英文句子。"},
    # 10
    "lesson.cross.title": {"en": "10. Cross-attention: which English word each Spanish word reads",
                           "zh": "10. 交叉注意力：每个西班牙语词读取哪个英文词"},
    "lesson.cross.intro": {"en": "The translator wrote {out}. In cross-attention the queries are the words being "
                                 "written and the keys and values are the English words.",
                           "zh": "翻译器写出了 {out}。在交叉注意力中，查询是正在写的词，键和值是英文词。"},
    "lesson.cross.ask": {"en": "Which English word does {w} read?", "zh": "{w} 读取的是哪个英文词？"},
    "lesson.cross.explain": {
        "en": "{w} reads {s}: averaged over the {heads} heads of cross-attention layer {layer}, it gives {s} {weight} "
              "of its weight.",
        "zh": "{w} 读取的是 {s}：在交叉注意力第 {layer} 层的 {heads} 个头上平均，它把 {weight} 的权重给了 {s}。"},
    "lesson.cross.chart": {"en": "Cross-attention, layer {layer}, mean of the heads", "zh": "交叉注意力，第 {layer} 层，各头平均"},
    "lesson.guesses": {
        "en": "The translator was unsure of {words} (its probability below {floor}): read these words as guesses, "
              "not as Spanish it knows.",
        "zh": "翻译模型对 {words} 没有把握（概率低于 {floor}）：这些词只是猜测，不是它真正掌握的西班牙语。"},
    "lesson.cross.try": {"en": "Try “The black cat drank the milk.”: does “leche” read “milk”?",
                         "zh": "试试 “The black cat drank the milk.”：“leche” 读取的是 “milk” 吗？"},
    # the lesson on any model folder: what a model without an encoder, or without q, k, v, can show
    "lesson.kind.decoder": {
        "en": "{model} has no encoder: the lesson follows its decoder's masked self-attention, where each word sees "
              "only itself and the words before it (the mask hides the later ones).",
        "zh": "{model} 没有编码器：课程跟随它的解码器的带掩码自注意力，每个词只能看到它自己和它之前的词（掩码遮住后面的词）。"},
    "lesson.kind.none": {
        "en": "{model} has no self-attention the lesson can follow: neither an encoder nor a decoder reads the "
              "sentence.",
        "zh": "{model} 没有课程可以跟随的自注意力：既没有编码器也没有解码器读取这个句子。"},
    "lesson.kind.blocked_title": {"en": "Step {i} cannot be shown on {model}", "zh": "第 {i} 步无法在 {model} 上展示"},
    "lesson.kind.no_qkv": {
        "en": "This step reads the queries, keys and values of the attention (or S = Q·Kᵀ made from them), and {model} "
              "does not hand them over: only its attention weights A can be read.",
        "zh": "这一步要读取注意力的查询、键和值（或由它们得到的 S = Q·Kᵀ），而 {model} 不提供它们：只能读出它的注意力权重 A。"},
    "lesson.kind.use_default": {"en": "Show the lesson on the default model ({model})",
                                "zh": "在默认模型（{model}）上展示课程"},
}
