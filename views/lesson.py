"""Lesson: the article's argument in eleven steps on the learner's own sentence, with predict-then-reveal;
the last on the model that writes."""

from attention.ui.pages import lesson_page

lesson_page.page()
