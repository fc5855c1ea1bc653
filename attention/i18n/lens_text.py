"""The Write page's logit lens and attention-sink sections."""

STRINGS: dict[str, dict[str, str]] = {
    "lens.show": {"en": "Read every layer (one more pass over the text)", "zh": "读出每一层（需再对文本运行一遍）"},
    "lens.title": {"en": "Logit lens: what each layer would predict", "zh": "逻辑透镜（logit lens）：每一层会预测什么"},
    "lens.explain": {
        "en": "Each layer adds to the newest token's residual stream. Sending that stream, as it stands after a "
              "layer, through the model's own final norm and its unembedding gives the word the model would "
              "choose if it stopped there (nostalgebraist, 2020). The last row is the model's real output "
              "(temperature 1, before top-k and top-p).",
        "zh": "每一层都会往最新词元的残差流里加入信息。把某一层之后的残差流送入模型自己的最终归一化和反嵌入（unembedding），"
              "就得到模型如果在这一层停下会选的词（nostalgebraist，2020）。最后一行就是模型真正的输出"
              "（温度 1，未经 top-k 与 top-p）。"},
    "lens.position": {"en": "Position {pos}: after “{token}”.", "zh": "位置 {pos}：在“{token}”之后。"},
    "lens.col_layer": {"en": "Layer", "zh": "层"},
    "lens.col_top": {"en": "Top token", "zh": "最可能的词元"},
    "lens.col_p": {"en": "Probability", "zh": "概率"},
    "lens.col_final": {"en": "p(“{token}”)", "zh": "p（“{token}”）"},
    "lens.col_next": {"en": "Runners-up", "zh": "其后几位"},
    "lens.embedding": {"en": "embedding", "zh": "嵌入"},
    "lens.output": {"en": "{layer} = output", "zh": "{layer} = 输出"},
    "lens.settles": {
        "en": "The top token is the output's “{token}” from layer {layer} on.",
        "zh": "从第 {layer} 层起，最可能的词元就是输出的“{token}”。"},
    "lens.settles_embedding": {
        "en": "The top token is the output's “{token}” in every row, the embedding included.",
        "zh": "包括嵌入在内，每一行最可能的词元都是输出的“{token}”。"},
    "lens.embedding_self": {
        "en": "The embedding row names the current token itself (“{token}”, {p}): SmolLM2 reads its output through "
              "the same matrix that embedded the tokens (tied embeddings), so a token's own vector scores highest "
              "against itself. That row is not a prediction; predictions start after the first layer.",
        "zh": "嵌入这一行给出的是当前词元本身（“{token}”，{p}）：SmolLM2 用嵌入词元的同一个矩阵来读出输出（权重共享），"
              "所以词元自己的向量和自己最相似。这一行不是预测；预测从第一层之后才开始。"},
    "lens.rise_fall": {
        "en": "“{token}” rises to {p} at layer {layer} and later falls to {low}. The lens reads every layer through "
              "the final norm and unembedding, which the model only applies after its last layer; a middle layer "
              "was never trained to be read that way, so a peak there is a reading of the stream, not a choice the "
              "model made and took back. Later layers keep adding to the stream and move it elsewhere.",
        "zh": "“{token}”在第 {layer} 层升到 {p}，之后又降到 {low}。透镜用最终归一化和反嵌入来读每一层，而模型只在最后一层之后"
              "才这样做；中间层从未被训练成可以这样读，所以那里的峰值只是对残差流的一种读法，并不是模型做出又收回的选择。"
              "后面的层继续往残差流里加入信息，把它推向别处。"},
    "lens.pick": {"en": "Layer to open in the head view", "zh": "在注意力头视图中打开的层"},
    "lens.open": {"en": "Show this layer's heads", "zh": "显示这一层的注意力头"},
    "lens.failed": {"en": "The logit lens could not be computed: {error}", "zh": "无法计算逻辑透镜：{error}"},
    "sinks.title": {"en": "Attention sinks: the first token", "zh": "注意力汇聚点（attention sink）：第一个词元"},
    "sinks.explain": {
        "en": "Many heads put much of their weight on the first token, whatever it is. StreamingLLM (Xiao et al., "
              "2023) calls it an attention sink: softmax must give its weight somewhere, and a head with nothing "
              "to read parks it there. Its value vector is often small, so its share of what the head actually "
              "adds (‖α·v‖, value-weighted) is lower than its weight. The table shows layer {layer} for the "
              "newest row (“{token}”); the first token is “{first}”.",
        "zh": "许多注意力头把大部分权重放在第一个词元上，不论它是什么。StreamingLLM（Xiao 等，2023）称之为注意力汇聚点："
              "softmax 必须把权重分给某处，没有东西可读的头就把权重停在那里。它的值向量往往很小，所以它在头真正加入的内容"
              "（‖α·v‖，按值加权）中的份额低于它的权重。表格显示第 {layer} 层最新一行（“{token}”）的情况；"
              "第一个词元是“{first}”。"},
    "sinks.col_head": {"en": "Head", "zh": "头"},
    "sinks.col_group": {"en": "K/V group", "zh": "键/值组"},
    "sinks.col_weight": {"en": "Weight on first token", "zh": "第一个词元的权重"},
    "sinks.col_vw": {"en": "Value-weighted share", "zh": "按值加权的份额"},
    "sinks.col_norm": {"en": "‖v first‖ / others'", "zh": "‖v 首个‖ / 其他"},
    "sinks.summary": {
        "en": "Layer {layer}: {sinks} of {heads} heads give the first token more than 0.3 of their weight; on "
              "average {w} of the weight but {vw} of the value-weighted share.",
        "zh": "第 {layer} 层：{heads} 个头中有 {sinks} 个给第一个词元超过 0.3 的权重；平均权重 {w}，"
              "但按值加权的份额只有 {vw}。"},
    "sinks.only_one": {"en": "The text is one token long: every head can only read it.",
                       "zh": "文字只有一个词元：每个头只能读它。"},
}
