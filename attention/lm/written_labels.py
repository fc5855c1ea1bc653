"""How a Writing (lm/writer.py) names its tokens: read together with the tokens around them, so a Chinese
character split over byte-level pieces is written whole in each piece ("人…", "…人"), in the written steps,
the candidates for the next token and any span of the text. Writing sets: tokens, steps and scheme."""

from __future__ import annotations

from dataclasses import replace

from attention.analysis.token_text import pending_bytes, piece_labels, readable
from attention.lm.written import Step


class WrittenLabels:
    tokens: list[str]
    steps: list[Step]
    scheme: str

    _CONTEXT = 6  # tokens read together for labels: a character is at most 4 bytes, so 4 tokens

    def _labels_ending(self) -> list[str]:
        """Labels of the last tokens read together: a Chinese character split over tokens written whole."""
        tail = self.tokens[-self._CONTEXT:]
        return piece_labels(tail) if self.scheme == "bpe" else [readable(t, self.scheme) for t in tail]

    def _relabel(self) -> None:
        """Steps whose character a later token completed get the whole character ("人…", not "⟨e4⟩⟨ba⟩")."""
        labels = self._labels_ending()
        for back in range(1, min(4, len(self.steps), len(labels)) + 1):
            old = self.steps[-back]
            if old.label != labels[-back]:
                self.steps[-back] = replace(old, label=labels[-back])

    def labels(self, start: int, end: int) -> list[str]:
        """Tokens start..end (positions in the whole text) as the page reads them: read together with the
        tokens around them, so a Chinese character split over tokens is written whole in each piece, as
        the written steps show it (a piece a later token completes reads "人…", not "⟨e4⟩⟨ba⟩")."""
        if self.scheme != "bpe":
            return [readable(t, self.scheme) for t in self.tokens[start:end]]
        first = max(0, start - self._CONTEXT)
        return piece_labels(self.tokens[first:end + self._CONTEXT])[start - first:end - first]

    def candidate_label(self, token: str, step: int | None = None) -> str:
        """A candidate for the token after `step` (None: after everything) as the bars show it: a piece
        completing a character the text left unfinished is written as that character ("…国")."""
        if self.scheme != "bpe":
            return readable(token, self.scheme)
        end = len(self.tokens) if step is None else len(self.tokens) - len(self.steps) + step
        return piece_labels([token], before=pending_bytes(self.tokens[max(0, end - self._CONTEXT):end]))[0]
