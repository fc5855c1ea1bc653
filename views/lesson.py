"""Lesson: the article's argument in ten steps on the learner's own sentence, with predict-then-reveal."""

from attention.ui import lesson_page

lesson_page.page()
