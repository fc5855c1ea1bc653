"""How a model's attention was captured, and what the trace cannot show (Trace and Site typed fields)."""

STRINGS: dict[str, dict[str, str]] = {
    # Trace.capture_path
    "capture.registry": {
        "en": "Captured from the attention function: Query, Key and Value taken through transformers' "
              "attention-function registry, exactly what the model's attention received.",
        "zh": "从注意力函数捕获：查询、键和值通过 transformers 的注意力函数注册表取得，正是模型的注意力实际收到的数值。",
    },
    "capture.recorder": {
        "en": "Query, Key and Value recorded by the translator's own attention layers as it computed them.",
        "zh": "查询、键和值由翻译模型自己的注意力层在计算时记录。",
    },
    "capture.recomputed": {
        "en": "Weights from the model, q·k recomputed from its projections: the attention weights are the model's "
              "own (eager attention), and Query, Key and Value were read from its projection layers; every "
              "recomputed S, A and Z matches the model's own weights and output.",
        "zh": "权重来自模型，q·k 由其投影层重新计算：注意力权重是模型自身的（eager 注意力），查询、键和值从其投影层读出；"
              "每个重新计算的 S、A 和 Z 都与模型自身的权重和输出一致。",
    },
    "capture.weights": {
        "en": "Weights only for some or all attention: the weights are the model's own (eager attention), but where "
              "Query and Key could not be read faithfully, S and Z are not shown.",
        "zh": "部分或全部注意力只有权重：权重是模型自身的（eager 注意力），但在无法如实读出查询和键的地方，不显示 S 和 Z。",
    },
    # Trace.fallback
    "fallback.rejects_name": {
        "en": "This model family picks its attention class from its own table and refuses a custom attention "
              "function, so it was loaded with eager attention instead.",
        "zh": "该模型家族从自己的表中选择注意力类，不接受自定义的注意力函数，因此改用 eager 注意力加载。",
    },
    "fallback.bypasses_registry": {
        "en": "This model family computes attention inside its own layers without calling transformers' attention "
              "function, so it was loaded with eager attention instead.",
        "zh": "该模型家族在自己的层内部计算注意力，不调用 transformers 的注意力函数，因此改用 eager 注意力加载。",
    },
    "fallback.unread_arguments": {
        "en": "This model family hands its attention function extra inputs (e.g. a learned sink per token) that "
              "the captured attention does not apply, so it was loaded with eager attention instead.",
        "zh": "该模型家族向注意力函数传入额外的输入（例如每个词元一个学习到的汇），而捕获用的注意力不使用它们，"
              "因此改用 eager 注意力加载。",
    },
    # Site.missing_qkv: why S and Z are not available for a site
    "missing_qkv.title": {
        "en": "S = Q·Kᵀ and Z = A·V are not available for this attention; A below is the model's own weights.",
        "zh": "此注意力无法提供 S = Q·Kᵀ 和 Z = A·V；下方的 A 是模型自身的注意力权重。",
    },
    "missing_qkv.disentangled": {
        "en": "Why: this family uses disentangled attention (DeBERTa): each score adds content-to-position and "
              "position-to-content terms computed inside the layer, so there is no single Q·Kᵀ to show.",
        "zh": "原因：该模型家族使用解耦注意力（DeBERTa）：每个分数都加上在层内部计算的内容到位置、位置到内容两项，"
              "因此没有单一的 Q·Kᵀ 可以展示。",
    },
    "missing_qkv.local": {
        "en": "Why: this layer's Longformer-style local attention gives some words global attention, which takes "
              "another route through the layer than the local band we can rebuild.",
        "zh": "原因：该层的 Longformer 式局部注意力让部分词使用全局注意力，这部分在层内走另一条计算路径，"
              "不是我们能够重建的局部窗口。",
    },
    "missing_qkv.not_reproduced": {
        "en": "Why: Query, Key and Value read from this layer's projections did not reproduce the model's own "
              "weights to 1e-5, so nothing recomputed from them is shown.",
        "zh": "原因：从该层投影读出的查询、键和值未能在 1e-5 以内重现模型自身的权重，因此不显示由它们重新计算的任何数值。",
    },
    "missing_qkv.unknown": {
        "en": "Why: this family computes attention inside its own layers, and there is no way here to read its "
              "Query and Key faithfully.",
        "zh": "原因：该模型家族在自己的层内部计算注意力，这里无法如实读出它的查询和键。",
    },
    "missing_qkv.explain": {
        "en": "This step needs Query, Key and Value, which are not available for this attention.",
        "zh": "这一步需要查询、键和值，而此注意力无法提供它们。",
    },
    # Trace.site_problems: counting the sites against the model's config
    "problem.missing": {
        "en": "Not captured: {kind} of layer(s) {layers}. The model has them, but they are not shown, so this "
              "trace is incomplete.",
        "zh": "未捕获：第 {layers} 层的{kind}。模型中有这些注意力，但没有显示，因此此追踪不完整。",
    },
    "problem.extra": {
        "en": "Captured more than the model has: {kind} of layer(s) {layers} is not in the model's configuration.",
        "zh": "捕获的多于模型所有：第 {layers} 层的{kind}不在模型的配置中。",
    },
    "problem.mislabelled": {
        "en": "Mislabelled: {kind} of layer(s) {layers} does not match the model's layers, so layer numbers here "
              "may be wrong.",
        "zh": "标注有误：第 {layers} 层的{kind}与模型的层不符，因此这里的层号可能有误。",
    },
    "problem.wrong_kind": {
        "en": "Wrong kind: layer(s) {layers} were labelled {kind}, which this model does not have, so the kind of "
              "attention shown here may be wrong.",
        "zh": "类型有误：第 {layers} 层被标为{kind}，而该模型没有这种注意力，因此这里显示的注意力类型可能有误。",
    },
    "problem.no_attention": {
        "en": "This model has no attention layers (it mixes tokens another way, e.g. a Fourier transform or a "
              "state-space recurrence), so there is no attention to show.",
        "zh": "该模型没有注意力层（它用其他方式混合词元，例如傅里叶变换或状态空间递推），因此没有可以显示的注意力。",
    },
    "problem.refused_rows": {
        "en": "Not drawn: {kind} of layer(s) {layers}. The weights this model returns there have rows that do not "
              "sum to 1 (e.g. block-sparse attention written into a full matrix), so they are not a faithful "
              "picture of its attention.",
        "zh": "未绘制：第 {layers} 层的{kind}。该模型在这里返回的权重有些行之和不为 1（例如块稀疏注意力被写入完整矩阵），"
              "因此不能如实反映它的注意力。",
    },
    "problem.refused_negative": {
        "en": "Not drawn: {kind} of layer(s) {layers}. The weights this model returns there have negative entries "
              "(scores before the softmax, not attention weights), so they are not shown as attention.",
        "zh": "未绘制：第 {layers} 层的{kind}。该模型在这里返回的权重含有负数（是 softmax 之前的分数，而不是注意力权重），"
              "因此不作为注意力显示。",
    },
    "problem.refused_shape": {
        "en": "Not drawn: {kind} of layer(s) {layers}. The weights this model returns there do not have one row per "
              "query token and one column per key token (e.g. several query streams stacked on one axis), so "
              "they cannot be matched to the words.",
        "zh": "未绘制：第 {layers} 层的{kind}。该模型在这里返回的权重不是每个查询词元一行、每个键词元一列"
              "（例如多个查询流叠在同一轴上），因此无法与词对应。",
    },
    "problem.refused_layout": {
        "en": "Not drawn: {kind} of layer(s) {layers}. This model returns those weights in another layout (bucketed "
              "or chunked attention in five dimensions, or global and local weights apart) with no exact "
              "token-by-token form, so they are not drawn.",
        "zh": "未绘制：第 {layers} 层的{kind}。该模型以另一种布局返回这些权重（五维的分桶或分块注意力，或分开的全局与局部权重），"
              "没有精确的逐词元形式，因此不绘制。",
    },
    "problem.refused_calls": {
        "en": "Not drawn: {kind} of layer(s) {layers}. The layer calls its attention more than once with different "
              "weights, so no single matrix is that layer's attention.",
        "zh": "未绘制：第 {layers} 层的{kind}。该层多次调用注意力且权重各不相同，因此没有单一的矩阵能代表该层的注意力。",
    },
    "relevance.no_scores": {
        "en": "For some attention of this model only the weights are available: their raw score q·k is left "
              "empty, and those heads come last when ranking by score.",
        "zh": "该模型的部分注意力只有权重：它们的原始分数 q·k 留空，按分数排序时这些头排在最后。",
    },
    # Site.sinks
    "sink.note": {
        "en": "This model has attention sinks: an extra learned logit per head takes a share of each row's weight "
              "and adds nothing to Z, so a row of A sums to less than 1. Sink's share for this head: {share} on "
              "average, up to {most}.",
        "zh": "该模型有注意力汇（sink）：每个头额外有一个学习到的 logit，分走每一行的一部分权重，却不给 Z 增加任何内容，"
              "因此 A 的每一行之和小于 1。此头中汇所占份额：平均 {share}，最多 {most}。",
    },
}
