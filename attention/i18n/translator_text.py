"""The Translate and Learning pages (the built-in translator)."""

STRINGS: dict[str, dict[str, str]] = {
    # the Translate page
    "page.translate": {"en": "Translate", "zh": "翻译"},
    "translate.title": {"en": "Attention in a translator", "zh": "翻译模型中的注意力"},
    "translate.explain": {
        "en": "Our own small English→Spanish transformer, trained by the script in this repository. Attention "
              "lives in three places: the English words attend to each other (encoder), each Spanish word attends "
              "to the Spanish words before it (decoder, the future is masked), and each Spanish word attends to "
              "the English words (cross-attention) — that is where a word finds what it translates.",
        "zh": "这是我们自己训练的小型英译西 Transformer（训练脚本在本仓库中）。注意力出现在三个地方：英文词彼此关注（编码器），"
              "每个西班牙文词关注它之前的西班牙文词（解码器，未来的词被掩码遮住），以及每个西班牙文词关注英文词"
              "（交叉注意力）——一个词正是在这里找到它所翻译的原词。",
    },
    "translate.input": {"en": "English sentence", "zh": "英文句子"},
    "translate.output": {"en": "Spanish (greedy, one word at a time):", "zh": "西班牙文（贪心解码，逐词生成）："},
    "translate.unknown": {
        "en": "Not in the vocabulary, read as <unk>: {words}",
        "zh": "不在词表中，按 <unk> 处理：{words}",
    },
    "translate.probs": {"en": "How sure the model was of each word:", "zh": "模型对每个词的把握："},
    "translate.probs_note": {
        "en": "Each number is the probability the model's softmax gave the word it wrote at that position. ⚠ marks "
              "a word under {low}: a guess. On sentences like its training sentences every word gets over 0.99.",
        "zh": "每个数字是模型的 softmax 在该位置给它所写的词的概率。⚠ 表示低于 {low} 的词：这是猜测。"
              "对于与训练句子相似的句子，每个词的概率都在 0.99 以上。",
    },
    "translate.outside": {
        "en": "This sentence lies outside what the translator was trained on, so treat the translation as a guess:",
        "zh": "这句话超出了翻译模型的训练范围，请把译文当作猜测：",
    },
    "translate.off_pattern": {
        "en": "Its shape is none of the four patterns the training grammar writes (“the ball is blue”, “the cat "
              "drank the milk”, “the dogs sleep”, “the book is on the table”, each with an optional “not”).",
        "zh": "它的句型不属于训练语法生成的四种句型（“the ball is blue”、“the cat drank the milk”、“the dogs sleep”、"
              "“the book is on the table”，均可带 “not”）。",
    },
    "translate.skipped": {
        "en": "Left out of the input, punctuation the translator never saw: {marks}",
        "zh": "已从输入中略去翻译模型从未见过的标点：{marks}",
    },
    "translate.rows": {
        "en": "Decoder rows are labelled by the word each position reads, then ▸ the word it writes: “la ▸ bola” is "
              "the position that reads “la” and writes “bola”. The only arrow, → in a pair, points from a query to "
              "the key it looks at.",
        "zh": "解码器的行先写该位置读入的词，再用 ▸ 接它写出的词：“la ▸ bola” 表示读入 “la”、写出 “bola” 的位置。"
              "唯一的箭头是词对中的 →，从查询指向它所关注的键。",
    },
    "translate.vocab": {"en": "Browse the vocabulary ({n} English words)", "zh": "浏览词表（{n} 个英文词）"},
    "translate.search": {"en": "Search", "zh": "搜索"},
    "translate.unavailable": {"en": "The built-in translator's weights are missing: {error}",
                              "zh": "缺少内置翻译模型的权重：{error}"},
    "translate.nothing": {"en": "Type an English sentence to translate.", "zh": "请输入要翻译的英文句子。"},
    # the Learning page
    "page.learning": {"en": "Learning", "zh": "学习过程"},
    "learning.title": {"en": "Watch attention being learned", "zh": "观察注意力如何被学会"},
    "learning.explain": {
        "en": "Nothing in attention is designed by hand. The embeddings and W_Q, W_K, W_V start random and are "
              "changed a little at every training step so that the translation gets better. Move the slider "
              "through the snapshots saved while our translator trained: the same words, the same head, at "
              "each step. If training pulls a query and a key into alignment, their score q·k and the cosine of "
              "the angle between them rise; the curves below show whether that happened, pair by pair.",
        "zh": "注意力中没有任何东西是人工设计的。词嵌入和 W_Q、W_K、W_V 一开始是随机的，每一步训练都会稍作调整，让翻译更好。"
              "拖动滑块浏览翻译模型训练时保存的快照：同样的词、同一个头、在不同的训练步。如果训练让一个查询和一个键彼此对齐，"
              "它们的分数 q·k 以及夹角余弦就会上升；下面的曲线逐对展示是否真的如此。",
    },
    "learning.tracing": {"en": "Tracing every training snapshot…", "zh": "正在追踪每一个训练快照…"},
    "learning.measuring": {"en": "Measuring alignment at every snapshot…", "zh": "正在测量每个快照的对齐程度…"},
    "learning.step": {"en": "Training step", "zh": "训练步"},
    "learning.at_step": {"en": "step {step}", "zh": "第 {step} 步"},
    "learning.play": {"en": "▶ Play", "zh": "▶ 播放"},
    "learning.pause": {"en": "⏸ Pause", "zh": "⏸ 暂停"},
    "learning.target": {"en": "Every snapshot reads the same Spanish words: {target}",
                        "zh": "每个快照都读入同样的西班牙文词：{target}"},
    "learning.pairs": {"en": "Related and unrelated pairs over training", "zh": "相关词对与无关词对在训练中的变化"},
    "learning.query": {"en": "Query word", "zh": "查询词"},
    "learning.related": {"en": "Related key", "zh": "相关的键"},
    "learning.unrelated": {"en": "Unrelated key", "zh": "无关的键"},
    "learning.score": {"en": "raw score q·k", "zh": "原始分数 q·k"},
    "learning.weight": {"en": "weight", "zh": "权重"},
    "learning.cosine": {"en": "cosine of the angle between q and k", "zh": "q 与 k 夹角的余弦"},
    "learning.loss": {"en": "Training loss", "zh": "训练损失"},
    "learning.loss_axis": {"en": "cross-entropy", "zh": "交叉熵"},
    "learning.loss_curve": {"en": "loss", "zh": "损失"},
    "learning.lead.related": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: {a} ends ahead, with {ratio}× {b}'s "
              "weight.",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：{a} 最终领先，权重是 {b} 的 {ratio} 倍。",
    },
    "learning.lead.unrelated": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: {b} ends ahead, with {ratio}× {a}'s "
              "weight.",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：{b} 最终领先，权重是 {a} 的 {ratio} 倍。",
    },
    "learning.lead.related_far": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: {a} ends far ahead (more than 100× "
              "{b}'s weight).",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：{a} 最终遥遥领先（超过 {b} 的 100 倍）。",
    },
    "learning.lead.unrelated_far": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: {b} ends far ahead (more than 100× "
              "{a}'s weight).",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：{b} 最终遥遥领先（超过 {a} 的 100 倍）。",
    },
    "learning.lead.level": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: about the same.",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：两者差不多。",
    },
    "learning.lead.neither": {
        "en": "At the last step, {q} gives {a} {wa} of its weight and {b} {wb}: neither reaches {bar}, 1.5 × the "
              "{even} each of {n} words would get from an even spread, so neither clearly leads.",
        "zh": "在最后一步，{q} 把 {wa} 的权重给了 {a}，把 {wb} 给了 {b}：两者都没有达到 {bar}（{n} 个词平均分配时每个词 "
              "{even} 的 1.5 倍），所以谁也不明显领先。",
    },
    "learning.trend.grew": {
        "en": "At the start of training (random weights, the curves' left end) they were {wa0} and {wb0}: training widened the gap.",
        "zh": "训练开始时（随机权重，曲线的最左端）它们分别是 {wa0} 和 {wb0}：训练拉大了差距。",
    },
    "learning.trend.narrowed": {
        "en": "At the start of training (random weights, the curves' left end) they were {wa0} and {wb0}: training narrowed the gap.",
        "zh": "训练开始时（随机权重，曲线的最左端）它们分别是 {wa0} 和 {wb0}：训练缩小了差距。",
    },
    "learning.trend.steady": {
        "en": "At the start of training (random weights, the curves' left end) they were {wa0} and {wb0}: the gap barely changed.",
        "zh": "训练开始时（随机权重，曲线的最左端）它们分别是 {wa0} 和 {wb0}：差距几乎没变。",
    },
    "learning.trend.overtook": {
        "en": "At the start of training (random weights, the curves' left end) they were {wa0} and {wb0}: training changed which one leads.",
        "zh": "训练开始时（随机权重，曲线的最左端）它们分别是 {wa0} 和 {wb0}：训练改变了领先的一方。",
    },
    "learning.summary": {
        "en": "Over all {heads} heads of this kind, {a} ends clearly ahead of {b} in {n}. The largest weight {q} gives "
              "{a} in any of them is {max} (a share of 1).",
        "zh": "在这类注意力的全部 {heads} 个头中，有 {n} 个头里 {a} 最终明显领先于 {b}。在这些头中，{q} 给 {a} 的最大权重是 "
              "{max}（占 1 的份额）。",
    },
    "learning.finding": {
        "en": "The honest finding: in this small translator the encoder learns little preference between English "
              "words (milk→drank is hardly favoured over milk→black; translating these sentences does not need it), "
              "while cross-attention learns alignment strongly — each Spanish word comes to look at the English word "
              "it translates (choose “cross-attention” above, and see the alignment curve).",
        "zh": "实事求是的结论：在这个小型翻译模型中，编码器几乎没有学到英文词之间的偏好（milk→drank 并不比 milk→black "
              "明显更受青睐；翻译这些句子并不需要它），而交叉注意力则牢牢学会了对齐——每个西班牙文词都学会关注它所翻译的"
              "英文词（在上方选择“交叉注意力”，并查看对齐曲线）。",
    },
    "learning.alignment": {"en": "Cross-attention alignment over training", "zh": "交叉注意力对齐率随训练的变化"},
    "learning.alignment_explain": {
        "en": "For each decoder layer and head: the share of Spanish words (300 held-out test sentences) whose "
              "strongest cross-attention falls on the English word they translate.",
        "zh": "对每个解码器层和头：在 300 个留出测试句中，最强交叉注意力落在其所翻译英文词上的西班牙文词所占比例。",
    },
    "learning.share": {"en": "share aligned", "zh": "对齐比例"},
    "learning.roles": {"en": "Head roles over training", "zh": "注意力头的角色随训练的变化"},
    "learning.roles_show": {"en": "Measure when each head role appears (every snapshot, on the roles probe)",
                            "zh": "测量每种注意力头角色何时出现（每个快照，在角色探针上）"},
    "learning.roles_measuring": {"en": "Measuring every head's roles at this snapshot…",
                                 "zh": "正在测量此快照中每个注意力头的角色…"},
    "learning.roles_rule": {
        "en": "A role appears at the first step from which its best head stays at or above a bar — {times:g}× the "
              "score of an even spread and at least {gap} above it — and above the untrained model's best head, "
              "for at least {hold} snapshots through the last one. Distance and breadth have no key to be above an "
              "even spread on, so they are not judged here.",
        "zh": "某个角色“出现”于这样的第一步：从这一步起，得分最高的注意力头一直不低于一条门槛——均匀分布得分的 {times:g} 倍，"
              "且至少高出 {gap}——并且高于未训练模型中得分最高的注意力头，至少连续 {hold} 个快照直到最后一个。"
              "距离和广泛度没有可以“高于均匀分布”的键，因此这里不作判断。",
    },
    "learning.roles_appears": {
        "en": "**{role}** appears at step **{step}**: from then on the best head stays at or above {bar:.2f} (an even "
              "spread scores {even:.2f}). At the last step the best is layer {layer}, head {head}; {count} of "
              "{total} heads are above the bar.",
        "zh": "**{role}** 出现在第 **{step}** 步：从那以后，得分最高的注意力头一直不低于 {bar:.2f}（均匀分布的得分为 "
              "{even:.2f}）。最后一步得分最高的是第 {layer} 层第 {head} 个头；{total} 个头中有 {count} 个高于门槛。",
    },
    "learning.roles_never": {
        "en": "**{role}** never appears: the best head ends at {last:.2f}, and does not stay above both the bar of "
              "{bar:.2f} (an even spread scores {even:.2f}) and the untrained model's best, {first:.2f}.",
        "zh": "**{role}** 从未出现：得分最高的注意力头最后为 {last:.2f}，没有一直同时高于 {bar:.2f} 的门槛"
              "（均匀分布的得分为 {even:.2f}）和未训练模型的最高分 {first:.2f}。",
    },
    "learning.roles_from_start": {
        "en": "**{role}** is above the bar of {bar:.2f} at every snapshot, the untrained one included: it was there "
              "before training, not learned.",
        "zh": "**{role}** 在每个快照（包括未训练的那个）都高于 {bar:.2f} 的门槛：它在训练之前就存在，并非学会的。",
    },
    "learning.roles_chart": {"en": "{kind}: the best head's score of each role", "zh": "{kind}：每种角色的最高得分"},
    "learning.roles_best": {"en": "best head's score", "zh": "最高得分"},
    "learning.roles_bar": {"en": "{role}: bar", "zh": "{role}：门槛"},
}
