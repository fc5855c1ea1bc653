"""The Write page's "Why this word" section."""

STRINGS: dict[str, dict[str, str]] = {
    "why.title": {"en": "Why this word", "zh": "为什么是这个词"},
    "why.explain": {
        "en": "Which heads and which words of the text the chosen next token depended on. Every head is switched "
              "off alone (its output set to zero) and the token's log-probability measured again; integrated "
              "gradients and gradient × input say how much each token of the text moved that log-probability.",
        "zh": "所选的下一个词元依赖于哪些注意力头、文本中的哪些词。每个头单独关闭（输出置零）后重新测量该词元的对数概率；"
              "积分梯度与梯度×输入说明文本中每个词元使该对数概率改变了多少。"},
    "why.button": {"en": "Explain {token} (tens of seconds: {heads} heads switched off one at a time)",
                   "zh": "解释 {token}（需要几十秒：逐个关闭 {heads} 个头）"},
    "why.progress_heads": {"en": "Heads switched off: {done} of {total} · {s} s so far",
                           "zh": "已关闭的头：{done} / {total} · 已用 {s} 秒"},
    "why.progress_gradients": {"en": "Every head done; integrating the gradients ({steps} points) · {s} s so far",
                               "zh": "所有头已完成；正在积分梯度（{steps} 个点）· 已用 {s} 秒"},
    "why.running": {"en": "Switching every head off, one at a time, and integrating the gradients…",
                    "zh": "正在逐个关闭每个头并积分梯度……"},
    "why.failed": {"en": "Could not explain this word: {error}", "zh": "无法解释这个词：{error}"},
    "why.for": {"en": "Why {token} comes next: log p = {lp} nats. {n} heads switched off one at a time in {s} s.",
                "zh": "为什么接下来是 {token}：log p = {lp} 奈特。{n} 个头逐个关闭，用时 {s} 秒。"},
    "why.heads": {"en": "The heads it depends on most (how its log p changes when the head alone is switched off); "
                        "choose one to show it in the head view above:",
                  "zh": "它最依赖的头（单独关闭该头时其 log p 的变化）；选择一个即可在上方的头视图中显示："},
    "why.head_option": {"en": "layer {layer}, head {head}: log p {change} nats",
                        "zh": "第 {layer} 层 第 {head} 头：log p {change} 奈特"},
    "why.no_heads": {"en": "No head matters for this word: switching any one head off changes its log-probability "
                           "by less than {floor} nats, so no ranking of heads is given.",
                     "zh": "没有哪个头对这个词重要：单独关闭任何一个头，其对数概率的变化都小于 {floor} 奈特，因此不给出头的排名。"},
    "why.chart_title": {"en": "Each token's share in log p of the next token", "zh": "每个词元在下一个词元的 log p 中的贡献"},
    "why.chart_x": {"en": "attribution (nats)", "zh": "归因（奈特）"},
    "why.ig": {"en": "integrated gradients", "zh": "积分梯度"},
    "why.gxi": {"en": "gradient × input", "zh": "梯度×输入"},
    "why.gap": {"en": "Integrated gradients in {steps} steps from a baseline x′ that keeps the first token (most heads "
                      "rest their weight on it) and puts the vocabulary's mean embedding at every other position, so "
                      "the first token's integrated-gradients share is 0 by construction (gradient × input has no "
                      "baseline, so it may give that token a share): their sum is {total} nats against "
                      "f(x) − f(x′) = {delta} nats (gap {gap}).",
                "zh": "{steps} 步的积分梯度，基线 x′ 保留第一个词元（多数头把权重放在它上面），其余位置为词表的平均嵌入，"
                      "因此第一个词元的积分梯度贡献按构造为 0（梯度×输入没有基线，可能给它一个贡献）：总和为 {total} 奈特，"
                      "而 f(x) − f(x′) = {delta} 奈特（差距 {gap}）。"},
    "why.disagree": {"en": "The two methods disagree in sign on {tokens}: gradient × input reads the slope at the text "
                           "alone, integrated gradients add up the slopes along the whole path from the baseline, so "
                           "they can point opposite ways. The one to trust here is {ref} (chosen by the gap above).",
                     "zh": "两种方法在 {tokens} 上的符号相反：梯度×输入只看文本本身处的斜率，积分梯度把从基线出发的整条路径上的"
                           "斜率加起来，所以两者可能方向相反。这里可信的是{ref}（由上面的差距决定）。"},
    "why.gap_large": {"en": "The gap is more than a tenth: the integral is not to be trusted token by token here, so "
                            "the heads are compared with gradient × input.",
                      "zh": "差距超过十分之一：这里的积分不能逐词元地相信，因此用梯度×输入与头比较。"},
    "why.ref_integrated_gradients": {"en": "integrated gradients", "zh": "积分梯度"},
    "why.ref_gradient_x_input": {"en": "gradient × input", "zh": "梯度×输入"},
    "why.agree": {"en": "Layer {layer}, head {head}: its attention row ranks the text's tokens like {ref} with "
                        "Spearman ρ = {rho} (n = {n}): a {strength} {sign} agreement.",
                  "zh": "第 {layer} 层 第 {head} 头：其注意力行对文本词元的排序与{ref}的 Spearman ρ = {rho}（n = {n}）："
                        "为{strength}的{sign}相关。"},
    "why.agree_value": {"en": "Its value-weighted row (‖α·v‖): ρ = {rho} (n = {n}).",
                        "zh": "其值加权行（‖α·v‖）：ρ = {rho}（n = {n}）。"},
    "why.no_agree": {"en": "Layer {layer}, head {head}: no rank agreement is said — too few tokens (at least {min_n}) "
                           "or values too tied, or no head matters for this word.",
                     "zh": "第 {layer} 层 第 {head} 头：不给出排序一致性——词元太少（至少 {min_n} 个）、数值过于相同，"
                           "或没有哪个头对这个词重要。"},
    "why.strength_strong": {"en": "strong", "zh": "强"},
    "why.strength_moderate": {"en": "moderate", "zh": "中等"},
    "why.strength_weak": {"en": "weak", "zh": "弱"},
    "why.sign_positive": {"en": "positive", "zh": "正"},
    "why.sign_negative": {"en": "negative", "zh": "负"},
}
