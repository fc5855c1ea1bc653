"""Words of the page frame: navigation between pages, which explanation is open, what a page ranks."""

STRINGS: dict[str, dict[str, str]] = {
    "explain.which": {"en": "Which explanation", "zh": "哪种解释"},
    "relevance.sentence": {"en": "Ranking the heads of {model} on: {text}", "zh": "正在为 {model} 的注意力头排序，句子：{text}"},
}
